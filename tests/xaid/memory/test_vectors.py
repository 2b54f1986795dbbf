"""The in-memory int8 vector search against exact float cosine, and its coherence with the vec0
table it caches (other connections, rollbacks, deletions, the float table of older versions)."""

from __future__ import annotations

from pathlib import Path

import apsw
import numpy as np
import pytest

from xaid.embed.onnx import OnnxEmbedder, to_blob
from xaid.memory import index, vectors
from xaid.store import agents
from xaid.store.agents import Agent
from xaid.store.db import Database, connect

DIM = 384


def _unit(x: np.ndarray) -> np.ndarray:
    return (x / np.linalg.norm(x, axis=-1, keepdims=True)).astype(np.float32)


def _clustered(n: int, seed: int) -> np.ndarray:
    """Vectors in loose topics, like memories of one person: a harder case for sign bits than noise."""
    rng = np.random.default_rng(seed)
    centres = _unit(rng.normal(size=(max(1, n // 200), DIM)))
    return _unit(centres[rng.integers(0, len(centres), n)] + rng.normal(scale=0.06, size=(n, DIM)))


def test_quantize_keeps_cosine() -> None:
    a, b = _clustered(2, seed=1)
    qa, qb = vectors.quantize(a).astype(np.float32), vectors.quantize(b).astype(np.float32)
    assert np.abs(vectors.quantize(a)).max() == 127
    assert abs(float(qa @ qb / np.linalg.norm(qa) / np.linalg.norm(qb)) - float(a @ b)) < 0.01
    assert not vectors.quantize(np.zeros(DIM)).any()


@pytest.mark.parametrize("n", [300, 30_000])
def test_nearest_matches_exact_cosine(n: int) -> None:
    """Below MIN_RESCORE every row is re-scored; above it, recall@10 stays at least 0.95."""
    data = _clustered(n, seed=n)
    queries = _unit(data[:50] + np.random.default_rng(7).normal(scale=0.05, size=(50, DIM)))
    agent = vectors.AgentVectors(
        DIM, 0, list(range(1000, 1000 + n)), np.stack([vectors.quantize(v) for v in data])
    )
    recall = []
    for q in queries:
        exact = np.argsort(-(data @ q))[:10] + 1000
        found = agent.nearest(q, 10)
        assert [s for _, s in found] == sorted((s for _, s in found), reverse=True)
        assert abs(found[0][1] - float(data[found[0][0] - 1000] @ q)) < 0.01
        recall.append(len(set(exact) & {i for i, _ in found}) / 10)
    assert np.mean(recall) >= (
        0.97 if n <= vectors.MIN_RESCORE else 0.95
    )  # int8 rounding swaps near-ties


def test_put_remove_and_compaction_keep_answers_right() -> None:
    data = _clustered(600, seed=3)
    agent = vectors.AgentVectors(DIM, 0)
    for i, v in enumerate(data):
        agent.put(i, vectors.quantize(v))
    for i in range(0, 600, 2):  # half gone: compaction runs on the way
        agent.remove(i)
    assert len(agent) == 300 and agent.n <= 600
    assert agent.nearest(data[1], 1)[0][0] == 1
    assert all(i % 2 for i, _ in agent.nearest(data[0], 50))
    agent.put(1, vectors.quantize(data[3]))  # replaced in place
    assert {i for i, _ in agent.nearest(data[3], 2)} == {1, 3}
    assert agent.nearest(np.zeros(DIM), 5) == []


def _converted_each_time(
    agent: vectors.AgentVectors, v: np.ndarray, k: int
) -> list[tuple[int, float]]:
    """The ranking as it was before the float32 copy: every live row converted afresh."""
    rows = np.flatnonzero(agent.alive[: agent.n])
    sims = agent.q.take(rows, axis=0).astype(np.float32) @ v
    sims /= np.where(agent.norms[rows] > 0, agent.norms[rows], np.inf) * float(np.linalg.norm(v))
    best = np.argsort(-sims, kind="stable")[:k]
    return [(int(agent.ids[rows[b]]), float(sims[b])) for b in best]


def test_float_copy_ranks_bitwise_as_a_fresh_conversion_and_follows_changes() -> None:
    """A small agent ranks on its float32 copy of the rows; every cosine is the one a fresh
    conversion gives (not merely close), and a put, a replacement or a removal is seen at once."""
    data = _clustered(900, seed=5)
    agent = vectors.AgentVectors(DIM, 0)
    for i, v in enumerate(data[:800]):
        agent.put(i, vectors.quantize(v))
    for probe in (data[3], data[850], -data[10]):
        assert agent.nearest(probe, 40) == _converted_each_time(agent, probe, 40)
    assert agent._float_rows() is not None  # the copy was used
    agent.put(800, vectors.quantize(data[850]))  # a new vector: found by the next ranking
    assert agent.nearest(data[850], 1)[0][0] == 800
    agent.put(800, vectors.quantize(data[3]))  # replaced in place
    assert {i for i, _ in agent.nearest(data[3], 2)} == {3, 800}
    agent.remove(3)  # a removed vector is never ranked, and the copy holds the live rows only
    assert 3 not in {i for i, _ in agent.nearest(data[3], 800)}
    assert agent.nearest(data[7], 40) == _converted_each_time(agent, data[7], 40)
    kept = agent._float_rows()
    assert kept is not None and 3 not in agent.ids[kept[0]].tolist()  # dead rows: still a copy
    agent.put(3, vectors.quantize(data[3]))  # back, in a new row: the copy follows
    assert agent.nearest(data[3], 1)[0][0] in {3, 800}
    assert agent.nearest(data[9], 40) == _converted_each_time(agent, data[9], 40)


def test_warm_makes_the_float_copy_before_a_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """After a consolidation's changes the copy is made by the warm (off the user's path), not by
    the next search; an agent past ``FLOAT_ROWS`` keeps none."""
    data = _clustered(300, seed=7)
    agent = vectors.AgentVectors(DIM, 0)
    for i, v in enumerate(data):
        agent.put(i, vectors.quantize(v))
    agent.remove(5)
    assert agent._floats is None
    agent.warm()
    assert agent._floats is not None and len(agent._floats[1]) == 299
    assert agent.nearest(data[8], 20) == _converted_each_time(agent, data[8], 20)
    monkeypatch.setattr(vectors, "FLOAT_ROWS", 200)
    agent.warm()
    assert agent._floats is None  # too many rows to keep as floats: converted at each ranking
    assert agent.nearest(data[8], 20) == _converted_each_time(agent, data[8], 20)


@pytest.fixture
def db(tmp_path: Path) -> Database:
    db = Database(tmp_path / "v.db")
    db.call(agents.insert, Agent("a", "a", "", {}, 0, 0))
    db.call(agents.insert, Agent("b", "b", "", {}, 0, 0))
    db.call(index.ensure_vector_table, DIM, "test-model")
    return db


def _add(conn: apsw.Connection, agent_id: str, text: str, vec: np.ndarray) -> int:
    return index.add(conn, agent_id, "fact", abs(hash(text)) % 10**9, text, 0, vec)


def test_rolled_back_write_is_not_found(db: Database) -> None:
    data = _clustered(3, seed=5)
    kept = db.call(_add, "a", "kept", data[0])
    assert db.call(index.knn, "a", data[1], 5)[0][0] == kept  # the cache is loaded now

    def add_then_fail(conn: apsw.Connection) -> None:
        _add(conn, "a", "rolled back", data[1])
        raise RuntimeError("crash mid-transaction")

    with pytest.raises(RuntimeError):
        db.call(add_then_fail)
    assert [i for i, _ in db.call(index.knn, "a", data[1], 5)] == [kept]


def test_other_connection_changes_are_seen_and_agents_stay_apart(db: Database) -> None:
    data = _clustered(3, seed=6)
    mine = db.call(_add, "a", "a's", data[0])
    assert [i for i, _ in db.call(index.knn, "a", data[0], 5)] == [mine]
    other = connect(db.path)
    with other:
        theirs = _add(other, "a", "added elsewhere", data[1])
        _add(other, "b", "b's", data[2])
    assert {i for i, _ in db.call(index.knn, "a", data[2], 5)} == {mine, theirs}
    with other:
        index.remove(other, "fact", [abs(hash("a's")) % 10**9])
    assert [i for i, _ in db.call(index.knn, "a", data[0], 5)] == [theirs]
    other.close()


def test_float_vectors_of_an_older_version_are_converted(tmp_path: Path) -> None:
    embedder = OnnxEmbedder()
    db = Database(tmp_path / "old.db")
    db.call(agents.insert, Agent("a", "a", "", {}, 0, 0))
    texts = ["The user's sister Anna lives in Kyoto.", "The user likes hiking in the Alps."]
    vecs = embedder.embed(texts)

    def as_before(conn: apsw.Connection) -> list[int]:
        conn.execute(
            f"CREATE VIRTUAL TABLE memory_vec USING vec0(item_id INTEGER PRIMARY KEY, agent_id TEXT "
            f"PARTITION KEY, embedding float[{embedder.dim}] distance_metric=cosine)"
        )
        conn.execute(
            "INSERT INTO meta (key, value) VALUES ('embed_model', ?)",
            (f"{embedder.name}:{embedder.dim}",),
        )
        ids: list[int] = []
        for text, vec in zip(texts, vecs, strict=True):
            ids.append(index.add(conn, "a", "fact", len(ids) + 1, text, 0, None))
            conn.execute(
                "INSERT INTO memory_vec (item_id, agent_id, embedding) VALUES (?, 'a', ?)",
                (ids[-1], to_blob(vec)),
            )
        return ids

    ids = db.call(as_before)
    assert (
        db.call(index.ensure_vector_table, embedder.dim, embedder.name) is False
    )  # nothing to re-embed
    assert (
        db.call(
            lambda c: c.execute("SELECT 1 FROM sqlite_master WHERE name = 'memory_vec'").fetchone()
        )
        is None
    )
    query = embedder.embed(["Where does Anna live?"])[0]
    found = db.call(index.knn, "a", query, 2)
    assert found[0][0] == ids[0]
    assert abs(found[0][1] - float(vecs[0] @ query)) < 0.01
    assert (
        db.call(index.ensure_vector_table, embedder.dim, "another-model") is True
    )  # a new model re-embeds


def test_fast_load_from_vec0_chunks_equals_its_cursor(db: Database) -> None:
    """The start-up load reads sqlite-vec's chunk tables directly; it must agree with vec0's own cursor
    (deleted rows, two agents sharing chunks' table) or step aside for it."""
    data = _clustered(700, seed=8)

    def fill(conn: apsw.Connection) -> None:
        for i, v in enumerate(data):
            index.add(conn, "a" if i % 3 else "b", "fact", i + 1, f"fact {i}", 0, v)
        index.remove(conn, "fact", list(range(1, 700, 7)))

    db.call(fill)
    for agent in ("a", "b"):
        fast = db.call(vectors._from_chunks, index.VEC_TABLE, agent, DIM)
        slow = db.call(vectors._from_cursor, index.VEC_TABLE, agent, DIM)
        assert fast is not None and slow[1] is not None and fast[1] is not None
        order = np.argsort(slow[0])
        assert sorted(fast[0]) == sorted(slow[0])
        assert np.array_equal(fast[1][np.argsort(fast[0])], slow[1][order])
    assert db.call(vectors._from_chunks, "no_such_table", "a", DIM) is None
    assert (
        db.call(vectors._from_chunks, index.VEC_TABLE, "a", DIM - 1) is None
    )  # a layout it does not expect
    loaded = db.call(index.vectors_of, "a", DIM)
    assert loaded is not None and len(loaded) == len(
        db.call(vectors._from_cursor, index.VEC_TABLE, "a", DIM)[0]
    )
