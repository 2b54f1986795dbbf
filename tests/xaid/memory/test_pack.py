"""pack.fill's shortcuts change nothing but its cost: a turn that could not fit is not worked out,
and the lines worked out at start-up are the ones a search would make.

Unit tests on records (``pack.fill`` takes ranked items and returns hits), and one restart of a real
daemon in process (real socket, real SQLite, real embeddings; no model involved) for ``pack.warm``.
The search around packing is tested end to end in test_pack_fill.py and test_retrieve.py.
"""

from __future__ import annotations

import datetime as dt
import time
import uuid
from collections import Counter
from pathlib import Path

import pytest

from testkit.inproc import InProcessDaemon
from xaid.memory import index, pack, shown
from xaid.memory.pack import About
from xaid.text import tokens

from . import warmed

DAY = 86_400_000
START = int(dt.datetime(2025, 9, 30, 20, 0, tzinfo=dt.UTC).timestamp() * 1000)

LINES = [
    ("user", None, "ok"),
    ("assistant", None, "好"),
    ("user", "Caroline", "I went to the LGBTQ support group yesterday, it was powerful."),
    ("assistant", "小暖", "明天下午三点我们去看电影吧，记得带伞。"),
    ("user", "建国", "嗯"),
    ("user", "Q", "?"),
    ("assistant", "Mia", "Try The Midnight Library — 2 chapters a night."),
    ("user", None, "我昨天跑了5公里 and felt great"),
]


@pytest.mark.parametrize(("role", "speaker", "text"), LINES)
@pytest.mark.parametrize("days", [0, 40, 100, 250, 3000])
def test_a_turns_least_cost_is_never_above_its_real_cost(
    role: str, speaker: str | None, text: str, days: int
) -> None:
    """The bound fill skips turns by must hold for every line, in English and Chinese, any date
    (September is the longest month name, May the shortest) and any speaker."""
    ts = START + days * DAY
    item = index.Item(1, "a", "utterance", 1, text, ts)
    _, alone = pack._turn(item, About(0.5, True, role, speaker), 1.0, frozenset(), None, None)
    assert pack._least_line(role, speaker, {}) <= alone


def _ranked(n: int) -> list[tuple[index.Item, About, float]]:
    """``n`` turns of separate conversations (no turn follows another), best first, in both languages."""
    out = []
    for i in range(n):
        text = (
            f"day {i}: we talked about the garden again"
            if i % 2
            else f"第{i}天：我们又聊了花园的事"
        )
        item = index.Item(100 + i, "a", "utterance", 1000 + 10 * i, text, START + i * DAY)
        out.append((item, About(0.5, True, "user", None, (f"r{i}",), None), 1.0 - i / 1000))
    return out


def test_once_the_budget_is_full_later_turns_are_not_worked_out() -> None:
    """40 candidates, a budget that holds about five: the rest are skipped without their lines
    being made (the memo holds only what was worked out); what is chosen stays the best that fit."""
    ranked = _ranked(40)
    memo = shown.Memo(0)
    hits, used = pack.fill(ranked, frozenset(), 200, 100, START + 50 * DAY, 0, memo)
    assert 3 <= len(hits) <= 6 and used <= 100
    assert [h.id for h in hits] == [1000 + 10 * i for i in range(len(hits))]
    assert len(memo) < 20
    # the same choice as with every candidate worked out: a budget far larger, cut to the same length
    every = [h for h in pack.fill(ranked, frozenset(), 200, 10_000, START + 50 * DAY)[0]]
    kept, total = [], 0
    for h in every:
        cost = tokens.count(h.text)
        if total + cost <= 100:
            kept.append(h.id)
            total += cost
    assert [h.id for h in hits] == kept


TURNS = [
    ("user", "Yesterday I went climbing with Dario and hurt my wrist."),
    ("assistant", "Oh no! Did you get the wrist checked at the clinic?"),
    ("user", "昨天和建国去爬山了，手腕扭伤了。"),
    ("assistant", "啊，要不要去医院看看手腕？下周三复查吧。"),
]


def test_lines_worked_out_at_start_up_are_the_ones_a_search_makes(tmp_path: Path) -> None:
    """After a restart the daemon works out its agents' lines (turns, episodes, facts) before any
    search asks, in both languages, and a search then returns exactly what it returned before the
    restart."""
    agent = f"mia-{uuid.uuid4().hex[:8]}"
    daemon = InProcessDaemon(tmp_path / "d")
    daemon.start()
    try:
        with daemon.client() as c:
            c.agent_create(agent)
            warmed.give_days(c, agent, TURNS, 6)
            queries = ["What happened to my wrist?", "我的手腕怎么了？"]
            before = [warmed.search(c, agent, q) for q in queries]
        daemon.stop()
        assert (
            sum(m.lines() for m in warmed.open_memos(agent)) == 0
        )  # the daemon's connection, and its lines, are gone
        daemon.start()
        items = Counter(kind for _, kind, _ in warmed.items(daemon.db_path, agent))
        assert items["utterance"] == len(TURNS) * 6 and items["episode"] == 6
        deadline = time.monotonic() + 60
        while (
            sum(m.lines() for m in warmed.open_memos(agent)) < sum(items.values())
            and time.monotonic() < deadline
        ):
            time.sleep(0.05)
        # every turn's line, and every episode's and fact's, before any search
        assert sum(m.lines() for m in warmed.open_memos(agent)) == sum(items.values())
        with daemon.client() as c:
            assert [warmed.search(c, agent, q) for q in queries] == before
    finally:
        daemon.stop()
