"""The candidates' rows searches remember (xaid/memory/rows.py, migration 013): the same results as
reading every row afresh, never a row of what changed (on this connection or another), nothing
left in memory once it is forgotten or the agent deleted, and one agent's rows never read for
another's search.

A real daemon in process (real socket, real SQLite, real embeddings) for the searches: the rows
live in this process, so the tests read them through ``rows.holding``. The coherence tests write
with plain SQL on a second connection, as another process would. No model is involved.
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

from testkit.inproc import InProcessDaemon
from xaid.memory import index, rows
from xaid.store.db import connect

from .warmed import searches_alone  # noqa: F401 - autouse: no warm after a job here

DAY = 86_400_000
START = int(dt.datetime(2026, 3, 2, 19, 0, tzinfo=dt.UTC).timestamp() * 1000)
AGENT = f"mia-{uuid.uuid4().hex[:8]}"

DAYS = [
    ("user", "Yesterday I went climbing with Dario and hurt my wrist."),
    ("assistant", "Oh no! Did you get the wrist checked at the clinic?"),
    ("user", "My sister Alba moved to Lisbon, she works at a bakery by the river."),
    ("assistant", "Lisbon sounds lovely. Tell Alba good luck at the bakery!"),
    ("user", "昨天和建国去爬山了，手腕扭伤了。"),
    ("assistant", "啊，要不要去医院看看手腕？"),
    ("user", "我姐姐阿芳搬到杭州了，在西湖边的面包店上班。"),
    ("assistant", "杭州很美！祝阿芳在面包店一切顺利。"),
]
QUERIES = [
    "What happened to my wrist?",
    "Where did Alba move and where does she work?",
    "我的手腕怎么了？",
    "阿芳搬到哪里了？她在哪里上班？",
]


@pytest.fixture(autouse=True)
def _own_agent(monkeypatch: pytest.MonkeyPatch) -> None:
    # ``rows.holding`` counts every connection of the process: each test has an agent of its own.
    monkeypatch.setattr(sys.modules[__name__], "AGENT", f"mia-{uuid.uuid4().hex[:8]}")


def _history(c: Client, agent: str, days: int = 4) -> None:
    c.agent_create(agent)
    for day in range(days):
        ts = START + day * DAY
        sid = c.session_open(agent, ts=ts)["session_id"]
        turns = DAYS[(day * 2) % 8 :] + DAYS[: (day * 2) % 8]
        c.session_ingest(
            sid,
            [
                {"role": role, "text": f"{text} ({day})", "ts": ts + i * 60_000}
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
    _history(client, AGENT)
    return client


def test_remembered_rows_give_the_same_results_as_fresh_ones(
    history: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every query at two budgets with nothing remembered, then filling the rows, then reading them."""
    asked = [(q, b) for q in QUERIES for b in (1000, 150)]
    with monkeypatch.context() as patch:
        patch.setattr(rows, "of", lambda conn, agent_id: rows.Rows(-1))
        fresh = [_search(history, AGENT, q, b) for q, b in asked]
    assert rows.holding(AGENT) == 0
    filling = [_search(history, AGENT, q, b) for q, b in asked]
    assert rows.holding(AGENT) > 0
    remembered = [_search(history, AGENT, q, b) for q, b in asked]
    assert fresh == filling == remembered
    kinds = {i["kind"] for items in fresh for i in items}
    assert {"utterance", "episode"} <= kinds  # turns and the other kinds' values both went through


@pytest.mark.parametrize(("word", "query"), [("Dario", QUERIES[0]), ("建国", QUERIES[2])])
def test_a_forget_drops_the_agents_rows_and_not_anothers(
    history: Client, word: str, query: str
) -> None:
    kai = f"kai-{uuid.uuid4().hex[:8]}"
    _history(history, kai, 2)
    for agent in (AGENT, kai):
        for q in QUERIES:
            _search(history, agent, q)
    assert rows.holding(AGENT) > 0 and rows.holding(kai) > 0
    history.memory_forget(AGENT, query=word)
    assert rows.holding(AGENT) == 0
    assert rows.holding(kai) > 0
    assert all(word not in i["text"] for q in QUERIES for i in _search(history, AGENT, q))
    assert any(word in i["text"] for i in _search(history, kai, query))


