"""Every turn of both sides as a memory: what the user said and what the companion answered,
recommended or promised, each dated and marked by whose words it holds.

Why keep them all: the layers built from a session (an episode's quotes, at most eight highlights,
facts from a closed vocabulary) are a rule-picked subset of the user's side, and on public
conversations that subset found less of the answer than plain BM25 over the raw turns (0.47 vs 0.67
answer-token recall on LoCoMo at 1,000 tokens). Nothing the companion said survived at all, so
"what book did you recommend?" found nothing. So consolidation keeps every turn as an utterance, and
the forgetting curve (xaid.memory.forget) removes them by value and age: small talk nobody refers to
goes first, specifics, feelings and what was referenced stay.

The ``value`` of an utterance is what the curve weighs: how specific it is (names, numbers, dates),
how strongly it was felt, and how much it says at all.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections.abc import Sequence

import apsw
import numpy as np

from .. import clock
from ..store import utterances as utterance_sql
from ..store.sessions import Message
from ..store.utterances import NewUtterance
from ..text import features, timeparse, tokens
from . import change_cues, index

CHATTER_VALUE = (
    0.15  # below this an utterance is small talk ("haha ok", "嗯嗯"): the first to be forgotten
)
_MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
# Sentence ends in both languages; a long turn is cut to the sentences a query matches.
_SENTENCE = re.compile(r"(?<=[.!?。！？…])\s+|(?<=[。！？])")


def value(text: str, intensity: float) -> float:
    """0..1. A reply of a word or two that names nothing ("haha ok", "嗯嗯", "lol") is small talk even
    when it carries a little feeling; only a strong one (intensity ≥ 0.6) lifts it."""
    words, specific = index.content_words(text), features.specificity(text)
    if words < 3 and specific < 0.3 and intensity < 0.6:
        return round(min(CHATTER_VALUE - 0.05, 0.5 * words / 6 + 0.1 * intensity), 3)
    return round(min(1.0, 0.45 * specific + 0.35 * intensity + 0.2 * min(1.0, words / 6)), 3)


def tells_a_change(text: str) -> bool:
    """The turn tells a change of the speaker's in a few words ("I quit smoking", "sold the car",
    我戒烟了, "现在用微信键盘，干净"; a strong cue, or "now"/现在 with words beside it) and asks nothing:
    valued as small talk by its length, it is still no chatter for the forgetting curve
    (memory.forget). Not "now what?", "现在呢"."""
    reading = change_cues.read(text)
    if not reading.change or _ASKS.search(text):
        return False
    return reading.strong or index.content_words(text) >= 3


_ASKS = re.compile(r"[?？]|吗|呢\W*$")


def worth_a_vector(u: NewUtterance) -> bool:
    """Small talk is found by its words if at all: a vector is most of what a turn costs to keep."""
    return u.value >= CHATTER_VALUE


def keep(
    conn: apsw.Connection,
    agent_id: str,
    session_id: str | None,
    episode_id: int | None,
    turns: Sequence[NewUtterance],
    vectors: Sequence[np.ndarray | None],
    superseded: Sequence[bool] | None = None,
) -> None:
    """A session's turns as searchable utterances, in order, each linked to the one before it (the
    question an answer answers), and their speakers as the conversation's participants. Consolidation
    and import both write turns through here."""
    for name, role in {(t.speaker, t.role) for t in turns if t.speaker}:
        utterance_sql.add_participant(conn, agent_id, name, role)
    prev: int | None = None
    for n, (t, vec) in enumerate(zip(turns, vectors, strict=True)):
        # "embedded" means worth a vector: a turn the model cannot read yet gets one from a model that can
        prev = utterance_sql.insert(
            conn, agent_id, session_id, episode_id, t, prev, embedded=worth_a_vector(t)
        )
        if superseded and superseded[n]:
            conn.execute(
                "UPDATE utterances SET status = 'superseded' WHERE utterance_id = ?", (prev,)
            )
        index.add(
            conn, agent_id, "utterance", prev, t.text, t.ts_ms, vec if worth_a_vector(t) else None
        )


def from_messages(messages: Sequence[Message], intensity: dict[int, float]) -> list[NewUtterance]:
    """The session's turns of both roles that hold words, in order (tool traffic and system lines are not
    conversation). A mood reading exists for the user's messages only."""
    out = []
    for m in messages:
        if m.role not in ("user", "assistant") or not m.text.strip():
            continue
        ref = m.ref if m.ref is not None else str(m.message_id)
        felt = intensity.get(m.message_id or -1, 0.0)
        out.append(
            NewUtterance(m.message_id, ref, m.role, m.speaker, m.text, m.ts_ms, value(m.text, felt))
        )
    return out


