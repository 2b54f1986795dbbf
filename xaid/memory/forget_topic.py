"""What a "forget that" refers to, found by meaning, time and the words it shares with earlier turns.

People name what they want forgotten the way they remember it, not the way they said it: "what I
told you the other night about my cousin's money trouble" after turns about a loan, a debt
collector and a court date; "上回说的那个老同学的事" after "碰到高中同学阿杰". A list of phrasings
cannot cover that (issue 24 item 2; DESIGN.md 3c "Generalise, do not enumerate"), so the topic is
resolved against the user's earlier turns by three signals, none of which is a phrase list:

- meaning: the cosine between the topic phrase and each turn under the daemon's embedder;
- shared words: the share of the topic's content words (English, matched on their first five
  letters so "promotion" finds "promoted") or Chinese character pairs ("老同学" and "高中同学" share
  同学) found in the turn, which is what lifts a name or a rare word above loose meaning;
- time: the days the request names ("last week", "yesterday", 上周, 昨天, and the vaguer "the other
  night", 前几天) raise the turns said then and lower the others.

The best turn is the seed; the turns of the same conversation said around it that are about the
same thing (close to the seed or to the topic) go with it, so "my cousin's money trouble" takes the
loan, the collector and the court date together. The decision is one of three, measured on
perf/scenarios/forgets_dev.json (``python -m perf forgets``): a clear match (the seed scores
at least ``CLEAR`` and leads whatever else is there by ``MARGIN``) is forgotten; a weaker one is
asked about first ("ask"), never forgotten on a guess; below ``ASK_FLOOR`` nothing is found.

Pure: no SQL, no embedder. The caller reads the candidates (store side) and embeds them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, time, tzinfo
from typing import Any, Literal

import numpy as np

from .. import clock
from ..clock import DAY_MS
from ..text import cjk, stopwords, timeparse

# Cuts measured on the dev set with USE-multilingual-v3 (docs/memory.md, "Forget by meaning").
CLEAR = 0.28  # the seed's score at or above which a match may be forgotten without asking
MARGIN = 0.07  # ... when it leads the best turn outside its conversation span by this much
ASK_FLOOR = 0.2  # below this nothing matches: say so and ask what to forget
WORDS_WEIGHT = 0.25  # a turn holding every content word of the topic gains this much
IN_TIME = 0.05  # a turn said in the days the request names
OUT_OF_TIME = 0.15  # a turn said outside them
GAP_MS = 15 * 60 * 1000  # the turns of one telling follow each other within this, in one session
SPAN_SEED_COSINE = 0.3  # ... and are this close to the seed,
SPAN_SHARE = 0.5  # ... or score this share of the seed's score against the topic,
# ... or go on about someone already named: a third person's pronoun ("He has a court date", 他).
_GOES_ON = re.compile(r"\b(?:he|she|him|his|her|hers|they|them|their)\b|[他她]", re.IGNORECASE)
MAX_CANDIDATES = 300  # the most recent user turns read (about a month of daily talk)
CANDIDATE_DAYS = 60

# Words that say "what I said", not what it was about.
_GENERIC_EN = frozenset(
    (
        "thing things stuff story situation business news matter part bit bits details problem problems "
        "issue issues said told mentioned talked about whole"
    ).split()
)
_CJK_STOP = set("的了很我你他她它们是在有就都也还吗呢吧啊呀这那个一不没事说过跟和对给把")


@dataclass(frozen=True, slots=True)
class Candidate:
    """An earlier user turn that a topic may refer to."""

    message_id: int
    session_id: str
    ts_ms: int
    text: str


@dataclass(frozen=True, slots=True)
class Match:
    """One turn the topic was matched to, with why (what ``explain`` shows; never the words)."""

    message_id: int
    ts_ms: int
    score: float
    meaning: float
    shared: float  # share of the topic's words the turn holds
    in_time: bool | None  # None: the request named no time

    def to_wire(self) -> dict[str, Any]:
        return {
            "message_id": self.message_id,
            "ts": self.ts_ms,
            "score": round(self.score, 3),
            "meaning": round(self.meaning, 3),
            "shared_words": round(self.shared, 3),
            "in_time": self.in_time,
        }


Decision = Literal["forget", "ask", "none"]


@dataclass(frozen=True, slots=True)
class Resolution:
    decision: Decision
    matches: tuple[Match, ...]  # the seed first, then the rest of its span (in time order)
    runner_up: float  # the best score outside the span (the margin's other side)
    window: tuple[int, int] | None  # the time the request named, [from, to) in ms

    @property
    def message_ids(self) -> tuple[int, ...]:
        return tuple(m.message_id for m in self.matches)

    def to_wire(self) -> dict[str, Any]:
        return {
            "decision": self.decision,
            "matched": [m.to_wire() for m in self.matches],
            "runner_up": round(self.runner_up, 3),
            "window": list(self.window) if self.window else None,
        }


# -- time -------------------------------------------------------------------------------------------
_VAGUE_EN = (
    (re.compile(r"\bthe other (?:night|evening|day)\b|\ba few (?:nights|days) ago\b"), 1, 10),
    (re.compile(r"\bthe other week\b|\ba (?:week|couple of weeks) ago\b"), 5, 21),
    (re.compile(r"\brecently\b|\blately\b"), 0, 21),
)
_VAGUE_ZH = (
    (re.compile(r"那天晚上|那天|那晚|前几天|前两天|那次"), 1, 10),
    (re.compile(r"前阵子|前段时间|最近|这几天"), 0, 21),
)


def _day_start(day: Any, tz: tzinfo) -> int:
    return int(datetime.combine(day, time(), tz).timestamp() * 1000)


def window(text: str, now_ms: int, tz: tzinfo | None = None) -> tuple[int, int] | None:
    """The span of time the request names for when it was said, [from, to) in ms, or None. A day
    or a week named ("yesterday", 上周) is taken with a day's slack on each side: people are loose
    about which evening it was; "the other night" is one to ten days back."""
    zone = tz or clock.zone()
    refs = [r for r in timeparse.find_times(text, now_ms, zone) if r.direction != "future"]
    if refs:
        start = min(_day_start(r.date_from, zone) for r in refs) - DAY_MS
        end = max(_day_start(r.date_to, zone) for r in refs) + 2 * DAY_MS
        return start, min(end, now_ms)
    low = text.lower()
    for pattern, near, far in (*_VAGUE_EN, *_VAGUE_ZH):
        if pattern.search(low):
            today = _day_start(clock.local(now_ms, zone).date(), zone)
            return today - far * DAY_MS, min(now_ms, today - (near - 1) * DAY_MS)
    return None


# -- shared words ------------------------------------------------------------------------------------
def _content_en(text: str) -> list[str]:
    words = (w[:-2] if w.endswith("'s") else w for w in re.findall(r"[a-z][a-z'-]+", text.lower()))
    return [w for w in words if len(w) >= 3 and w not in stopwords.ENGLISH and w not in _GENERIC_EN]


def _stem(word: str) -> str:
    return word[:5] if len(word) >= 5 else word


def topic_words(phrase: str) -> tuple[str, ...]:
    """The topic's content words (English, stemmed to five letters) and character pairs (Chinese)."""
    out = [_stem(w) for w in _content_en(phrase)]
    out += cjk.pairs(phrase, _CJK_STOP)
    return tuple(dict.fromkeys(out))


