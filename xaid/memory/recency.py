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

Its own module, called from retrieve.search on the scored candidates, so the ranking's speed work
there and this rule stay apart.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import TypeVar

from . import change_cues, shown, supersede
from .index import Item
from .pack import About

_T = TypeVar("_T")

DEMOTE = 0.6  # the older statement's score is multiplied by this
ANSWERS = (
    0.2  # a statement this near the question answers it; two answers this near share a subject
)
# A change told in other words than the statement it changes, its subject's words agreeing
# (``_retold``): paired down to this cosine. False: only the pairs above (the variant).
RETELLING = True
RETOLD = 0.1
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


def _read(memo: shown.Memo | None, item: Item, what: str, judge: Callable[[str], _T]) -> _T:
    """``judge`` of the item's words, remembered in the agent's memo when there is one: the same
    turns are paired search after search, and the rules behind these readings are the cost."""
    if memo is None:
        return judge(item.text)
    return memo.judged(what, item.item_id, item.text, judge)


def _same_subject(a: Item, b: Item, cosine: float | None, memo: shown.Memo | None = None) -> bool:
    if cosine is not None and cosine >= supersede.CLOSE:
        return True
    if cosine is not None and cosine < supersede.NEAR:
        return False
    return supersede.agree_read(
        _read(memo, a, "subject words", supersede.words),
        _read(memo, b, "subject words", supersede.words),
        lambda: _read(memo, a, "fact slots", supersede.slots),
        lambda: _read(memo, b, "fact slots", supersede.slots),
    )


def _changes(text: str) -> bool:
    return change_cues.read(text).change


def _same_answer(
    newer: Item,
    older: Item,
    cosine: float | None,
    asked: Mapping[int, float],
    ids: tuple[int, int],
    memo: shown.Memo | None = None,
) -> bool:
    """Both answer the question, they are near each other, and the newer one says it is new."""
    if cosine is None or cosine < ANSWERS:
        return False
    if min(asked.get(ids[0], 0.0), asked.get(ids[1], 0.0)) < ANSWERS:
        return False
    return _read(memo, newer, "change cue", _changes)


def _retold(newer: Item, older: Item, cosine: float | None, memo: shown.Memo | None = None) -> bool:
    """The newer statement tells a change of what the older one is about, said in other words: the
    subject's words agree (the words of when and how much read out) and it reads as a change, however
    far apart the two are in meaning ("otis moved to portugal?? so ive been going to the turkish
    place…" after "found a barber … Otis at Sharp & Co", 0.25; "the pub closed down :( we meet at
    Priya's flat now" after "book club meets in the back room of the Lantern", 0.12). Only where both
    answer the question the search asked (they are among its best user turns) and are not unrelated
    (``RETOLD``); a demotion, not history."""
    if cosine is None or cosine < RETOLD:
        return False
    agree = supersede.agree_read(
        _read(memo, newer, "subject words, incidental out", supersede.subject_words),
        _read(memo, older, "subject words, incidental out", supersede.subject_words),
        lambda: _read(memo, newer, "fact slots", supersede.slots),
        lambda: _read(memo, older, "fact slots", supersede.slots),
    )
    return agree and _read(memo, newer, "change cue", _changes)


def prefer_present(
    query: str,
    past: bool,
    scored: dict[int, float],
    found: Mapping[int, Item],
    about: Mapping[int, About],
    cosine: Callable[[int, int], float | None],
    asked: Mapping[int, float] | None = None,
    memo: shown.Memo | None = None,
) -> int:
    """Reorder ``scored`` in place for a question about now; how many older statements were demoted.
    ``asked`` holds each candidate's cosine to the question; ``memo``, the agent's (shown.py), keeps
    what the rules read of each turn's words for the next search."""
    if not about_now(query, past):
        return 0
    users = sorted(
        (
            i
            for i in scored
            if found[i].kind == "utterance" and about[i].role == "user" and about[i].current
        ),
        key=lambda i: -scored[i],
    )[:WINDOW]
    demoted: set[int] = set()
    for newer in sorted(users, key=lambda i: -found[i].ts_ms):
        for older in users:
            if older in demoted or found[newer].ts_ms - found[older].ts_ms < APART_MS:
                continue
            pair = cosine(newer, older)
            if not (
                _same_subject(found[newer], found[older], pair, memo)
                or _same_answer(found[newer], found[older], pair, asked or {}, (newer, older), memo)
                or (RETELLING and _retold(found[newer], found[older], pair, memo))
            ):
                continue
            scored[newer] = max(scored[newer], scored[older] + 1e-3)
            scored[older] *= DEMOTE
            demoted.add(older)
    return len(demoted)
