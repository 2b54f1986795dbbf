"""Retiring a matter the user later says is off, moot or already told (issue 24 item 6, issue 25).

In one session the user says they have an interview on Friday and a "how did it go" is armed. Days
later they say "the interview got cancelled", "面试不重要了，我接了别的offer", "I dropped the course,
so that exam is not my problem anymore", or that it already happened ("智齿已经拔了"). A friend does
not then ask how it went. Two readings decide, neither a list of subjects:

- **the same matter**: a clause of the later words shares one of the item's keywords
  (``arm.came_up``, as the scheduler judges that a matter came up again) and is itself read as
  settling, or the whole line's meaning is close to the words the item quotes (the embedder's
  cosine, at least ``SAME_MATTER``): "I withdrew my application" after "second interview with the
  logistics company";
- **read as settled**: how they are said, whatever they are about: called off (``arm.called_off``),
  a change that ends it (``memory.change_cues``: "no longer", "dropped", "not … anymore", 不…了,
  退了, 取消, not blocked as someone else's, a hypothetical or the same said again), or done and
  dusted (the check-in reader's cue of it, ``matter.done``: "went well", "made it", 搞定, 顺利);

and never when the same words name another date still ahead or move it to another time: "the
interview got moved to next Tuesday", "改到15号了" is the matter moved, not off (``moved``: its
windows follow the new day). The matter's own day named again ("the friday thing doesn't matter
now") is the matter referred to, not a new date.

Moot is read as its shape too, not as a subject: a negated need or relevance said of the matter
("doesn't matter now", "pointless", "no point going", 无所谓, 不重要了, 没必要, 用不着), the way
``arm.called_off`` reads a calling off; in a clause that names the matter, or in a line whose
meaning is close to it, and never over a clause that names it as still on ("still nervous about
the interview", 面试还是好紧张: ``matter.still_on``).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .. import clock
from ..clock import DAY_MS
from ..memory import change_cues
from ..store.recall import RecallItem
from ..text import cjk, timeparse
from ..text.clauses import clauses
from ..text.fold import fold
from . import arm, matter, refused

# Cosine of the embedder (USE-multilingual-v3) between a later line and the words an item quotes
# from which the line is about that matter; set on retire_dev8.json's train half, where a line
# about the same matter read 0.27-0.68 (told in passing 0.45-0.57) and one about another 0.05-0.30.
SAME_MATTER = 0.4
# The same cosine between the whole later session (the user's lines joined) and the item's words,
# from which a line of it that reads as settling settles that matter though it names nothing: "修好了
# 花了八百" after a leak, its next line "师傅说是防水层老化" says what was fixed. The line that says
# how a matter ended is short and says it of the matter the session is about. Set on retire_dev38's
# train half: sessions that tell a matter's end read 0.21-0.48, sessions about something else
# 0.05-0.28 (a sister's baby beside a sick hamster 0.28).
SAME_SESSION = 0.35
_QUOTED = re.compile(r'"(.+)"\s*$', re.S)  # arm.py quotes the user's words at the end of a topic
# The aspect of a thing completed ("already", 已经…了), beside the reader's cue of done and dusted.
_COMPLETED = re.compile(r"\balready\b|已经[^，。！？；,]{0,8}了")
# A change reading blocked for these reasons says nothing of the matter being off: someone else's
# change, a hypothetical or a denial, a stretch of time, the same said again. "One occasion" (今天,
# tonight) blocks a change of a habit, not here: the matter is itself one occasion.
_NOT_OFF = frozenset({"someone_else", "unreal", "restated", "temporary", "addition"})


def quoted(item: RecallItem) -> str:
    """The user's words an item quotes (its whole topic for a client's item)."""
    said = _QUOTED.search(item.topic)
    return said.group(1) if said else item.topic


@dataclass(frozen=True, slots=True)
class Line:
    """A later user line, with its vector under the daemon's embedder (None without one)."""

    text: str
    ts_ms: int
    vector: np.ndarray | None = None


@dataclass(frozen=True, slots=True)
class Retired:
    """An item the line ``text`` settled, and how it read."""

    item_id: int
    text: str
    how: str
    # the session's lines that tell of that matter: the settling one, and those as close to the
    # matter's words as a session about it (``SAME_SESSION``: "师傅说是防水层老化" after "修好了"),
    # none of them a new matter to ask about
    telling: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Moved:
    """An item whose matter the line ``text`` moves to ``day`` (its windows follow it)."""

    item_id: int
    day: dt.date
    text: str


def own_day(item: RecallItem) -> dt.date | None:
    """The day of the item's matter: a plan or worry is due from the day after it (or from the
    hour it is over on it), its ``ahead`` twin ends with it or that hour (arm.py, ``window_day``);
    an undated matter has none."""
    if item.scene == "ahead":
        return arm.window_day(item.not_after)
    if item.scene in ("plan", "worry"):
        return arm.window_day(item.not_before)
    return None


