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
