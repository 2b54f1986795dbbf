"""A loss's check-in names its someone: a grave line that names them only by a pronoun is quoted
after the line of the session that named them (scheduler/someone.py, arm._loss), and the lead says
that line back.

The daemon tests go through a real daemon with real SQLite and the default embedder (the grave line
is read as a loss by meaning); the scripted provider stands in for the model, and what is checked is
the item armed and the lead the daemon composes (``explain``). The wordings are written for these
tests, not taken from the perf/ dev sets.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from testkit import evening
from testkit.inproc import InProcessDaemon
from xaid.clock import DAY_MS, HOUR_MS
from xaid.scheduler import someone

DAY0 = 1_764_547_200_000  # Monday 2025-12-01 00:00 UTC


@pytest.mark.parametrize(
    ("line", "named"),
    [
        ("小陈周三拿活检结果", True),
        ("王阿姨周三下午做手术", True),
        ("Sam gets his biopsy results on wednesday", True),
        ("my sister called", True),
        ("等了两个小时", False),
        ("老是睡不好", False),
        ("Tomorrow is the big day", False),
        ("Honestly so tired", False),
    ],
)
def test_someone_named(line: str, named: bool) -> None:
    assert someone.holds_person(line) is named


@pytest.mark.parametrize(
    ("line", "pronoun_only"),
    [
        ("he keeps saying it's fine but he hasn't slept", True),
        ("她儿子在外地回不来", True),  # her son: whose, still her
        ("他一直说没事，可这几天都没睡好", True),
        ("he and Tom fought again", False),  # someone else is named
        ("Sam gets his results", False),
        ("我今天好累", False),
    ],
)
def test_a_line_that_names_its_someone_by_a_pronoun_only(line: str, pronoun_only: bool) -> None:
    assert someone.leads_with_pronoun(line) is pronoun_only


@pytest.mark.parametrize(
    ("lines", "opener", "quoted", "led"),
    [
        (
            [
                "My brother Theo has his heart scan on thursday",
                "he hasn't slept in days, he's terrified it's something bad",
            ],
            "Morning.",
            "My brother Theo",
            "your brother Theo has his heart scan",
        ),
        (
            ["老刘下周二做胃镜", "他一个人在医院哭了一晚上"],
            "早。",
            "老刘下周二做胃镜",
            "老刘做胃镜",
        ),
    ],
)
def test_a_loss_told_by_a_pronoun_is_quoted_after_whom_it_is_about(
    tmp_path: Path, lines: list[str], opener: str, quoted: str, led: str
) -> None:
    with InProcessDaemon(tmp_path / "d") as d, d.client() as c:
        evening.told(c, "a", lines, DAY0 + 21 * HOUR_MS)
        items = c.call("scheduler.list", agent_id="a", states=["pending"])["items"]
        at = DAY0 + DAY_MS + 9 * HOUR_MS
        sid = c.session_open("a", ts=at)["session_id"]
        reply = c.session_send(sid, opener, ts=at, explain=True).finish()
    loss = [i["topic"] for i in items if i["scene"] == "loss"]
    assert len(loss) == 1 and quoted in loss[0] and lines[1][:6] in loss[0], loss
    assert led in reply["context"]["lead"], reply["context"]["lead"]
