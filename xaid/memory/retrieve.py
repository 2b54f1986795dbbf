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
from dataclasses import dataclass, replace
from typing import Any

import apsw
import numpy as np

from .. import clock
from ..prompt import estimate_tokens
from ..store import memory as sql
from ..store import utterances as utterance_sql
from . import cues, extract, index, utterances

DAY_MS = 86_400_000
MIN_COSINE = 0.3
MIN_COSINE_CJK = 0.45
CANDIDATES = 40  # per index, at least; more for a larger budget (candidates_for)
MAX_CANDIDATES = 200
RRF_K = 60  # reciprocal rank fusion's constant (Cormack et al.): rank 1 scores 1/61, rank 40 1/100
ROLE_BOOST = 1.15  # "what did you recommend": the companion's turns first
WINDOW_BOOST = 0.2  # said on a day the query names
NEIGHBOURS = 12  # top utterance hits whose neighbour turns become candidates
NEXT_SHARE = 0.9  # the answer after a matched question scores this share of the question
PREV_SHARE = 0.6  # the question before a matched answer
# An episode summary costs as much as several turns and quotes turns that are searchable themselves:
# it has to be clearly more relevant to be worth its room. (It still comes first on an opener.)
KIND_WEIGHT = {"episode": 0.6}
CUT_TOKENS = 100  # an utterance longer than this is cut to the sentences that hold the query's words
OWN_THREAD_FROM = 4096  # vectors of the agent above which the vector ranking gets a thread of its own
_POOL = ThreadPoolExecutor(max_workers=1, thread_name_prefix="xaid-vectors")


@dataclass(frozen=True, slots=True)
class Hit:
    kind: str
    id: int
    text: str  # as the prompt shows it: an utterance dated and attributed ("[7 May 2023] you: …")
    score: float
    ts_ms: int
    refs: tuple[str, ...]
    when: str
    role: str = "user"  # whose words: the user's, or the companion's own ("assistant")
    speaker: str | None = None
    content: str = ""  # the memory's own words, undecorated
    current: bool = True  # False: history (superseded), returned because the query asks about the past

    def to_wire(self) -> dict[str, Any]:
        return {"kind": self.kind, "id": self.id, "text": self.text, "score": round(self.score, 4), "ts": self.ts_ms,
                "when": self.when, "refs": list(self.refs), "role": self.role, "speaker": self.speaker,
                "content": self.content or self.text, "current": self.current}


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


@dataclass(frozen=True, slots=True)
class _About:
    """What ranking needs to know of the memory behind a candidate item."""

    value: float
    current: bool  # False: superseded (history); only a question about the past gets it back
    role: str = "user"
    speaker: str | None = None
    refs: tuple[str, ...] = ()
    prev_id: int | None = None


_VALUE_SQL = {
    "fact": "SELECT fact_id, value, status = 'current', status = 'superseded' FROM facts WHERE fact_id IN ({})",
    "highlight": "SELECT highlight_id, 0.5 + 0.5 * intensity, 1, 0 FROM highlights WHERE highlight_id IN ({})",
    "episode": "SELECT episode_id, 0.5 + 0.5 * tension, 1, 0 FROM episodes WHERE episode_id IN ({})",
}


def _about(conn: apsw.Connection, found: dict[int, index.Item], past: bool) -> dict[int, _About]:
    """The memory behind each item, one query per kind; items whose memory is gone or retired (a
    deleted fact; a superseded one unless the past is asked about) are left out."""
    by_kind: dict[str, dict[int, int]] = {}
    for item in found.values():
        by_kind.setdefault(item.kind, {})[item.source_id] = item.item_id
    out: dict[int, _About] = {}
    for kind, sources in by_kind.items():
        if kind == "utterance":
            for u in utterance_sql.many(conn, list(sources)).values():
                if u.status == "current" or past:
                    out[sources[u.utterance_id]] = _About(u.value, u.status == "current", u.role, u.speaker,
                                                          (u.ref,), u.prev_id)
            continue
        marks = ",".join("?" * len(sources))
        for source_id, value, current, superseded in conn.execute(_VALUE_SQL[kind].format(marks), tuple(sources)):
            if current or (superseded and past):
                out[sources[source_id]] = _About(float(value), bool(current))
    refs = sql.refs_of_many(conn, [(found[i].kind, found[i].source_id) for i, a in out.items() if not a.refs])
    return {i: a if a.refs else replace(a, refs=refs.get((found[i].kind, found[i].source_id), ()))
            for i, a in out.items()}


