"""A lead says back the clause that tells what happened, not the reaction said first
(conversation/reaction.py, checkin.first_content_clause).

The readings are the real ones: the default embedder (USE-multilingual-v3) and the prototypes of
reaction.py. The daemon test goes through a real daemon with real SQLite; the scripted provider
stands in for the model, and what is checked is the lead the daemon composes (``explain``). The
wordings are written for these tests, not taken from the perf/ dev sets.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pytest

from testkit import evening
from testkit.inproc import InProcessDaemon
from xaid.clock import DAY_MS, HOUR_MS
from xaid.conversation import checkin, reaction
from xaid.embed.use import UseEmbedder
from xaid.mood.meaning import Contrast
from xaid.store.recall import RecallItem

DAY0 = 1_764_547_200_000  # Monday 2025-12-01 00:00 UTC

REACTING = ["我真的会谢", "ugh i'm such a clown", "离谱到家了", "can't even right now"]
HAPPENING = ["周五要去拔智齿", "my landlord wants us out by march", "我哥下个月要做心脏搭桥"]


@pytest.fixture(scope="module")
def bank(use_embedder: UseEmbedder) -> Contrast:
    return reaction.BANK.from_vectors(list(np.asarray(use_embedder.embed(reaction.BANK.texts()))))


def _reading(use_embedder: UseEmbedder, bank: Contrast, clauses: list[str]) -> Mapping[str, float]:
    vectors = np.asarray(use_embedder.embed(clauses))
    return {c: bank.lead(v) for c, v in zip(clauses, vectors, strict=True)}


def test_a_reaction_reads_as_one_and_news_does_not(
    use_embedder: UseEmbedder, bank: Contrast
) -> None:
    reading = _reading(use_embedder, bank, REACTING + HAPPENING)
    assert [reaction.reacts(reading, c) for c in REACTING] == [True] * len(REACTING)
    assert [reaction.reacts(reading, c) for c in HAPPENING] == [False] * len(HAPPENING)


@pytest.mark.parametrize(
    ("clauses", "told"),
    [
        (["我真的会谢", "房东突然让我们下个月搬走"], 1),
        (["ugh i'm such a clown", "forgot my passport at home before the flight"], 1),
        # a first clause that tells something stays first
        (["周五要去拔智齿", "好怕"], 0),
        # and so does a reaction when nothing after it tells what happened
        (["ugh i'm such a clown", "can't even right now"], 0),
        (["离谱到家了", "我真的会谢"], 0),
    ],
)
def test_the_clause_said_back_is_the_one_that_tells(
    use_embedder: UseEmbedder, bank: Contrast, clauses: list[str], told: int
) -> None:
    assert checkin.first_content_clause(clauses, _reading(use_embedder, bank, clauses)) == told
    assert checkin.first_content_clause(clauses) == 0  # nothing read: the first, as before


def _item(scene: str, line: str) -> RecallItem:
    topic = f'现在怎么样了："{line}"'
    return RecallItem(
        1, "mia", 1, topic, (), scene, 0, DAY_MS, 0.8, "pending", 0, None, None, None, None, None
    )


def test_a_feeling_is_itself_what_is_asked_after(use_embedder: UseEmbedder, bank: Contrast) -> None:
    line = "我真的会谢 房东突然让我们下个月搬走"
    reading = _reading(use_embedder, bank, checkin.said_clauses(_item("matter", line)))
    matter = checkin.lead(_item("matter", line), "早。", "zh", None, reading=reading)
    feeling = checkin.lead(_item("emotion", line), "早。", "zh", None, reading=reading)
    assert "房东" in matter and "会谢" not in matter
    assert feeling == checkin.lead(_item("emotion", line), "早。", "zh", None)


@pytest.mark.parametrize(
    ("line", "opener", "named", "not_named"),
    [
        ("我怎么这么倒霉 车被人刮了一道还跑了", "早。", "车被人刮", "倒霉"),
        (
            "ugh I'm such a clown, my landlord is keeping half of my deposit",
            "Morning.",
            "landlord",
            "clown",
        ),
    ],
)
def test_the_daemon_leads_with_what_happened(
    tmp_path: Path, line: str, opener: str, named: str, not_named: str
) -> None:
    with InProcessDaemon(tmp_path / "d") as d, d.client() as c:
        evening.said(c, "a", line, DAY0 + 21 * HOUR_MS)
        at = DAY0 + 2 * DAY_MS + 9 * HOUR_MS
        sid = c.session_open("a", ts=at)["session_id"]
        reply = c.session_send(sid, opener, ts=at, explain=True).finish()
    lead = reply["context"]["lead"]
    assert named in lead and not_named not in lead, lead
