"""Which questions are about now (xaid.memory.recency.about_now), in both languages; what it does to a
ranking is tested through a daemon in test_supersede.py."""

from __future__ import annotations

import pytest

from xaid.memory import recency


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
