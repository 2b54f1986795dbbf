"""--ts and --at: the forms a person types for "when", read against a fixed now, and on the wire."""

from __future__ import annotations

import datetime as dt

import pytest
from xaiclient.cli_time import parse_when
from xaiclient.wire import XaiError

from testkit import xaictl_json
from testkit.inproc import InProcessDaemon

ZONE = dt.timezone(dt.timedelta(hours=1))
NOW = dt.datetime(2026, 12, 1, 22, 15, 30, tzinfo=ZONE)


def ms(year: int, month: int, day: int, hour: int = 0, minute: int = 0, second: int = 0) -> int:
    return int(dt.datetime(year, month, day, hour, minute, second, tzinfo=ZONE).timestamp() * 1000)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1767430800000", 1767430800000),
        ("now", ms(2026, 12, 1, 22, 15, 30)),
        ("tomorrow 08:00", ms(2026, 12, 2, 8, 0)),
        ("明天 8:00", ms(2026, 12, 2, 8, 0)),
        ("yesterday 21:30", ms(2026, 11, 30, 21, 30)),
        ("昨天 21：30", ms(2026, 11, 30, 21, 30)),
        ("07:45", ms(2026, 12, 1, 7, 45)),
        ("+8h", ms(2026, 12, 2, 6, 15, 30)),
        ("+1d8h30m", ms(2026, 12, 3, 6, 45, 30)),
        ("-90s", ms(2026, 12, 1, 22, 14, 0)),
        ("2026-12-02T08:00+01:00", ms(2026, 12, 2, 8, 0)),
    ],
)
def test_forms(text: str, expected: int) -> None:
    assert parse_when(text, now=lambda: NOW) == expected


def test_naive_iso_is_local_time() -> None:
    local = dt.datetime(2026, 12, 2, 8, 0).astimezone()
    assert parse_when("2026-12-02 08:00") == int(local.timestamp() * 1000)


@pytest.mark.parametrize(
    "text", ["tomorrow at 8", "25:00", "next week", "+8x", "tomorrow 08:00 pm", ""]
)
def test_unreadable_times_say_which_forms_work(text: str) -> None:
    with pytest.raises(XaiError) as caught:
        parse_when(text, now=lambda: NOW)
    assert caught.value.code == "bad_params" and "tomorrow 08:00" in caught.value.message


def test_at_and_ts_reach_the_daemon(daemon: InProcessDaemon) -> None:
    sock = daemon.socket
    xaictl_json("agent", "create", "mia", socket=sock)
    opened = xaictl_json("session", "open", "mia", "--ts", "2026-12-01T21:30:00+00:00", socket=sock)
    assert opened["opened_ms"] == ms(2026, 12, 1, 22, 30)
    sent = xaictl_json(
        "send",
        "mia",
        "I'm off to bed",
        "--session",
        opened["session_id"],
        "--ts",
        str(opened["opened_ms"] + 60_000),
        socket=sock,
    )
    later = xaictl_json(
        "send", "mia", "--new", "Morning.", "--at", "2026-12-02T08:00:00+00:00", socket=sock
    )
    assert later["session_id"] != sent["session_id"]
    history = xaictl_json("session", "history", later["session_id"], socket=sock)
    assert history[0]["ts"] == ms(2026, 12, 2, 9, 0)
    first = xaictl_json("session", "history", opened["session_id"], socket=sock)
    assert first[0]["ts"] == opened["opened_ms"] + 60_000


def test_chat_at_runs_its_clock_from_that_time(daemon: InProcessDaemon) -> None:
    from testkit import xaictl

    sock = daemon.socket
    xaictl_json("agent", "create", "mia", socket=sock)
    out = xaictl(
        "chat",
        "mia",
        "--no-history",
        "--at",
        "2026-12-02T08:00:00+00:00",
        socket=sock,
        stdin="Morning.\n/quit\n",
    )
    assert out.returncode == 0, out.stderr
    (session,) = xaictl_json("session", "list", "mia", socket=sock)
    said = xaictl_json("session", "history", session["session_id"], socket=sock)[0]
    target = ms(2026, 12, 2, 9, 0)
    assert (
        target <= session["opened_ms"] <= said["ts"] < target + 60_000
    )  # the replayed morning, not today
