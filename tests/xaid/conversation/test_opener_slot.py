"""A session that opens with a greeting reads no memory slot before its first word: what it recalled
is held back and shown before the user's next message (memory.hold_for_openers, issue 28 item 4).
A first message with content keeps the whole block.

A real daemon, database and embedder (the opener is read by meaning as in conversation/opener.py);
the scripted provider stands in for the model, and what is checked is the context the daemon builds
for it (``explain``), in English and in Chinese.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from testkit.inproc import InProcessDaemon
from xaid.memory import retrieve
from xaid.text import tokens

T0 = 1_764_579_600_000  # a morning, 09:00 UTC
MINUTE = 60_000
DAY = 24 * 60 * MINUTE

# Six evenings of talk in the last week, each its own episode: more than the head's standing block
# holds, so an opener recalls episodes beyond it.
DAYS = [
    [
        "My sister Lin is getting married in June and I still have no idea what to give her.",
        "She loves old film cameras and hiking in the mountains near Hangzhou.",
    ],
    [
        "我最近项目搞崩了，客户周四要开会，压力好大。",
        "预算的幻灯片还没做完，老板又加了任务。",
    ],
    [
        "My cat Mochi has been sick, the vet said it's a kidney thing and put her on a special diet.",
        "The vet is Dr Okafor at the clinic on Harrow Road, she was really kind about it.",
    ],
    [
        "周末想去海边游泳，不过天气预报说会下雨，可能改去爬山。",
        "我报了一个陶艺课，每周三晚上，老师姓高。",
    ],
    [
        "Started reading The Overstory for book club, it's slow but beautiful.",
        "We meet at Priya's flat on the last Sunday of the month.",
    ],
    [
        "今天面试了一家做无人机的公司，二面在下周一。",
        "面试官问了很多关于嵌入式的问题，我有点紧张。",
    ],
]
OPENER = {"en": "morning :)", "zh": "早呀"}
NEXT = {
    "en": "what did the vet say about Mochi again?",
    "zh": "我那个陶艺课是周几来着？",
}
CONTENT = {
    "en": "Morning! Which vet did I take Mochi to, the one on Harrow Road?",
    "zh": "早，陶艺课的老师姓什么来着？",
}


def _ingest(c: Any, agent: str) -> None:
    for n, lines in enumerate(DAYS):
        start = T0 - (len(DAYS) - n) * DAY + 12 * 60 * MINUTE  # 21:00 the evenings before
        sid = c.session_open(agent, ts=start)["session_id"]
        c.session_ingest(
            sid,
            [
                {"role": "user", "text": text, "ts": start + i * MINUTE}
                for i, text in enumerate(lines)
            ],
        )
        c.session_close(sid, ts=start + len(lines) * MINUTE, wait=True)


def _slot_tokens(context: dict[str, Any]) -> int:
    lines = [m["text"] for m in context["memories_new"]]
    if not lines:
        return 0
    return retrieve.header_tokens(context["lang"], True) + sum(
        tokens.count(t) + retrieve.LINE_TOKENS for t in lines
    )


def _keys(memories: list[dict[str, Any]]) -> set[tuple[str, int]]:
    return {(m["kind"], m["id"]) for m in memories}


def _session(root: Path, env: dict[str, str], first: str, then: str | None) -> list[dict[str, Any]]:
    """The contexts of a new session's turns (``first``, then ``then``) on the week's history."""
    with InProcessDaemon(root, env=env) as proc, proc.client() as c:
        c.agent_create("mia", name="Mia", persona_init="Warm, curious, a little teasing.")
        _ingest(c, "mia")
        sid = c.session_open("mia", ts=T0)["session_id"]
        out = [c.session_send(sid, first, ts=T0, explain=True).finish()["context"]]
        if then is not None:
            out.append(c.session_send(sid, then, ts=T0 + MINUTE, explain=True).finish()["context"])
        return out


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_opener_reads_no_slot_and_its_memories_come_before_the_next_message(
    tmp_path: Path, lang: str
) -> None:
    held, then = _session(tmp_path / "held", {}, OPENER[lang], NEXT[lang])
    whole, whole_then = _session(
        tmp_path / "whole", {"XAID_MEMORY_HOLD_FOR_OPENERS": "false"}, OPENER[lang], NEXT[lang]
    )
    # main's way: the opener's whole block (episodes past the standing block) before its first word
    assert _slot_tokens(whole) > 3 * retrieve.LINE_TOKENS and not whole["memories_held"]
    # held: nothing before the greeting's first word, and nothing recalled is lost ...
    assert not held["memories_new"]
    assert _keys(held["memories_held"]) == _keys(whole["memories_new"])
    # ... and the head (persona, rules, standing block) is the same: read ahead either way
    assert held["system_prompt"] == whole["system_prompt"]
    # by the next message the session shows all main's did: the held-back lines before it, and
    # what that message asks (a later turn's share, as after an opener that showed its block)
    shown = _keys(held["memories_held"]) | _keys(then["memories_new"])
    assert _keys(whole["memories_new"]) | _keys(whole_then["memories_new"]) <= shown


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_first_message_with_content_keeps_the_whole_block(tmp_path: Path, lang: str) -> None:
    (held,) = _session(tmp_path / "held", {}, CONTENT[lang], None)
    (whole,) = _session(
        tmp_path / "whole", {"XAID_MEMORY_HOLD_FOR_OPENERS": "false"}, CONTENT[lang], None
    )
    assert held["memories_new"] and not held["memories_held"]
    assert held["memories_new"] == whole["memories_new"]
