"""The user's time zone: which calendar day "tomorrow" and "yesterday" fall on."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from xaid import clock
from xaid.config import ConfigError, load
from xaid.memory import retrieve
from xaid.text.timeparse import find_times

SHANGHAI = ZoneInfo("Asia/Shanghai")
# 07:30 on Tuesday 2026-03-03 in Shanghai is still Monday 2026-03-02 in UTC
MORNING = int(datetime(2026, 3, 3, 7, 30, tzinfo=SHANGHAI).timestamp() * 1000)


@pytest.fixture
def in_shanghai() -> Iterator[None]:
    clock.set_zone("Asia/Shanghai")
    yield
    clock.set_zone("UTC")


def test_zone_names_resolve_and_bad_ones_are_refused() -> None:
    assert clock.resolve_zone("Asia/Shanghai") == SHANGHAI
    assert clock.resolve_zone("") is not None  # this machine's own
    with pytest.raises(ValueError, match="Mars/Olympus"):
        clock.resolve_zone("Mars/Olympus")


def test_a_bad_zone_in_the_config_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "xaid.toml"
    path.write_text('[memory]\ntimezone = "Mars/Olympus"\n')
    with pytest.raises(ConfigError, match=r"memory\.timezone.*Mars/Olympus"):
        load(str(path))


def test_tomorrow_is_a_day_of_the_users_calendar(in_shanghai: None) -> None:
    for text in ("I have a dentist appointment tomorrow at 4pm.", "我明天下午四点看牙医。"):
        (ref,) = find_times(text, MORNING)
        assert ref.date_from == date(2026, 3, 4), text
    (ref,) = find_times("I have a dentist appointment tomorrow at 4pm.", MORNING, UTC)
    assert ref.date_from == date(2026, 3, 3)  # what UTC would have said: a day early


def test_yesterday_in_words_counts_the_users_days(in_shanghai: None) -> None:
    last_night = int(datetime(2026, 3, 2, 23, 0, tzinfo=SHANGHAI).timestamp() * 1000)
    assert retrieve.ago(last_night, MORNING) == "yesterday"  # both Monday 15:00 / 23:30 in UTC
    clock.set_zone("UTC")
    assert retrieve.ago(last_night, MORNING) == "earlier today"
