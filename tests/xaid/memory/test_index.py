"""Keyword search over the FTS5 indexes: Chinese and English, common words, bounded work."""

from __future__ import annotations

import apsw
import pytest

from xaid.memory import index
from xaid.store.db import Database

from . import lines


def test_chinese_words_of_two_and_three_characters_are_found(db: Database) -> None:
    ids = lines.add(
        db,
        "a",
        ["用户下周去上海见客户。", "The user met Anna at the 咖啡馆 in Kyoto.", "用户喜欢猫。"],
    )
    assert [i for i, _ in db.call(index.keyword, "a", "上海", 5)] == [ids[0]]
    assert [i for i, _ in db.call(index.keyword, "a", "那家咖啡馆", 5)] == [ids[1]]
    assert [i for i, _ in db.call(index.keyword, "a", "kyoto", 5)] == [ids[1]]
    assert db.call(index.keyword, "b", "上海", 5) == []  # another agent's memories are not searched
    # the trigram index holds Chinese runs only: no Latin trigram of "Kyoto" is in it
    latin = "SELECT count(*) FROM memory_fts_cjk_terms WHERE term = 'kyo'"
    assert db.call(lambda c: c.execute(latin).fetchone()[0]) == 0


@pytest.mark.parametrize(
    ("said", "other", "mention"),
    [
        ("3月22号我弟结婚，我当伴郎", "3月15号要交房租", "3月22号眼看就到了"),
        ("4月2日是我的教资面试", "4月20号公司团建", "4月2号越来越近了"),
        (
            "march 22nd my brother's getting married, i'm best man",
            "rent's due march 15th",
            "march 22nd is so close",
        ),
    ],
)
def test_a_date_in_digits_is_found_by_keyword(
    db: Database, said: str, other: str, mention: str
) -> None:
    """A date written in digits is found by the day it names, in Chinese ("22号", "2日" as "2号") as
    in English; another day of the same month ranks below it."""
    ids = lines.add(db, "a", [said, other, "今天好累 so tired today"])
    found = [i for i, _ in db.call(index.keyword, "a", mention, 5)]
    assert found[0] == ids[0], found


def test_a_word_in_too_many_memories_does_not_crowd_out_a_rare_one(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(index, "COMMON_DOCS", 20)
    monkeypatch.setattr(index, "KEYWORD_SCAN", 10)
    old = lines.add(db, "a", ["My sister Anna lives in Kyoto.", "我妹妹安娜住在京都。"])
    lines.add(db, "a", [f"Friend number {i} lives nearby. 朋友{i}住在附近。" for i in range(60)])
    found = [i for i, _ in db.call(index.keyword, "a", "Where does Anna live now? lives", 5)]
    assert found[0] == old[0]  # older than 60 matches of "lives", still found through "anna"
    found = [i for i, _ in db.call(index.keyword, "a", "安娜住在哪里", 5)]
    assert found[0] == old[1]
    # only common words asked for: the newest KEYWORD_SCAN matches are ranked, nothing fails
    assert 0 < len(db.call(index.keyword, "a", "lives", 50)) <= 10


def test_deleted_memories_leave_the_keyword_indexes(db: Database) -> None:
    lines.add(db, "a", ["用户在腾讯工作。 The user works at Tencent."])
    db.call(index.remove_agent, "a")
    assert db.call(index.keyword, "a", "腾讯 tencent", 5) == []
    for table in ("memory_fts_terms", "memory_fts_cjk_terms", "memory_fts_bigram_terms"):
        assert db.call(lambda c, t=table: c.execute(f"SELECT count(*) FROM {t}").fetchone()[0]) == 0


def test_a_vector_table_full_of_holes_is_rewritten_with_its_live_vectors(db: Database) -> None:
    """sqlite-vec frees a chunk only when all its vectors are gone: memories that leave at different
    times leave holes, and compaction packs what is alive without changing any search."""
    import numpy as np

    rng = np.random.default_rng(5)
    rows = rng.normal(size=(3000, 16)).astype(np.float32)
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)
    db.call(index.ensure_vector_table, 16, "test-model")
    ids = db.call(
        lambda c: [
            index.add(c, "a", "fact", next(lines.SOURCE), f"m{i}", 0, rows[i]) for i in range(3000)
        ]
    )
    gone = [
        item for n, item in enumerate(ids) if n % 4
    ]  # three in four leave, one in every chunk stays
    db.call(lambda c: index.remove_vectors(c, "a", gone))
    kept = {item: n for n, item in enumerate(ids) if not n % 4}
    query = rows[8] + 0.1 * rows[12]
    before = db.call(index.knn, "a", query, 10)
    slots = "SELECT sum(size) FROM memory_vectors_chunks"
    assert (
        db.call(lambda c: c.execute(slots).fetchone()[0]) >= 3000
    )  # the holes still take their room
    assert db.call(index.compact_vectors) > 0
    assert db.call(lambda c: c.execute(slots).fetchone()[0]) < 2 * len(kept)
    assert db.call(index.knn, "a", query, 10) == before and all(i in kept for i, _ in before)
    assert db.call(index.compact_vectors) == 0  # nothing left to give back


