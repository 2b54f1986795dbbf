"""A line near everything says little about anything: a vector match discounted by its hubness.

Everyday talk is full of lines that sit close to every other line ("周一好烦", "今天被夸了一句",
"kind of a nothing day honestly", the companion's "mm, tell me more?"): in the embedding space they
are hubs, among the nearest neighbours of whatever is asked. A mention ("刚跟我妈打完电话", "phoned my
dad tonight") then finds them before the line a friend would think of ("我家太后最近迷上广场舞了",
"my old man's finally selling his boat"), which names the same person another way and so sits only
a little closer to the mention than the hubs do. In Chinese the multilingual embedder packs all
text more tightly (cosines of unrelated lines 0.2-0.4), so hubs crowd B out more often, and a plain
ranking of raw cosines over the turns (the hybrid baseline) wins where xaid's cut drops B.

The discount is the kind cross-lingual word retrieval uses against hubs (CSLS, Conneau et al. 2018,
whose 2·cos − hub ranks as cos − 0.5·hub): a candidate's cosine to the query minus ``SHARE`` times
its hubness, the mean cosine to its ``NEIGHBOURS`` nearest lines of the agent, plus the same share
of a typical line's hubness, so an average line keeps its cosine and the model's cosine cuts keep
their meaning. On perf/scenarios/associative_dev14.json's train half, B's rank among a user's ~280
turns by the embedder alone (16 cases per language) went from a median of 68 to 20 in Chinese and
50 to 9 in English with CSLS's 0.5; ``SHARE`` 0.8 was chosen on the train halves of the associative
sets and the companion set (docs/memory.md).

Hubness is a property of the agent's vectors, not of the query: computed for a candidate the first
time it is one (against at most ``REFERENCE`` rows of the agent) and kept on the agent's
``AgentVectors`` until they have grown by a quarter, when it is measured afresh.
"""

from __future__ import annotations

import numpy as np

from .vectors import AgentVectors

SHARE = 0.8  # CSLS (2·cos − hub) is 0.5; chosen on the train halves (docs/memory.md)
NEIGHBOURS = 10  # the lines a hub is near: CSLS's usual k
REFERENCE = 2048  # rows a candidate's hubness is measured against (a strided sample beyond)
TYPICAL_SAMPLE = 256  # rows whose mean hubness stands for a typical line's
WIDER = 3  # the vector ranking offers this many times the pool before the discount
REGROW = 1.25  # the kept hubness is measured afresh once the agent has this many times the rows


def _reference(near: AgentVectors) -> tuple[np.ndarray, np.ndarray]:
    """(row indices, unit float rows) of the live rows hubness is measured against."""
    live = np.flatnonzero(near.alive[: near.n] & (near.norms[: near.n] > 0))
    if len(live) > REFERENCE:
        live = live[np.linspace(0, len(live) - 1, REFERENCE).astype(np.int64)]
    rows = near.q.take(live, axis=0).astype(np.float32) / near.norms.take(live)[:, None]
    return live, rows


def _measure(near: AgentVectors, rows_at: np.ndarray) -> np.ndarray:
    """The hubness of the rows ``rows_at``: mean cosine to their ``NEIGHBOURS`` nearest other rows."""
    live, ref = _reference(near)
    if len(live) <= NEIGHBOURS:
        return np.zeros(len(rows_at), dtype=np.float32)
    mine = (
        near.q.take(rows_at, axis=0).astype(np.float32)
        / np.where(near.norms.take(rows_at) > 0, near.norms.take(rows_at), 1.0)[:, None]
    )
    sims = mine @ ref.T
    sims[rows_at[:, None] == live[None, :]] = -1.0  # a row is not its own neighbour
    top = np.partition(sims, -NEIGHBOURS, axis=1)[:, -NEIGHBOURS:]
    return top.mean(axis=1)


def _kept(near: AgentVectors) -> dict[int, float]:
    """The agent's kept hubness by item (a typical line's under key -1), afresh when it has grown."""
    memo = near.hubs
    if memo and len(near) <= near.hubs_base * REGROW:
        return memo
    memo.clear()
    near.hubs_base = max(1, len(near))
    live = np.flatnonzero(near.alive[: near.n] & (near.norms[: near.n] > 0))
    if len(live) > TYPICAL_SAMPLE:
        live = live[np.linspace(0, len(live) - 1, TYPICAL_SAMPLE).astype(np.int64)]
    memo[-1] = float(_measure(near, live).mean()) if len(live) else 0.0
    return memo


def hubness(near: AgentVectors, item_ids: list[int]) -> dict[int, float]:
    """Each item's hubness (items without a vector left out), measured once and kept."""
    memo = _kept(near)
    missing = [i for i in item_ids if i not in memo and i in near.row]
    if missing:
        at = np.array([near.row[i] for i in missing], dtype=np.int64)
        for item_id, hub in zip(missing, _measure(near, at).tolist(), strict=True):
            memo[item_id] = hub
    return {i: memo[i] for i in item_ids if i in memo}


def discounted(near: AgentVectors, sims: list[tuple[int, float]], k: int) -> dict[int, float]:
    """The best ``k`` of ``sims`` (item, cosine) once each cosine is discounted by its item's
    hubness above a typical line's."""
    if not SHARE or not sims:
        return dict(sims[:k])
    hub = hubness(near, [i for i, _ in sims])
    typical = near.hubs.get(-1, 0.0)
    scored = {i: c - SHARE * (hub.get(i, typical) - typical) for i, c in sims}
    return dict(sorted(scored.items(), key=lambda kv: -kv[1])[:k])
