"""How much of a reply sentence is the user's own words, read as an alignment, not as shared pairs.

The voice check (voice.py) drops a sentence that hands the user's words back as the companion's. It
first counted the sentence's character (word) pairs found anywhere in the user's message, and
dropped it from 70 %. `make demo`'s 1.5B got past that with one word swapped and a tail added: to
"只想睡觉。明天还得跟经理讲清楚修复方案。" it answered "只想睡觉，明天还得跟领导说清楚修复方案，真是辛
苦了！": 15 of its 22 characters are the user's, in the user's order, but the swap (经理 → 领导, 讲 →
说) and the tail break enough pairs to fall to 59 %. Yet a reader sees at once that the sentence
walks through the user's message from its start to its end.

So the sentence and the user's text are aligned token by token (a Han character, or a Latin word
by its first five letters, so "scrollin" is "scrolling" and "shaking" is "shaky"): ``difflib``'s
matching blocks are runs found in the same order in both. Only runs of two tokens or more count:
two texts on one subject share single characters by chance ("的", "我"), not runs. Two shares
come out: how much of the sentence is such runs (it speaks the user's words) and how much of the
user's sentence it covers (it walks through what the user said, not through one phrase of it). A
friend who picks up a phrase ("当着全组的面批评人，是他做得不对。") covers half the user's sentence
at most; a parrot covers most of it, whatever it swapped or added.

An alignment keeps one order, so a parrot that says the user's clauses in another order ("现在还在
生气，今天跟同事吵了一架。" to "今天跟同事吵了一架，现在还在生气。") aligns only one clause and passes.
``pairs`` reads the same two shares without order: the pairs of neighbouring tokens inside a clause
(a Chinese word is mostly two characters; no pair spans a comma) that both texts hold.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from difflib import SequenceMatcher

from ..memory.utterances import sentences
from ..text import cjk

_TOKEN = re.compile(f"[{cjk.IDEOGRAPHS}]|[^\\W_{cjk.IDEOGRAPHS}]+(?:['’][a-z]+)?", re.I)
STEM = 5  # letters of a Latin word that name it: "scrollin"/"scrolling", "slipped"/"slips"
MIN_RUN = 2  # tokens in order in both texts before a run counts as copied


@dataclass(frozen=True, slots=True)
class Token:
    """One unit of alignment and where it stands in its text."""

    key: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Echo:
    """A sentence aligned to one text of the user's."""

    copied: int  # the sentence's tokens inside runs found in the user's text, in order
    first: int  # the sentence's token where the first copied run starts (its length if none)
    length: int  # the sentence's tokens
    theirs: int  # the user's sentence's tokens (the one the sentence covers best)
    spans: tuple[tuple[int, int], ...]  # character spans of the sentence that are copied

    @property
    def share(self) -> float:
        """How much of the sentence is the user's words."""
        return self.copied / self.length if self.length else 0.0

    @property
    def coverage(self) -> float:
        """How much of the user's sentence the copied runs walk through."""
        return self.copied / self.theirs if self.theirs else 0.0


def tokens(text: str) -> list[Token]:
    """Han characters one by one and Latin words by their stem, case-blind, apostrophes dropped
    ("I'm" and "im" are one token, as people type them)."""
    out = []
    for m in _TOKEN.finditer(text):
        word = m.group(0).lower().replace("’", "").replace("'", "")
        out.append(Token(word if cjk.has(word) else word[:STEM], m.start(), m.end()))
    return out


def align(sentence: str, theirs: str) -> list[Echo]:
    """``sentence`` aligned to the user's text ``theirs``, as a whole and to each of its sentences (a
    parrot may repeat one sentence of a long message, or walk through a short message's two)."""
    mine = tokens(sentence)
    parts = dict.fromkeys(p for p in (theirs, *sentences(theirs)) if p.strip())
    return [_aligned(mine, tokens(part)) for part in parts]


@dataclass(frozen=True, slots=True)
class Pairs:
    """A sentence's neighbouring-token pairs set against one text of the user's, order ignored."""

    shared: int  # pairs of the sentence found in the user's text
    length: int  # pairs of the sentence
    theirs: int  # pairs of the user's text
    theirs_shared: int  # pairs of the user's text found in the sentence

    @property
    def share(self) -> float:
        return self.shared / self.length if self.length else 0.0

    @property
    def coverage(self) -> float:
        return self.theirs_shared / self.theirs if self.theirs else 0.0


def pairs(sentence: str, theirs: str) -> list[Pairs]:
    """``sentence``'s token pairs against the user's text ``theirs``, as a whole and against each of
    its sentences, as ``align`` reads them."""
    mine = _pair_set(sentence)
    parts = dict.fromkeys(p for p in (theirs, *sentences(theirs)) if p.strip())
    out = []
    for part in parts:
        other = _pair_set(part)
        out.append(Pairs(len(mine & other), len(mine), len(other), len(other & mine)))
    return out


def _pair_set(text: str) -> set[tuple[str, str]]:
    """Neighbouring tokens of ``text`` with nothing but spaces between them: the pairs inside a
    clause ("code review 被": ("code", "revie"), ("revie", "被"))."""
    found = tokens(text)
    return {
        (a.key, b.key) for a, b in itertools.pairwise(found) if not text[a.end : b.start].strip()
    }


def _aligned(mine: list[Token], theirs: list[Token]) -> Echo:
    matcher = SequenceMatcher(None, [t.key for t in mine], [t.key for t in theirs], autojunk=False)
    runs = [b for b in matcher.get_matching_blocks() if b.size >= MIN_RUN]
    return Echo(
        sum(b.size for b in runs),
        min((b.a for b in runs), default=len(mine)),
        len(mine),
        len(theirs),
        tuple((mine[b.a].start, mine[b.a + b.size - 1].end) for b in runs),
    )
