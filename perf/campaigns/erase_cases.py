"""Cases of the hardening area for issue 22's privacy and data-loss items, run by
``python -m perf hardening`` beside the cases of issue 14 (perf/campaigns/hardening.py lists them).

Each round puts a word where the third attack found it surviving (a tool call's arguments, the
scheduler's keywords, a speaker's name, the -wal file after ``agent.delete``), takes one of the
forget paths (``memory.forget`` by query or all, a request in conversation in one of the Chinese
frames of items 4 and 5, ``agent.delete``), and counts the rounds where the word is still in the
database or -wal bytes. A second case imports an agent's export into a fresh agent and exports it
again, counting highlights, facts, follow-ups and moods lost (item 11); it starts with a forget
{all} on an agent whose memories came by import alone, in a database without one message (item 1).
"""

from __future__ import annotations

import collections
import json
import time
from pathlib import Path

from xaiclient import Client, XaiError

from testkit import DaemonProcess

from ..kit import DAY, Outcome, fmt_counts, running, scratch

WORDS = ("Zorblax", "阿飞", "quillwort", "桂花糕")
PATHS = ("forget query", "chat request", "forget all", "agent.delete")
CHAT = (
    "请你忘掉关于{w}的事",
    "忘了关于{w}的事吧",
    "请删掉关于{w}的记录",
    "forget what I told you about {w}",
)
TOOL = {"name": "lookup", "description": "Look a name up", "parameters": {"type": "object"}}


def _in_files(d: DaemonProcess, word: str) -> bool:
    needle = word.encode("utf-8")
    wal = Path(str(d.db_path) + "-wal")
    return needle in d.db_path.read_bytes() or (wal.exists() and needle in wal.read_bytes())


def _plant(c: Client, agent: str, word: str) -> str:
    """The word in a turn, a tool call's arguments, a speaker's name and a follow-up's keywords."""
    c.agent_create(agent, config={"tools": [TOOL]})
    sid = str(c.session_open(agent)["session_id"])
    c.session_send(sid, f"{word} called me again last night.").finish()
    stream = c.session_send(sid, f'[[tool:lookup {{"name": "{word}"}}]]')
    for ev in stream:
        if ev.event == "tool_call":
            c.session_tool_result(sid, ev.data["call_id"], {"found": True})
    c.session_send(sid, "I am tired of it.", speaker=word).finish()
    c.call("scheduler.arm", agent_id=agent, topic="the call", keywords=[word.lower()])
    return sid


def erase_paths(rounds: int) -> Outcome:
    out, codes = Outcome(), collections.Counter[str]()
    left = 0
    with scratch("erase") as root, running(DaemonProcess(root / "d").start()) as d, d.client() as c:
        for r in range(rounds):
            word, how, agent = WORDS[r % len(WORDS)], PATHS[r % len(PATHS)], f"e{r}"
            sid = _plant(c, agent, word)
            try:
                if how == "forget query":
                    c.memory_forget(agent, query=word)
                elif how == "chat request":
                    c.session_send(sid, CHAT[r % len(CHAT)].format(w=word)).finish()
                    c.session_close(sid, wait=True)
                elif how == "forget all":
                    c.memory_forget(agent, all=True)
                else:
                    c.agent_delete(agent)
                codes[how] += 1
            except XaiError as exc:
                codes[f"{how}: {exc.code}"] += 1
            left += _in_files(d, word)
    out.tried(
        "a word in a turn, a tool call, a speaker and a follow-up's keywords, then one forget path "
        "(query, a request in chat, all, agent.delete)",
        rounds,
        "rounds",
        fmt_counts(codes),
    )
    out.lost(
        "erase: the word still in the db or -wal bytes after the forget",
        left,
        "rounds",
        "bytes of xaid.db and xaid.db-wal read after the call (after the close, for a request in chat)",
    )
    return out


def round_trip(rounds: int) -> Outcome:
    out, codes = Outcome(), collections.Counter[str]()
    lost = 0
    with scratch("trip") as root, running(DaemonProcess(root / "d").start()) as d, d.client() as c:
        now = int(time.time() * 1000) - DAY
        c.agent_create("fresh")  # item 1: memories by import alone, no message in the database
        c.memory_import("fresh", facts=[{"text": "The user's cat is called Mochi."}])
        try:
            c.memory_forget("fresh", all=True)
            codes["forget all, no message anywhere"] += 1
        except XaiError as exc:
            codes[f"forget all, no message anywhere: {exc.code}"] += 1
            lost += 1
        for r in range(rounds):
            agent, copy = f"t{r}", f"t{r}copy"
            c.agent_create(agent)
            sid = c.session_open(agent, ts=now + r * 1000)["session_id"]
            lines = (
                ["I work at Globex.", "I'm so exhausted, the project crashed and I cried."]
                if r % 2 == 0
                else ["我在杭州工作。", "今天累死了，项目全崩了，我哭了。"]
            )
            for i, line in enumerate(lines):
                c.session_send(sid, line, ts=now + r * 1000 + i * 10).finish()
            c.session_close(sid, ts=now + r * 1000 + 100, wait=True)
            c.call("scheduler.arm", agent_id=agent, topic="the dentist", ts=now)
            first = c.memory_export(agent)
            c.agent_create(copy)
            c.call(
                "memory.import",
                agent_id=copy,
                files=first["files"],
                facts=first["facts"],
                mood=first["mood"],
                scheduler=first["scheduler"],
            )
            again = c.memory_export(copy)
            codes["round trips"] += 1
            lost += _count(first) - _count(again)
    out.tried(
        "memory.export, import into a fresh agent, export again (and forget {all} on an agent "
        "whose memories came by import, no message in the database)",
        rounds,
        "rounds",
        fmt_counts(codes),
    )
    out.lost(
        "round trip: highlights, facts, follow-ups and moods lost (and a failed forget {all})",
        lost,
        "items",
        "counted in the first export and in the copy's",
    )
    return out


def _count(exported: dict[str, object]) -> int:
    files = exported["files"]
    assert isinstance(files, dict)
    highlights = sum(
        len(json.loads(line).get("highlights", []))
        for text in files.values()
        for line in text.splitlines()
        if line.strip()
    )
    facts = exported["facts"]
    scheduler = exported.get("scheduler") or {}
    assert isinstance(facts, list) and isinstance(scheduler, dict)
    return (
        highlights
        + len(facts)
        + len(scheduler.get("items", []))
        + (exported.get("mood") is not None)
    )