def test_agent_delete_leaves_no_remembered_row(history: Client) -> None:
    for query in QUERIES:
        _search(history, AGENT, query)
    assert rows.holding(AGENT) > 0
    history.agent_delete(AGENT)
    assert rows.holding(AGENT) == 0


# (query, a change written on another connection, words no result may show after it)
CHANGES = [
    # a turn retired as history: only a question about the past gets it back
    (
        QUERIES[0],
        "UPDATE utterances SET status = 'superseded' WHERE agent_id = ? AND utterance_id IN "
        "(SELECT source_id FROM memory_items WHERE kind = 'utterance' AND text LIKE '%hurt my wrist%')",
        "hurt my wrist",
    ),
    (
        QUERIES[2],
        "UPDATE utterances SET status = 'superseded' WHERE agent_id = ? AND utterance_id IN "
        "(SELECT source_id FROM memory_items WHERE kind = 'utterance' AND text LIKE '%手腕扭伤%')",
        "手腕扭伤",
    ),
    # a memory's words rewritten
    (
        QUERIES[1],
        "UPDATE memory_items SET text = replace(text, 'Lisbon', 'Porto') WHERE agent_id = ?",
        "Lisbon",
    ),
    (
        QUERIES[3],
        "UPDATE memory_items SET text = replace(text, '杭州', '苏州') WHERE agent_id = ?",
        "杭州",
    ),
]


def test_a_change_on_another_connection_is_searched_as_it_is_now(
    daemon: InProcessDaemon, history: Client
) -> None:
    for query, change, gone in CHANGES:
        before = _search(history, AGENT, query)
        assert any(gone in i["text"] for i in before), query
        assert rows.holding(AGENT) > 0
        other = connect(daemon.db_path)
        try:
            with other:
                other.execute(change, (AGENT,))
        finally:
            other.close()
        after = _search(history, AGENT, query)
        assert all(gone not in i["text"] for i in after if i["kind"] == "utterance"), query


def test_a_superseded_fact_leaves_the_results_until_the_past_is_asked(
    daemon: InProcessDaemon, history: Client
) -> None:
    """A fact's status read from a row remembered before it changed would keep showing it."""
    conn = connect(daemon.db_path)
    try:
        facts = conn.execute(
            "SELECT fact_id, text FROM facts WHERE agent_id = ? AND status = 'current'", (AGENT,)
        ).fetchall()
        if not facts:
            pytest.skip("the rules kept no fact from this history")
        fact_id, text = facts[0][0], str(facts[0][1])
        found = [i for i in _search(history, AGENT, text) if i["kind"] == "fact"]
        assert any(i["id"] == fact_id for i in found)
        with conn:
            conn.execute("UPDATE facts SET status = 'superseded' WHERE fact_id = ?", (fact_id,))
        found = [i for i in _search(history, AGENT, text) if i["kind"] == "fact"]
        assert all(i["id"] != fact_id for i in found)
    finally:
        conn.close()


def _two_agents(tmp_path: Path) -> tuple[apsw.Connection, dict[str, int]]:
    conn = connect(tmp_path / "x.db")
    ids = {}
    for agent, text in (("mia", "I hurt my wrist climbing."), ("kai", "我的手腕扭伤了。")):
        conn.execute(
            "INSERT INTO agents (agent_id, name, created_ms, updated_ms) VALUES (?, ?, 0, 0)",
            (agent, agent),
        )
        ids[agent] = index.add(conn, agent, "utterance", 1 if agent == "mia" else 2, text, 1, None)
    return conn, ids


