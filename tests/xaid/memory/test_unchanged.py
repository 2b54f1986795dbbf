"""Reads remembered while the database is unchanged (xaid/memory/unchanged.py): the keyword
answer a search reads again, or that ``memory.search`` read while embedding the query.

The same results as reading the indexes afresh, in English and Chinese; a search after a write
(on this connection or another) finds the new turn; after a forget, nothing forgotten comes back
and nothing of the agent's is left remembered. A real daemon in process (real socket, real SQLite,
real embeddings) for the searches; the unit tests use a real database of their own. No model.
"""

from __future__ import annotations

import datetime as dt
import sys
import uuid
from pathlib import Path
from typing import Any

import apsw
import pytest
from xaiclient import Client

from xaid.memory import index, unchanged
from xaid.store.db import connect

DAY = 86_400_000
START = int(dt.datetime(2026, 3, 2, 19, 0, tzinfo=dt.UTC).timestamp() * 1000)
AGENT = f"mia-{uuid.uuid4().hex[:8]}"

TURNS = [
    ("user", "Yesterday I went climbing with Dario and hurt my wrist."),
    ("assistant", "Oh no! Did you get the wrist checked at the clinic?"),
    ("user", "My sister Alba moved to Lisbon, she works at a bakery by the river."),
    ("user", "昨天和建国去爬山了，手腕扭伤了。"),
    ("assistant", "啊，要不要去医院看看手腕？"),
    ("user", "我姐姐阿芳搬到杭州了，在西湖边的面包店上班。"),
]
QUERIES = [
    "What happened to my wrist?",
    "alba... where did she move again, and where's she working",
    "我的手腕怎么了？",
    "阿芳搬去哪了 and 她在哪儿上班来着",
]


@pytest.fixture(autouse=True)
def _own_agent(monkeypatch: pytest.MonkeyPatch) -> None:
    # ``unchanged.held`` counts every connection of the process: each test has an agent of its own.
    monkeypatch.setattr(sys.modules[__name__], "AGENT", f"mia-{uuid.uuid4().hex[:8]}")


def _session(c: Client, agent: str, day: int, turns: list[tuple[str, str]]) -> None:
    ts = START + day * DAY
    sid = c.session_open(agent, ts=ts)["session_id"]
    c.session_ingest(
        sid,
        [
            {"role": role, "text": text, "ts": ts + i * 60_000}
            for i, (role, text) in enumerate(turns)
        ],
    )
    c.session_close(sid, ts=ts + 3_600_000, wait=True)


def _search(c: Client, agent: str, query: str, budget: int = 1000) -> list[dict[str, Any]]:
    found = c.memory_search(
        agent, query, k=200, budget_tokens=budget, ts=START + 7 * DAY, touch=False
    )
    return list(found["items"])


@pytest.fixture
def history(client: Client) -> Client:
    client.agent_create(AGENT)
    for day in range(3):
        _session(client, AGENT, day, [(r, f"{t} ({day})") for r, t in TURNS])
    return client


def test_remembered_keywords_give_the_same_results_as_fresh_ones(
    history: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every query (en, zh, mixed) at two budgets read afresh, then filling the memo, then from it."""
    asked = [(q, b) for q in QUERIES for b in (1000, 150)]
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
    _session(history, AGENT, 4, [("user", said)])
    assert any(said in i["text"] for i in _search(history, AGENT, query))


@pytest.mark.parametrize(("word", "query"), [("Dario", QUERIES[0]), ("建国", QUERIES[2])])
def test_after_a_forget_nothing_forgotten_comes_back(
    history: Client, word: str, query: str
) -> None:
    kai = f"kai-{uuid.uuid4().hex[:8]}"
    history.agent_create(kai)
    _session(history, kai, 0, TURNS)
    for agent in (AGENT, kai):
        assert any(word in i["text"] for i in _search(history, agent, query))
    assert unchanged.held(AGENT) > 0 and unchanged.held(kai) > 0
    history.memory_forget(AGENT, query=word)
    assert unchanged.held(AGENT) == 0  # dropped with the memories, not at the next read
    assert unchanged.held(kai) > 0
    assert all(word not in i["text"] for q in QUERIES for i in _search(history, AGENT, q))
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
