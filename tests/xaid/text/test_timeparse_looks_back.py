""" "In N years" that looks back is no date ahead (issue 25): "first date in three years tonight" armed a
follow-up due in three years. After a first, a best or worst, or what has not happened since, the
phrase measures a stretch up to now; a time ahead ("due in 3 months", "we move in two months") is
still read, and Chinese says the stretch with 来 or 没, which never read as a date."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from xaid.text import timeparse

TS = int(datetime(2025, 12, 1, 21, 0, tzinfo=UTC).timestamp() * 1000)  # a Monday, 21:00


def ahead(text: str) -> list[str]:
    return [r.text for r in timeparse.find_times(text, TS) if r.direction == "future"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("first date in three years tonight", []),
        ("the best night's sleep I've had in weeks", []),
        ("haven't been on a plane in 5 years and I fly tomorrow", ["tomorrow"]),
        ("Sunday is my first race in two years", ["Sunday"]),
        ("三年来第一次约会，就在今晚", []),
        ("好几个月没见了，明天去看她", ["明天"]),
        # ahead, as before
        ("the first payment is due in 3 months", ["in 3 months"]),
        ("we move in two months", ["in two months"]),
        ("两个月后搬家", ["两个月后"]),
    ],
)
def test_a_stretch_looked_back_on_is_not_a_date_ahead(text: str, expected: list[str]) -> None:
    assert ahead(text) == expected
