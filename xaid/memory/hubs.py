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

Hubness is a property of the agent's vectors, not of the query: measured against at most
``REFERENCE`` rows of the agent and kept on the agent's ``AgentVectors`` until they have grown by a
quarter, when it is measured afresh. The daemon measures every row at start-up (``warm``) and again
after each consolidation (``rewarm``: every row against the rows the job left, installed whole; past
``AFRESH_UP_TO`` rows, ``warm``'s new rows only), a chunk per database call; a candidate not measured
yet (a turn's line said since) is measured when it first is one. Measured at the first
searches instead, it was most of their cost: on the two-year agent of ``perf search`` (2,133
vectors) the first query measured 856 candidates (47 ms CPU), the first ten 14 ms each, and a first
pass over 200 queries had a p95 of 12.0 ms against 4.8 ms once every row was known; measuring all
2,133 rows at once takes ~0.1 s.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import repeat

import numpy as np

from .vectors import AgentVectors

SHARE = 0.8  # CSLS (2·cos − hub) is 0.5; chosen on the train halves (docs/memory.md)
NEIGHBOURS = 10  # the lines a hub is near: CSLS's usual k
REFERENCE = 2048  # rows a candidate's hubness is measured against (a strided sample beyond)
TYPICAL_SAMPLE = 256  # rows whose mean hubness stands for a typical line's
WIDER = 3  # the vector ranking offers this many times the pool before the discount
REGROW = 1.25  # the kept hubness is measured afresh once the agent has this many times the rows
WARM_ROWS = 256  # rows measured per call at start-up (~12 ms), so that requests interleave
# An agent with at most this many rows has every row measured afresh after each consolidation
# (~0.1 s for the two-year agent's 2,133, ~0.4 s at this size here), so that its hubness is that of
# the rows as they stand; beyond it, only the new rows are, and every row once it has grown by a
# quarter (``REGROW``).
AFRESH_UP_TO = 8192
# Rows measured per call then (~1.5 ms): the warm runs on the database thread, between the requests
# of a daemon in use, where 256 rows a call held a turn of another agent for up to ~12 ms.
REWARM_ROWS = 32


def _reference(near: AgentVectors) -> tuple[np.ndarray, np.ndarray]:
    """(row indices, int8 rows as float32) of the live rows hubness is measured against."""
    live = np.flatnonzero(near.alive[: near.n] & (near.norms[: near.n] > 0))
    if len(live) > REFERENCE:
        live = live[np.linspace(0, len(live) - 1, REFERENCE).astype(np.int64)]
    return live, near.q.take(live, axis=0).astype(np.float32)


def _measure(near: AgentVectors, rows_at: np.ndarray) -> np.ndarray:
    """The hubness of the rows ``rows_at``: mean cosine to their ``NEIGHBOURS`` nearest other rows.

    The dot products are taken of the int8 rows themselves, in float32, where they are exact (at
    most 1,024 · 128² = 2²⁴ for the models here, 384 and 512 dimensions, whatever order the sums
    run in) and only then divided by the norms: a
    row's figure is then the same float whichever other rows it is measured with. Products of the
    rows already divided by their norms differed in the last bit with the batch (BLAS picks its
    kernel by the matrix's shape), and with them the items of ~half the first searches, depending on
    which candidates an earlier search had measured."""
    live, ref = _reference(near)
    if len(live) <= NEIGHBOURS:
        return np.zeros(len(rows_at), dtype=np.float32)
    norms = near.norms.take(rows_at)
    sims = near.q.take(rows_at, axis=0).astype(np.float32) @ ref.T
    sims /= np.where(norms > 0, norms, 1.0)[:, None]
    sims /= near.norms.take(live)[None, :]
    sims[rows_at[:, None] == live[None, :]] = -1.0  # a row is not its own neighbour
    top = np.partition(sims, -NEIGHBOURS, axis=1)[:, -NEIGHBOURS:]
    return top.mean(axis=1)


def _typical_rows(near: AgentVectors) -> np.ndarray:
    """The live rows whose mean hubness stands for a typical line's."""
    live = np.flatnonzero(near.alive[: near.n] & (near.norms[: near.n] > 0))
    if len(live) > TYPICAL_SAMPLE:
        live = live[np.linspace(0, len(live) - 1, TYPICAL_SAMPLE).astype(np.int64)]
    return live


def _kept(near: AgentVectors) -> dict[int, float]:
    """The agent's kept hubness by item (a typical line's under key -1), afresh when it has grown."""
    memo = near.hubs
    if memo and len(near) <= near.hubs_base * REGROW:
        return memo
    memo.clear()
    near.hubs_base = max(1, len(near))
    live = _typical_rows(near)
    memo[-1] = float(_measure(near, live).mean()) if len(live) else 0.0
    return memo


def warm(near: AgentVectors, start: int, afresh: bool = False) -> int | None:
    """Measure the hubness of the agent's live rows ``start`` to ``start + WARM_ROWS`` not measured
    yet, so that searches find it kept; where the next call starts, None when the rows are done.
    Each row's figure is its own (its cosines to the reference rows), whichever rows it is measured
    with, so a search ranks the same whether the row was measured here or when it was a candidate.
    ``afresh`` (after a consolidation): every row is measured again against the rows as they now
    stand (``rewarm``) when the agent has at most ``AFRESH_UP_TO`` rows."""
    if afresh and len(near) <= AFRESH_UP_TO:
        return rewarm(near, start)
    memo = _kept(near)
    stop = min(near.n, start + (REWARM_ROWS if afresh else WARM_ROWS))
    rows = start + np.flatnonzero(near.alive[start:stop])
    _keep(near, memo, [i for i in near.ids[rows].tolist() if i not in memo])
    return stop if stop < near.n else None


def rewarm(near: AgentVectors, start: int) -> int | None:
    """Every live row's hubness measured again, ``REWARM_ROWS`` a call, into a memo of its own that
    replaces the kept one whole at the last call: meanwhile searches use the kept one, complete, and
    measure nothing themselves (cleared at the first call, the searches between the calls measured
    the candidates not measured yet, tens of ms). A typical line's figure is the mean of the sample's
    figures as measured here, which is bitwise what measuring the sample in one batch gives. When the
    rows changed between two calls (a write moved the agent's generation), the new memo is dropped:
    searches go on with the kept one, the next job's warm measures afresh."""
    if start == 0:
        near.hubs_next, near.hubs_next_generation = {}, near.generation
    staged = near.hubs_next
    if staged is None or near.hubs_next_generation != near.generation:
        near.hubs_next = None
        return None
    stop = min(near.n, start + REWARM_ROWS)
    rows = start + np.flatnonzero(near.alive[start:stop])
    if len(rows):
        staged.update(zip(near.ids[rows].tolist(), _measure(near, rows).tolist(), strict=True))
    if stop < near.n:
        return stop
    sample = near.ids[_typical_rows(near)].tolist()
    staged[-1] = (
        float(np.array([staged[i] for i in sample], dtype=np.float32).mean()) if sample else 0.0
    )
    near.hubs, near.hubs_base, near.hubs_next = staged, max(1, len(near)), None
    return None


def _measured(near: AgentVectors, item_ids: Sequence[int]) -> dict[int, float]:
    """The agent's kept hubness, with that of ``item_ids`` measured where it is not kept yet (items
    without a vector are not measured)."""
    memo = _kept(near)
    if memo.keys() >= set(item_ids):  # after the warm-up, nearly always: one set operation
        return memo
    _keep(near, memo, [i for i in item_ids if i not in memo and i in near.row])
    return memo


def _keep(near: AgentVectors, memo: dict[int, float], item_ids: list[int]) -> None:
    """Measure the hubness of ``item_ids`` (each with a row) and keep it in ``memo``."""
    if item_ids:
        at = np.array([near.row[i] for i in item_ids], dtype=np.int64)
        memo.update(zip(item_ids, _measure(near, at).tolist(), strict=True))


def hubness(near: AgentVectors, item_ids: list[int]) -> dict[int, float]:
    """Each item's hubness (items without a vector left out), measured once and kept."""
    memo = _measured(near, item_ids)
    return {i: memo[i] for i in item_ids if i in memo}


def discounted(near: AgentVectors, sims: list[tuple[int, float]], k: int) -> dict[int, float]:
    """The best ``k`` of ``sims`` (item, cosine) once each cosine is discounted by its item's
    hubness above a typical line's.

    In numpy over the ~600 candidates the vector ranking offers at 1,000 tokens: the same float64
    arithmetic, operation by operation, as one Python expression per item, and a stable sort, so
    the same scores in the same order as a dict and ``sorted`` gave (which took ~0.3 ms a search)."""
    if not SHARE or not sims:
        return dict(sims[:k])
    ids, cosines = zip(*sims, strict=True)
    memo = _measured(near, ids)
    typical = memo.get(-1, 0.0)
    hub = np.fromiter(map(memo.get, ids, repeat(typical)), dtype=np.float64, count=len(ids))
    scored = np.array(cosines, dtype=np.float64) - SHARE * (hub - typical)
    best = np.argsort(-scored, kind="stable")[:k]
    return dict(
        zip(np.array(ids, dtype=np.int64)[best].tolist(), scored[best].tolist(), strict=True)
    )