def _other_day_ahead(text: str, ts_ms: int, own: dt.date | None) -> dt.date | None:
    """The earliest day after today the text names that is not the matter's own day ``own``: "the
    friday thing" about Friday's interview names the matter, not a new date."""
    today = clock.local(ts_ms).date()
    days = [
        t.date_from
        for t in timeparse.find_times(text, ts_ms)
        if t.date_from > today and not (own is not None and t.date_from <= own <= t.date_to)
    ]
    return min(days, default=None)


# A need or a relevance denied ("doesn't matter now", "no point going", "pointless", 无所谓, 不重要了,
# 没必要, 用不着): the matter is moot, whatever it is about.
_MOOT = re.compile(
    r"\b(?:(?:does|do|did|will|would)(?:n't| not)\s+(?:really\s+)?matter|no longer matters?"
    r"|(?:ir)?relevant\s+(?:any ?more|now)|irrelevant|pointless|meaningless|moot|no (?:point|need|use)\b"
    r"|not (?:needed|necessary|relevant)|never ?mind|nvm)\b"
    r"|无所谓|不重要|没(?:有)?(?:意义|必要|用)|用不着|不需要|不必|白(?:准备|练|复习|忙)"
)


def moot(text: str) -> bool:
    """The words deny the matter any need or relevance now ("doesn't matter now", 无所谓了)."""
    return _MOOT.search(fold(text)) is not None


def _names_past_day(text: str, ts_ms: int) -> bool:
    """A day before today is named ("last night", 昨晚): what is done was done then."""
    today = clock.local(ts_ms).date()
    return any(t.date_to < today for t in timeparse.find_times(text, ts_ms))


# Called off as "off" said of the thing ("trip's off", "the wedding is off :("), not "off to" or
# "off work": a calling off that arm.CANCELLED's words do not hold.
_OFF = re.compile(
    r"(?:'s|\bis|\bare|\bwas|\bwere)\s+(?:(?:all|totally|completely|now)\s+)?off\b"
    r"(?=\s*(?:$|[^\w\s]|(?:now|btw|then|too|for good|anyway)\b))"
)


# Moved to another time: a verb of moving and its "to"/到 ("moved to the 15th", "pushed to next
# week", 改到15号, 推迟到下个月). The time after it may be one the parser does not place ahead (a
# bare "15号" reads as a past day), so the shape alone says the matter is moved, not off.
_MOVED_TO = re.compile(
    rf"{timeparse.MOVE_VERBS_EN}[^.!?;]{{0,20}}?\b(?:to|till|until)\b|{timeparse.MOVE_VERBS_ZH}"
)


def settles(text: str, ts_ms: int, begun: bool = True, own: dt.date | None = None) -> str | None:
    """How the words read as settling a matter ("called off", "no longer on", "moot", "done"),
    whatever they are about; None when they do not, or when they name a date still ahead other than
    the matter's own day ``own`` or move it to another time (the matter moved). Before the matter's
    day (``begun`` false) "done" counts only with a day already past named: "finally finished the
    slides" is the preparation, "played it last night, went well" the thing (moved up to then:
    told, not moved)."""
    if _other_day_ahead(text, ts_ms, own) is not None:
        return None
    low = text.lower().replace("\u2019", "'")
    done = matter.done(text) or _COMPLETED.search(low) is not None
    if done and _names_past_day(text, ts_ms):
        return "done"
    if _MOVED_TO.search(low):
        return None
    if arm.called_off(text) or _OFF.search(low):
        return "called off"
    change = change_cues.read(text)
    # a change said of a matter still going on or feared is its preparation or the feeling, not
    # the matter ending: "一直在改汇报的ppt" (edits), "not nervous about the exam anymore"
    if change.strong and change.blocked not in _NOT_OFF and not matter.still_on(text):
        return "no longer on"
    if moot(text):
        return "moot"
    return "done" if done and begun else None


def _cosine(line: Line, item_vector: np.ndarray | None) -> float:
    if line.vector is None or item_vector is None:
        return -1.0
    return float(np.dot(matter.unit(line.vector), matter.unit(item_vector)))


def _names(part: str, item: RecallItem) -> bool:
    return arm.came_up(part, item.keywords, happened=False)


