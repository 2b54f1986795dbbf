"""pack.fill's shortcuts change nothing but its cost: a turn that could not fit is not worked out.

Unit tests on records (no database: ``pack.fill`` takes ranked items and returns hits); the search
around it is tested end to end in test_pack_fill.py and test_retrieve.py.
"""

from __future__ import annotations

import datetime as dt

import pytest

from xaid.memory import index, pack, shown
from xaid.memory.pack import About
from xaid.text import tokens

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
