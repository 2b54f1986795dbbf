"""Firing: at the first user turn of a session, and never otherwise, maybe one suggestion.

All five conditions of the roadmap must hold: the user opened this session (this is its first
user turn); the topic has not already come up in it; the source episode still holds unresolved
tension; at least ``min_gap`` has passed since the last push; and the mood allows it (no poking
a sore spot when the user is very low). A session that closed very low (a bereavement) also holds
back every matter armed before it until the carried mood has recovered: the grief is what a friend
attends to, not last week's dentist. Quiet mode and the allow-list are the user's own controls.
The verdict always carries its reason, so "why did it (not) ask?" has an answer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import apsw
import numpy as np

from ..clock import DAY_MS
from ..memory import hide
from ..mood import loss
from ..mood.tone import VERY_LOW_VALENCE
from ..store import memory as memory_sql
from ..store import recall as sql
from ..store import sessions as session_sql
from ..store.recall import RecallItem, Settings
from ..text import cjk
from . import arm, matter, retire

MIN_TENSION = 0.3
_QUOTED = re.compile(r'"(.+)"\s*$', re.S)  # arm.py quotes the user's words at the end of a topic
_KIND = {
    "plan": "event",
    "worry": "event",
    "ahead": "ahead",
    "matter": "ongoing",
    "emotion": "feeling",
    "loss": "loss",
}
CARRIED_VERY_LOW = -0.8
RECOVERED_VALENCE = -0.25  # out of the "low" band (mood/tone.py): older matters may come up again
FRESH_GRIEF_MS = 4 * DAY_MS  # and not within four days of the loss, however the mood reads
# A matter that came due while the user was away is still the first thing a friend asks at the next
# meeting, past its window: "flying to Lisbon tomorrow for the pitch", then nine days of silence and
# "Hey, I'm back." (morning_dev33: the plan's week had run out, and the reply asked nothing). Things
# with an outcome only (a feeling is not asked after weeks later), and for at most ``AWAY_DAYS``
# from when it came due.
AWAY_SCENES = frozenset({"plan", "worry", "matter"})
AWAY_DAYS = 21
STALE_PER_DAY = (
    0.03  # priority a due matter loses per day since it became due: fresher is more pressing
)


@dataclass(frozen=True, slots=True)
class FirstWords:
    """What meaning read of a session's first message before the decision
    (conversation/first_words.py): it tells of a loss (``lost``), its vector and the pending items'
    (by id), for ``retire.retired`` to find a matter it settles in words that share no keyword."""

    lost: bool = False
    vector: np.ndarray | None = None
    item_vectors: dict[int, np.ndarray] = field(default_factory=dict)
    grave: bool = False  # grave news told now (meaning.Prototypes.grave): the reply is about it
    # nearer grave news than any ordinary first message of the dev sets (meaning.SOMBRE_MARGIN),
    # though not surely grave: the daemon does not turn such a reply to another matter
    sombre: bool = False
    # read very low by the turn's learned reader alone (mood/turn_feel.py), and meaning's prototypes
    # read it no nearer grave news than an ordinary line: annoyance ("traffic was insane", 堵死了,
    # "the wifi has been dead all day"), not a sore spot; the check-in still comes
    light: bool = False


@dataclass(frozen=True, slots=True)
class Verdict:
    item: RecallItem | None
    reason: str

    @property
    def line(self) -> str | None:
        """The suggestion in the language of the topic's own words (what ``explain`` shows)."""
        if self.item is None:
            return None
        return self.directive("zh" if cjk.has(self.item.topic) else "en")

    def directive(self, lang: str, answer_first: bool = False) -> str | None:
        """One instruction a small model acts on, in the user's language ``lang``.

        Measured on Qwen2.5-1.5B: "Consider asking about X" was ignored, "Greet them and ask one
        caring question about X" was followed. The user's own words go along as a quote, so the
        question is about their matter and not a paraphrase of it. In Chinese the model copied the
        placeholder ("那件事后来怎么样了？") and left the quote in its parentheses unread; told to bring
        the matter up ("提起…这件事"), with the quote last, it names the matter in its question.
        ``answer_first``: the user's message has content of its own (a question, news), which the
        reply answers before it turns to the matter; "greet them" would leave it unanswered."""
        if self.item is None:
            return None
        said = _QUOTED.search(self.item.topic)
        words = said.group(1) if said else self.item.topic
        kind = _KIND.get(self.item.scene, "topic")
        if kind == "loss":  # a loss: with the person, never "how did it go" (arm.py)
            if lang == "zh":
                return (
                    f"先打招呼，温和地告诉对方你这几天一直惦记着他。不要追问那件事本身，不要问事情怎么样了"
                    f"（对方之前说过：“{words}”）。"
                )
            return (
                "Greet them warmly and tell them you have been thinking of them. Do not ask about the "
                f'loss itself or how anything went (they told you: "{words}").'
            )
        first = (
            (
                "先用一句话回应对方刚说的，"
                if lang == "zh"
                else "Answer what they just said in one sentence"
            )
            if answer_first
            else ("先打招呼，" if lang == "zh" else "Greet them")
        )
        if lang == "zh":
            if kind == "topic":
                return f"{first}再关心地问一句关于{words}的事。只问这一个问题。"
            about = {
                "event": "问问后来怎么样了",
                "ahead": "这件事还没到，问问准备得怎么样、心里怎么样",
                "ongoing": "问问现在怎么样了",
                "feeling": "关心地问问对方现在怎么样了",
            }[kind]
            return f"{first}再提起对方之前说的这件事，{about}：“{words}”。只问这一个问题。"
        about = {
            "event": "how it went",
            "ahead": "how they feel about it and how the preparation is going (it has not happened yet)",
            "ongoing": "how it is going now",
            "feeling": "how they are feeling now",
        }.get(kind, words)
        quote = f' (they told you: "{words}")' if kind != "topic" else ""
        return f"{first}, then ask one caring question about {about}{quote}. Ask only this one question."


