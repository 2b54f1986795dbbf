"""Which questions are about now (xaid.memory.recency.about_now), in both languages; what it does to a
ranking is tested through a daemon in test_supersede.py."""

from __future__ import annotations

import pytest

from xaid.memory import recency
from xaid.memory.index import Item
from xaid.memory.pack import About


@pytest.mark.parametrize(
    "query",
    [
        "Which team do I support these days?",
        "What phone do I use?",
        "Where do I work now?",
        "我现在住在哪？",
        "我最近在学什么乐器？",
        "我用什么手机？",
    ],
)
def test_a_question_about_now(query: str) -> None:
    assert recency.about_now(query, past=False)


@pytest.mark.parametrize(
    "query",
    [
        "What did I drive before?",
        "Where was I working last year?",
        "我以前住在哪？",
        "我上次说的那家公司叫什么？",
    ],
)
def test_a_question_about_the_past_keeps_its_history(query: str) -> None:
    assert not recency.about_now(query, past=False)


def test_retrieves_own_reading_of_the_past_wins() -> None:
    assert not recency.about_now("Where do I live?", past=True)


DAY = 86_400_000

# (older statement, newer statement in other words, their cosine): the subject's words agree
# ("meet", 拾光), the newer reads as a change, and the two are too far apart in meaning for the
# pairing by vector (supersede.NEAR).
RETOLD = [
    (
        "book club meets in the back room of the Crown, first monday of the month",
        "the Crown shut down :( we meet in Dev's garage now",
        0.15,
    ),
    ("我们读书会每个月在拾光书店二楼聚", "拾光没了，现在都去老周家，他老婆还给我们做饭", 0.2),
]


def ranked(older: str, newer: str, cosine: float) -> list[int]:
    """The two statements, the older one matched better, reordered for a present question."""
    found = {
        1: Item(1, "mia", "utterance", 1, older, 0),
        2: Item(2, "mia", "utterance", 2, newer, 20 * DAY),
    }
    about = {i: About(0.5, True) for i in found}
    scored = {1: 0.6, 2: 0.4}
    recency.prefer_present("where is it now?", False, scored, found, about, lambda a, b: cosine)
    return sorted(scored, key=lambda i: -scored[i])


@pytest.mark.parametrize(("older", "newer", "cosine"), RETOLD)
def test_a_change_retold_in_other_words_comes_first(older: str, newer: str, cosine: float) -> None:
    assert ranked(older, newer, cosine) == [2, 1]


@pytest.mark.parametrize(("older", "newer", "cosine"), RETOLD)
def test_without_the_retelling_rule_the_older_stayed_first(
    monkeypatch: pytest.MonkeyPatch, older: str, newer: str, cosine: float
) -> None:
    monkeypatch.setattr(recency, "RETELLING", False)
    assert ranked(older, newer, cosine) == [1, 2]


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        # no word of the subject in common ("all", "month" say when and how much)
        ("all my notes live in Notion", "it's all plain markdown in Obsidian now, every month"),
        ("我每个月都去拾光书店", "现在都去老周家吃饭"),
        # words in common, no change: an addition
        ("book club meets at the Crown", "we also meet for a run on sundays"),
        # unrelated by meaning (below recency.RETOLD)
    ],
)
def test_no_agreeing_words_or_no_change_keeps_the_order(older: str, newer: str) -> None:
    assert ranked(older, newer, 0.15) == [1, 2]


def test_statements_unrelated_in_meaning_keep_the_order() -> None:
    older, newer, _ = RETOLD[0]
    assert ranked(older, newer, 0.05) == [1, 2]
