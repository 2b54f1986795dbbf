"""Present questions prefer the present: for a question about now, the latest thing the user said
about a subject ranks above what they said about it before, even before consolidation has marked the
older statement as history (issue 24 item 3).

Consolidation makes an earlier statement history when the later one reads as a change
(xaid.memory.supersede); but a change said without a cue ("I follow Brighton, great season" after
"I support Everton"), one the model kept both of, or one whose session is not yet consolidated,
leaves both current. A person answering "which team do I support?" takes the latest. So among the
user's current turns a search found, a pair about the same subject (their vectors close, or near with
the subject's words agreeing; xaid.memory.supersede's cuts) said on different occasions puts the
newer first and the older lower (``DEMOTE`` of its score). A question about the past ("what did I
drive before", "我以前…", "what did I say last week") keeps the ranking as it was: the history is
what it asks for.

"The same subject" is also read from the question itself: two statements that both answer it (each
near the question by vector, ``ANSWERS``) and are not far apart in meaning (``ANSWERS`` again
between them) are about what it asks, when the newer one reads as a change or a present
replacement (xaid.memory.change_cues: not an addition, a plan, the past or someone else's news).
"我平时刷哪张信用卡？" finds "我平时刷交行的信用卡" at 0.9 and "那张卡年费太贵，现在都用中信的了" at 0.4;
the two are only 0.40 apart, with no word in common, yet a friend answers with the second.

A change is often said with no change word at all ("the commute's so much easier since I got the
e-scooter", "那个会员没续，给孩子开了个腾讯视频"), and its two statements are further apart than
``supersede``'s cuts. For a message that asks (``extract.is_question``) the question says what the
subject is: the older statement answers it, the newer is near it, and the two are near each other
(``_about_it``). Such a pair only reorders: the newer goes just above the older when it is the
user's own present (``own_present``), just below when it is a memory, someone else's news or a plan
and the older is the user's own. A question about before puts the earlier of such a pair first. A
message that only mentions something ("今早腰疼死了") is left to the stronger pairing: the companion
associates from it, and an age prior for every message about now had cost the associative dev set
(recall4).

Its own module, called from retrieve.search on the scored candidates, so the ranking's speed work
there and this rule stay apart.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from . import change_cues, supersede
from .index import Item
from .pack import About
from .rules import extract

DEMOTE = 0.6  # the older statement's score is multiplied by this
ANSWERS = (
    0.2  # a statement this near the question answers it; two answers this near share a subject
)
# Two statements a question asks about, by meaning alone (no change word, not close enough for
# ``_same_subject``): the older answers the question (``ANSWERS``), the newer is at least this near it
# and the two are ``PAIR`` apart. Set on present_dev.json's train half.
NEAR_QUESTION = 0.1
PAIR = supersede.NEAR
# What the user said, and the facts drawn from it ("用户在多邻国上学日语。" may outrank its own turn).
SAID = frozenset({"utterance", "fact"})
WINDOW = 8  # the best user turns compared (pairs grow as its square)
APART_MS = (
    6 * 3_600_000
)  # said on different occasions: turns of one conversation are context, not news

_NOW = re.compile(
    r"(?<![a-z'])(?:now|these days|nowadays|currently|at the moment|at present|still|lately|today)(?![a-z'])"
    r"|现在|最近|如今|目前|这些天|这阵子|眼下|当前",
    re.I,
)
_THEN = re.compile(
    r"(?<![a-z'])(?:did|was|were|had|used to|before|ago|last|previously|back then|then|once)(?![a-z'])"
    r"|以前|之前|原来|过去|那时|上次|上回|当时|曾经|当年",
    re.I,
)


def about_now(query: str, past: bool) -> bool:
    """A question about how things are now: it says so ("these days", 现在), or it is in the present
    with no word of the past ("which phone do I use?"); ``past`` is retrieve's own reading (cues)."""
    if past:
        return False
    return bool(_NOW.search(query)) or not _THEN.search(query)


def _same_subject(a: Item, b: Item, cosine: float | None) -> bool:
    if cosine is not None and cosine >= supersede.CLOSE:
        return True
    if cosine is not None and cosine < supersede.NEAR:
        return False
    return supersede.agree(a.text, b.text)


def _same_answer(
    newer: Item, older: Item, cosine: float | None, asked: Mapping[int, float], ids: tuple[int, int]
) -> bool:
    """Both answer the question, they are near each other, and the newer one says it is new."""
    if cosine is None or cosine < ANSWERS:
        return False
    if min(asked.get(ids[0], 0.0), asked.get(ids[1], 0.0)) < ANSWERS:
        return False
    return change_cues.read(newer.text).change


