"""The hubness discount on an agent's vectors (hubs.py): a line near many of the agent's lines is a
hub whose cosine to a query says less, a line near none keeps its own; an average line keeps its
cosine, so the embedder's cuts keep their meaning. Synthetic vectors in the agent's in-memory index
(no database is involved: AgentVectors is the cache, built here from its rows)."""

from __future__ import annotations

import numpy as np
import pytest

from xaid.memory import hubs, vectors

DIM = 64


def _unit(x: np.ndarray) -> np.ndarray:
    return (x / np.linalg.norm(x, axis=-1, keepdims=True)).astype(np.float32)


def _agent(rows: np.ndarray) -> vectors.AgentVectors:
    q = np.stack([vectors.quantize(r) for r in rows])
    return vectors.AgentVectors(DIM, 1, list(range(1, len(rows) + 1)), q)


def _small_talk(seed: int = 3) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Forty lines of small talk around one direction (each near many others), one specific line far
    from them (B), and a query halfway between the small talk's centre and B, a little nearer the
    centre: by raw cosine the hubs come first."""
    rng = np.random.default_rng(seed)
    centre = _unit(rng.normal(size=DIM))
    talk = _unit(centre + rng.normal(scale=0.35, size=(40, DIM)) / np.sqrt(DIM) * 4)
    b = _unit(rng.normal(size=DIM))
    query = _unit(0.62 * centre + 0.5 * b)
    return talk, b, query


def test_a_line_near_many_is_more_of_a_hub_than_a_line_near_none() -> None:
    talk, b, _query = _small_talk()
    near = _agent(np.vstack([talk, b]))
    hub = hubs.hubness(near, [1, 41])
    assert hub[1] > hub[41] + 0.2


def test_the_specific_line_outranks_small_talk_a_little_nearer_the_query() -> None:
    talk, b, query = _small_talk()
    near = _agent(np.vstack([talk, b]))
    plain = near.nearest(query, 41)
    assert plain[0][0] != 41  # by raw cosine a hub comes first
    assert [i for i, _ in plain].index(41) > 0
    ranked = list(hubs.discounted(near, plain, 5))
    assert ranked[0] == 41


def test_an_average_line_keeps_its_cosine_and_without_a_share_nothing_moves(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng = np.random.default_rng(5)
    rows = _unit(rng.normal(size=(300, DIM)))  # no structure: every line is about as much a hub
    near = _agent(rows)
    plain = near.nearest(_unit(rng.normal(size=DIM)), 20)
    moved = hubs.discounted(near, plain, 20)
    assert max(abs(moved[i] - c) for i, c in plain) < 0.05
    monkeypatch.setattr(hubs, "SHARE", 0.0)
    assert hubs.discounted(near, plain, 5) == dict(plain[:5])


def test_hubness_is_kept_until_the_agent_has_grown_by_a_quarter() -> None:
    talk, _b, _query = _small_talk()
    near = _agent(talk[:20])
    first = hubs.hubness(near, [1])[1]
    for n in range(21, 25):  # 20 → 24 rows: within a quarter, the kept value stands
        near.put(n, vectors.quantize(talk[n - 1]))
    assert hubs.hubness(near, [1])[1] == first
    for n in range(25, 41):
        near.put(n, vectors.quantize(talk[n - 1]))
    assert hubs.hubness(near, [1])[1] != first  # measured afresh against 40 rows


def _many(n: int, dim: int, seed: int) -> vectors.AgentVectors:
    """``n`` lines in ``dim`` dimensions (the real models' 512), some near each other: sizes at
    which BLAS picks different kernels for different batches."""
    rng = np.random.default_rng(seed)
    topics = rng.normal(size=(12, dim))
    rows = topics[rng.integers(0, 12, size=n)] + rng.normal(scale=1.2, size=(n, dim))
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)
    q = np.stack([vectors.quantize(r) for r in rows.astype(np.float32)])
    return vectors.AgentVectors(dim, 1, list(range(1, n + 1)), q)


def test_a_lines_hubness_is_the_same_float_whichever_lines_it_is_measured_with() -> None:
    """A search measures its candidates' hubness in one batch, the start-up warm-up in chunks: a
    line must get the same figure either way, or the first searches' items depend on what was asked
    before (and on whether the daemon had finished warming up)."""
    near = _many(700, 512, 11)
    ids = list(range(1, 601))
    together = hubs.hubness(near, ids)
    near.hubs.clear()
    a_few_at_a_time: dict[int, float] = {}
    for start in range(0, len(ids), 7):  # the few new candidates of one search after another
        a_few_at_a_time.update(hubs.hubness(near, ids[start : start + 7]))
    assert a_few_at_a_time == together


def test_warming_measures_every_live_line_so_that_searches_measure_none(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    near = _many(600, 512, 13)
    near.remove(5)  # a deleted line is not measured
    lazily = hubs.hubness(near, [1, 300, 600])
    near.hubs.clear()
    near.hubs_base = 0
    start: int | None = 0
    calls = 0
    while start is not None:
        start = hubs.warm(near, start)
        calls += 1
    assert calls == -(-600 // hubs.WARM_ROWS)  # a chunk a call, so requests interleave
    assert set(near.hubs) == {-1, *(i for i in range(1, 601) if i != 5)}

    def measured(*_args: object) -> np.ndarray:
        raise AssertionError("a search measured a line the warm-up had measured")

    monkeypatch.setattr(hubs, "_measure", measured)
    assert hubs.hubness(near, [1, 300, 600]) == lazily


def _warm_all(near: vectors.AgentVectors, afresh: bool) -> None:
    start: int | None = 0
    while start is not None:
        start = hubs.warm(near, start, afresh=afresh)


def test_after_a_consolidation_every_line_is_measured_against_the_lines_as_they_now_stand(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A line measured when it was new, against fewer lines, would keep that figure until the agent
    had grown by a quarter; the warm after a job measures every line again, so the figures are the
    ones a search measuring against today's lines gets. Past ``AFRESH_UP_TO`` only new lines are."""
    rng = np.random.default_rng(17)
    rows = _unit(rng.normal(size=(700, DIM)))
    q = np.stack([vectors.quantize(r) for r in rows])
    near = vectors.AgentVectors(DIM, 1, list(range(1, 601)), q[:600])
    _warm_all(near, afresh=False)
    before = dict(near.hubs)
    for i in range(600, 700):  # a job's new lines: fewer than a quarter more
        near.put(i + 1, q[i])
    _warm_all(near, afresh=True)
    today = vectors.AgentVectors(DIM, 1, list(range(1, 701)), q)  # the same lines, nothing kept
    assert near.hubs == hubs.hubness(today, list(range(1, 701))) | {-1: today.hubs[-1]}
    assert near.hubs != before | {k: v for k, v in near.hubs.items() if k > 600}
    monkeypatch.setattr(hubs, "AFRESH_UP_TO", 500)
    kept = dict(near.hubs)
    near.put(701, q[0] * -1)
    _warm_all(near, afresh=True)
    assert {k: v for k, v in near.hubs.items() if k != 701} == kept  # the rest kept as it was
    assert 701 in near.hubs


def test_searches_between_the_calls_of_a_rewarm_use_the_kept_figures_and_measure_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The new figures replace the kept ones whole at the last call; a search in between finds the
    kept memo complete. A write between two calls (the generation moved) drops the new memo."""
    near = _many(300, 512, 19)
    _warm_all(near, afresh=False)
    kept = dict(near.hubs)
    assert hubs.warm(near, 0, afresh=True) == hubs.REWARM_ROWS  # one call of several
    assert near.hubs == kept and near.hubs_next

    def measured(*_args: object) -> np.ndarray:
        raise AssertionError("a search measured a line")

    with monkeypatch.context() as m:
        m.setattr(hubs, "_measure", measured)
        assert hubs.hubness(near, list(range(1, 301))) == {i: kept[i] for i in range(1, 301)}
    near.generation += 1  # a write between two calls
    assert hubs.warm(near, hubs.REWARM_ROWS, afresh=True) is None
    assert near.hubs == kept and near.hubs_next is None