def day_words(ts_ms: int, chinese: bool = False) -> str:
    """A day as a person writes it ("7 May 2023", "2023年5月7日"): what a model and a reader understand,
    unlike 2023-05-07, and what an answer to "when did …" is made of."""
    return _day_words(ts_ms, chinese, clock.zone())


@functools.lru_cache(maxsize=8192)
def _day_words(ts_ms: int, chinese: bool, zone: dt.tzinfo) -> str:
    """``day_words`` in ``zone``, remembered: every turn a search shows is dated (a date, no words)."""
    return _date_words(clock.local(ts_ms, zone).date(), chinese)


def _date_words(d: dt.date, chinese: bool) -> str:
    return (
        f"{d.year}年{d.month}月{d.day}日" if chinese else f"{d.day} {_MONTHS[d.month - 1]} {d.year}"
    )


def _span_words(ref: timeparse.TimeRef, chinese: bool) -> str:
    """As short as the span allows: a year is "2022", a month "May 2023", days are days."""
    start, end = ref.date_from, ref.date_to
    if (
        start.month == 1
        and start.day == 1
        and (end.month, end.day) == (12, 31)
        and start.year == end.year
    ):
        return f"{start.year}年" if chinese else str(start.year)
    if (
        start.day == 1
        and start.month == end.month
        and start.year == end.year
        and (end + dt.timedelta(days=1)).day == 1
    ):
        return (
            f"{start.year}年{start.month}月"
            if chinese
            else f"{_MONTHS[start.month - 1]} {start.year}"
        )
    if start == end:
        return _date_words(start, chinese)
    return _date_words(start, chinese) + ("至" if chinese else " to ") + _date_words(end, chinese)


def resolve_times(text: str, ts_ms: int) -> str:
    """Relative times followed by the day they meant, in words: "yesterday (6 May 2023)", "上周三（2023年5月3日）"."""
    chinese = index.mostly_cjk(text)
    out, pos = [], 0
    for ref in timeparse.find_times(text, ts_ms):
        if ref.granularity == "part_of_day" and ref.date_from == clock.local(ts_ms).date():
            continue  # "tonight" said today is that day: the line's own date says it
        label = _span_words(ref, chinese)
        out += [text[pos : ref.end], f"（{label}）" if chinese else f" ({label})"]
        pos = ref.end
    out.append(text[pos:])
    return "".join(out)


def who(role: str, speaker: str | None) -> str:
    """Whose words: the name the client gave, else "the user" or "you" (the companion reading its memory)."""
    return speaker or ("the user" if role == "user" else "you")


def sentences(text: str) -> list[str]:
    return [s for s in (p.strip() for p in _SENTENCE.split(text)) if s]


def cut(text: str, query_terms: frozenset[str], max_tokens: int) -> str:
    """A long turn cut to its sentences that hold the query's words and the sentences around each, so
    more distinct evidence fits the budget; a turn with no such sentence (found by meaning alone) or a short
    one stays whole."""
    if tokens.count(text) <= max_tokens or not query_terms:
        return text
    parts = sentences(text)
    if len(parts) < 2:
        return text
    matched = matching(tuple(terms(s) for s in parts), query_terms)
    return kept(parts, matched) if matched else text


def matching(part_terms: Sequence[frozenset[str]], query_terms: frozenset[str]) -> tuple[int, ...]:
    """Which sentences (by their terms) hold a word of the query: all a cut depends on."""
    return tuple(i for i, t in enumerate(part_terms) if t & query_terms)


def kept(parts: Sequence[str], matched: Sequence[int]) -> str:
    """The matched sentences with one either side, "…" where sentences were left out."""
    keep = sorted(
        {j for i in matched for j in (i - 1, i, i + 1) if 0 <= j < len(parts)}
        | {i for i, s in enumerate(parts) if _states_a_change(s)}
    )  # the context around, and the turn's own change wherever it is
    shown: list[str] = []
    for i, s in enumerate(parts):
        if i in keep:
            shown.append(s)
        elif shown and shown[-1] != "…":
            shown.append("…")
    if keep[0] > 0:
        shown.insert(0, "…")
    return " ".join(shown)


def _states_a_change(sentence: str) -> bool:
    """A sentence that says what is new, in the turn's own words: a change cue of the speaker's
    and something specific (a name, a place, a number). "I left Acme last month. I'm a nurse at St
    Mary's now." keeps its second sentence whatever the query's words matched: it holds the answer."""
    return change_cues.read(sentence).change and features.specificity(sentence) > 0


def terms(text: str) -> frozenset[str]:
    """The words a keyword search matches on: Latin content words and Chinese character pairs."""
    return frozenset(index.latin_words(text)) | frozenset(index.cjk_pairs(text))
