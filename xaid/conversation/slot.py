"""A turn's slot of memories, read before its first word: the best lines that fit its cap, and
when the best line does not fit whole, the sentence of it nearest the user's words.

The slot is small (``memory.first_turn_tokens``: every token of it is read before the first word),
and a remembered conversation turn is often longer than the whole slot: LoCoMo's lines run 30-80
tokens, so a 32-token slot would show nothing and the reply would know nothing of what was asked.
A friend answering at once recalls the gist, the one sentence that matters, and the rest a moment
later; so the best line is cut to its date and speaker and the one sentence that shares most words
with the message (the pairs of Chinese characters in Chinese), and the whole line is still held back
and shown after the reply (``Turns._frame``). The shape of the text decides, not any wording:
sentences end at . ! ? 。！？ and a line's "[date] who:" prefix is kept.
"""

from __future__ import annotations

import dataclasses
import re

from ..memory import pack, utterances
from ..memory.pack import Hit
from ..text import tokens

_PREFIX = re.compile(r"^(\[[^\]]{1,40}\]\s*)([^:：\n]{1,40}[:：]\s*)?")
ELLIPSIS = "…"
# The least a slot holds when a time budget leaves less (memory.first_word_ms on a slow machine):
# the best line's speaker and its sentence nearest the message, header included (a sweep on dev set
# 11's train half: 32 tokens showed 47 %, 40 and 48 both 65 % of the answer words).
FLOOR = 40
# A turn's sentences and the words it shares with the message are the ones the search's own cut
# uses (xaid.memory.utterances: its sentence split, and the keyword search's terms).
_terms = utterances.terms


def clip(hit: Hit, query: str, budget: int) -> Hit | None:
    """``hit`` cut to its prefix and its sentence nearest ``query`` within ``budget`` tokens (the
    sentence cut at a word if it is still too long), or None when nothing of it fits or shares a
    word with the query."""
    m = _PREFIX.match(hit.text)
    body = hit.text[m.end() :] if m else hit.text
    # the speaker, without the bracketed date: the line's own "(when)" dates it already, and in a
    # slot of a few dozen tokens the date would take a third of it
    prefix = (m.group(2) or "") if m else ""
    wanted = _terms(query)
    sentences = utterances.sentences(body)
    scored = [(len(wanted & _terms(s)), -i, s) for i, s in enumerate(sentences)]
    if not scored or max(scored)[0] == 0:
        return None
    best = max(scored)[2].strip().lstrip(ELLIPSIS).strip()
    joiner = " " if " " in best else ""
    cut = best.split(" ") if joiner else list(best)
    # from just before the first word the query shares: what was asked about, and what follows
    first = next((i for i in range(len(cut)) if wanted & _terms(joiner.join(cut[i : i + 2]))), 0)
    start = max(0, first - 2) if tokens.count(prefix + best) > budget else 0
    cut = cut[start:]
    lead = ELLIPSIS if start else ""
    while cut:
        shown = joiner.join(cut)
        text = prefix + lead + (shown if hit.text.endswith(shown) else shown + ELLIPSIS)
        if tokens.count(text) <= budget:  # the whole line counted, as the slot counts it
            return dataclasses.replace(hit, text=text)
        cut.pop()
    return None


def fill(hits: list[Hit], query: str, budget: int, line_tokens: int) -> list[Hit]:
    """The slot: the best hit whole if it fits, else clipped to its sentence nearest ``query``,
    then as many of the others as fit whole, best first."""
    if not hits or budget <= line_tokens:
        return []
    first = hits[0]
    if tokens.count(first.text) + line_tokens > budget:
        clipped = clip(first, query, budget - line_tokens)
        if clipped is not None:
            used = tokens.count(clipped.text) + line_tokens
            return [clipped, *pack.within(hits[1:], budget - used, line_tokens)]
    return pack.within(hits, budget, line_tokens)
