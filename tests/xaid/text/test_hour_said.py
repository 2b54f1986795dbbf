"""The hour something is said to happen at (xaid/text/hour_said.py), in both languages: what the
scheduler turns "are you ready?" into "how did it go?" by (scheduler/arm.py, ``over_at``)."""

from __future__ import annotations

import pytest

from xaid.text.hour_said import hour_of, without_leading_hour


@pytest.mark.parametrize(
    ("text", "hour"),
    [
        ("interview at the council tomorrow at 9:30", 9.5),
        ("driving test tomorrow at 2. third attempt", 14.0),  # a bare 2 is the afternoon's
        ("pitching to the board at 10 tomorrow", 10.0),
        ("flight's at 7pm", 19.0),
        ("dentist 8.30am tomorrow", 8.5),
        ("we're meeting at ten", 10.0),
        ("presenting first thing tomorrow", 8.0),
        ("lunch with dad at noon", 12.0),
        ("mum's getting her knee replaced tomorrow morning, driving her to St. Mary's at 6", 6.0),
        ("flight at 5:40 tomorrow morning", 5 + 40 / 60),
        ("明天上午十点去银行面试", 10.0),
        ("明天下午两点考科目三", 14.0),
        ("晚上7点半吃饭", 19.5),
        ("周五三点半开会", 15.5),
        ("中午一点见客户", 13.0),
        ("明天一早去拔智齿", 8.0),
    ],
)
def test_the_hour_said_is_read(text: str, hour: float | None) -> None:
    assert hour_of(text) == hour


@pytest.mark.parametrize(
    "text",
    [
        "I have 2 kids and 3 cats",
        "she turned 5 years old at 5 years",
        "rated it at 3.5 stars",
        "好一点了，明天早一点睡",  # 一点 is "a little"
        "差一点就迟到了",
        "明天去面试",
    ],
)
def test_no_hour_is_read_where_none_is_said(text: str) -> None:
    assert hour_of(text) is None


@pytest.mark.parametrize(
    ("text", "left"),
    [
        ("十点去银行面试", "去银行面试"),  # when it was to happen: aside another day
        ("下午两点考科目三", "考科目三"),
        ("加班到十二点", "加班到十二点"),  # later in the clause, the hour is what it says
        ("每天都是三四点才睡着", "每天都是三四点才睡着"),
        ("好一点了", "好一点了"),  # 一点 is "a little"
        ("早点睡", "早点睡"),
    ],
)
def test_only_the_hour_a_clause_starts_with_is_cut(text: str, left: str) -> None:
    """checkin.matter_name says a clause back another day: "十点" of "十点去银行面试" is aside, but
    cut from "加班到十二点" it left "加班到"."""
    assert without_leading_hour(text) == left