def settled(
    line: Line, item: RecallItem, item_vector: np.ndarray | None, session: Line | None = None
) -> str | None:
    """How ``line`` settles the item's matter, or None. By its words: a clause that names the
    matter (a keyword, ``arm.came_up``) and itself reads as settling it, so "I quit my job, the
    interview on Friday is for the new place" retires nothing; by meaning: the whole line close to
    the matter (``SAME_MATTER``) and read as settling ("the friday thing? cancelled."), or one of its
    clauses ("牙的事不用管了，…明年再去种": the year ahead is another thing's), unless a clause
    names the matter as still on ("lost my umbrella, doesn't matter. still nervous about the
    interview"). ``session``: the later session's lines together, whose meaning close to the
    matter (``SAME_SESSION``) stands for the line's own ("解冻了 终于" in a session about the frozen
    card), unless the line says the matter is still on."""
    own = own_day(item)
    if _MOVED_TO.search(line.text.lower()) and settles(line.text, line.ts_ms, True, own) is None:
        return (
            None  # moved in one clause ("改到15号了"), its old day denied in another ("不是周五了")
        )
    day = begun(item, line.ts_ms)
    named = [part for part in clauses(line.text) if _names(part, item)]
    for part in named:
        how = settles(part, line.ts_ms, day, own)
        if how is not None:
            return how
    if any(matter.still_on(part) for part in named):
        return None
    if _cosine(line, item_vector) < SAME_MATTER and not _session_tells(
        session, item_vector, line, own
    ):
        return None
    how = settles(line.text, line.ts_ms, day, own)
    if how is not None:
        return how
    parts = clauses(line.text)
    how = next(
        (h for p in parts if len(parts) > 1 and (h := settles(p, line.ts_ms, day, own))), None
    )
    if how is None and own is not None and day and _session_tells(session, item_vector, line, own):
        # a dated matter whose day is past, and a session about it that says nothing of it still
        # going on: they told how it went ("judge knocked it down to a warning!!!" after court)
        assert session is not None
        return None if matter.still_on(session.text) else "told"
    return how


def _session_tells(
    session: Line | None, item_vector: np.ndarray | None, line: Line, own: dt.date | None
) -> bool:
    """The session as a whole is about the matter (``SAME_SESSION``), and neither ``line`` says it
    is still on nor the session moves it to another day ("路演挪到16号" then "我能多改几天ppt了": the
    second line is the extra days, not the matter off)."""
    return (
        session is not None
        and _cosine(session, item_vector) >= SAME_SESSION
        and not matter.still_on(line.text)
        and _MOVED_TO.search(session.text.lower()) is None
        and _other_day_ahead(session.text, session.ts_ms, own) is None
    )


def to_weigh(
    items: Sequence[RecallItem],
    lines: Sequence[Line],
    item_vectors: dict[int, np.ndarray],
    session: Line | None,
    floor: float,
    most: int,
) -> list[RecallItem]:
    """The pending matters (not a loss's or a feeling's item) whose end the chat model is asked
    about (ended.py): the session near them in meaning (cosine ≥ ``floor``), no line saying a matter
    still goes on and none moving one or naming another day ahead; the closest ``most`` first."""
    if session is None or any(matter.still_on(line.text) for line in lines):
        return []
    if _MOVED_TO.search(session.text.lower()):
        return []
    near = []
    for item in items:
        if item.state != "pending" or item.scene not in ("plan", "worry", "ahead", "matter"):
            continue
        if _other_day_ahead(session.text, session.ts_ms, own_day(item)) is not None:
            continue
        closeness = _cosine(session, item_vectors.get(item.item_id))
        if closeness >= floor:
            near.append((closeness, item))
    near.sort(key=lambda pair: -pair[0])
    return [item for _, item in near[:most]]


def _telling(
    lines: Sequence[Line], vector: np.ndarray | None, line: Line | None = None
) -> tuple[str, ...]:
    """The session's lines that tell of the matter whose words have ``vector``: ``line`` (the one
    that settled it), and those as close to it as a session about it (``SAME_SESSION``)."""
    return tuple(o.text for o in lines if o is line or _cosine(o, vector) >= SAME_SESSION)


def told_by_model(item: RecallItem, lines: Sequence[Line], vector: np.ndarray | None) -> Retired:
    """The item the chat model says the session told the end of, its telling the session's lines
    about it (as ``retired`` keeps them)."""
    last = lines[-1].text if lines else ""
    return Retired(item.item_id, last, "told", _telling(lines, vector) or (last,))


def begun(item: RecallItem, now_ms: int) -> bool:
    """Whether the matter's day has come: a plan is due from the day after it; its ``ahead`` twin
    ends with that day; an undated matter is under way."""
    day = own_day(item)
    return day is None or now_ms >= arm.day_start(day)


