"""The turns next to a hit: a question is answered by the turn after it even when it says something
first ("ugh, the commute is so long. any podcast I should try?", "歪的碗才有味道！谁教的呀？"), and a
question asked back right after a matched statement comes with its answer. English and Chinese, on
a real database with the default embedder (USE-multilingual-v3), as a turn's recall searches (real
matches only: the answer shares no word with the question and is no match of its own).

Issue 28 (branch recall12): on LoCoMo's train samples (0, 2, 4, 6, 8) the answer after a companion's
"That's great! What did you paint?" never joined its question, since only a turn that does nothing
but ask counted as one; single-hop answer-token recall at 400 tokens 66.9 -> 72.1 % with
``retrieve.ASKS_ANY`` (perf/scenarios/singlehop_dev12.json's train half: 81.2 -> 84.4 %).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from xaid.embed.profiles import USE
from xaid.embed.use import UseEmbedder
from xaid.memory import index, retrieve
from xaid.store import agents
from xaid.store import utterances as utterance_sql
from xaid.store.agents import Agent
from xaid.store.db import Database

DAY = 86_400_000
NOW = 1_767_225_600_000  # 2026-01-01 00:00 UTC

# (the conversation, other turns of the user sharing the question's words, the question, the answer)
ASKED_WITH_AN_ASIDE = [
    (
        [
            ("user", "ugh, the commute is so long now. any podcast I should try?"),
            ("assistant", "Try No Such Thing As A Fish, half an hour of odd facts."),
            ("user", "ha ok, adding it"),
        ],
        [
            "the commute took ninety minutes today",
            "finished my audiobook on the commute",
            "missed the train again on the commute home",
        ],
        "which podcast did you tell me to try on the commute?",
        "No Such Thing As A Fish",
    ),
    (
        [
            ("user", "现在通勤要一个多小时，烦死了，有什么播客推荐吗"),
            ("assistant", "可以听听《忽左忽右》，一期聊一段历史，挺下饭的。"),
            ("user", "好，回头搜一下"),
        ],
        ["今天通勤又堵了一个半小时", "通勤路上把有声书听完了", "通勤回家又没赶上地铁"],
        "你推荐我通勤路上听的是哪个播客？",
        "忽左忽右",
    ),
]
ASKED_BACK = [
    (
        [
            ("user", "so I went to the pottery class tonight, made a wonky bowl lol"),
            ("assistant", "Ha, wonky bowls have character! Who's teaching it?"),
            ("user", "a retired lady called Bernadette, so patient with everyone"),
            ("assistant", "Patience is everything with beginners."),
        ],
        ["the pottery studio by the station shut down", "glazing day at pottery next week"],
        "what's the name of my pottery teacher?",
        "Bernadette",
    ),
    (
        [
            ("user", "今晚去上了陶艺课，捏了个歪歪扭扭的碗哈哈"),
            ("assistant", "歪的碗才有味道！谁教的呀？"),
            ("user", "一个退休的蒋阿姨，对谁都特别有耐心"),
            ("assistant", "初学的时候，耐心最重要。"),
        ],
        ["车站旁边那家陶艺工作室关门了", "下周陶艺课要上釉"],
        "我的陶艺老师姓什么？",
        "蒋阿姨",
    ),
]


@pytest.fixture(scope="module")
def embedder() -> UseEmbedder:
    return UseEmbedder()


def shown(
    tmp_path: Path,
    embedder: UseEmbedder,
    told: list[tuple[str, str]],
    talk: list[str],
    question: str,
) -> list[str]:
    """The texts a turn's recall shows for ``question`` after ``told`` (one conversation, linked
    turn to turn) and ``talk`` (the user's lines on later days)."""
    db = Database(tmp_path / "x.db")
    db.call(agents.insert, Agent("a", "a", "", {}, 0, 0))
    db.call(index.ensure_vector_table, embedder.dim, embedder.name)
    lines = [(role, text, NOW - 30 * DAY + n * 60_000) for n, (role, text) in enumerate(told)]
    lines += [("user", text, NOW - (20 - 2 * n) * DAY) for n, text in enumerate(talk)]
    vectors = embedder.embed([text for _r, text, _ts in lines])

    def fill(conn) -> None:  # type: ignore[no-untyped-def]
        prev = None
        for n, ((role, text, ts), vec) in enumerate(zip(lines, vectors, strict=True)):
            u = utterance_sql.NewUtterance(None, f"r{n}", role, None, text, ts, 0.5)
            uid = utterance_sql.insert(conn, "a", None, None, u, prev if n < len(told) else None)
            index.add(conn, "a", "utterance", uid, text, ts, vec)
            prev = uid

    db.call(fill)
    hits, _tokens = db.call(
        lambda c: retrieve.search(
            c,
            "a",
            question,
            embedder.embed([question])[0],
            NOW,
            k=retrieve.turn_k(400),
            budget_tokens=400,
            recent_days=7,
            touch=False,
            profile=USE,
            fill=False,
        )
    )
    db.close()
    return [h.text for h in hits]


@pytest.mark.parametrize(("told", "talk", "question", "answer"), ASKED_WITH_AN_ASIDE + ASKED_BACK)
def test_a_question_after_a_matched_turn_brings_its_answer(
    tmp_path: Path,
    embedder: UseEmbedder,
    told: list[tuple[str, str]],
    talk: list[str],
    question: str,
    answer: str,
) -> None:
    """A question said after an aside ("Wow, great! What did you paint?") or asked back after a
    matched statement is a question for the neighbour links: its answer comes with it."""
    texts = shown(tmp_path, embedder, told, talk, question)
    assert any(answer in t for t in texts), texts


@pytest.mark.parametrize(("told", "talk", "question", "answer"), ASKED_BACK)
def test_a_statement_with_no_question_after_it_brings_no_neighbour(
    tmp_path: Path,
    embedder: UseEmbedder,
    told: list[tuple[str, str]],
    talk: list[str],
    question: str,
    answer: str,
) -> None:
    """The companion's reply that asks nothing ("Patience is everything…") is no question: the
    statement's next turn alone never joins, so the user's line after it stays out."""
    plain = [told[0], ("assistant", told[3][1]), told[2]]
    texts = shown(tmp_path, embedder, plain, talk, question)
    assert not any(answer in t for t in texts), texts
