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
from collections.abc import Callable, Mapping, Sequence

import numpy as np

from . import change_cues, supersede
from .index import Item
from .pack import About
from .vectors import AgentVectors

DEMOTE = 0.6  # the older statement's score is multiplied by this
ANSWERS = (
    0.2  # a statement this near the question answers it; two answers this near share a subject
)
WINDOW = 8  # the best user turns compared (pairs grow as its square)
# A replacement by meaning with the subject's words agreeing counts from this cosine (consolidation's
# ``supersede.NEAR``); by meaning alone from ``supersede.CLOSE``.
REPLACE_NEAR = supersede.NEAR
COMPARED = 40  # superseded candidates compared with the current ones (see ``replaced``)
CURRENT_COMPARED = 200  # current candidates they are compared with, best first
AGREE_TRIES = 8  # nearest current turns in the words-agree band tried per superseded one
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


def prefer_present(
    query: str,
    past: bool,
    scored: dict[int, float],
    found: Mapping[int, Item],
    about: Mapping[int, About],
    cosine: Callable[[int, int], float | None],
    asked: Mapping[int, float] | None = None,
) -> int:
    """Reorder ``scored`` in place for a question about now; how many older statements were demoted.
    ``asked`` holds each candidate's cosine to the question."""
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
                _same_subject(found[newer], found[older], pair)
                or _same_answer(found[newer], found[older], pair, asked or {}, (newer, older))
            ):
                continue
            scored[newer] = max(scored[newer], scored[older] + 1e-3)
            scored[older] *= DEMOTE
            demoted.add(older)
    return len(demoted)


def replaced(
    history: Sequence[int],
    current: Sequence[int],
    found: Mapping[int, Item],
    about: Mapping[int, About],
    near: AgentVectors | None,
) -> set[int]:
    """The superseded candidates (``history``, best first) to leave out: those whose replacement is
    among the ``current`` ones, a newer turn of the same speaker on the same subject (consolidation's
    own test: vectors at ``supersede.CLOSE``, or at ``REPLACE_NEAR`` with the subject's words
    agreeing, tried on the ``AGREE_TRIES`` nearest). For a question about now such a turn is the old
    value and stays out ("which team do I support?" shows Brighton, not Everton too); one whose
    replacement the search did not find is a record the question may need (LoCoMo: many turns are
    marked superseded by a later turn on a nearby subject that does not answer). Only the best
    ``COMPARED`` are compared (one matrix product over their stored vectors); the rest stay out, as
    every superseded turn did before. Without vectors (an English-only embedder and a Chinese
    question) the subject's words alone decide."""
    out = set(history[COMPARED:])
    history, current = history[:COMPARED], current[:CURRENT_COMPARED]
    if not history or not current:
        return out
    if near is None:
        return out | {
            was
            for was in history
            if any(
                about[now].role == about[was].role
                and found[now].ts_ms > found[was].ts_ms
                and supersede.agree(found[now].text, found[was].text)
                for now in current
            )
        }
    old = [(i, r) for i in history if (r := near.row.get(i)) is not None and near.norms[r] > 0]
    new = [(i, r) for i in current if (r := near.row.get(i)) is not None and near.norms[r] > 0]
    if not old or not new:
        return out

    def unit(rows: list[tuple[int, int]]) -> np.ndarray:
        at = np.array([r for _, r in rows])
        vs: np.ndarray = near.q[at].astype(np.float32) / near.norms[at][:, None]
        return vs

    sims = unit(old) @ unit(new).T
    role = {"user": 0, "assistant": 1}
    roles_old = np.array([role.get(about[i].role, 2) for i, _ in old])
    roles_new = np.array([role.get(about[i].role, 2) for i, _ in new])
    ts_old = np.array([found[i].ts_ms for i, _ in old])
    ts_new = np.array([found[i].ts_ms for i, _ in new])
    fits = (roles_old[:, None] == roles_new[None, :]) & (ts_new[None, :] > ts_old[:, None])
    close = ((sims >= supersede.CLOSE) & fits).any(axis=1)
    for a, (was, _r) in enumerate(old):
        if close[a]:
            out.add(was)
            continue
        band = np.flatnonzero(fits[a] & (sims[a] >= REPLACE_NEAR))
        nearest = band[np.argsort(-sims[a, band])[:AGREE_TRIES]]
        if any(supersede.agree(found[new[b][0]].text, found[was].text) for b in nearest):
            out.add(was)
    return out