def test_english_words_match_by_their_stems(db: Database) -> None:
    ids = lines.add(
        db,
        "a",
        ["You could try reading The Midnight Library.", "It symbolizes love, faith and strength."],
    )
    assert [
        i for i, _ in db.call(index.keyword, "a", "which book did you recommend I read", 5)
    ] == [ids[0]]
    assert [i for i, _ in db.call(index.keyword, "a", "what does it symbolize", 5)] == [ids[1]]


@pytest.mark.parametrize(
    ("text", "opener"),
    [
        ("hey, good morning!!", True),
        ("Morning :)", True),
        ("hi there, I'm back again", True),
        ("What's up? How are you", True),
        ("早安～", True),
        ("在吗？我回来了", True),
        ("早上好呀", True),
        # A greeting inside a word, or beside something said, is no opener.
        ("this weather though", False),
        ("they're moving in tomorrow", False),
        ("morning run was brutal", False),
        ("hi, my sister is visiting", False),
        ("早上去跑步了，好累", False),
        ("你好，我妈明天来看我", False),
    ],
)
def test_an_opener_is_greetings_and_nothing_else(text: str, opener: bool) -> None:
    """Greetings are taken out as words of their own (English) or wherever they stand (Chinese);
    what is left says whether the turn has anything to match memories on."""
    assert index.is_opener(text) is opener


def test_warming_the_hubness_measures_every_vector_of_that_agent_only(db: Database) -> None:
    """At start-up the daemon measures each agent's hubness a chunk per call (so that requests
    interleave), so that the first searches find it kept instead of measuring their candidates."""
    import numpy as np

    from xaid.memory import hubs

    rng = np.random.default_rng(7)
    rows = rng.normal(size=(650, 16)).astype(np.float32)
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)
    db.call(index.ensure_vector_table, 16, "test-model")
    mine = db.call(
        lambda c: [
            index.add(c, "a", "fact", next(lines.SOURCE), f"m{i}", 0, rows[i]) for i in range(600)
        ]
    )
    db.call(
        lambda c: [
            index.add(c, "b", "fact", next(lines.SOURCE), f"o{i}", 0, rows[600 + i])
            for i in range(50)
        ]
    )

    def warm(c: apsw.Connection, agent_id: str) -> int:
        start: int | None = 0
        calls = 0
        while start is not None:
            start = index.warm_hubs(c, agent_id, 16, start)
            calls += 1
        return calls

    assert db.call(warm, "a") == -(-600 // hubs.WARM_ROWS)

    def held(c: apsw.Connection, agent_id: str) -> set[int]:
        near = index.vectors_of(c, agent_id, 16)
        assert near is not None
        return set(near.hubs)

    assert db.call(held, "a") == {-1, *mine}
    assert db.call(held, "b") == set()
    assert db.call(warm, "nobody") == 1  # an agent without vectors: nothing to do
