"""The days a mention names around its own moment are no topic (cues.without_now), English and
Chinese: today, tonight, tomorrow go, a date further off stays."""

from __future__ import annotations

import pytest

from xaid.memory import cues, recency

NOW = 1_764_536_400_000 + 12 * 3_600_000  # Monday 1 December 2025, 00:00 UTC + 12 h


@pytest.mark.parametrize(
    ("text", "left"),
    [
        ("阿凯今天被老板骂了", "阿凯 被老板骂了"),
        ("明天约了飞盘", "约了飞盘"),
        ("今晚又要去泳池了", "又要去泳池了"),
        ("Priya rang me today, she sounded stressed", "Priya rang me , she sounded stressed"),
        ("pottery tonight, wish me luck", "pottery , wish me luck"),
        ("early row tomorrow, 6am ugh", "early row , 6am ugh"),
    ],
)
def test_the_days_around_now_are_left_out(text: str, left: str) -> None:
    assert cues.without_now(text, NOW) == left


@pytest.mark.parametrize(
    "text",
    [
        "3月22号眼看就到了",
        "清明快到了",
        "下个月回成都参加婚礼",
        "march 22nd is so close",
        "next month i fly to Lisbon",
    ],
)
def test_a_day_further_off_is_what_the_message_is_about(text: str) -> None:
    assert cues.without_now(text, NOW) == text


@pytest.mark.parametrize("text", ["今天", "today!", "tonight?"])
def test_a_message_of_nothing_but_the_day_keeps_it(text: str) -> None:
    assert cues.without_now(text, NOW) == text


NOW = 1_765_200_000_000  # 2025-12-08, a Monday


@pytest.mark.parametrize(
    "query",
    [
        "need a haircut before saturday, who cuts my hair?",
        "before next friday, which dentist do I see?",
        "周六之前得剪个头，我在哪剪头发？",
        "下周三之前要交材料，我在哪家银行开的户？",
    ],
)
def test_a_deadline_ahead_is_no_question_about_the_past(query: str) -> None:
    asked = cues.read(query, NOW)
    assert not asked.past
    assert recency.about_now(asked.tensed, asked.past)


@pytest.mark.parametrize(
    "query",
    ["where did I get my hair cut before?", "我以前在哪剪头发？", "之前我在哪家银行开的户？"],
)
def test_before_on_its_own_still_asks_about_the_past(query: str) -> None:
    assert cues.read(query, NOW).past