def allowed(item: RecallItem, s: Settings) -> bool:
    if not s.allow:
        return True
    words = {w.lower() for w in s.allow}
    return item.scene in words or any(w in item.topic.lower() for w in words)


def avoided(item: RecallItem, s: Settings) -> bool:
    """The user said "don't bring this up": an item is passed over when an avoided topic's words
    are in its topic, or all of that topic's keywords are among the item's (the same matter armed
    again in other words). Chinese and English alike: keywords are ``arm.keywords``."""
    topic = item.topic.casefold()
    held = set(item.keywords)
    for entry in s.avoid:
        words = set(arm.keywords(entry))
        if entry.casefold().strip() in topic or (words and words <= held):
            return True
    return False


def holds_tension(scene: str, tension: float | None) -> bool:
    """Whether an item is still open by its source episode's tension (``_tension``: None when the
    episode is gone, forgotten or deleted): at least ``MIN_TENSION``, or armed for the feeling a
    session closed on (scene "emotion") while its episode is there. The feeling item is armed
    from the closing mood read by meaning (arm.STRONG_CLOSE: tired or low), which draft.py's
    tension does not count: `make demo`'s kind of evening ("spent the whole evening rolling back a
    release... running on fumes" / "going to bed, my brain is mush") armed "how they are doing now"
    on an episode of tension 0.0, and the next morning's "Morning." got nothing (morning_dev18's
    train half). Raising that episode's tension instead, as an undated matter's is
    (arm.MATTER_TENSION), also raised the episode in every search (an episode ranks by 0.5 + 0.5 x
    its tension, memory/rows.py) and cost a held-out update (set 3, zh 75 -> 74/84)."""
    if scene == "emotion" and tension is not None:
        return True
    return (tension or 0.0) >= MIN_TENSION


def _tension(conn: apsw.Connection, item: RecallItem) -> float | None:
    if item.source_episode is None:
        return None if item.scene != "manual" else 1.0
    return memory_sql.episode_tension(conn, item.source_episode)


