"""The read path: what this turn should remember, found in milliseconds, cut to a token budget.

Two sources, fused into one ranked list:
- L1 by time: the episodes of the last ``recent_days`` are always candidates, the newest
  scoring highest, so "Morning" brings back yesterday even though the words share nothing;
- L2 and highlights by relevance: vector similarity (sqlite-vec KNN) and keyword relevance
  (FTS5 bm25, unicode61 for Latin words, trigram for Chinese), mixed with recency and value.

score = 0.45·cosine + 0.25·keyword/best_keyword + 0.15·recency + 0.15·value. Recent episodes get a
floor that depends on how much the turn says: for an opener with no content words ("Morning",
"早") at least 0.35 + 0.25·2^(-days), so yesterday comes first; for a real question only
0.15 + 0.1·2^(-days), so a relevant fact or highlight outranks an unrelated recent episode. Items
need a vector match ≥ 0.3 (≥ 0.6 for an opener, which has nothing to match on and gets no keyword
hits either) or a keyword hit, unless they are recent episodes. A mostly Chinese query ranks by
keywords only unless ``memory.embed_multilingual`` says the model reads Chinese: the default
MiniLM is English-only and scores unrelated Chinese texts at 0.3–0.6 (≥ 0.45 is required when it
does read Chinese). Hits are dated in words ("yesterday", "3 weeks ago") and count as references, which
protects them from the forgetting curve.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import apsw
import numpy as np

from .. import clock
from ..prompt import estimate_tokens
from ..store import memory as sql
from . import index

DAY_MS = 86_400_000
MIN_COSINE = 0.3
MIN_COSINE_CJK = 0.45
CANDIDATES = 40
OWN_THREAD_FROM = 4096  # vectors of the agent above which the vector ranking gets a thread of its own
_POOL = ThreadPoolExecutor(max_workers=1, thread_name_prefix="xaid-vectors")


@dataclass(frozen=True, slots=True)
class Hit:
    kind: str
    id: int
    text: str
    score: float
    ts_ms: int
    refs: tuple[str, ...]
    when: str

    def to_wire(self) -> dict[str, Any]:
        return {"kind": self.kind, "id": self.id, "text": self.text, "score": round(self.score, 4), "ts": self.ts_ms,
                "when": self.when, "refs": list(self.refs)}


def ago(ts_ms: int, now_ms: int) -> str:
    zone = clock.zone()  # days of the user's calendar: 23:00 yesterday is "yesterday" at 08:00
    day = lambda ms: dt.datetime.fromtimestamp(ms / 1000, zone).date()  # noqa: E731
    days = (day(now_ms) - day(ts_ms)).days
    if days <= 0:
        return "earlier today"
    if days == 1:
        return "yesterday"
    if days < 7:
        return f"{days} days ago"
    if days < 30:
        weeks = round(days / 7)
        return "a week ago" if weeks == 1 else f"{weeks} weeks ago"
    if days < 365:
        months = round(days / 30)
        return "a month ago" if months == 1 else f"{months} months ago"
    years = round(days / 365)
    return "a year ago" if years == 1 else f"{years} years ago"


_VALUE_SQL = {
    "fact": "SELECT fact_id, value, status = 'current' FROM facts WHERE fact_id IN ({})",
    "highlight": "SELECT highlight_id, 0.5 + 0.5 * intensity, 1 FROM highlights WHERE highlight_id IN ({})",
    "episode": "SELECT episode_id, 0.5 + 0.5 * tension, 1 FROM episodes WHERE episode_id IN ({})",
}


def _values(conn: apsw.Connection, found: dict[int, index.Item]) -> dict[int, tuple[float, bool]]:
    """(value 0..1, still current) of the memory behind each item: one query per kind, not per item."""
    by_kind: dict[str, dict[int, int]] = {}
    for item in found.values():
        by_kind.setdefault(item.kind, {})[item.source_id] = item.item_id
    out: dict[int, tuple[float, bool]] = {}
    for kind, sources in by_kind.items():
        marks = ",".join("?" * len(sources))
        for source_id, value, current in conn.execute(_VALUE_SQL[kind].format(marks), tuple(sources)):
            out[sources[source_id]] = (float(value), bool(current))
    return out


def search(conn: apsw.Connection, agent_id: str, query: str, vector: np.ndarray | None, now_ms: int, *,
           k: int, budget_tokens: int, recent_days: int, kinds: frozenset[str] | None = None,
           touch: bool = True, multilingual: bool = False) -> tuple[list[Hit], int]:
    chinese = index.mostly_cjk(query)
    if chinese and not multilingual:
        vector = None  # an English-only model maps all Chinese text close together: its similarity is noise
    # The vector ranking (numpy) runs on its own thread while this one reads the keyword indexes.
    # Below a few thousand vectors the ranking takes under a millisecond: not worth a thread hop.
    near = index.vectors_of(conn, agent_id, len(vector)) if vector is not None else None
    ranking = (_POOL.submit(near.nearest, vector, CANDIDATES)
               if near is not None and vector is not None and len(near) > OWN_THREAD_FROM else None)
    opener = index.is_opener(query)  # "Morning", "早": nothing to match on; keyword hits would be noise
    keywords = dict(index.keyword(conn, agent_id, query, CANDIDATES)) if query.strip() and not opener else {}
    recent_ids = {r[0] for r in conn.execute(
        "SELECT m.item_id FROM memory_items m JOIN episodes e ON e.episode_id = m.source_id "
        "WHERE m.kind = 'episode' AND m.agent_id = ? AND e.ended_ms <= ? AND e.ended_ms >= ?",
        (agent_id, now_ms, now_ms - recent_days * DAY_MS))}
    if ranking is not None:
        sims = dict(ranking.result())
    else:
        sims = dict(near.nearest(vector, CANDIDATES)) if near is not None and vector is not None else {}
    best_kw = max(keywords.values(), default=0.0) or 1.0
    min_cos = MIN_COSINE_CJK if chinese else MIN_COSINE
    if opener:  # nothing to match on: only a strong vector match counts
        min_cos = max(min_cos, 0.6)
    found = {i: item for i, item in index.items(conn, list({*sims, *keywords, *recent_ids})).items()
             if item.agent_id == agent_id and item.ts_ms <= now_ms and not (kinds and item.kind not in kinds)}
    values = _values(conn, found)
    scored: list[tuple[float, index.Item]] = []
    for item_id, item in found.items():
        cos = sims.get(item_id, 0.0)
        kw = keywords.get(item_id, 0.0) / best_kw
        if cos < min_cos:
            cos = 0.0
        if cos <= 0 and kw <= 0 and item_id not in recent_ids:
            continue
        value, current = values.get(item_id, (0.0, False))
        if not current:
            continue
        age_days = max(0, now_ms - item.ts_ms) / DAY_MS
        score = 0.45 * max(cos, 0.0) + 0.25 * kw + 0.15 * 2 ** (-age_days / 30) + 0.15 * value
        if item_id in recent_ids:
            score = max(score, (0.35 + 0.25 * 2 ** (-age_days)) if opener else (0.15 + 0.1 * 2 ** (-age_days)))
        scored.append((score, item))
    scored.sort(key=lambda s: (-s[0], -s[1].ts_ms))
    chosen: list[tuple[float, index.Item]] = []
    used = 0
    for score, item in scored:
        cost = estimate_tokens(item.text)
        if used + cost > budget_tokens or len(chosen) >= k:
            continue
        used += cost
        chosen.append((score, item))
    refs = sql.refs_of_many(conn, [(item.kind, item.source_id) for _, item in chosen])
    hits = [Hit(item.kind, item.source_id, item.text, score, item.ts_ms, refs.get((item.kind, item.source_id), ()),
                ago(item.ts_ms, now_ms)) for score, item in chosen]
    if touch:
        mark_referenced(conn, hits, now_ms)
    return hits, used


def mark_referenced(conn: apsw.Connection, hits: Sequence[Hit], now_ms: int) -> None:
    """Hits count as references, which keep them from the forgetting curve."""
    for hit in hits:
        sql.touch(conn, hit.kind, hit.id, now_ms)


def render(hits: list[Hit]) -> str:
    """The memories block placed just before the newest user message."""
    lines = [f"- ({h.when}) {h.text}" for h in hits]
    return ("Things you remember from earlier conversations (use them only if they fit; don't recite them):\n"
            + "\n".join(lines))
