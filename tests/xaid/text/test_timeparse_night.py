"""One definition of a night and of the parts of the day (issue 24 item 2, the sixth pass): the
forget path reads the hours a request names from timeparse, and a night runs on into the small
hours after it ("friday night" holds Saturday 01:00), in both languages."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from xaid.text import timeparse

TS = int(datetime(2026, 11, 25, 14, 0, tzinfo=UTC).timestamp() * 1000)  # a Wednesday, 14:00


@pytest.mark.parametrize(
    ("text", "hours"),
    [
        ("yesterday morning", (5, 12)),
        ("sunday afternoon", (12, 18)),
        ("last tuesday evening", (18, 24)),
        ("昨天上午", (5, 12)),
        ("周日下午", (12, 18)),
        ("上周二晚上", (18, 24)),
        ("yesterday", None),
        ("上周五", None),
    ],
)
def test_a_part_of_the_day_carries_its_hours(text: str, hours: tuple[int, int] | None) -> None:
    refs = timeparse.find_times(text, TS)
    assert len(refs) == 1, refs
    assert refs[0].hours == hours


@pytest.mark.parametrize(
    "text", ["friday night", "the other evening", "那天晚上", "周五半夜睡不着", "那晚说的", "昨晚"]
)
def test_night_words_are_named_in_both_languages(text: str) -> None:
    assert timeparse.names_night(text)
    assert not timeparse.names_night(timeparse.without_night(text))


@pytest.mark.parametrize("text", ["sunday afternoon", "周日下午", "this morning", "上周五"])
def test_other_times_name_no_night(text: str) -> None:
    assert not timeparse.names_night(text)


@pytest.mark.parametrize(
    ("hour", "night"),
    [(17, True), (22, True), (0, True), (3, True), (4, False), (9, False), (16, False)],
)
def test_a_night_runs_from_the_evening_into_the_small_hours(hour: int, night: bool) -> None:
    assert timeparse.at_night(hour) is night


def test_a_part_to_midnight_runs_on_into_the_small_hours_and_others_do_not() -> None:
    assert timeparse.in_part(1, (18, 24))  # "tuesday evening" still at 01:00
    assert not timeparse.in_part(1, (12, 18))  # an afternoon does not
    assert timeparse.in_part(15, (12, 18))
    assert not timeparse.in_part(10, (12, 18))
    assert timeparse.NIGHT_FROM_HOUR == 17  # 傍晚, the earliest part of a night