def shared(words: Sequence[str], text: str) -> float:
    """The share of ``words`` that ``text`` holds."""
    if not words:
        return 0.0
    stems = {_stem(w) for w in _content_en(text)}
    pairs = set(cjk.pairs(text, _CJK_STOP))
    return sum(1 for w in words if w in stems or w in pairs) / len(words)


# -- deciding ----------------------------------------------------------------------------------------
def _unit(m: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(m, axis=-1, keepdims=True)
    return m / np.where(norms > 0, norms, 1.0)


def resolve(
    phrase: str,
    phrase_vec: np.ndarray | None,
    candidates: Sequence[Candidate],
    vectors: np.ndarray | None,
    request_text: str,
    now_ms: int,
    tz: tzinfo | None = None,
) -> Resolution:
    """Which of ``candidates`` (earlier user turns, ``vectors`` their embeddings in the same order)
    the topic ``phrase`` refers to, and whether that is clear enough to forget (module doc). Without
    vectors (no embedder, or one that cannot read the language) it decides on shared words and time
    alone, which rarely clears ``CLEAR``: it asks."""
    span_of_time = window(request_text, now_ms, tz)
    if not candidates:
        return Resolution("none", (), 0.0, span_of_time)
    words = topic_words(phrase)
    if phrase_vec is not None and vectors is not None and len(vectors) == len(candidates):
        units = _unit(np.asarray(vectors, dtype=np.float32))
        meaning = units @ _unit(np.asarray(phrase_vec, dtype=np.float32))
    else:
        units, meaning = None, np.zeros(len(candidates), dtype=np.float32)
    scored: list[Match] = []
    # One shared word is weak evidence ("朋友" is in "男朋友"): the bonus is full from two words on.
    weight = WORDS_WEIGHT * min(1.0, len(words) / 2)
    for i, c in enumerate(candidates):
        share = shared(words, c.text)
        score = float(meaning[i]) + weight * share
        in_time = None
        if span_of_time is not None:
            in_time = span_of_time[0] <= c.ts_ms < span_of_time[1]
            score += IN_TIME if in_time else -OUT_OF_TIME
        scored.append(Match(c.message_id, c.ts_ms, score, float(meaning[i]), share, in_time))
    seed_at = max(range(len(scored)), key=lambda i: scored[i].score)
    seed, _origin = scored[seed_at], candidates[seed_at]
    span = _span(candidates, scored, units, seed_at)
    runner_up = max((m.score for i, m in enumerate(scored) if i not in span), default=0.0)
    ordered = (seed, *sorted((scored[i] for i in span if i != seed_at), key=lambda m: m.ts_ms))
    if seed.score < ASK_FLOOR:
        return Resolution("none", (), runner_up, span_of_time)
    if seed.score >= CLEAR and seed.score - runner_up >= MARGIN:
        return Resolution("forget", ordered, runner_up, span_of_time)
    return Resolution("ask", ordered, runner_up, span_of_time)


def _span(
    candidates: Sequence[Candidate],
    scored: Sequence[Match],
    units: np.ndarray | None,
    seed_at: int,
) -> set[int]:
    """The seed and the turns of the same telling: walking out from the seed through the session's
    turns in time order, each next turn (within ``GAP_MS`` of the last one taken) joins while it is
    close to the seed, scores near it, or goes on about the same person; the first that does none
    of these ends the telling on that side."""
    origin = candidates[seed_at]
    session = sorted(
        (i for i, c in enumerate(candidates) if c.session_id == origin.session_id),
        key=lambda i: candidates[i].ts_ms,
    )
    at = session.index(seed_at)
    span = {seed_at}

    def joins(i: int, last: int) -> bool:
        if abs(candidates[i].ts_ms - candidates[last].ts_ms) > GAP_MS:
            return False
        close = units is not None and float(units[i] @ units[seed_at]) >= SPAN_SEED_COSINE
        near = scored[i].score >= SPAN_SHARE * scored[seed_at].score
        return close or near or bool(_GOES_ON.search(candidates[i].text))

    for step in (1, -1):
        last, k = seed_at, at + step
        while 0 <= k < len(session) and joins(session[k], last):
            span.add(session[k])
            last, k = session[k], k + step
    return span


HOLD_SHARE = 0.6  # a text holds a forgotten turn when it has this share of the turn's words


def holding(texts: Sequence[str]) -> Callable[[str | None], bool]:
    """Whether a text holds one of ``texts`` (forgotten turns): the turn itself, or at least
    ``HOLD_SHARE`` of its content words when it has three or more (an episode's sentence or a fact
    that restates it). A short turn ("ok", "好的": fewer than three content words and 12 characters)
    is looked for nowhere else: it would be found in everything; its message goes by its id."""
    keys = [
        (t.strip(), words)
        for t in texts
        if len(words := topic_words(t)) >= 3 or len(t.strip()) >= 12
    ]

    def holds(text: str | None) -> bool:
        if not text:
            return False
        return any(
            whole in text or (len(words) >= 3 and shared(words, text) >= HOLD_SHARE)
            for whole, words in keys
        )

    return holds


def gist(text: str, limit: int = 40) -> str:
    """The candidate in a few words, for the question back: its first clause, cut at ``limit``."""
    first = re.split(r"(?<=[.!?。！？；;])\s*|[,，]\s*(?=\S{8,})", " ".join(text.split()))[0]
    return first if len(first) <= limit else first[: limit - 1].rstrip() + "…"
