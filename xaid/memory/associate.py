"""One memory shown once: repeats collapsed before a search's budget is spent.

People say the same small things again and again ("the bus was late again", "耳机又没电了"). Each
time is a turn of its own, so a search that ranks by meaning finds all of them together, and a
turn's 400 tokens went on five copies of one routine line while the thing a friend would think of,
said once weeks ago, was left out (perf/eval/associative.py: the dev set's misses were mostly
budgets spent on repeats). A repeat adds nothing the first copy does not say: the best-ranked copy
stands for the others (its date is the one shown), and the budget goes to the next different memory.

Same thing = the same words once case, spacing and punctuation are set aside, or vectors so close
(cosine ≥ ``SAME_COSINE``) that only such details differ. Only the best ``WINDOW`` candidates are
compared, pairwise, which is what a budget can hold; the rest keep their order.

Called from retrieve.search on the ranked candidates; no SQL and no state of its own (what a
line's words reduce to is remembered in the agent's memo, shown.py, when the caller passes it).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Mapping, Sequence

import numpy as np

from . import shown
from .index import Item
from .pack import About
from .vectors import AgentVectors

SAME_COSINE = 0.95  # two lines that differ in a word or two of no weight ("again", "lol")
WINDOW = 60  # the candidates compared: more than a 1,000-token block holds


class _Kept(dict[int, int | None]):
    """``str.translate``'s table for ``_words``: a code point maps to itself, or to None (dropped)
    when it is punctuation, spacing, a symbol or a control or unassigned character. Each code point's
    category is looked up once, the first time a text holds it; the table holds only those seen, at
    most ``_MAX_KEPT`` (past it, it starts over)."""

    def __missing__(self, code: int) -> int | None:
        if len(self) >= _MAX_KEPT:
            self.clear()
        kept = None if unicodedata.category(chr(code)).startswith(_DROPPED) else code
        self[code] = kept
        return kept


_MAX_KEPT = 1 << 16  # code points remembered: every script a user writes in, bounded
_DROPPED = ("P", "Z", "S", "C")  # Unicode general categories that do not make two lines differ
_KEPT = _Kept()


def _words(text: str) -> str:
    """The text without case, spacing and punctuation: what makes two lines the same words. Through
    ``str.translate`` (each character's category read from ``_KEPT``): a generator over every
    character was a millisecond of each search's 60 compared lines (perf/RESULTS.md, search_stages)."""
    return unicodedata.normalize("NFKC", text).casefold().translate(_KEPT)


def words_of(memo: shown.Memo | None) -> Callable[[int, str], str]:
    """``_words`` of an item's text by (item id, text), remembered in the agent's memo: both callers
    read it for every candidate of every search (~270 at 1,000 tokens on two years of
    conversation), and the same turns come back search after search."""
    if memo is None:
        return lambda _item_id, text: _words(text)
    return memo.judging("same words", _words)


def _close_to(ids: Sequence[int], near: AgentVectors | None) -> dict[int, set[int]]:
    """For each of ``ids``, the earlier ones whose stored vectors are at ``SAME_COSINE`` or closer:
    one matrix product over the window, not a cosine per pair."""
    if near is None:
        return {}
    rows = [(i, r) for i in ids if (r := near.row.get(i)) is not None and near.norms[r] > 0]
    if len(rows) < 2:
        return {}
    index = np.array([r for _, r in rows])
    unit = near.q[index].astype(np.float32) / near.norms[index][:, None]
    out: dict[int, set[int]] = {}
    for a, b in np.argwhere(np.triu(unit @ unit.T, 1) >= SAME_COSINE).tolist():
        out.setdefault(rows[b][0], set()).add(rows[a][0])
    return out


def collapse_repeats(
    ranked: Sequence[int],
    found: Mapping[int, Item],
    about: Mapping[int, About],
    near: AgentVectors | None,
    memo: shown.Memo | None = None,
) -> list[int]:
    """``ranked`` (best first) without the turns that repeat a better-ranked turn of the same
    speaker. ``memo``: the agent's remembered lines (shown.py); the result is the same."""
    window = [i for i in ranked[:WINDOW] if found[i].kind == "utterance"]
    close = _close_to(window, near)
    kept: set[int] = set()
    seen: set[tuple[str | None, str]] = set()
    out: list[int] = []
    words = words_of(memo)
    for item_id in ranked[:WINDOW]:
        item = found[item_id]
        if item.kind != "utterance":
            out.append(item_id)
            continue
        role = about[item_id].role
        key = (role, words(item_id, item.text))
        if key in seen or any(about[k].role == role for k in close.get(item_id, set()) & kept):
            continue
        seen.add(key)
        kept.add(item_id)
        out.append(item_id)
    out.extend(ranked[WINDOW:])  # past the window every candidate stays, in its order
    return out


def said_once(
    ids: Sequence[int],
    found: Mapping[int, Item],
    scored: Mapping[int, float],
    memo: shown.Memo | None = None,
) -> list[int]:
    """``ids`` without the lines said more than once among the candidates ``scored`` (the same
    words once case, spacing and punctuation are set aside): a stock line's copies each sit before
    an unrelated turn, so none of them is a question whose answer follows (retrieve's neighbours)."""
    words = words_of(memo)
    counts: dict[str, int] = {}
    for i in scored:
        item = found[i]
        if item.kind == "utterance":
            key = words(item.item_id, item.text)
            counts[key] = counts.get(key, 0) + 1
    return [i for i in ids if counts.get(words(found[i].item_id, found[i].text), 0) < 2]
