"""A day a thing is moved to is where it now stands, in both languages (issue 24 item 6).

"面试改到15号了" said on the 3rd is the 15th ahead, though its 了 is a past-tense cue that sends a bare
day of the month back to last month; "the interview moved to the 15th" had no reading at all. Moved
earlier ("moved up to the 2nd", 提前到2号) is the nearest such day, so what was done yesterday stays
in the past. The anchor is Wednesday 2025-12-03 20:00 UTC.
"""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from xaid.text.timeparse import find_times

TS = int(datetime(2025, 12, 3, 20, 0, tzinfo=UTC).timestamp() * 1000)


def days(text: str) -> list[str]:
    return [r.date_from.isoformat() for r in find_times(text, TS)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("面试改到15号了", "2025-12-15"),
        ("诊所来电话，补牙推到12号了", "2025-12-12"),
        ("答辩延期到11号了，老师病了", "2025-12-11"),
        ("面试改到周二了", "2025-12-09"),
        ("the interview got moved to the 15th, their panel had a clash", "2025-12-15"),
        ("they pushed my appointment back to the 12th.", "2025-12-12"),
        ("the exam was rescheduled to the 10th because of a room problem", "2025-12-10"),
        ("investors want to do the pitch on the 16th instead", "2025-12-16"),
    ],
)
def test_a_day_moved_to_is_ahead(text: str, expected: str) -> None:
    assert days(text)[0] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("图书馆把面试提前到2号了，昨天已经面完", "2025-12-02"),
        ("the library moved my interview up to the 2nd", "2025-12-02"),
        ("1号就考完了", "2025-12-01"),  # no move: the past tense keeps it past
        ("I got my results on the 1st", "2025-12-01"),
        ("15号那天我已经去过了", "2025-11-15"),
        (
            "I was moved to the ward on the 1st",
            "2025-12-01",
        ),  # something else moved, on its own day
    ],
)
def test_a_day_already_past_stays_past(text: str, expected: str) -> None:
    assert days(text)[0] == expected
    assert date.fromisoformat(expected) <= date(2025, 12, 3)


@pytest.mark.parametrize("text", ["went up to the 5th floor", "for the 3rd time", "换到5号线了"])
def test_what_is_no_day_stays_no_day(text: str) -> None:
    assert days(text) == []
