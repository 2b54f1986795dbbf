"""xaictl demo, the scene `make demo` shows, against a real daemon (the scripted provider stands in
for the LLM: the demo's point is what the daemon gives the model, which is real here)."""

from __future__ import annotations

import datetime as dt

from xaiclient.cli_demo import evening_and_morning

from testkit import xaictl, xaictl_json
from testkit.inproc import InProcessDaemon


def test_the_morning_after_an_exhausted_evening_in_both_languages(daemon: InProcessDaemon) -> None:
    sock = daemon.socket
    for _ in range(2):  # a second run starts afresh: the same scene, not one blurred by the first
        out = xaictl("demo", socket=sock)
        assert out.returncode == 0, out.stderr
    english, chinese = out.stdout.split("=== en:")[1].split("=== zh:")
    for part, morning, ask in (
        (english, "Morning.", "suggestion: Greet them, then ask one caring question"),
        (chinese, "早上好。", "suggestion: 先打招呼，再提起对方之前说的这件事"),
    ):
        evening, _, after = part.partition("the night passes")
        assert "remembered: episode:" in evening and "to ask about" in evening
        assert f"you: {morning}" in after
        assert "recalled:\n" in after and "episode:" in after.split("recalled:")[1]
        assert "mood: valence -" in after  # still low the next morning, decayed
        assert ask in after  # the scheduler's check-in, as a directive in the user's language
    assert "筋疲力尽" in chinese and "exhausted" in english
    for agent in ("demo-en", "demo-zh"):
        sessions = xaictl_json("session", "list", agent, socket=sock)
        assert [s["open"] for s in sessions] == [False, False]


def test_both_days_lie_ahead_of_now() -> None:
    for hour in (0, 7, 21, 22, 23):
        now = dt.datetime(2026, 12, 1, hour, 40).astimezone()
        evening, morning = evening_and_morning(now)
        e, m = dt.datetime.fromtimestamp(evening / 1000), dt.datetime.fromtimestamp(morning / 1000)
        assert evening > now.timestamp() * 1000 and (e.hour, e.minute, m.hour) == (21, 30, 8)
        assert (m.date() - e.date()).days == 1
