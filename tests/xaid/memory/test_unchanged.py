"""Reads remembered while the database is unchanged (xaid/memory/unchanged.py): the keyword
answer a search reads again.

The same results as reading the indexes afresh, in English and Chinese; a search after a write
(on this connection or another) finds the new turn; after a forget, nothing forgotten comes back
and nothing of the agent's is left remembered. A real daemon in process (real socket, real SQLite,
real embeddings) for the searches; the unit tests use a real database of their own. No model.
"""

from __future__ import annotations

import sys
import uuid
from pathlib import Path

import apsw
import pytest
from xaiclient import Client

from xaid.memory import index, unchanged
from xaid.store.db import connect

from .test_rows import DAY, QUERIES, START, _history, _search
from .test_supersede import session

AGENT = f"mia-{uuid.uuid4().hex[:8]}"
# Mixed and colloquial wordings besides test_rows' four questions.
ASKED = [
    *QUERIES,
    "alba... where did she move again, and where's she working",
    "阿芳搬去哪了 and 她在哪儿上班来着",
]


@pytest.fixture(autouse=True)
def _own_agent(monkeypatch: pytest.MonkeyPatch) -> None:
    # ``unchanged.held`` counts every connection of the process: each test has an agent of its own.
    monkeypatch.setattr(sys.modules[__name__], "AGENT", f"mia-{uuid.uuid4().hex[:8]}")


@pytest.fixture
def history(client: Client) -> Client:
    _history(client, AGENT, 3)
    return client


def test_remembered_keywords_give_the_same_results_as_fresh_ones(
    history: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every query (en, zh, mixed) at two budgets read afresh, then filling the memo, then from it."""
    asked = [(q, b) for q in ASKED for b in (1000, 150)]
    with monkeypatch.context() as patch:
        patch.setattr(unchanged, "read", lambda conn, agent_id, key, fetch: fetch())
        fresh = [_search(history, AGENT, q, b) for q, b in asked]
    filling = [_search(history, AGENT, q, b) for q, b in asked]
    assert unchanged.held(AGENT) > 0
    remembered = [_search(history, AGENT, q, b) for q, b in asked]
    assert fresh == filling == remembered
    assert all(fresh)


@pytest.mark.parametrize(
    ("query", "said"),
    [
        ("did I tell you about the kayak race?", "I signed up for the kayak race in June!"),
        ("我跟你说过皮划艇比赛吗？", "我报名了六月的皮划艇比赛！"),
    ],
)
def test_a_search_after_a_write_finds_the_new_turn(history: Client, query: str, said: str) -> None:
    before = _search(history, AGENT, query)
    assert all(said not in i["text"] for i in before)
    session(history, AGENT, [said], START + 4 * DAY)
    assert any(said in i["text"] for i in _search(history, AGENT, query))


@pytest.mark.parametrize(("word", "query"), [("Dario", QUERIES[0]), ("建国", QUERIES[2])])
def test_after_a_forget_nothing_forgotten_comes_back(
    history: Client, word: str, query: str
) -> None:
    kai = f"kai-{uuid.uuid4().hex[:8]}"
    _history(history, kai, 1)
    for agent in (AGENT, kai):
        assert any(word in i["text"] for i in _search(history, agent, query))
    assert unchanged.held(AGENT) > 0 and unchanged.held(kai) > 0
    history.memory_forget(AGENT, query=word)
    assert unchanged.held(AGENT) == 0  # dropped with the memories, not at the next read
    assert unchanged.held(kai) > 0
    assert all(word not in i["text"] for q in ASKED for i in _search(history, AGENT, q))
    assert any(word in i["text"] for i in _search(history, kai, query))


def _one_agent(path: Path) -> tuple[apsw.Connection, int]:
    conn = connect(path)
    conn.execute(
        "INSERT INTO agents (agent_id, name, created_ms, updated_ms) VALUES ('mia', 'Mia', 0, 0)"
    )
    return conn, index.add(conn, "mia", "utterance", 1, "I hurt my wrist climbing.", 1, None)


@pytest.mark.parametrize("other_connection", [False, True])
def test_a_keyword_read_after_a_write_sees_it(tmp_path: Path, other_connection: bool) -> None:
    """The keyword answer itself (a search would also find the new turn by its vector): a write
    on this connection or a commit on another drops what was remembered."""
    conn, first = _one_agent(tmp_path / "x.db")
    assert [i for i, _ in index.keyword(conn, "mia", "wrist climbing", 40)] == [first]
    assert index.keyword(conn, "mia", "wrist climbing", 40) == index.keyword(
        conn, "mia", "wrist climbing", 40
    )
    writer = connect(tmp_path / "x.db") if other_connection else conn
    with writer:
        second = index.add(
            writer, "mia", "utterance", 2, "手腕 climbing again, wrist fine", 2, None
        )
    assert {i for i, _ in index.keyword(conn, "mia", "wrist climbing", 40)} == {first, second}
    with writer:
        index.remove(writer, "utterance", [2])
    assert [i for i, _ in index.keyword(conn, "mia", "wrist climbing", 40)] == [first]
    if other_connection:
        writer.close()
    conn.close()


def test_one_agents_answer_is_never_given_for_another(tmp_path: Path) -> None:
    conn, _ = _one_agent(tmp_path / "x.db")
    conn.execute(
        "INSERT INTO agents (agent_id, name, created_ms, updated_ms) VALUES ('kai', 'Kai', 0, 0)"
    )
    assert index.keyword(conn, "mia", "wrist", 40)
    assert index.keyword(conn, "kai", "wrist", 40) == []
    conn.close()


@pytest.mark.parametrize("other_connection", [False, True])
@pytest.mark.parametrize(
    ("table", "common", "rare", "said"),
    [
        ("memory_fts_terms", "gardens", "tomato", "the {} at the allotment"),
        ("memory_fts_bigram_terms", "花园", "番茄", "今天去{}了"),
    ],
)
def test_a_terms_document_count_is_remembered_until_a_write(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    other_connection: bool,
    table: str,
    common: str,
    rare: str,
    said: str,
) -> None:
    """The keyword indexes' document counts (``index._rankable``), in English (stems: "gardens" is
    counted as "garden") and Chinese: remembered once read, the same terms kept as reading them
    afresh, and a term one more memory says (written on this connection or committed on another)
    counted again, so that it is left out once it is too common."""
    monkeypatch.setattr(index, "COMMON_DOCS", 2)
    conn, _ = _one_agent(tmp_path / "x.db")
    for source_id, text in enumerate([said.format(common), f"{common} {rare}"], 10):
        index.add(conn, "mia", "utterance", source_id, said.format(text), 3, None)
    assert index._rankable(conn, table, [common, rare]) == [common, rare]  # 2 memories each at most
    assert set(unchanged.shared(conn, table).values()) <= {1, 2} and unchanged.shared(conn, table)
    read: list[str] = []

    def trace(_cursor: apsw.Cursor, sql: str, _bindings: object) -> bool:
        read.append(sql)
        return True

    conn.exec_trace = trace
    assert index._rankable(conn, table, [common, rare]) == [common, rare]
    conn.exec_trace = None
    assert read and not [sql for sql in read if table in sql]  # remembered: no count read again
    writer = connect(tmp_path / "x.db") if other_connection else conn
    with writer:
        index.add(writer, "mia", "utterance", 20, said.format(common), 4, None)
    assert not unchanged.shared(conn, table)  # the write dropped them
    assert index._rankable(conn, table, [common, rare]) == [rare]  # in 3 memories now: too common
    if other_connection:
        writer.close()
    conn.close()
