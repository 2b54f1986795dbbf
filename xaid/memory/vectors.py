"""Nearest memories by vector in a few milliseconds: int8 vectors held in memory, vec0 as their
durable copy.

Why not vec0's own KNN: sqlite-vec 0.1.9 (built without SIMD) reads every vector of the agent's
partition through SQLite's blob I/O on every query: 70 ms at 100k float vectors here, against an
aim of 10 ms for a whole search. Quantized, a vector is 384 bytes (int8) or 48 bytes (its sign
bits), so each agent's vectors are loaded once into numpy arrays. A query ranks them all by
Hamming distance on the sign bits (an XOR and a popcount per 64 dimensions), then re-scores the
best ``rescore_count(n)`` by cosine between the float query and the int8 rows; up to that many
rows, every row is re-scored, which is exact up to the int8 rounding.

int8 with a scale per vector: cosine ignores a vector's length, so each one spends the whole
-127..127 range on its own components (MiniLM's are within ±0.25, which a fixed [-1, 1] scale
would squeeze into ±32 steps).

Coherence: the arrays are a cache of the table. Every change to an agent's vectors bumps the
agent's generation in ``vector_generations`` within the same transaction, and the cache records
the generation it reflects. A change made on another connection, or one rolled back after the
cache applied it, leaves the two different, and the next query reloads the agent from vec0.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Sequence
from typing import Any

import apsw
import numpy as np

# Sign bits alone rank poorly among near-ties: on clustered vectors (perf/bench/memory.py) re-scoring
# 2,048 of 10k gave recall@10 0.95, 5,000 of 100k 0.945 and 10,000 0.964; each 1,000 re-scored
# rows cost ~0.5 ms at 100k here.
MIN_RESCORE = 4096  # up to this many vectors the Hamming step is skipped: every row is re-scored
RESCORE_SHARE = 1 / 16  # beyond it, this share of the agent's vectors is re-scored
CENTER_FROM = (
    256  # an agent loaded with at least this many vectors gets sign bits around their mean
)
_CHUNK = 8192  # rows converted to float at a time: 100k at once would take 150 MB
# An agent with at most this many vectors keeps a float32 copy of its rows (4 bytes a component:
# 8 MB at 4,096 × 512) for the ranking, which then reads them in place: converting every int8 row
# to float afresh (a new array of n × dim floats, page faults included) was three quarters of the
# vector ranking's time on a two-year agent (2,214 vectors: 0.8 -> 0.2 ms).
FLOAT_ROWS = MIN_RESCORE


def rescore_count(n: int) -> int:
    return min(n, max(MIN_RESCORE, int(n * RESCORE_SHARE)))


def quantize(vector: np.ndarray) -> np.ndarray:
    """int8 components scaled so that the largest is ±127 (a zero vector stays zero)."""
    v = np.asarray(vector, dtype=np.float32).ravel()
    peak = float(np.abs(v).max()) if v.size else 0.0
    if not peak or not np.isfinite(peak):
        return np.zeros(v.size, dtype=np.int8)
    return np.round(v * (127.0 / peak)).astype(np.int8)


def sign_bits(rows: np.ndarray) -> np.ndarray:
    """(n, dim) → (n, ⌈dim/64⌉) uint64: one bit per positive component, for Hamming distance."""
    packed = np.packbits(np.atleast_2d(rows) > 0, axis=1)
    pad = (-packed.shape[1]) % 8
    if pad:
        packed = np.pad(packed, ((0, 0), (0, pad)))
    return np.ascontiguousarray(packed).view(np.uint64)


class AgentVectors:
    """One agent's vectors: ids, int8 rows, their sign bits and norms, in growable arrays."""

    def __init__(
        self, dim: int, generation: int, ids: Sequence[int] = (), rows: np.ndarray | None = None
    ) -> None:
        self.dim = dim
        self.generation = generation
        self.center = np.zeros(dim, dtype=np.float32)
        self._allocate(max(64, len(ids)))
        if len(ids):
            assert rows is not None
            self._fill(np.asarray(ids, dtype=np.int64), rows)

    def _allocate(self, capacity: int) -> None:
        self.ids = np.full(capacity, -1, dtype=np.int64)
        self.q = np.zeros((capacity, self.dim), dtype=np.int8)
        self.norms = np.zeros(capacity, dtype=np.float32)
        self.codes = np.zeros((capacity, (self.dim + 63) // 64), dtype=np.uint64)
        self.alive = np.zeros(capacity, dtype=bool)
        self.n = 0
        self.dead = 0
        self.row: dict[int, int] = {}
        # the live rows' indices and those rows as float32 (``_float_rows``); None: stale
        self._floats: tuple[np.ndarray, np.ndarray] | None = None
        # hubs.py's kept hubness by item (-1: a typical line's), and the rows it was measured with
        self.hubs: dict[int, float] = {}
        self.hubs_base = 0
        # hubs.rewarm's memo in the making, and the generation of the rows it is measured against
        self.hubs_next: dict[int, float] | None = None
        self.hubs_next_generation = 0

    def __len__(self) -> int:
        return len(self.row)

    def _fill(self, ids: np.ndarray, rows: np.ndarray) -> None:
        count = len(ids)
        self.ids[:count] = ids
        self.q[:count] = rows
        self.norms[:count] = np.sqrt(np.einsum("ij,ij->i", rows, rows, dtype=np.int32))
        if count >= CENTER_FROM:
            self.center = _mean_direction(rows, self.norms[:count])
        for start in range(0, count, _CHUNK):
            part = slice(start, min(count, start + _CHUNK))
            self.codes[part] = self._code(rows[part].astype(np.float32), self.norms[part])
        self.alive[:count] = True
        self.n = count
        self.row = dict(zip(ids.tolist(), range(count), strict=True))

    def put(self, item_id: int, q: np.ndarray) -> None:
        r = self.row.get(item_id)
        if r is None:
            if self.n == len(self.ids):
                self._grow()
            r = self.n
            self.n += 1
            self.row[item_id] = r
            self.ids[r] = item_id
            self.alive[r] = True
        self._floats = None
        self.q[r] = q
        self.norms[r] = float(np.linalg.norm(q.astype(np.float32)))
        self.codes[r] = self._code(q[None, :].astype(np.float32), self.norms[r : r + 1])[0]

    def _code(self, rows: np.ndarray, norms: np.ndarray) -> np.ndarray:
        """Sign bits of the rows' directions relative to the agent's mean direction: embeddings
        share a common component, and the signs around it carry more (recall@10 at 100k with
        6,250 re-scored: 0.948 raw, 0.978 centred)."""
        return sign_bits(rows / np.where(norms > 0, norms, 1.0)[:, None] - self.center)

    def cosine(self, a: int, b: int) -> float | None:
        """The cosine of two stored items (from their int8 rows); None when either has no vector."""
        ra, rb = self.row.get(a), self.row.get(b)
        if ra is None or rb is None or not self.norms[ra] or not self.norms[rb]:
            return None
        dot = self.q[ra].astype(np.float32) @ self.q[rb].astype(np.float32)
        return float(dot / (self.norms[ra] * self.norms[rb]))

    def vector(self, item_id: int) -> np.ndarray | None:
        """A stored item's vector (from its int8 row, float32), to rank the agent's items against
        it; None when it has none."""
        r = self.row.get(item_id)
        return None if r is None or not self.norms[r] else self.q[r].astype(np.float32)

    def remove(self, item_id: int) -> None:
        r = self.row.pop(item_id, None)
        if r is None:
            return
        self.alive[r] = False
        self.ids[r] = -1
        self.dead += 1
        self._floats = None
        if self.dead > 64 and self.dead > self.n // 4:
            self._compact()

    def _grow(self) -> None:
        size = len(self.ids) * 2
        self.ids = np.concatenate([self.ids, np.full(size - len(self.ids), -1, dtype=np.int64)])
        self.q = np.concatenate([self.q, np.zeros((size - len(self.q), self.dim), dtype=np.int8)])
        self.norms = np.concatenate(
            [self.norms, np.zeros(size - len(self.norms), dtype=np.float32)]
        )
        self.codes = np.concatenate(
            [self.codes, np.zeros((size - len(self.codes), self.codes.shape[1]), dtype=np.uint64)]
        )
        self.alive = np.concatenate([self.alive, np.zeros(size - len(self.alive), dtype=bool)])

    def _compact(self) -> None:
        keep = np.flatnonzero(self.alive[: self.n])
        ids, rows = self.ids[keep].copy(), self.q[keep].copy()
        self._allocate(max(64, len(ids)))
        self._fill(ids, rows)

    def _float_rows(self) -> tuple[np.ndarray, np.ndarray] | None:
        """(the live rows' indices, those rows as float32, in row order) when there are at most
        ``FLOAT_ROWS`` rows (made on the first ranking after a change, or by ``warm``); None
        otherwise. The product over them is bitwise the one over a fresh conversion of the same
        rows (same shape, same values): only the copy is saved, never a digit of a cosine. Dead rows
        (a memory replaced or forgotten, kept until a quarter of the rows are) are left out of the
        copy rather than turning it off: a daemon that consolidates has some nearly always, and
        converting every row afresh at each search made its vector ranking four times slower than
        the same agent's after a restart (perf search: the two-year agent built in the daemon)."""
        if self.n > FLOAT_ROWS:
            self._floats = None
            return None
        if self._floats is None:
            live = np.arange(self.n) if not self.dead else np.flatnonzero(self.alive[: self.n])
            self._floats = (live, self.q.take(live, axis=0).astype(np.float32))
        return self._floats

    def warm(self) -> None:
        """The float copy made now (after a consolidation's changes, off the user's path) rather
        than at the next search."""
        self._float_rows()

    def nearest(self, vector: np.ndarray, k: int) -> list[tuple[int, float]]:
        """(item_id, cosine) of the ``k`` nearest rows, best first; cosine from the int8 rows."""
        n = self.n
        live = len(self.row)
        if not live or k <= 0:
            return []
        v = np.asarray(vector, dtype=np.float32).ravel()
        if not np.any(v):
            return []  # a zero vector has no direction to compare
        m = rescore_count(live)
        floats = self._float_rows() if m >= live else None
        if floats is not None:
            candidates = floats[0]
        elif m >= live:
            candidates = np.flatnonzero(self.alive[:n])
        else:
            distance = _hamming(
                self.codes[:n], self._code(v[None, :], np.linalg.norm(v[None, :], axis=1))[0]
            )
            if self.dead:
                distance[~self.alive[:n]] = np.iinfo(distance.dtype).max
            candidates = np.sort(
                np.argpartition(distance, m)[:m]
            )  # in order, so the gather reads forward
        norms = self.norms.take(candidates)
        rows = (
            floats[1] if floats is not None else self.q.take(candidates, axis=0).astype(np.float32)
        )
        sims = rows @ v
        sims /= np.where(norms > 0, norms, np.inf) * float(np.linalg.norm(v))
        top = min(k, len(candidates))
        best = np.argpartition(-sims, top - 1)[:top]
        best = best[np.argsort(-sims[best], kind="stable")]
        return list(zip(self.ids[candidates[best]].tolist(), sims[best].tolist(), strict=True))


def _mean_direction(rows: np.ndarray, norms: np.ndarray) -> np.ndarray:
    total = np.zeros(rows.shape[1], dtype=np.float64)
    for start in range(0, len(rows), _CHUNK):
        part = slice(start, start + _CHUNK)
        total += (
            rows[part].astype(np.float32) / np.where(norms[part] > 0, norms[part], 1.0)[:, None]
        ).sum(axis=0)
    return (total / max(1, len(rows))).astype(np.float32)


def _hamming(codes: np.ndarray, query: np.ndarray) -> np.ndarray:
    """Bits differing per row; column by column, which numpy does 2-3x faster than ``sum(axis=1)``."""
    counts = np.bitwise_count(codes ^ query)
    distance = counts[:, 0].astype(np.uint16)
    for j in range(1, counts.shape[1]):
        distance += counts[:, j]
    return distance


_CACHES: weakref.WeakKeyDictionary[apsw.Connection, dict[str, AgentVectors]] = (
    weakref.WeakKeyDictionary()
)


def _agents(conn: apsw.Connection) -> dict[str, AgentVectors]:
    cache = _CACHES.get(conn)
    if cache is None:
        cache = _CACHES[conn] = {}
    return cache


def _generation(conn: apsw.Connection, agent_id: str) -> int:
    row = conn.execute(
        "SELECT generation FROM vector_generations WHERE agent_id = ?", (agent_id,)
    ).fetchone()
    return int(row[0]) if row else 0


def _bump(conn: apsw.Connection, agent_id: str) -> int:
    """Advance the agent's generation; the cache may follow only if it was current before."""
    return int(
        conn.execute(
            "INSERT INTO vector_generations (agent_id, generation) VALUES (?, 1) "
            "ON CONFLICT(agent_id) DO UPDATE SET generation = generation + 1 RETURNING generation",
            (agent_id,),
        ).get
    )


def _cached(conn: apsw.Connection, agent_id: str, generation: int) -> AgentVectors | None:
    """The agent's cache when it reflects ``generation``; a stale one is dropped."""
    cache = _agents(conn)
    found = cache.get(agent_id)
    if found is not None and found.generation != generation:
        del cache[agent_id]
        return None
    return found


def put(conn: apsw.Connection, table: str, agent_id: str, item_id: int, vector: np.ndarray) -> None:
    q = quantize(vector)
    conn.execute(f"DELETE FROM {table} WHERE item_id = ?", (item_id,))
    conn.execute(
        f"INSERT INTO {table} (item_id, agent_id, embedding) VALUES (?, ?, vec_int8(?))",
        (item_id, agent_id, q.tobytes()),
    )
    generation = _bump(conn, agent_id)
    if (found := _cached(conn, agent_id, generation - 1)) is not None:
        found.put(item_id, q)
        found.generation = generation


def remove(conn: apsw.Connection, table: str, agent_id: str, item_ids: Iterable[int]) -> None:
    ids = list(item_ids)
    if not ids:
        return
    for item_id in ids:
        conn.execute(f"DELETE FROM {table} WHERE item_id = ?", (item_id,))
    generation = _bump(conn, agent_id)
    if (found := _cached(conn, agent_id, generation - 1)) is not None:
        for item_id in ids:
            found.remove(item_id)
        found.generation = generation


def remove_agent(conn: apsw.Connection, table: str, agent_id: str) -> None:
    conn.execute(f"DELETE FROM {table} WHERE agent_id = ?", (agent_id,))
    _bump(conn, agent_id)
    _agents(conn).pop(agent_id, None)


def invalidate(conn: apsw.Connection, agent_ids: Iterable[str]) -> None:
    """These agents' rows were rewritten: every connection's copy reloads at its next query."""
    for agent_id in agent_ids:
        _bump(conn, agent_id)
    forget_cache(conn)


def forget_cache(conn: apsw.Connection) -> None:
    """After the table was rebuilt (a new model, a restore): every agent reloads on its next query."""
    _agents(conn).clear()


def _from_chunks(
    conn: apsw.Connection, table: str, agent_id: str, dim: int
) -> tuple[list[int], np.ndarray | None] | None:
    """The agent's rows read from vec0's own chunk tables: ~50 ms at 100k, where its cursor takes
    ~700 ms (it fetches row by row). This is sqlite-vec 0.1's storage layout, so it is checked
    (sizes, and a sample against the cursor) and None means: use the cursor."""
    try:
        chunks = conn.execute(
            f"SELECT c.size, c.validity, c.rowids, v.vectors FROM {table}_chunks c "
            f"JOIN {table}_vector_chunks00 v ON v.rowid = c.chunk_id WHERE c.partition00 = ? ORDER BY c.chunk_id",
            (agent_id,),
        ).fetchall()
    except apsw.Error:
        return None
    chunks_any: list[tuple[Any, ...]] = chunks  # vec0's own columns: sizes, bitmaps and blobs
    ids: list[np.ndarray] = []
    rows: list[np.ndarray] = []
    for size, validity, rowids, vecs in chunks_any:
        if not (
            isinstance(validity, bytes)
            and len(validity) * 8 >= size
            and len(rowids) == size * 8
            and len(vecs) == size * dim
        ):
            return None
        valid = np.unpackbits(np.frombuffer(validity, dtype=np.uint8), bitorder="little")[
            :size
        ].astype(bool)
        ids.append(np.frombuffer(rowids, dtype="<i8")[valid])
        rows.append(np.frombuffer(vecs, dtype=np.int8).reshape(size, dim)[valid])
    if not ids:
        return [], None
    all_ids = np.concatenate(ids)
    all_rows = np.concatenate(rows)
    if len(np.unique(all_ids)) != len(all_ids):
        return None
    for i in np.linspace(0, len(all_ids) - 1, num=min(8, len(all_ids)), dtype=np.int64):
        found = conn.execute(
            f"SELECT embedding FROM {table} WHERE item_id = ?", (int(all_ids[i]),)
        ).fetchone()
        if found is None or found[0] != all_rows[i].tobytes():
            return None
    return all_ids.tolist(), all_rows


def _from_cursor(
    conn: apsw.Connection, table: str, agent_id: str, dim: int
) -> tuple[list[int], np.ndarray | None]:
    ids: list[int] = []
    blobs: list[bytes] = []
    for item_id, blob in conn.execute(
        f"SELECT item_id, embedding FROM {table} WHERE agent_id = ?", (agent_id,)
    ):
        ids.append(int(item_id))
        blobs.append(blob)
    return ids, np.frombuffer(b"".join(blobs), dtype=np.int8).reshape(
        len(ids), dim
    ) if ids else None


def load(conn: apsw.Connection, table: str, agent_id: str, dim: int) -> AgentVectors:
    generation = _generation(conn, agent_id)
    if (found := _cached(conn, agent_id, generation)) is not None:
        return found
    ids, rows = _from_chunks(conn, table, agent_id, dim) or _from_cursor(conn, table, agent_id, dim)
    loaded = AgentVectors(dim, generation, ids, rows)
    _agents(conn)[agent_id] = loaded
    return loaded


def nearest(
    conn: apsw.Connection, table: str, agent_id: str, dim: int, vector: np.ndarray, k: int
) -> list[tuple[int, float]]:
    """(item_id, cosine) of this agent's ``k`` nearest vectors, best first."""
    return load(conn, table, agent_id, dim).nearest(vector, k)