def _about_it(
    newer: Item,
    older: Item,
    cosine: float | None,
    asked: Mapping[int, float],
    ids: tuple[int, int],
    match: float,
) -> bool:
    """Two statements on what the question asks, read by meaning alone: the older one answers it,
    the newer one is at least near it, and the two are near each other (``PAIR``). A short turn is
    kept by its words only, with no vector ("工资卡是工商银行的"): then the subject's words agree, or
    the newer one is a real match of the question (``match``, the embedding model's own cut) while
    the older was found by its words."""
    to_newer, to_older = asked.get(ids[0], 0.0), asked.get(ids[1], 0.0)
    if cosine is None:
        return supersede.agree(newer.text, older.text) or to_newer >= match
    return to_older >= ANSWERS and to_newer >= NEAR_QUESTION and cosine >= PAIR


def own_present(text: str) -> bool:
    """The statement says how things are for the user now: no reading of it makes it a memory,
    someone else's news, a plan or a wish, a one-off, a bounded stretch, an addition or the same
    value again (xaid.memory.change_cues; ``read`` for a statement with a cue of change,
    ``reads_other`` for one without, whose "someone else" counts when the statement opens with
    that person: "My Spotify wrapped was all Phoebe Bridgers, she's taken over my commute" is
    the user's)."""
    reading = change_cues.read(text)
    if reading.cue is not None:
        return reading.blocked is None
    other = change_cues.reads_other(text)
    if other == "someone_else":
        return not change_cues.opens_with_other(text)
    return other is None


def prefer_present(
    query: str,
    past: bool,
    scored: dict[int, float],
    found: Mapping[int, Item],
    about: Mapping[int, About],
    cosine: Callable[[int, int], float | None],
    asked: Mapping[int, float] | None = None,
    match: float = ANSWERS,
) -> int:
    """Reorder ``scored`` in place: for a question about now, the latest statement on a subject
    first; for a question about before, the earliest. How many statements moved or were demoted.
    ``asked`` holds each candidate's cosine to the question; ``match`` is the cosine at which the
    embedding model counts a vector match (its profile's cut for the query's language)."""
    now = about_now(query, past)
    question = extract.is_question(query)
    if not (now or (past and question)):
        return 0
    users = sorted(
        (
            i
            for i in scored
            if found[i].kind in SAID and about[i].role == "user" and about[i].current
        ),
        key=lambda i: -scored[i],
    )[:WINDOW]
    near = asked or {}
    if not now:
        return _prefer_history(users, scored, found, cosine, near, match)
    demoted: set[int] = set()
    moved = 0
    for newer in sorted(users, key=lambda i: -found[i].ts_ms):
        for older in users:
            if older in demoted or found[newer].ts_ms - found[older].ts_ms < APART_MS:
                continue
            pair = cosine(newer, older)
            same = _same_subject(found[newer], found[older], pair) or _same_answer(
                found[newer], found[older], pair, near, (newer, older)
            )
            if same and own_present(found[newer].text):
                scored[newer] = max(scored[newer], scored[older] + 1e-3)
                scored[older] *= DEMOTE
                demoted.add(older)
            elif question and (
                same or _about_it(found[newer], found[older], pair, near, (newer, older), match)
            ):
                moved += _order(scored, found, newer, older)
    return len(demoted) + moved


def _order(scored: dict[int, float], found: Mapping[int, Item], newer: int, older: int) -> int:
    """Two statements on what a question about now asks: the newer one first when it is the user's
    own present; just below the older one when it is a memory, someone else's, a plan or a one-off
    and the older one is the user's own present (that is still how things are). 1 if one moved."""
    if own_present(found[newer].text):
        if scored[newer] > scored[older]:
            return 0
        scored[newer] = scored[older] + 1e-3
        return 1
    if scored[newer] <= scored[older] or not own_present(found[older].text):
        return 0
    scored[newer] = scored[older] - 1e-3
    return 1


def _prefer_history(
    users: list[int],
    scored: dict[int, float],
    found: Mapping[int, Item],
    cosine: Callable[[int, int], float | None],
    asked: Mapping[int, float],
    match: float,
) -> int:
    """A question about before ("what did I drive before?", "我以前…"): of two statements on what it
    asks, the earlier comes first; the later is how things went on, not the answer."""
    moved = 0
    for older in sorted(users, key=lambda i: found[i].ts_ms):
        for newer in users:
            if found[newer].ts_ms - found[older].ts_ms < APART_MS:
                continue
            if scored[older] > scored[newer]:
                continue
            pair = cosine(newer, older)
            if _same_subject(found[newer], found[older], pair) or _about_it(
                found[newer], found[older], pair, asked, (newer, older), match
            ):
                scored[older] = scored[newer] + 1e-3
                moved += 1
    return moved
