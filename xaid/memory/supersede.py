"""A change found by meaning: when a new statement of the user is about the same thing as an earlier
one and reads as a change, the earlier one (and what was drawn from it) becomes history.

The fact rules know a closed set of subjects (``user.car``, 搬到…了), and every wording they miss
left the old value current (issue 24: 3/16 on held-out wordings). A person needs no list: "we left
Lyon, we're in Porto these days" is about where they live because it means nearly what "we rent a
flat in Lyon" means, and it is a change because of how it is said. So, at consolidation, for each of
the session's user statements:

- **same subject** is found by meaning: the earlier user turns nearest to it by vector (one search
  over the agent's own memories, and the session's own earlier statements), counted when the
  cosine is at least ``CLOSE``, or at least ``NEAR`` with the subject's words agreeing (a content
  word or a Chinese word in common, or the same fact slot from the rules). One change replaces one
  thing: only the nearest earlier statement, or one within ``MARGIN`` of it. A far paraphrase
  (below ``NEAR``, no word in common: "moved every login over to KeePass" after "my password
  manager is Dashlane", 0.28) counts when it is clearly the nearest (the lower its cosine, the
  further ahead of the next) and the words name the change;
- **a change** is read from the new statement's words by ``change_cues`` (tense and change, both
  languages, with the blockers: an addition or both kept at once, a hypothetical, past narration,
  someone else's change, a one-off, a bounded stretch, the same value restated);
- **the same setting**: two statements that each open with their own setting ("At work I use a
  Mac", "At home I've switched to Windows"; 上班…, 家里…) are about two things, never a pair; and
  the rules' slots make words agree only for a single-valued slot (a job, a home: one at a time),
  not for what the user uses or likes, of which there are many;
- both → the rules decide (``decided_by: rules``): the earlier turn, the reply to it, the facts drawn
  from it that are about the same thing (near the new statement by vector) and the quotes of it in
  an episode summary become history (kept, inspectable, found again when the past is asked about);
- **within one session** ("my dentist is Dr Hale … oh actually, scratch that, Dr Osei sees me
  now") the same, but only a named change or a correction replaces: in one conversation a "now"
  often goes on about the same thing;
- **unsure** (close in meaning and not blocked, but no change cue, or a cue with the meaning only
  near and no word agreeing): with ``memory.ask_changes`` on, the model decides, in ONE short call
  per consolidated session for all such pairs together (``MAX_ASKED`` at most), a numbered list
  answered "N: yes/no" per line. Off by default: on the dev sets (perf area updates_dev, branch
  updates4) the default 1.5B answered no to all 15 pairs it was asked and replaced nothing, so the
  call cost time for no change; both statements stay current and a present question still gets
  the newer first (xaid.memory.recency). An
  answer that cannot be read for a pair keeps both statements: a missed update is recoverable by
  the next mention, a wrong one hides what is still true. (Measured on updates_dev2 with the
  1.5B, asking also clearly-nearest pairs with no cue, as a choice "what is true now: A, B or
  both": it chose A or both for all 9 pairs it answered; not kept.)

Precision first (branch updates4, perf/scenarios/updates_dev3.json's train half): of 44 controls
that look like a change, 9 made the earlier statement history (a one-off "tonight … instead", a
bounded "咖啡先停了", a restatement "still in Shoreditch" with "finally" about something else, both
kept "rotating between the two", another setting); the blockers and the setting above are their
general shapes, and no change of the train halves was lost to them.

The thresholds were set on USE-multilingual-v3 (the default embedder) with perf/scenarios/
updates_dev.json and updates_dev2.json's train split (the dev sets; held-out sets are kept apart):
changes score 0.13-0.72 against what they replace (median 0.42-0.45), unrelated statements 0.25-0.27
at their 95th percentile, additions and someone else's news up to 0.56 (those the cues block).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

import apsw
import numpy as np

from .. import cpu
from ..store import Database
from ..store import memory as sql
from ..store import utterances as utterance_sql
from ..store.utterances import NewUtterance, Utterance
from ..text import cjk, hour_said, stopwords
from . import change_cues, draft, facts, index, thing_news
from .rules import extract

CLOSE = 0.45  # same subject by meaning alone
NEAR = 0.3  # same subject when the subject's words (or slot) agree too
CLOSE_NO_CUE = 0.55  # a statement with no cue this close to an earlier one: the model is asked
# One change replaces one thing: the earlier statement nearest to it, or one about as near
# (``MARGIN``). A far paraphrase ("sold the Vespa-looking thing" after "my ride is a little Honda
# scooter") is paired when it is clearly the nearest (``GAP`` ahead of the next, more below
# ``NEAR``) and the words name the change (``FLOOR``) or say the present replaces something
# (``NOW_CLOSE``). Set on updates_dev2.json's train split against 15 unrelated earlier statements.
MARGIN = 0.1
GAP = 0.05
FLOOR = 0.25
NOW_CLOSE = 0.38
# A named change whose object is the one thing an earlier statement is about ("left leeds last
# month" after "I live in Leeds", 0.17 as a whole message; "cancelled my gym membership" after "I
# train at PureGym", 0.13) is paired down to this cosine: the verb says what changed.
OBJECT_FLOOR = 0.1
# Off (branch update10): on the dev sets it paired only the two train examples it was built on
# (updates_dev10 train en strict 7 -> 9/10, ranked 9 -> 10/10), nothing on any test half or on
# sets 1-4, 7 and supersede_dev8, so it widens what is a change with no evidence outside its own
# wording. Kept for the next attempt with a held-out check; True is the variant to measure.
OBJECT_PAIRING = False
# News of a thing the earlier statement names is no change of the user's (branch supersede13);
# False is the variant measured against.
THING_NEWS = True
# The end of the one an earlier statement named ("Biscuit passed away", 饼干春天走了) replaces it
# (branch update14); False is the variant measured against.
ENDINGS = True
# An earlier statement that tells one dated happening ("went to a support group yesterday") is a
# record of that day, never replaced (branch supersede13, for LoCoMo's chats); False is the variant.
EPISODES_HOLD = True
# A change word inside a question is asked about, not told: "Wow, Mel! Any more paintings coming
# up?", "how's the new job?" (session 28: on LoCoMo's chats such lines had made earlier turns
# history). Only the clauses that do not ask are read for a change; False is the variant.
ASKED_STATES_NOTHING = True
# One change replaces one thing: when the rules would replace more than this many earlier
# statements for one new one, the new one is about a theme the user talks of often (thanks, their
# painting, their support network), not one thing that changed: none is replaced, and none is put to
# the model either (session 28: on LoCoMo's chats 101 of 128 statements the rules paired replaced
# two to fourteen earlier turns each). 0: no bound (the variant).
MOST_REPLACED = 2
FACT_NEAR = (
    0.3  # a fact drawn from the old turn is about the new statement's subject (or words agree)
)
NEIGHBOURS = 16  # the nearest memories of the agent read per statement
MAX_ASKED = 6  # pairs in the one call; the closest are asked, the rest keep both
ANSWER_TOKENS = 4 * MAX_ASKED
_PARROT = re.compile(r"Earlier:|Later:|one line per pair|echo:", re.I)
# No example answer in the prompt: with 'Answer "1: yes" or "1: no"' the 1.5B wrote "1: no" for
# every pair, copying the example's number.
_ANSWER = re.compile(
    # "1: yes", "1. no" and the 1.5B's own "1. 1, no"
    r"(\d+)\s*[:.)、：\-]?\s*(?:\1\s*[,，:.]\s*)?(yes|no|是|否|不是|对|不对)",
    re.I,
)


@dataclass(frozen=True, slots=True)
class Earlier:
    """An earlier user turn near a new statement, and the facts drawn from it near that statement."""

    utterance: Utterance
    cosine: float
    facts: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Pair:
    """A new statement (the ``index`` of its turn in the session) that may replace an earlier turn."""

    index: int
    earlier: Earlier
    decided_by: str  # rules | llm


@dataclass(frozen=True, slots=True)
class Within:
    """A change within one session: the statement at ``index`` replaces the session's own earlier
    statement at ``earlier`` ("my dentist is Dr Hale" … "oh actually, scratch that, Dr Osei sees me
    now"). Both turns are written by the same consolidation, so the pair names them by position,
    and the earlier one by its message (its turn is found by it once written)."""

    index: int
    earlier: int
    cosine: float
    earlier_message: int | None
    text: str  # the later statement


@dataclass
class Plan:
    """What consolidation will apply in its transaction, and what it cost (item 8's counters)."""

    pairs: list[Pair]
    within: list[Within] = field(default_factory=list)
    asked: int = 0  # pairs put to the model
    calls: int = 0  # model calls (0 or 1)
    unreadable: int = 0  # pairs the answer did not decide (kept both)


def words(text: str) -> set[str]:
    """The words that name what a statement is about: content words, Chinese character pairs."""
    latin = {
        w.rstrip("s")
        for w in re.findall(r"[a-z][a-z'-]+", text.lower())
        if w not in stopwords.ENGLISH and len(w) > 2
    }
    return latin | set(cjk.pairs(text, stopwords.CJK_PAIR))


def slots(text: str) -> set[str]:
    """The fact slots the rules read in a statement (job, home, ...)."""
    return {c.subject for c in extract.candidates(text)}


def _same_word(a: str, b: str) -> bool:
    """One word, or one in the other ("gym" in "PureGym"), or one stem ("teacher", "teaching")."""
    if a == b:
        return True
    if a.isascii() and b.isascii():
        short, long = sorted((a, b), key=len)
        return (len(short) >= 3 and short in long) or (len(short) >= 5 and long[:5] == short[:5])
    return False


def agree(new: str, old: str) -> bool:
    """The subject's words agree: a word in common, or one single-valued fact slot from the rules
    (a job, a home, a car: one at a time). Two things the user uses or likes share a slot and are
    still two things ("At work I use a Mac" and "At home I've switched to Windows")."""
    return agree_read(words(new), words(old), lambda: slots(new), lambda: slots(old))


def agree_read(
    new: set[str],
    old: set[str],
    new_slots: Callable[[], set[str]],
    old_slots: Callable[[], set[str]],
) -> bool:
    """``agree`` on the two statements' ``words`` already read, their ``slots`` read only if the
    words do not decide (the fact rules are the costly part): a search compares the same turns
    pair after pair and remembers what it read of each (xaid.memory.recency)."""
    if new & old or any(_same_word(x, y) for x in new for y in old):
        return True
    return bool(new_slots() & old_slots() & facts.EXCLUSIVE)


# The setting a statement opens with, which narrows what it is about: "At home I've switched to
# Windows" is about the home computer, "At work I use a Mac" about the work one; "家里打游戏那台我换成…"
# and "上班我用Mac". English: a leading "at/for/on/in …" before the speaker; Chinese: the topic before
# 我 (a time word there is not a setting: "现在我…", "最近我…").
_SETTING_EN = re.compile(
    r"^\W*(?:at|for|on|in|during)\s+(?:the\s+|my\s+|our\s+)?(?P<what>[a-z-]+(?:\s+[a-z-]+)?)"
    r"(?=\s*(?:,|though|tho|i\b|i'|we\b|we'))",
    re.I,
)
_SETTING_ZH = re.compile(rf"^\W*(?P<what>[{cjk.IDEOGRAPHS}]{{2,8}}?)我")
_TIME_ZH = re.compile(
    r"现在|最近|如今|目前|平时|一般|每天|以后|之前|后来|原来|以前|今年|这些|那时|终于|已经"
)


def setting(text: str) -> set[str]:
    """The words of the setting a statement opens with (empty when it opens with none)."""
    if m := _SETTING_EN.match(text):
        return words(m.group("what"))
    m = _SETTING_ZH.match(text)
    if m is None or _TIME_ZH.search(m.group("what")):
        return set()
    return set(cjk.pairs(m.group("what"), stopwords.CJK_PAIR)) or {m.group("what")}


def elsewhere(new: str, old: str) -> bool:
    """Each statement opens with its own setting and neither names the other's: the same kind of
    thing in two settings (work and home, coffee and tea) is two things, not a change of one."""
    a, b = setting(new), setting(old)
    if not a or not b:
        return False
    return not (a & words(old) or b & words(new))


@dataclass(frozen=True, slots=True)
class Found:
    """An earlier user turn a new statement may replace, before its cosine is measured, with the
    facts drawn from it that are about the same thing (near the statement by vector, or agreeing in
    the subject's words: "works at Globex" and "I left Globex" score only 0.26)."""

    utterance: Utterance
    facts: tuple[int, ...]  # the facts drawn from it about what the new statement is about


def _agrees_with_fact(conn: apsw.Connection, agent_id: str, fact_id: int, text: str) -> bool:
    fact = sql.get_fact(conn, agent_id, fact_id)
    return fact is not None and agree(text, fact.text)


def earlier_turns(
    conn: apsw.Connection, agent_id: str, text: str, vector: np.ndarray, before_ms: int
) -> list[Found]:
    """The agent's current user statements said before ``before_ms`` that may be about what ``text``
    is about: turns near it by vector or keywords, and the user turns of episodes near it. A plain
    statement ("I smoke about ten cigarettes a day") often has no vector of its own (its value is
    under the small-talk line), but its episode's summary quotes it and its words are indexed."""
    hits = index.knn(conn, agent_id, vector, NEIGHBOURS)
    fact_cos = {}
    ids = [i for i, _ in hits] + [i for i, _ in index.keyword(conn, agent_id, text, NEIGHBOURS)]
    found = index.items(conn, ids)
    cos_of = dict(hits)
    turn_ids: list[int] = []
    episode_ids: list[int] = []
    for item_id in dict.fromkeys(ids):
        item = found.get(item_id)
        if item is None:
            continue
        if item.kind == "utterance":
            turn_ids.append(item.source_id)
        elif item.kind == "episode":
            episode_ids.append(item.source_id)
        elif item.kind == "fact" and item_id in cos_of:
            fact_cos[item.source_id] = cos_of[item_id]
    turns = {
        **utterance_sql.many(conn, turn_ids),
        **{u.utterance_id: u for u in utterance_sql.users_in_episodes(conn, agent_id, episode_ids)},
    }
    out = []
    for uid, u in turns.items():
        if u.role != "user" or u.status != "current" or u.ts_ms >= before_ms:
            continue
        if extract.is_question(u.text):
            continue
        stated = utterance_sql.facts_stated_in(conn, agent_id, uid)
        # the one fact a turn states is that turn said again ("I live in Leeds." / "The user lives
        # in Leeds."): it goes with the turn, however far the new words are from it ("me and my
        # partner moved to York last month" left "The user lives in Leeds." current, first for
        # "Where do I live?", updates_dev33); of several, those about what the new one is about
        facts = tuple(
            f
            for f in stated
            if len(stated) == 1
            or fact_cos.get(f, 0.0) >= FACT_NEAR
            or _agrees_with_fact(conn, agent_id, f, text)
        )
        out.append(Found(u, facts))
    return out


def prompt(pairs: Sequence[tuple[str, str]]) -> str:
    """The one question for a session's unsure pairs, for a small model: the pairs as a numbered
    list, the directive last (DESIGN 3b: 0.5-1.5B models act on a directive line near the end)."""
    lines = [
        "Each pair is two things the user said, the earlier one first.",
        "",
    ]
    for n, (old, new) in enumerate(pairs, 1):
        lines.append(f'{n}. Earlier: "{draft.quote(old)}"')
        lines.append(f'   Later: "{draft.quote(new)}"')
    lines += [
        "",
        "For each pair: does the later statement mean the earlier one is no longer true?",
        "Answer one line per pair: the pair's number, then yes or no.",
    ]
    return "\n".join(lines)


def parse(answer: str | None, n: int) -> list[bool | None]:
    """A verdict per pair (True: the later replaces the earlier), None where the answer says nothing
    readable. A lone "yes"/"no" answers a single pair; numbers outside 1..n are ignored."""
    verdicts: list[bool | None] = [None] * n
    if not answer or _PARROT.search(answer):
        return verdicts  # nothing, or the question read back: no verdict at all
    for m in _ANSWER.finditer(answer):
        k = int(m.group(1)) - 1
        if 0 <= k < n and verdicts[k] is None:
            verdicts[k] = m.group(2).lower() in {"yes", "是", "对"}
    if n == 1 and verdicts[0] is None:
        head = answer.strip().lower()
        if head.startswith(("yes", "是", "对")):
            verdicts[0] = True
        elif head.startswith(("no", "否", "不")):
            verdicts[0] = False
    return verdicts


Ask = Callable[[str, int], Awaitable[str | None]]
Embed = Callable[[list[str]], Awaitable[list[np.ndarray | None]]]


def _cosine(a: np.ndarray, b: np.ndarray) -> float:
    n = float(np.linalg.norm(a) * np.linalg.norm(b))
    return float(np.dot(a, b)) / n if n else 0.0


async def _measured(
    db: Database, embed: Embed, agent_id: str, text: str, vec: np.ndarray, before_ms: int
) -> list[Earlier]:
    """The earlier statements with their cosine to ``vec``, measured afresh (many have no stored
    vector), nearest first."""
    found = await db.run(earlier_turns, agent_id, text, vec, before_ms)
    if not found:
        return []
    vectors = await embed([f.utterance.text for f in found])
    out = [
        Earlier(f.utterance, _cosine(vec, v), f.facts)
        for f, v in zip(found, vectors, strict=True)
        if v is not None
    ]
    return sorted(out, key=lambda e: -e.cosine)


def told(text: str) -> change_cues.ChangeReading:
    """How a statement reads as a change (``change_cues.read``), where the cue must sit in a part
    that is told, not asked: "Any more paintings coming up?" asks about a change, while what blocks
    one counts wherever it is said ("I'm done with Spotify... or am I?")."""
    reading = change_cues.read(text)
    if not (ASKED_STATES_NOTHING and reading.change):
        return reading
    said = extract.stated(text)
    if said == text or change_cues.read(said).change:
        return reading
    return change_cues.ChangeReading(None, False, None)


def _restated(reading: change_cues.ChangeReading, old: str) -> bool:
    """The earlier statement is what a "still" beside the change says again ("我在望京上班" for
    "还是在望京上班，…终于不用点外卖了"), and the change's own clause does not name it (as "我从星海
    辞职了" names "我在星海科技做前端开发" beside "还是做前端")."""
    return (
        bool(reading.restates) and agree(reading.restates, old) and not agree(reading.clause, old)
    )


def judge(text: str, near: Sequence[Earlier]) -> tuple[list[Earlier], list[Earlier]]:
    """(replaced by the rules, unsure) among one statement's earlier ones, nearest first. Pure
    computation (the cues, the words, the rules' slots): ``cpu.run`` keeps it off the event loop."""
    reading = told(text)
    if reading.blocked is not None:
        return [], []
    other = change_cues.reads_other(text)
    top = near[0].cosine if near else 0.0
    acted = _acted_on(text, near)
    news = thing_news.things(text)

    def holds(e: Earlier) -> bool:
        """The earlier statement holds whatever the words say: another setting, how the one it
        named is now, news of a thing it names that is not the user's change, or it told one
        dated happening."""
        old = e.utterance.text
        return (
            elsewhere(text, old)
            or _restated(reading, old)
            or change_cues.describes(text, old)
            or (THING_NEWS and news_of_named(news, old) and not new_time_of(text, old))
            or (e.utterance.utterance_id >= 0 and stands(old))
        )

    sure, unsure = _pairs(text, near, reading, other, top, acted, holds)
    if MOST_REPLACED and len(sure) > MOST_REPLACED:
        return [], []
    return sure, unsure


def _pairs(
    text: str,
    near: Sequence[Earlier],
    reading: change_cues.ChangeReading,
    other: str | None,
    top: float,
    acted: Earlier | None,
    holds: Callable[[Earlier], bool],
) -> tuple[list[Earlier], list[Earlier]]:
    """``judge``'s reading of each earlier statement, nearest first: (replaced, unsure)."""
    sure: list[Earlier] = []
    unsure: list[Earlier] = []
    for rank, e in enumerate(near):
        if e is acted and not holds(e):
            sure.append(e)
            continue
        if ENDINGS and e.cosine >= max(FLOOR, top - MARGIN) and _ends(text, e):
            sure.append(e)  # the one it named has ended: "Biscuit passed away in the spring"
            continue
        if e.cosine < min(NEAR, FLOOR):
            break
        if holds(e):
            continue
        nearest = e.cosine >= top - MARGIN
        # the lower the cosine, the further ahead of the next it must be to be clearly the one
        lead = GAP + max(0.0, NEAR - e.cosine)
        clear = rank == 0 and (len(near) == 1 or near[1].cosine <= e.cosine - lead)
        same = e.cosine >= NEAR and (e.cosine >= CLOSE or agree(text, e.utterance.text))
        if (
            reading.change
            and nearest
            and (
                same
                or (clear and reading.strong and e.cosine >= FLOOR)
                or (clear and e.cosine >= NOW_CLOSE)
                # a present replacement clearly the nearest with the subject's words agreeing, a
                # little below NEAR ("I'm in town in 20 now" by the ring road after "I drive the
                # A40 into town", 0.30; "现在是晚饭后带旺财出去转" after "我每天早上七点遛狗", 0.29)
                or (clear and e.cosine >= FLOOR and subject_words_agree(text, e.utterance.text))
            )
        ):
            sure.append(e)
        elif e.cosine >= NEAR and (
            reading.change
            or (e.cosine >= CLOSE_NO_CUE and other is None and _open(text, e.utterance.text))
        ):
            unsure.append(e)
    return sure, unsure


# What an earlier statement opens with before its own subject: the speaker as its owner ("My book
# club meets…", 我们读书会…, 我手机号…).
_POSSESSOR = re.compile(r"^\W*(?:(?:my|our)\s+|我们的|我们|我的|我家的?|我)", re.I)


def _opens_with(earlier: str, said: set[str]) -> bool:
    """The earlier statement, after its owner, opens with these words: its own subject ("book" in
    "My book club meets at the Lantern", 读书 in 我们读书会在光合咖啡馆聚); "I go to PureGym" and
    我在德勤做审计 open with the speaker doing something."""
    rest = _POSSESSOR.sub("", earlier.strip(), count=1)
    if cjk.has(rest[:1]):
        return any(rest.startswith(p) for p in said)
    m = re.match(r"\W*([a-z][a-z'-]+)", rest.lower())
    return m is not None and m.group(1).rstrip("s") in said


def news_of_named(news: Sequence[str], earlier: str) -> bool:
    """A thing whose own news the statement tells (xaid.memory.thing_news) is one the earlier
    statement names as what the user goes to, uses or has ("I go to PureGym" → "PureGym changed
    their hours"; 我常去公园路那家面包房 → 公园路那家面包房换老板了), not that statement's own subject
    ("My book club meets at the Lantern" → "book club relocated to Maya's": a new value of it)."""
    named = words(earlier)
    for thing in news:
        said = words(thing)
        if _opens_with(earlier, said):
            continue
        if said & named or any(_same_word(x, y) for x in said for y in named):
            return True
    return False


_WEEKDAY_EN = re.compile(r"\b(mon|tues|wednes|thurs|fri|satur|sun)days?\b", re.I)
_WEEKDAY_ZH = re.compile(r"(?:周|星期|礼拜)([一二三四五六日天])")
_ZH_DAY = dict(
    zip(
        "一二三四五六日天",
        ("mon", "tues", "wednes", "thurs", "fri", "satur", "sun", "sun"),
        strict=True,
    )
)


def _weekdays(text: str) -> frozenset[str]:
    return frozenset(m.group(1).lower() for m in _WEEKDAY_EN.finditer(text)) | frozenset(
        _ZH_DAY[m.group(1)] for m in _WEEKDAY_ZH.finditer(text)
    )


def new_time_of(text: str, earlier: str) -> bool:
    """The thing's news gives another day of the week or hour than the earlier statement gave for
    it ("报了个羽毛球班，每周二晚上上课" → "羽毛球班改到周四了"; "Spin class is Tuesdays at 7" →
    "the spin class moved to Thursdays"): a new value of what that statement said, whoever did the
    changing, not news beside it ("PureGym changed their hours" after "I go to PureGym", which
    named no time)."""
    said, before = _weekdays(text), _weekdays(earlier)
    if said and before and said != before:
        return True
    hour, hour_before = hour_said.hour_of(text), hour_said.hour_of(earlier)
    return hour is not None and hour_before is not None and hour != hour_before


def stands(text: str) -> bool:
    """An earlier turn no later statement replaces: one happening told with its day ("went to a
    support group yesterday", 昨天去了个陶艺工作坊) is a record of that day (``change_cues.episode``).
    Read for the pairs here and for the turns a superseded fact came from (xaid.memory.episodes)."""
    return EPISODES_HOLD and change_cues.episode(text)


def _ends(text: str, e: Earlier) -> bool:
    """The statement tells the end of the one the earlier statement named, which is then history
    (not for another setting, not a record of one day)."""
    old = e.utterance.text
    return (
        change_cues.ended(text, old)
        and not elsewhere(text, old)
        and not (e.utterance.utterance_id >= 0 and stands(old))
    )


def _acted_on(text: str, near: Sequence[Earlier]) -> Earlier | None:
    """The one earlier statement (at ``OBJECT_FLOOR`` or nearer) whose subject's words the object of
    the user's named change agrees with; None when none or more than one does (one change replaces
    one thing, and two candidates leave it to the cosine)."""
    objects = change_cues.changed(text) if OBJECT_PAIRING else []
    if not objects:
        return None
    agreeing = [
        e
        for e in near
        if e.cosine >= OBJECT_FLOOR
        and any(subject_words_agree(o, e.utterance.text) for o in objects)
    ]
    return agreeing[0] if len(agreeing) == 1 else None


# When something happens, or how much of it, is not what it is about: "With friends it's all
# Discord these days" and "For work I'm on Teams all day" share "all" and "day", not a subject.
# Read out of a pair's words only where little else ties it (a present replacement a little below
# NEAR); the keyword search keeps its own stop words.
_INCIDENTAL = re.compile(
    r"(?<![a-z])(?:day|days|daily|week|weeks|weekend|weekends|weekday|weekdays|month|months|year|years|"
    r"morning|mornings|evening|evenings|night|nights|tonight|today|time|times|"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?|"
    r"all|every|everything|most|lot|lots|bit|way|thing|things|stuff|really|just|pretty|kinda|"
    r"[a-z]+'[a-z]*)(?![a-z'])|"  # and the contractions: "it's", "I'm" say nothing of what
    r"每天|天天|每周|每晚|早上|早晨|晚上|中午|下午|周末|平时|今天|最近|现在|时候|时间|都是|一直",
    re.I,
)


def subject_words(text: str) -> set[str]:
    """``words`` of what a statement is about, the words of when and how much read out."""
    return words(_INCIDENTAL.sub(" ", text))


def subject_words_agree(new: str, old: str) -> bool:
    """``agree`` on what the two are about, the words of when and how much read out."""
    return agree(_INCIDENTAL.sub(" ", new), _INCIDENTAL.sub(" ", old))


def _open(new: str, old: str) -> bool:
    """A pair with no cue that the rules cannot settle: the new statement says something the old one
    does not (not a restatement: "I'm allergic to gluten!" again), and the two are not statements
    of one fact slot, which the facts' consistency check decides already ("allergic to peanuts"
    beside "allergic to gluten" is one more allergy; "I drive a Kia" beside "I drive a Civic" an
    UPDATE)."""
    if words(new) <= words(old):
        return False
    return not (slots(new) & slots(old))


def _cached(embed: Embed) -> Embed:
    """``embed`` that embeds each text once per consolidation: one earlier statement is often near
    several of the session's."""
    seen: dict[str, np.ndarray | None] = {}

    async def run(texts: list[str]) -> list[np.ndarray | None]:
        missing = [t for t in dict.fromkeys(texts) if t not in seen]
        if missing:
            seen.update(zip(missing, await embed(missing), strict=True))
        return [seen[t] for t in texts]

    return run


async def plan(
    db: Database,
    agent_id: str,
    turns: Sequence[NewUtterance],
    started_ms: int,
    embed: Embed,
    ask: Ask | None,
) -> Plan:
    """Which earlier turns this session's statements replace: by the rules where the words say so,
    by one model call for the unsure pairs (none with no ``ask``: ``memory.ask_changes`` is off,
    and both statements of an unsure pair stay current)."""
    embed = _cached(embed)
    sure: list[Pair] = []
    unsure: list[tuple[int, Earlier]] = []
    statements = [
        i for i, t in enumerate(turns) if t.role == "user" and not extract.is_question(t.text)
    ]
    own = await embed([turns[i].text for i in statements])
    within: list[Within] = []
    for n, (i, vec) in enumerate(zip(statements, own, strict=True)):
        reading = told(turns[i].text)
        if vec is None or reading.blocked is not None:
            continue  # an addition, a hypothetical…: replaces nothing, not worth a search
        near = await _measured(db, embed, agent_id, turns[i].text, vec, started_ms)
        # the session's own earlier statements compete with the stored ones for "the nearest"
        near = sorted(
            near + _said_before(turns, statements[:n], own[:n], vec), key=lambda e: -e.cosine
        )
        replaced, doubtful = await cpu.run(judge, turns[i].text, near)
        correcting = change_cues.corrects(turns[i].text)
        for e in replaced:
            if e.utterance.utterance_id >= 0:
                sure.append(Pair(i, e, "rules"))
            elif correcting or reading.strong:
                # within one conversation a "now" often goes on about the same thing ("it's so
                # good, I'm on book two now"): only a named change or a correction replaces
                j = -1 - e.utterance.utterance_id
                within.append(Within(i, j, e.cosine, turns[j].message_id, turns[i].text))
        unsure += [(i, e) for e in doubtful if e.utterance.utterance_id >= 0]
    taken = {p.earlier.utterance.utterance_id for p in sure}
    unsure = [(i, e) for i, e in unsure if e.utterance.utterance_id not in taken]
    unsure.sort(key=lambda x: -x[1].cosine)
    asked = unsure[:MAX_ASKED]
    out = Plan(sure, within)
    if not asked or ask is None:
        return out
    answer = await ask(prompt([(e.utterance.text, turns[i].text) for i, e in asked]), ANSWER_TOKENS)
    out.asked, out.calls = len(asked), 1
    for (i, e), verdict in zip(asked, parse(answer, len(asked)), strict=True):
        if verdict is None:
            out.unreadable += 1
        elif verdict and e.utterance.utterance_id not in taken:
            out.pairs.append(Pair(i, e, "llm"))
            taken.add(e.utterance.utterance_id)
    return out


def _said_before(
    turns: Sequence[NewUtterance],
    earlier: Sequence[int],
    vectors: Sequence[np.ndarray | None],
    vec: np.ndarray,
) -> list[Earlier]:
    """The session's earlier user statements as candidates, each a stand-in turn whose id is
    ``-1 - index`` (no row exists before consolidation writes the session)."""
    out = []
    for j, v in zip(earlier, vectors, strict=True):
        if v is None:
            continue
        t = turns[j]
        stand_in = Utterance(
            -1 - j,
            "",
            None,
            None,
            t.ref,
            t.role,
            t.speaker,
            t.text,
            t.ts_ms,
            None,
            t.value,
            "current",
            0,
        )
        out.append(Earlier(stand_in, _cosine(vec, v), ()))
    return out


def apply(conn: apsw.Connection, agent_id: str, p: Plan, ts_ms: int) -> list[Utterance]:
    """In consolidation's transaction: each replaced turn, the reply to it and its facts about the same
    thing become history; the turns that changed (their quotes are then dropped by the caller)."""
    changed: list[Utterance] = []
    for pair in p.pairs:
        u = utterance_sql.supersede(conn, agent_id, pair.earlier.utterance.utterance_id)
        if u is None:
            continue  # superseded or forgotten meanwhile
        changed.append(u)
        for fact_id in pair.earlier.facts:
            fact = sql.get_fact(conn, agent_id, fact_id)
            if fact is not None and fact.status == "current":
                sql.outdate(conn, fact_id, ts_ms, pair.decided_by)
                index.remove(conn, "fact", [fact_id])
    changed += apply_within(conn, agent_id, p.within, ts_ms)
    return changed


def apply_within(
    conn: apsw.Connection,
    agent_id: str,
    within: Sequence[Within],
    ts_ms: int,
) -> list[Utterance]:
    """After the session's turns are written: each earlier turn a later one of the same session
    replaced becomes history, with the facts drawn from it that agree with the later statement."""
    changed: list[Utterance] = []
    for w in within:
        m = w.earlier_message
        old = utterance_sql.of_message(conn, agent_id, m) if m is not None else None
        if old is None or (u := utterance_sql.supersede(conn, agent_id, old.utterance_id)) is None:
            continue
        changed.append(u)
        for fact_id in utterance_sql.facts_stated_in(conn, agent_id, u.utterance_id):
            if _agrees_with_fact(conn, agent_id, fact_id, w.text):
                sql.outdate(conn, fact_id, ts_ms, "rules")
                index.remove(conn, "fact", [fact_id])
    return changed
