"""Tears say how much was felt, not which way: crying read from the words beside it.

The rules read every cry as grief (the lexicons' CRYING cue: 😭, T_T, QAQ, "crying", "cried", 哭),
so "I got in 😭😭", "上岸了😭😭😭", "cried so much lol" and "我哭成狗" on the day a parent walked again
read as sadness, at the turn and at the session's close (issue 24 item 5). Crying is a closed class
(the words and faces whose cue is the lexicons' own CRYING), so it is found by that table, not by a
phrase list; which tears they are is read from the rest of the message, and where the rest says
nothing, from the mood right before (a turn earlier told the news). Used by the turn's reading
(turn_feel.py, which adds the learned reader's view of the rest) and by the session's own rule
reading at its close (learned.own_reading).
"""

from __future__ import annotations

import dataclasses
import re
from typing import Literal

from . import faces
from . import lexicon_en as en
from . import lexicon_zh as zh
from .classifier import Reading, RuleClassifier
from .lexicon_en import CRYING

Verdict = Literal["sad", "joy", "unsure"]
GLAD_WORDS = 0.25  # the rest reads at least this good by the rules: tears of joy
GLAD = 0.15  # the mood right before was at least this good: tears that say nothing else are of joy
JOY_VALENCE = 0.6  # tears of joy: as glad as "so happy" reads by the rules
JOY_AROUSAL = 0.7
UNSURE_SHARE = 0.4  # of the crying's valence kept where its words say nothing: below RULES_FIRST

WORDS: frozenset[str] = frozenset(
    [k for t in (en.CUES, en.IDIOMS, zh.CUES, zh.IDIOMS) for k, e in t.items() if e[0] is CRYING]
    + [k for k, f in faces.FACES.items() if f.cue is not None and f.cue[0] is CRYING]
)
_PATTERN = re.compile(
    "|".join(
        rf"(?<![A-Za-z]){re.escape(k)}(?![A-Za-z])" if re.search("[A-Za-z]", k) else re.escape(k)
        for k in sorted(WORDS, key=len, reverse=True)
    ),
    re.IGNORECASE,
)
_NOTHING = re.compile(r"[\W_]*")
_RULES = RuleClassifier()


def without(text: str) -> str | None:
    """``text`` with its crying taken out, or None where it does not cry; "" where it only cries."""
    if not _PATTERN.search(text):
        return None
    rest = _PATTERN.sub(" ", text)
    return "" if _NOTHING.fullmatch(rest) else re.sub(r"\s{2,}", " ", rest).strip()


def by_words(text: str, rules: Reading) -> Verdict | None:
    """Which tears ``text`` sheds, by the rules' reading of its other words (``rules`` is theirs of
    the whole): None where it does not cry or the rules do not read it low; "sad" beside sad
    words, "joy" beside glad ones, else "unsure"."""
    rest = without(text)
    if rest is None or rules.valence >= 0 or rules.confidence <= 0:
        return None
    if not rest:
        return "unsure"
    said = _RULES.classify(rest)
    if said.confidence > 0 and said.valence < 0:
        return "sad"
    return "joy" if said.confidence > 0 and said.valence >= GLAD_WORDS else "unsure"


def joy(rules: Reading) -> Reading:
    """The message read as tears of joy: as strongly and surely as the rules read the crying."""
    return Reading(
        valence=JOY_VALENCE,
        arousal=max(rules.arousal, JOY_AROUSAL),
        fatigue=0.0,
        intensity=max(rules.intensity, JOY_VALENCE),
        confidence=rules.confidence,
        cues=(*rules.cues, "tears of joy"),
    )


def in_mood(text: str, rules: Reading, before: float) -> Reading:
    """The rules' reading with the tears read by the words beside them and, where those say nothing,
    by the mood right before (``before``, its valence): the session's own reading at its close."""
    verdict = by_words(text, rules)
    if verdict == "joy" or (verdict == "unsure" and before >= GLAD):
        return joy(rules)
    if verdict == "unsure":  # which tears is the session's to say (learned.decide), not the rules'
        return dataclasses.replace(rules, valence=round(rules.valence * UNSURE_SHARE, 4))
    return rules