def _sore_since(conn: apsw.Connection, agent_id: str) -> int | None:
    """When the latest session that closed very low (grief, despair) ended, if there is one."""
    return memory_sql.last_ended_at_most(conn, agent_id, VERY_LOW_VALENCE)


def held_back(
    conn: apsw.Connection, agent_id: str, live: list[RecallItem], carried: float | None, now_ms: int
) -> list[RecallItem]:
    """The due items that wait: armed before a very low session or a session that told of a loss
    (its ``loss`` item), while that session is less than four days old or the mood has not
    recovered. A neutral "ok" two days after a death is not recovery; the days count too. Without a
    mood (``carried`` None) the days alone count."""
    sore = sore_until_recovered(conn, agent_id, carried, now_ms)
    return [] if sore is None else [i for i in live if i.created_ms < sore]


def sore_until_recovered(
    conn: apsw.Connection, agent_id: str, carried: float | None, now_ms: int
) -> int | None:
    """When the latest very low or loss-telling session was, while what was said before it waits
    (``held_back``; a later turn's lead, conversation/recollect.py, waits too); None when nothing
    does."""
    times = [t for t in (_sore_since(conn, agent_id), _loss_since(conn, agent_id)) if t is not None]
    if not times:
        return None
    sore = max(times)
    recovered = carried is None or carried > RECOVERED_VALENCE
    if recovered and now_ms - sore >= FRESH_GRIEF_MS:
        return None
    return sore


def _follows_up(last: RecallItem, item: RecallItem) -> bool:
    """``item`` asks how it went about the matter ``last`` asked about before its day ("good luck
    tonight", then "how did it go?"): the gap between suggestions does not hold it back."""
    return (
        last.scene == "ahead"
        and item.scene in ("plan", "worry")
        and item.source_episode == last.source_episode
        and set(item.keywords) == set(last.keywords)
    )


def _begun(item: RecallItem, now_ms: int) -> bool:
    """Whether the matter's day has come: a plan is due from the day after it, so its own day
    starts a day before ``not_before`` (or the same day, when it is over at an hour: arm.over_at);
    only from then can an outcome ("passed", 拿到) be its own."""
    if item.scene in ("plan", "worry"):
        return retire.begun(item, now_ms)
    return now_ms >= item.not_before - DAY_MS


def _loss_since(conn: apsw.Connection, agent_id: str) -> int | None:
    """When the latest session that told of a loss was consolidated (its ``loss`` item was armed),
    whatever the mood it closed on: "外公昨晚走了" said flatly is still a loss."""
    return sql.last_armed(conn, agent_id, "loss")