def test_one_agents_rows_are_never_read_for_another(tmp_path: Path) -> None:
    conn, ids = _two_agents(tmp_path)
    both = list(ids.values())
    mia = index.items_said(conn, "mia", both, 10)
    assert list(mia) == [ids["mia"]]
    # mia's rows are remembered now; kai asking for the same ids gets only kai's item
    kai = index.items_said(conn, "kai", both, 10)
    assert list(kai) == [ids["kai"]] and kai[ids["kai"]][0].text == "我的手腕扭伤了。"
    assert index.items_said(conn, "mia", both, 10) == mia
    assert rows.of(conn, "mia") is not rows.of(conn, "kai")
    conn.close()


def test_the_generation_moves_on_a_change_and_not_on_a_reference(tmp_path: Path) -> None:
    """Migration 013's triggers: every write to what rows.py remembers moves the agent's
    generation (and only that agent's); a memory merely referenced does not."""
    conn, ids = _two_agents(tmp_path)
    first = rows.generation(conn, "mia")
    conn.execute(
        "INSERT INTO utterances (agent_id, ref, role, ts_ms, value) VALUES ('mia', 'm1', 'user', 1, 0.5)"
    )
    uid = conn.last_insert_rowid()
    assert rows.generation(conn, "mia") != first  # a turn that follows one remembered
    steps = [
        ("UPDATE utterances SET status = 'superseded' WHERE utterance_id = ?", (uid,), True),
        ("UPDATE utterances SET value = 0.9 WHERE utterance_id = ?", (uid,), True),
        (
            "UPDATE utterances SET ref_count = ref_count + 1, last_ref_ms = 5 WHERE utterance_id = ?",
            (uid,),
            False,
        ),
        (
            "UPDATE memory_items SET text = 'I hurt my ankle.' WHERE item_id = ?",
            (ids["mia"],),
            True,
        ),
        ("DELETE FROM memory_items WHERE item_id = ?", (ids["mia"],), True),
    ]
    for sql, args, moves in steps:
        before = (rows.generation(conn, "mia"), rows.generation(conn, "kai"))
        conn.execute(sql, args)
        after = (rows.generation(conn, "mia"), rows.generation(conn, "kai"))
        assert (after[0] != before[0]) is moves, sql
        assert after[1] == before[1], sql
    conn.close()


def test_rows_remembered_on_one_connection_are_dropped_after_a_write_on_another(
    tmp_path: Path,
) -> None:
    conn, ids = _two_agents(tmp_path)
    held = rows.of(conn, "mia")
    index.items_said(conn, "mia", [ids["mia"]], 10)
    assert ids["mia"] in held.items
    other = connect(tmp_path / "x.db")
    with other:
        other.execute("UPDATE memory_items SET text = 'changed' WHERE item_id = ?", (ids["mia"],))
    other.close()
    assert rows.of(conn, "mia") is not held
    assert index.items_said(conn, "mia", [ids["mia"]], 10)[ids["mia"]][0].text == "changed"
    conn.close()


def test_rows_warmed_at_start_up_are_the_rows_a_search_reads(tmp_path: Path) -> None:
    conn, ids = _two_agents(tmp_path)
    both = list(ids.values())
    cold = index.items_said(conn, "kai", both, 10)
    rows.drop_agent(conn, "kai")
    _warm_rows(conn, "kai")
    assert list(rows.of(conn, "kai").items) == [ids["kai"]]
    assert index.items_said(conn, "kai", both, 10) == cold
    assert not rows.of(conn, "mia").items  # warming one agent reads nothing of another's
    conn.close()


def _warm_rows(conn: apsw.Connection, agent: str) -> int:
    """``index.warm_rows`` run to its end, a chunk at a time as the daemon runs it; the calls."""
    at: int | None = 0
    calls = 0
    while at is not None:
        at = index.warm_rows(conn, agent, at)
        calls += 1
    return calls


