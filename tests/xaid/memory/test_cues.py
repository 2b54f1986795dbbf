"""The days a mention names around its own moment are no topic (cues.without_now), English and
Chinese: today, tonight, tomorrow go, a date further off stays."""

from __future__ import annotations

import pytest

from xaid.memory import cues

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