def _rrf(order: Sequence[int]) -> dict[int, float]:
    return {item_id: 1.0 / (RRF_K + rank) for rank, item_id in enumerate(order, 1)}


def _relevance(sims: dict[int, float], keywords: dict[int, float], min_cos: float, fusion: str) -> dict[int, float]:
    """0..1 per item from its vector and keyword evidence. RRF (the default) fuses the two rankings by
    rank, so neither score's scale matters; "mix" is the calibrated linear mix xaid used before."""
    vec = {i: c for i, c in sims.items() if c >= min_cos}
    if fusion == "mix":
        best_kw = max(keywords.values(), default=0.0) or 1.0
        return {i: (0.45 * vec.get(i, 0.0) + 0.25 * keywords.get(i, 0.0) / best_kw) / 0.7 for i in {*vec, *keywords}}
    by_vec = _rrf(sorted(vec, key=lambda i: -vec[i]))
    by_kw = _rrf(sorted(keywords, key=lambda i: -keywords[i]))
    top = 2.0 / (RRF_K + 1)
    return {i: (by_vec.get(i, 0.0) + by_kw.get(i, 0.0)) / top for i in {*by_vec, *by_kw}}


def _said_in(conn: apsw.Connection, agent_id: str, window: tuple[int, int], now_ms: int, limit: int) -> set[int]:
    """Turns said on the days a query names ("last weekend", "上周三"): candidates whatever their words."""
    return {r[0] for r in conn.execute(
        "SELECT item_id FROM memory_items WHERE agent_id = ? AND kind = 'utterance' AND ts_ms >= ? AND ts_ms < ? "
        "AND ts_ms <= ? ORDER BY ts_ms DESC LIMIT ?", (agent_id, *window, now_ms, limit))}


