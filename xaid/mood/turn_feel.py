"""The turn's own feeling: what the live reply's tone is set from, read right after each message.

The rules (classifier.py) read the live turn, and they miss what a friend hears at once: a feeling
said without a feeling word ("got ghosted after 3 dates", "the wheels came off today", 破大防了,
车年检又没过), and tears shed over good news ("I GOT IN 😭😭😭", "上岸了😭", "我哭成狗"), which they
read as grief (issue 24 item 5). The session's close already reads such words by meaning
(learned.py); this reads the turn the same way, with the same model, on the message alone:

- **By meaning where the rules are weak.** The message's vector (faces written as words,
  ``faces.gloss``) goes through the packaged learned reader as a one-line session (its whole and
  its tail are the message); where the rules read no strong feeling (|valence| < ``RULES_FIRST``)
  and the reader is sure of low or good (``SURE``), its label is the turn's, as strongly as
  ``learned.strength`` grades it. A strong rule reading stands: the lexicons know "devastated";
  so does a weak one of the other sign unless the reader all but rules it out (``OVERRULE``): the
  rules read negation, which the embedder misses ("心态很稳，一点不担心" is 担心 to it).
- **Tears read in context** (tears.py): crying says how much was felt, not which way. Beside
  sad words it stays sad; beside glad ones ("cried so much lol") it is joy; where the rules read
  the other words neither way, the reader reads them ("I GOT IN": joy; "flight got cancelled":
  sad, at ``SAD_SURE``), and where it is not sure either, the mood right before decides
  (``settle``: "mum flew in as a surprise" then "ugly crying in arrivals rn").

What this costs per turn is one embedding of the message (kept among the agent's query vectors:
where recall's topic is the message itself, recall finds it made) and, for a message that cries
and says more, one of the message without its tears; the reader itself is a 3 × 1026 product.
Pure: the caller embeds and passes the mood before (``settle``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from . import faces, learned, tears
from .classifier import BASELINE_AROUSAL, Reading
from .meaning import Label

RULES_FIRST = learned.RULES_FIRST  # a rule reading this strong stands, as at the session's close
SURE = (
    learned.SECOND_OPINION
)  # the reader decides the turn when its label is this likely, as at the close
JOY_LEAD = 0.2  # the words beside the tears read good by this much more than low: tears of joy
SAD_SURE = 0.8  # ...or low this surely: sad tears, whatever the mood before
CONFIDENCE = 0.6  # how sure a reading by meaning is (the rules' plain cues read 0.5-0.9)
MEANING_CUE = "meaning:"  # a reading by meaning names its label among its cues: "meaning:low"


@dataclass(frozen=True, slots=True)
class Heard:
    """A turn read by itself: ``reading``; where it cries and its words say nothing either way,
    ``joy`` is what it reads if the mood right before was glad (``settle`` decides)."""

    reading: Reading
    joy: Reading | None = None


def texts(text: str) -> list[str]:
    """What the turn embeds: the message (faces as words), and the message without its tears
    where it cries and says more."""
    rest = tears.without(text)
    return [faces.gloss(text)] + ([faces.gloss(rest)] if rest else [])


def read(
    model: learned.Model, text: str, rules: Reading, vectors: Sequence[np.ndarray] | None
) -> Heard:
    """The turn's own feeling: ``rules`` is the rules' reading of ``text``, ``vectors`` those of
    ``texts(text)`` (None without the default embedder: the rules alone)."""
    if vectors is None or not vectors:
        return Heard(rules)
    verdict = tears.by_words(text, rules)
    if verdict is None:
        return Heard(_by_meaning(model, rules, vectors[0]))
    if verdict == "joy":
        return Heard(tears.joy(rules))
    if verdict == "sad":
        return Heard(rules)
    return _unsure_tears(model, rules, vectors[1] if len(vectors) > 1 else None)


def settle(heard: Heard, before: float) -> Reading:
    """The turn's reading, given the mood's valence right before it."""
    return heard.joy if heard.joy is not None and before >= tears.GLAD else heard.reading


def by_meaning(reading: Reading) -> bool:
    """Whether the turn's feeling is the learned reader's, where the rules read none this strong:
    it reads annoyance and grief alike as "low" ("traffic was insane on the way back" and "I lost the
    baby" both about -0.75), so what hangs on how grave a message is asks meaning's prototypes too
    (conversation/first_words.py ``weigh``)."""
    return any(c.startswith(MEANING_CUE) for c in reading.cues)


def _own(reading: Reading) -> learned.Own:
    return learned.Own(reading.valence, reading.fatigue, reading.confidence)


def _probabilities(
    model: learned.Model, vector: np.ndarray, own: learned.Own
) -> dict[Label, float]:
    return model.probabilities(vector, vector, own)


def _by_meaning(model: learned.Model, rules: Reading, vector: np.ndarray) -> Reading:
    if rules.confidence > 0 and abs(rules.valence) >= RULES_FIRST:
        return rules
    own = _own(rules)
    p = _probabilities(model, vector, own)
    label = max(p, key=lambda k: p[k])
    if label == "neutral" or p[label] < SURE:
        return rules
    sign = 1.0 if label == "good" else -1.0
    if rules.confidence > 0 and rules.valence * sign > 0:
        return rules  # the rules heard this feeling: their strength stands
    if rules.confidence > 0 and rules.valence * sign < 0 and p[label] < learned.OVERRULE:
        return rules  # a negation the embedder misses: "一点不担心" reads as 担心 to it
    strength = learned.strength(p, own, label)
    return Reading(
        valence=round(sign * strength, 4),
        arousal=max(rules.arousal, BASELINE_AROUSAL),
        fatigue=rules.fatigue,
        intensity=round(strength, 4),
        confidence=CONFIDENCE,
        cues=(*rules.cues, f"{MEANING_CUE}{label}"),
        lasting=rules.lasting,
    )


def _unsure_tears(model: learned.Model, rules: Reading, rest: np.ndarray | None) -> Heard:
    """Tears beside words the rules read neither way: the reader reads the words (``rest``, their
    vector); where it is not sure either, the mood right before decides (``settle``)."""
    if rest is not None:
        p = _probabilities(model, rest, learned.Own(0.0, 0.0, 0.0))
        if p["low"] >= SAD_SURE:
            return Heard(rules)  # "flight got cancelled 😭😭": bad news said without a sad word
        if p["good"] - p["low"] >= JOY_LEAD:
            return Heard(tears.joy(rules))
    return Heard(rules, tears.joy(rules))