def test_rows_warmed_a_chunk_at_a_time_are_the_rows_of_one_read(
    history: Client, daemon: InProcessDaemon, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Chunks of 5 items (a database call each, so a turn arriving after a consolidation waits for
    one chunk, not two years of memories) hold what one read of all of them holds; a write between
    two chunks leaves the turns around each turn to the searches, never made of rows read before it."""
    conn = connect(daemon.db_path)
    rows.drop_agent(conn, AGENT)
    _warm_rows(conn, AGENT)
    whole = rows.of(conn, AGENT)
    assert whole.turns and whole.nexts
    monkeypatch.setattr(index, "WARM_ROWS", 5)
    rows.drop_agent(conn, AGENT)
    assert _warm_rows(conn, AGENT) > len(whole.items) // 5
    chunked = rows.of(conn, AGENT)
    for part in ("items", "turns", "nexts", "values", "refs"):
        assert getattr(chunked, part) == getattr(whole, part), part
    rows.drop_agent(conn, AGENT)
    at = index.warm_rows(conn, AGENT, 0)
    sid = history.session_open(AGENT, ts=START + 5 * DAY)["session_id"]
    history.session_ingest(sid, [{"role": "user", "text": "我回来了。", "ts": START + 5 * DAY}])
    history.session_close(sid, ts=START + 5 * DAY + 60_000, wait=True)
    while at is not None:
        at = index.warm_rows(conn, AGENT, at)
    after = rows.of(conn, AGENT)
    assert after.items and not after.turns and not after.nexts
    conn.close()


def test_rows_read_inside_a_rolled_back_transaction_never_look_current(tmp_path: Path) -> None:
    """A generation counted up would come back to the rolled-back transaction's value at the next
    change, and the rows remembered inside it (words that were never committed) would be served."""
    conn, ids = _two_agents(tmp_path)
    mia = ids["mia"]
    with pytest.raises(RuntimeError), conn:
        conn.execute("UPDATE memory_items SET text = 'never committed' WHERE item_id = ?", (mia,))
        assert index.items_said(conn, "mia", [mia], 10)[mia][0].text == "never committed"
        raise RuntimeError("rolled back")
    with conn:
        conn.execute("UPDATE memory_items SET text = 'I hurt my ankle.' WHERE item_id = ?", (mia,))
    assert index.items_said(conn, "mia", [mia], 10)[mia][0].text == "I hurt my ankle."
    conn.close()


# (query, the turn's words, its new speaker): a name written on another connection must show
SPEAKERS = [
    (QUERIES[0], "hurt my wrist", "Zed"),
    (QUERIES[2], "手腕扭伤", "小周"),
]


def _turn_with(item: dict[str, Any], words: str) -> bool:
    return item["kind"] == "utterance" and words in item["text"]


@pytest.mark.parametrize(("query", "words", "name"), SPEAKERS)
def test_a_turns_record_is_made_again_when_its_row_changes(
    daemon: InProcessDaemon, history: Client, query: str, words: str, name: str
) -> None:
    """What ranking keeps of a turn (whose words, current or history) follows its row: a speaker
    renamed on another connection shows in the next search's line, a turn retired as history leaves
    a present question's results, and a turn said after the records were made is found."""
    before = [i for i in _search(history, AGENT, query) if _turn_with(i, words)]
    assert before and all(name not in i["text"] for i in before)
    held = next(m[AGENT] for m in rows._HELD.values() if AGENT in m)
    assert held.made  # the records were made and kept
    other = connect(daemon.db_path)
    try:
        with other:
            other.execute(
                "UPDATE utterances SET speaker = ? WHERE agent_id = ? AND utterance_id IN "
                "(SELECT source_id FROM memory_items WHERE kind = 'utterance' AND text LIKE ?)",
                (name, AGENT, f"%{words}%"),
            )
        renamed = [i for i in _search(history, AGENT, query) if _turn_with(i, words)]
        assert renamed and all(f"{name}: " in i["text"] for i in renamed)
        with other:
            other.execute(
                "UPDATE utterances SET status = 'superseded' WHERE agent_id = ? AND speaker = ?",
                (AGENT, name),
            )
        after = _search(history, AGENT, query)
        assert all(words not in i["text"] for i in after if i["kind"] == "utterance")
    finally:
        other.close()
    later = "I hurt my wrist again at the gym." if name == "Zed" else "在健身房手腕又扭伤了。"
    sid = history.session_open(AGENT, ts=START + 6 * DAY)["session_id"]
    history.session_ingest(sid, [{"role": "user", "text": later, "ts": START + 6 * DAY}])
    history.session_close(sid, ts=START + 6 * DAY + 60_000, wait=True)
    assert any(later in i["text"] for i in _search(history, AGENT, query))


def test_a_record_is_kept_for_the_row_it_was_made_from_only() -> None:
    held = rows.Rows(1)
    row, same_words = ["turn", 1], ["turn", 1]  # equal values, two objects
    made: list[object] = []

    def make(r: object) -> tuple[str, object]:
        made.append(r)
        return ("record", r)

    first = rows.made(held, 7, row, make)
    assert rows.made(held, 7, row, make) is first and made == [row]
    # A row read again is a new object, even with the same values: the record is made again.
    assert rows.made(held, 7, same_words, make) is not first and len(made) == 2
    assert len(held) == 1


def test_turns_values_and_sources_warmed_at_start_up_are_the_ones_sql_reads(
    history: Client, daemon: InProcessDaemon
) -> None:
    """``index.warm_rows`` makes the turns around every turn (``turns_around``'s two halves) and the
    other kinds' values and sources from the rows it reads whole: the same answers, in the same
    order, as reading them by SQL a search at a time, and nothing of them left after a write."""
    conn = connect(daemon.db_path)
    uids = [
        int(r[0])
        for r in conn.execute("SELECT utterance_id FROM utterances WHERE agent_id = ?", (AGENT,))
    ]
    others = [
        (str(r[0]), int(r[1]))
        for r in conn.execute(
            "SELECT kind, source_id FROM memory_items WHERE agent_id = ? AND kind != 'utterance'",
            (AGENT,),
        )
    ]
    assert len(uids) == 4 * len(DAYS) and {k for k, _ in others} >= {"episode"}
    until = START + 7 * DAY

    def read() -> tuple[Any, ...]:
        kinds = sorted({k for k, _ in others})
        return (
            index.turns_around(conn, AGENT, uids, uids, until),
            {k: rows.values(conn, AGENT, k, [s for kk, s in others if kk == k]) for k in kinds},
            rows.refs(conn, AGENT, others),
        )

    cold = read()  # each by SQL (nothing remembered on this connection yet)
    rows.drop_agent(conn, AGENT)
    _warm_rows(conn, AGENT)
    held = rows.of(conn, AGENT)
    assert set(held.turns) == set(uids) and set(held.nexts) == set(uids)
    assert set(held.refs) == set(others) and len(held.values) == len(others)
    assert rows.room(held.turns, uids) == [] and rows.room(held.nexts, uids) == []
    assert read() == cold  # answered from what was warmed, no SQL missing
    # a turn said since (a write on the daemon's connection): the warmed rows go, SQL is read again
    last = max(uids)
    _history(history, f"kai-{uuid.uuid4().hex[:8]}", 1)  # another agent's write moves nothing here
    assert rows.of(conn, AGENT) is held
    sid = history.session_open(AGENT, ts=START + 5 * DAY)["session_id"]
    history.session_ingest(sid, [{"role": "user", "text": "I'm back.", "ts": START + 5 * DAY}])
    history.session_close(sid, ts=START + 5 * DAY + 60_000, wait=True)
    assert rows.of(conn, AGENT) is not held
    fresh = index.turns_around(conn, AGENT, [], [last], until)
    assert [said.ref for _, said in fresh] == [
        str(r[0])
        for r in conn.execute(
            "SELECT ref FROM utterances WHERE agent_id = ? AND prev_id = ?", (AGENT, last)
        )
    ]
    conn.close()