def pressing(item: RecallItem, now_ms: int) -> float:
    """How pressing a due matter is: its priority, less a little for every whole day it has been
    due, so yesterday's interview comes before a check-up a week ago of the same weight. Whole
    days: a matter due since 17:00 yesterday (an event of no hour, arm.DAY_OVER_HOUR) is no staler
    the next morning than one due since midnight."""
    return item.priority - STALE_PER_DAY * (max(0, now_ms - item.not_before) // DAY_MS)


def evaluate(
    conn: apsw.Connection,
    agent_id: str,
    session_id: str,
    text: str,
    now_ms: int,
    said: float | None,
    carried: float | None,
    default_gap_ms: int,
    first: FirstWords | None = None,
) -> Verdict:
    """``said`` is the valence of this very message when it carried a feeling; ``carried`` the
    mood brought from before; ``first``: what meaning read of this message (a loss the rules may
    not read, its vector for a matter it settles; conversation/first_words.py). What the user says now decides;
    a carried low blocks only when it is still deep (yesterday's anger is exactly what a friend
    asks about the next morning).
    Decides, and records the push when there is one, inside the caller's transaction."""
    s = sql.settings(conn, agent_id, default_gap_ms)
    if not s.enabled:
        return Verdict(None, "the scheduler is off for this agent")
    # The first turn sent live: history a client ingested first (an app syncing its chat log) is
    # not the user opening the session, but what it says counts as having come up.
    if session_sql.live_turns(conn, session_id) != 1:
        return Verdict(None, "not the first user turn of the session")
    # what the session held before this message (ingested history), not the message itself,
    # which the caller stored first and passes as ``text`` (an opener's as "")
    said_before = session_sql.user_texts(conn, session_id)[:-1]
    text = "\n".join([*said_before, text]) if said_before else text
    verdict = _choose(
        conn, agent_id, s, text, now_ms, said, carried, True, first or FirstWords(), session_id
    )
    if verdict.item is not None:
        sql.mark_pushed(conn, verdict.item.item_id, session_id, now_ms)
    return verdict


def opening(
    conn: apsw.Connection,
    agent_id: str,
    now_ms: int,
    carried: float | None,
    default_gap_ms: int,
    record: bool,
) -> Verdict:
    """A conversation opening outside the daemon's own turns (an app asking through MCP): the same
    conditions as at a session's first user turn, without the user's words yet. With ``record``
    the suggestion counts as pushed (no session: its engagement is not judged), so ``min_gap``
    starts and the next opening does not ask the same; without it nothing is written."""
    s = sql.settings(conn, agent_id, default_gap_ms)
    if not s.enabled:
        return Verdict(None, "the scheduler is off for this agent")
    verdict = _choose(conn, agent_id, s, "", now_ms, None, carried, close=record)
    if record and verdict.item is not None:
        sql.mark_pushed(conn, verdict.item.item_id, None, now_ms)
    return verdict


def _choose(
    conn: apsw.Connection,
    agent_id: str,
    s: Settings,
    text: str,
    now_ms: int,
    said: float | None,
    carried: float | None,
    close: bool,
    first: FirstWords | None = None,
    session_id: str | None = None,
) -> Verdict:
    """The one due item to suggest now, or why none; with ``close``, items past their time or
    settled by ``text`` are closed on the way (else they are only passed over). ``session_id``: the
    session being decided for, whose own lines are no earlier meeting (``missed``)."""
    live: list[RecallItem] = []
    pending = sql.items(conn, agent_id)
    # this very message says a matter is off, moot or told ("the interview got cancelled")
    first = first or FirstWords()
    line = retire.Line(text, now_ms, first.vector)
    settled = (
        {r.item_id: r for r in retire.retired(pending, [line], first.item_vectors)} if text else {}
    )
    # or moves it to another day ("the interview got moved to the 15th"): it waits for that day
    moved = (
        {m.item_id: m for m in retire.moved(pending, [line], first.item_vectors)} if text else {}
    )
    for item in pending:
        if now_ms > item.not_after and not missed(conn, item, now_ms, session_id):
            if close:
                sql.close(conn, item.item_id, "expired", "past not_after")
        elif item.item_id in settled:
            if close:
                sql.close(conn, item.item_id, "resolved", retire.reason(settled[item.item_id]))
        elif item.item_id in moved:
            if close:
                _redate(conn, item, moved[item.item_id])
        elif arm.came_up(text, item.keywords, happened=_begun(item, now_ms)):
            # the matter on the table: not asked now; said before its day ("still nervous about
            # friday's interview") it is not over, and is asked about after it (_still_ahead)
            if close and not _still_ahead(item, [text], now_ms):
                sql.close(conn, item.item_id, "resolved", "the user brought it up")
        elif not holds_tension(item.scene, _tension(conn, item)):
            if close:
                sql.close(
                    conn, item.item_id, "resolved", "the source episode holds no open tension"
                )
        elif item.not_before <= now_ms:
            live.append(item)
    asked_about = hide.holds(conn, agent_id)
    if asked_about is not None:  # a question back about a forget holds back its matter's check-ins
        live = [i for i in live if not (asked_about(i.topic) or asked_about(" ".join(i.keywords)))]
    if not live:
        return Verdict(None, "nothing is due")
    last = sql.last_pushed(conn, agent_id)
    if last is not None and now_ms - (last.pushed_ms or 0) < s.min_gap_ms:
        live = [i for i in live if _follows_up(last, i)]
        if not live:
            return Verdict(None, "the last suggestion was too recent (min_gap)")
    if said is not None and said <= VERY_LOW_VALENCE and not first.light:
        return Verdict(None, "the user is very low right now")
    if said is None and carried is not None and carried <= CARRIED_VERY_LOW:
        # still deep in it from before: only a loss's check-in, which keeps them company and asks
        # nothing ("thinking of you"), is what a friend says then; no matter is poked
        live = [i for i in live if i.scene == "loss"]
        if not live:
            return Verdict(None, "the user is very low right now")
    if first.lost or (
        text and loss.ruled(text)
    ):  # a loss told now: the reply is about it, nothing else
        return Verdict(None, "the user is telling of a loss")
    if first.grave:
        return Verdict(None, "the user is telling grave news")
    held = held_back(conn, agent_id, live, carried, now_ms)
    live = [i for i in live if i not in held]
    if not live:
        return Verdict(
            None, "the user has been grieving since; older matters wait until the mood recovers"
        )
    live = [i for i in live if allowed(i, s)]
    if not live:
        return Verdict(None, "no due topic is on the allow-list")
    live = [i for i in live if not avoided(i, s)]
    if not live:
        return Verdict(None, "the user asked not to bring the due topics up")
    if s.quiet:
        return Verdict(None, "quiet mode")
    best = max(live, key=lambda i: (pressing(i, now_ms), -i.not_before))
    return Verdict(best, "all conditions hold")


def missed(conn: apsw.Connection, item: RecallItem, now_ms: int, session_id: str | None) -> bool:
    """The item's window passed while the user was away: a matter with an outcome
    (``AWAY_SCENES``), no word from them since it came due (in a session other than
    ``session_id``), and not more than ``AWAY_DAYS`` since. It stays due for this meeting."""
    return (
        item.scene in AWAY_SCENES
        and now_ms <= item.not_before + AWAY_DAYS * DAY_MS
        and not session_sql.spoke_since(conn, item.agent_id, item.not_before, session_id)
    )


def _repeats(a: arm.Arm, item: RecallItem) -> bool:
    """The arm is a matter already waiting: a plan or worry due the same day as a pending one and
    sharing a keyword ("still nervous about friday's interview" after "interview on Friday", the
    first kept since it was talked about before its day): one "how did it go", not two."""
    return (
        a.scene in ("plan", "worry")
        and item.scene in ("plan", "worry")
        and arm.window_day(a.not_before) == arm.window_day(item.not_before)
        and bool(set(a.keywords) & set(item.keywords))
    )


def _redate(conn: apsw.Connection, item: RecallItem, m: retire.Moved) -> None:
    """The item's window follows its matter to the day it was moved to (retire.window)."""
    not_before, not_after = retire.window(item, m.day)
    sql.redate(conn, item.item_id, not_before, not_after, retire.moved_reason(m))


def _still_ahead(item: RecallItem, user_texts: list[str], now_ms: int) -> bool:
    """A plan whose day has not come: talking about it the day before ("the prep is going ok")
    does not settle how it went, so it stays to be asked after; called off, it closes."""
    return (
        item.scene in ("plan", "worry")
        and not _begun(item, now_ms)
        and not any(arm.called_off(t) for t in user_texts)
    )


# What a session of feelings alone arms: a matter meaning found in it, or the feeling it closed on.
_FELT_SCENES = frozenset({"matter", "emotion"})


def _about_waiting(a: arm.Arm, waiting: Sequence[RecallItem], now_ms: int) -> bool:
    """A matter found by meaning in a session that only said how the user feels, or the feeling
    itself (``_FELT_SCENES``), while one told before still waits to be asked within the feeling's
    own window (any but a loss's check-in): the feeling is about it. Armed on its own,
    "还是睡不着 心口堵得慌 一闭眼脑子就乱转" outranked the labour arbitration told five days before, and
    the morning asked how the sleeping went (morning_dev37's test half). A plan whose day is weeks
    away (a dentist next month) asks nothing in the meantime: the feeling is armed."""
    return a.scene in _FELT_SCENES and any(
        i.scene != "loss"
        and i.not_before <= a.not_after
        and now_ms <= i.not_after
        # asked before its day (ahead) only when that day comes within the week
        and (i.scene != "ahead" or i.not_after <= now_ms + arm.SOON_DAYS * DAY_MS)
        for i in waiting
    )


def after_session(
    conn: apsw.Connection,
    agent_id: str,
    session_id: str,
    user_texts: list[str],
    episode_id: int | None,
    arms: list[arm.Arm],
    now_ms: int,
    retired: Sequence[retire.Retired] = (),
    moved: Sequence[retire.Moved] = (),
    felt_alone: bool = False,
) -> None:
    """At consolidation: outcomes of a push in this session, matters it settled, matters it leaves.
    ``retired``: earlier matters a line of this session says are off, moot or already told
    (retire.py), closed before anything else is judged; ``moved``: earlier matters it moves to
    another day, whose windows follow them and which are not closed for being talked about.
    ``felt_alone``: the session said how the user feels and nothing of what happened (telling.py,
    "还是睡不着 心口堵得慌"); a matter meaning found in it is that feeling about one still waiting,
    which is asked after instead (``_about_waiting``)."""
    for r in retired:
        now = sql.get(conn, agent_id, r.item_id)
        if now is not None and now.state == "pending":  # not pushed meanwhile
            sql.close(conn, r.item_id, "resolved", retire.reason(r))
    for m in moved:
        now = sql.get(conn, agent_id, m.item_id)
        if now is not None and now.state == "pending":
            _redate(conn, now, m)
    kept = {m.item_id for m in moved}
    pushed = sql.pushed_in(conn, session_id)
    for item in pushed:
        sql.set_engaged(
            conn, item.item_id, any(arm.came_up(t, item.keywords) for t in user_texts[1:])
        )
    by_outcome: list[RecallItem] = []
    # the lines that told of a matter already under way and not as still going on: its telling,
    # not a new undated matter ("still no sign of her" is one: matter.still_on)
    spoke: list[str] = []
    for item in sql.items(conn, agent_id):
        if (
            item.source_episode == episode_id
            or item.item_id in kept
            or _still_ahead(item, user_texts, now_ms)
        ):
            continue
        if any(arm.came_up(t, item.keywords, happened=False) for t in user_texts):
            sql.close(conn, item.item_id, "resolved", "talked about in a later session")
            if _begun(item, now_ms):  # how it went, told: "结果出来了 良性！！" after the biopsy
                spoke += [
                    t
                    for t in user_texts
                    if arm.came_up(t, item.keywords, happened=False) and not matter.still_on(t)
                ]
        elif any(arm.came_up(t, item.keywords, _begun(item, now_ms)) for t in user_texts):
            by_outcome.append(item)
    # "It went well" names no matter: after a push it answers what was asked; else it settles the latest one
    told: list[str] = []  # the lines that told how it went: the telling, no new matter
    if by_outcome and not pushed:
        one = max(by_outcome, key=lambda i: i.not_before)
        sql.close(conn, one.item_id, "resolved", "talked about in a later session")
        told = [t for t in user_texts if arm.came_up(t, one.keywords, True)]
    waiting = [i for i in sql.items(conn, agent_id) if i.source_episode != episode_id]
    for a in arms:
        if (
            any(_repeats(a, i) for i in waiting)
            or retire.quotes_any(a, told)
            or (a.scene == "matter" and retire.quotes_any(a, spoke))
            or (felt_alone and _about_waiting(a, waiting, now_ms))
        ):
            continue
        sql.insert(
            conn,
            agent_id,
            episode_id,
            a.topic,
            list(a.keywords),
            a.scene,
            a.not_before,
            a.not_after,
            a.priority,
            now_ms,
        )