def candidates_for(budget_tokens: int) -> int:
    """How many candidates each index offers: enough to fill the budget with distinct turns."""
    return max(CANDIDATES, min(MAX_CANDIDATES, budget_tokens // 8))


def search(conn: apsw.Connection, agent_id: str, query: str, vector: np.ndarray | None, now_ms: int, *,
           k: int, budget_tokens: int, recent_days: int, kinds: frozenset[str] | None = None,
           touch: bool = True, multilingual: bool = False, fusion: str = "rrf") -> tuple[list[Hit], int]:
    chinese = index.mostly_cjk(query)
    if chinese and not multilingual:
        vector = None  # an English-only model maps all Chinese text close together: its similarity is noise
    pool = candidates_for(budget_tokens)
    # The vector ranking (numpy) runs on its own thread while this one reads the keyword indexes.
    # Below a few thousand vectors the ranking takes under a millisecond: not worth a thread hop.
    near = index.vectors_of(conn, agent_id, len(vector)) if vector is not None else None
    ranking = (_POOL.submit(near.nearest, vector, pool)
               if near is not None and vector is not None and len(near) > OWN_THREAD_FROM else None)
    opener = index.is_opener(query)  # "Morning", "早": nothing to match on; keyword hits would be noise
    asked = cues.read(query, now_ms, utterance_sql.participants(conn, agent_id)) if not opener else cues.NONE
    keywords = dict(index.keyword(conn, agent_id, asked.topic, pool)) if asked.topic.strip() else {}
    recent_ids = {r[0] for r in conn.execute(
        "SELECT m.item_id FROM memory_items m JOIN episodes e ON e.episode_id = m.source_id "
        "WHERE m.kind = 'episode' AND m.agent_id = ? AND e.ended_ms <= ? AND e.ended_ms >= ?",
        (agent_id, now_ms, now_ms - recent_days * DAY_MS))}
    in_window = _said_in(conn, agent_id, asked.window, now_ms, pool) if asked.window else set()
    if ranking is not None:
        sims = dict(ranking.result())
    else:
        sims = dict(near.nearest(vector, pool)) if near is not None and vector is not None else {}
    min_cos = MIN_COSINE_CJK if chinese else MIN_COSINE
    if opener:  # nothing to match on: only a strong vector match counts
        min_cos = max(min_cos, 0.6)
    found = {i: item for i, item in index.items(conn, list({*sims, *keywords, *recent_ids, *in_window})).items()
             if item.agent_id == agent_id and item.ts_ms <= now_ms and not (kinds and item.kind not in kinds)}
    about = _about(conn, found, asked.past)
    relevance = _relevance({i: c for i, c in sims.items() if i in about}, {i: v for i, v in keywords.items()
                                                                            if i in about}, min_cos, fusion)
    scored: dict[int, float] = {}
    for item_id, item in found.items():
        a = about.get(item_id)
        if a is None or (item_id not in relevance and item_id not in recent_ids and item_id not in in_window):
            continue
        age_days = max(0, now_ms - item.ts_ms) / DAY_MS
        score = 0.8 * relevance.get(item_id, 0.0) * KIND_WEIGHT.get(item.kind, 1.0) + 0.1 * 2 ** (-age_days / 30) \
            + 0.1 * a.value
        if asked.role is not None and item.kind == "utterance":
            score *= ROLE_BOOST if a.role == asked.role else 1.0
        if item_id in in_window:
            score += WINDOW_BOOST
        if item_id in recent_ids:
            score = max(score, (0.35 + 0.25 * 2 ** (-age_days)) if opener else (0.15 + 0.1 * 2 ** (-age_days)))
        scored[item_id] = score
    _add_neighbours(conn, agent_id, now_ms, found, about, scored, kinds)
    ranked = sorted(scored, key=lambda i: (-scored[i], -found[i].ts_ms))
    terms = utterances.terms(asked.topic)
    chosen: list[Hit] = []
    covered: set[str] = set()
    used = 0
    for item_id in ranked:
        item, a = found[item_id], about[item_id]
        if item.kind != "episode" and a.refs and covered.issuperset(a.refs):
            continue  # a fact and the turn it came from say one thing: spend the budget once
        if item.kind == "utterance":
            text = utterances.line(a.role, a.speaker, utterances.cut(item.text, terms, CUT_TOKENS), item.ts_ms)
        else:
            text = item.text
        cost = estimate_tokens(text)
        if used + cost > budget_tokens or len(chosen) >= k:
            continue
        used += cost
        if item.kind != "episode":
            covered.update(a.refs)
        chosen.append(Hit(item.kind, item.source_id, text, scored[item_id], item.ts_ms, a.refs,
                          ago(item.ts_ms, now_ms), a.role, a.speaker, item.text, a.current))
    if touch:
        mark_referenced(conn, chosen, now_ms)
    return chosen, used


def _add_neighbours(conn: apsw.Connection, agent_id: str, now_ms: int, found: dict[int, index.Item],
                    about: dict[int, _About], scored: dict[int, float], kinds: frozenset[str] | None) -> None:
    """The turn around a strong utterance hit: the answer after a question ("what should I read?" →
    the companion's recommendation) and the question before an answer. A question-and-answer pair is
    one memory split over two turns; a match on either half should bring the other."""
    if kinds and "utterance" not in kinds:
        return
    top = sorted((i for i in scored if found[i].kind == "utterance"), key=lambda i: -scored[i])[:NEIGHBOURS]
    if not top:
        return
    by_utt = {found[i].source_id: i for i in top}
    links: dict[int, tuple[int, float]] = {}  # neighbour utterance id → (the hit's item id, share of its score)
    for item_id in top:
        if (prev := about[item_id].prev_id) is not None:
            links.setdefault(prev, (item_id, PREV_SHARE))
    for nxt, prev in utterance_sql.next_of(conn, list(by_utt)).items():
        if extract.is_question(found[by_utt[prev]].text):
            links[nxt] = (by_utt[prev], NEXT_SHARE)
    near = index.items_of(conn, "utterance", list(links))
    fresh = {i: item for i, item in near.items() if i not in scored and item.agent_id == agent_id
             and item.ts_ms <= now_ms and (links[item.source_id][1] == NEXT_SHARE or extract.is_question(item.text))}
    found.update(fresh)
    about.update({i: a for i, a in _about(conn, fresh, False).items()})
    for item_id, item in fresh.items():
        if item_id in about:
            hit, share = links[item.source_id]
            scored[item_id] = scored[hit] * share


def mark_referenced(conn: apsw.Connection, hits: Sequence[Hit], now_ms: int) -> None:
    """Hits count as references, which keep them from the forgetting curve."""
    for hit in hits:
        if hit.kind == "utterance":
            utterance_sql.touch(conn, hit.id, now_ms)
        else:
            sql.touch(conn, hit.kind, hit.id, now_ms)


def render(hits: list[Hit]) -> str:
    """The memories block placed just before the newest user message."""
    lines = [f"- ({h.when}) {h.text}" for h in hits]
    return ("Things you remember from earlier conversations (use them only if they fit; don't recite them):\n"
            + "\n".join(lines))
