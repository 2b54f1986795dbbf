"""What a query says beyond its topic, read by rules in English and Chinese: whose words it asks
about ("what did *you* recommend", "我说过"), whether it asks about the past ("where did I live
*before*", "我以前"), and which days it names ("last weekend", "上周三", "on May 2nd").

The ranking (xaid.memory.retrieve) uses these to weight the companion's or the user's turns, to let
superseded memories back in only when the past is asked for, and to favour what was said on the days
named.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass

from .. import clock
from ..text import timeparse

_FIRST = re.compile(r"(?<![a-z'])(i|me|my|mine|myself|i'm|i've|i'd|i'll)(?![a-z'])|我", re.I)
_SECOND = re.compile(
    r"(?<![a-z'])(you|your|yours|yourself|you've|you'd|you'll)(?![a-z'])|你|您", re.I
)
_PAST = re.compile(
    r"(?<![a-z])(before|used to|did (?:i|we|you) use to|previously|formerly|in the past|originally|my old|"
    r"my previous|my former|back then)(?![a-z])|以前|之前|原来|过去|从前|曾经|先前|老家以前|"
    # the one before the present one: 上一部手机, 上一家公司
    r"上一[个部台辆家份张款位]",
    re.I,
)


@dataclass(frozen=True, slots=True)
class Cues:
    role: (
        str | None
    )  # "assistant" when the query asks what the companion said, "user" for the user's own words
    past: bool  # asks about how things were before: superseded memories may answer
    window: (
        tuple[int, int] | None
    )  # [from, to) in ms: the days the query names, when it names past days
    topic: (
        str  # the query without the participants' names, which every memory of theirs would match
    )
    tensed: str = (
        ""  # the query with its deadlines blanked (``without_deadlines``): what tense is read on
    )


def role_asked(query: str) -> str | None:
    """The first person pronoun decides: "what did *you* recommend to me" asks about the companion's words,
    "what did *I* tell you" about the user's; neither, no preference."""
    first, second = _FIRST.search(query), _SECOND.search(query)
    if first and (not second or first.start() < second.start()):
        return "user"
    if second:
        return "assistant"
    return None


def asks_past(query: str) -> bool:
    return _PAST.search(query) is not None


# "before saturday", "周六之前": a time still ahead after "before" or before 之前/以前 says when
# something is due, not that the question is about how things were ("need a trim before saturday,
# where do i get my hair cut?" was read as a question about the past, so the barber the user left
# came back first; dev set 46).
_BEFORE_EN = re.compile(r"(?<![a-z])before\s+(?:the\s+|this\s+|next\s+)?$", re.I)
_BEFORE_ZH = re.compile(r"^\s*(?:之前|以前|前)")


def without_deadlines(query: str, refs: Sequence[timeparse.TimeRef]) -> str:
    """``query`` with each deadline ("before <a time ahead>", "<a time ahead>之前") blanked, for the
    readings of tense (``asks_past``, recency.about_now); the rest as it was. ``refs``: the times
    timeparse finds in it (``read`` finds them once for this and ``window``)."""
    out = query
    for ref in refs:
        if ref.direction != "future":
            continue
        if m := _BEFORE_EN.search(query[: ref.start]):
            out = out[: m.start()] + " " * (ref.end - m.start()) + out[ref.end :]
        elif m := _BEFORE_ZH.match(query[ref.end :]):
            end = ref.end + m.end()
            out = out[: ref.start] + " " * (end - ref.start) + out[end:]
    return out


def window(refs: Sequence[timeparse.TimeRef]) -> tuple[int, int] | None:
    """The span of the past (or current) days a query names (``refs``, the times timeparse finds in
    it), in ms of the user's calendar."""
    spans = [r for r in refs if r.direction in ("past", "present")]
    if not spans:
        return None
    zone = clock.zone()
    start = min(r.date_from for r in spans)
    end = max(r.date_to for r in spans) + dt.timedelta(days=1)
    to_ms = lambda d: int(dt.datetime.combine(d, dt.time(), zone).timestamp() * 1000)  # noqa: E731
    return to_ms(start), to_ms(end)


def named(query: str, names: dict[str, str]) -> tuple[str | None, str]:
    """(the role of the participant the query names, the query without those names). "What did
    Caroline paint?" asks about Caroline's own words; her name is in every one of them, so it cannot
    rank them and is left out of the keyword search."""
    role: str | None = None
    for name, who in sorted(names.items(), key=lambda kv: -len(kv[0])):
        pattern = re.compile(rf"(?<!\w){re.escape(name)}(?:'s|’s)?(?!\w)", re.I)
        if pattern.search(query):
            role = who if role in (None, who) else ""
            query = pattern.sub(" ", query)
    return role or None, query


# The days around the moment a message is sent: a time expression all within them ("今天", "今晚",
# "明天", "today", "tonight", "tomorrow") places the message's own news, it names nothing to recall.
NOW_DAYS = 1
# Those expressions are left out of what is searched by keyword (retrieve.search) ...
KEYWORDS_WITHOUT_NOW = True
# ... and out of the topic that is embedded.
TOPIC_WITHOUT_NOW = False


def without_now(text: str, now_ms: int) -> str:
    """``text`` without the time expressions that fall within ``NOW_DAYS`` of the day it is said
    (timeparse reads them in English and Chinese), or ``text`` itself when nothing else would be
    left ("今天呢？"). A date further off ("3月22号", "march 22nd", 清明) is what the message is
    about and stays.

    Why: "阿凯今天被老板骂了" matched every line that said 今天 by the pair 今天, as strongly as the
    turn that told who 阿凯 is matched by his name; "Priya called me today" matches every "today".
    The day a mention names is when its own news happened (retrieve.WINDOW_FOR_MENTIONS says the same
    of the recall window)."""
    today = clock.local(now_ms).date()
    near = dt.timedelta(days=NOW_DAYS)
    out, pos = [], 0
    for ref in timeparse.find_times(text, now_ms):
        if today - near <= ref.date_from and ref.date_to <= today + near:
            out.append(text[pos : ref.start])
            pos = ref.end
    if not out:
        return text
    out.append(text[pos:])
    rest = re.sub(r"\s+", " ", " ".join(out)).strip()
    return rest if re.search(r"\w", rest) else text


def read(query: str, now_ms: int, names: dict[str, str] | None = None) -> Cues:
    by_name, topic = named(query, names or {})
    if TOPIC_WITHOUT_NOW:
        topic = without_now(topic, now_ms)
    refs = timeparse.find_times(query, now_ms)
    tensed = without_deadlines(query, refs)
    return Cues(role_asked(query) or by_name, asks_past(tensed), window(refs), topic, tensed)


NONE = Cues(None, False, None, "")  # an opener: nothing to read