def retired(
    items: Sequence[RecallItem],
    lines: Sequence[Line],
    item_vectors: dict[int, np.ndarray] | None = None,
    session: Line | None = None,
) -> list[Retired]:
    """The pending items (plans, worries, their ``ahead`` twins, undated matters) that a later line
    says are off, moot or already told; a loss's or a feeling's item is about the person, not a
    matter, and stays, unless the user asked later not to have it raised (refused.py).
    ``session``: the lines together, with their vector (``settled``)."""
    vectors = item_vectors or {}
    # asked, after it was armed, not to have it raised (refused.py): whatever its scene
    pending = [i for i in items if i.state == "pending"]
    wish = refused.taken_back(
        pending,
        [line.text for line in lines],
        [line.vector for line in lines],
        vectors,
        {i.item_id: quoted(i) for i in pending},
        SAME_MATTER,
        [line.ts_ms for line in lines],
    )
    out = [Retired(item_id, text, refused.HOW) for item_id, text in wish.items()]
    for item in items:
        if item.scene not in ("plan", "worry", "ahead", "matter", "manual") or item.item_id in wish:
            continue
        for line in lines:
            vector = vectors.get(item.item_id)
            how = settled(line, item, vector, session)
            if how is not None:
                out.append(Retired(item.item_id, line.text, how, _telling(lines, vector, line)))
                break
    return out


def moved(
    items: Sequence[RecallItem],
    lines: Sequence[Line],
    item_vectors: dict[int, np.ndarray] | None = None,
) -> list[Moved]:
    """The dated items (plans, worries, their ``ahead`` twins) whose matter a later line moves to
    another day ahead, the latest line deciding: the line names the matter (a clause with one of
    its keywords, or its meaning close to the words the item quotes) and either says it is moved
    ("moved to the 15th", 改到15号了) or names the new day in the clause that names it ("the pitch is
    on the 16th instead"); the day is one after today that is not the matter's own. A line that
    settles the matter does not move it."""
    vectors = item_vectors or {}
    out: list[Moved] = []
    for item in items:
        own = own_day(item)
        if own is None:
            continue
        for line in reversed(lines):
            named = [p for p in clauses(line.text) if _names(p, item)]
            close = _cosine(line, vectors.get(item.item_id)) >= SAME_MATTER
            day = next(
                (d for p in named if (d := _other_day_ahead(p, line.ts_ms, own)) is not None),
                None,
            )
            if day is None and (named or close) and _MOVED_TO.search(line.text.lower()):
                day = _other_day_ahead(line.text, line.ts_ms, own)
            if day is not None and settled(line, item, vectors.get(item.item_id)) is None:
                out.append(Moved(item.item_id, day, line.text))
                break
    return out


def window(item: RecallItem, day: dt.date) -> tuple[int, int]:
    """The item's window when its matter is on ``day``: a plan or worry due from the day after for
    as long as before, an ``ahead`` twin until that day ends (from when it was due)."""
    end_of_day = arm.day_start(day) + DAY_MS
    if item.scene == "ahead":
        return item.not_before, end_of_day
    return end_of_day, end_of_day + (item.not_after - item.not_before)


def moved_reason(m: Moved) -> str:
    """Why a pending item's window changed (``scheduler.list --all``)."""
    return f"the user said later it moved to {m.day.isoformat()}: {m.text[:80]}"


def reason(r: Retired) -> str:
    """The closing reason ``scheduler.list --all`` shows."""
    if r.how == refused.HOW:
        return f"the user asked later not to have it brought up: {r.text[:80]}"
    return f"the user said later it is {r.how}: {r.text[:80]}"


def quotes_any(a: arm.Arm, texts: Sequence[str]) -> bool:
    """Whether the armed item quotes one of ``texts``: a line that settles an earlier matter ("面试取消
    了，说岗位已经内部招到人了") is not itself a new matter to ask about."""
    said = _QUOTED.search(a.topic)
    words = " ".join((said.group(1) if said else a.topic).split()).rstrip("…")
    return a.scene != "loss" and any(
        words
        and (words in " ".join(t.split()) or " ".join(t.split()) in words or _goes_on(t, words))
        for t in texts
    )


# At least this much of a settling line goes on into a quote for the quote to be of it: Chinese
# characters, or words ("all done" of one line is no telling of it in "done with the move").
_TAIL_CHARS = 4
_TAIL_WORDS = 3


def _goes_on(text: str, words: str) -> bool:
    """Whether ``words`` begin with the end of ``text`` (from a space on) and go on past it: a
    session's lines quoted together from where the matter is ("已经签了 这事总算翻篇了🎉 今晚吃火锅
    庆祝", its lead-in "家人们!! offer下来了" left out) quote the line that settled the offer
    (morning_dev42's train half: the good news itself was asked about as a matter)."""
    parts = text.split()
    return any(
        (cjk.count(tail) >= _TAIL_CHARS or len(tail.split()) >= _TAIL_WORDS)
        and words.startswith(tail)
        for tail in (" ".join(parts[i:]) for i in range(1, len(parts)))
    )
