"""A session's closing feeling read by a small learned model over the embedder's vectors.

Why a learned model and not more prototypes: prototypes (meaning.py) read a session by its nearest
examples, and the multilingual embedder places a text by its topic before its feeling, so each new
idiom, sarcasm or euphemism wanted a prototype of its own ("not the best week", "公司把我优化了"):
a phrase list in another form. A linear model over all 512 dimensions finds the directions that
tell a feeling apart from a topic, from every labelled session at once (the dev sets' train halves
and the prototypes), and weighs in the rules' own reading of the same words, so a strong rule hit
("筋疲力尽", "I just want to cry 😭😭") is part of what it learned rather than something it fights.

The model is fitted by ``python -m perf.eval.feelings_fit`` (perf/eval/feelings_fit.py) and stored
in ``feelings_model.npz`` beside this module: the features' mean and spread, the rules' gain, one
weight row and bias per label. It was fitted on USE-multilingual-v3 vectors: the caller reads it
only with that embedder (consolidation checks the embedder's profile). Pure: the caller embeds.

- ``own_reading``: what the rules read in the session's words alone, each line merged from a
  neutral mood as the live turns move it; not the stored mood, which carries earlier days;
- ``Model.probabilities``: low, neutral and good for a session's vector and its own reading;
- ``Model.tired`` / ``still_tired``: whether the teller is still tired the next morning, read by a
  second head over the same vectors (tiredness is mostly said without a tired word);
- ``decide``: the feeling the session carries (a loss both readers read is low; rules that read
  strongly stand unless the model is all but sure of the other sign: sarcasm, tears of joy);
- ``strength``: how strongly it carries it, from LIGHT (a trace of its sign, no tone) to STRONG: the
  rules' own strength where they heard the feeling ("a bit annoyed", 有点无聊 read mild), the model's
  margin where meaning alone decided, STRONG for a loss (feel5: a fixed strength carried "meh" and
  "I feel confident" as a full tone);
- ``carry``: the reading consolidation stores at the session's last word, or None when the stored
  mood already says it.

Measured in ``python -m perf feelings`` (perf/eval/feelings.py) on the test halves of the feelings
dev sets, which the fit never sees. Since feel12 the valence head is feel3's averaged logit by logit
with one fitted on every train half and the training corpus, each session's tail a row of its own
(what carries is how they left; ``python -m perf.eval.feelings_fit --blend``, docs/mood.md).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from . import faces, lexicon_en, lexicon_zh, tears
from . import loss as loss_rules
from .classifier import BASELINE_AROUSAL, Reading, RuleClassifier
from .meaning import (
    CONFIDENCE,
    INTENSITY,
    LOSS_LASTING,
    LOSS_MARGIN,
    READ_VALENCE,
    Felt,
    Label,
    band,
    session_text,
)
from .state import MoodParams, MoodState, decay, merge, neutral

MODEL_PATH = Path(__file__).with_name("feelings_model.npz")
LABELS: tuple[Label, ...] = ("low", "neutral", "good")
RULES_FIRST = 0.5  # a rule reading this strong stands...
OVERRULE = 0.9  # ...unless the model gives the other sign at least this probability
TURN_SURE = 0.7  # what follows a turn decides when the model reads it alone this surely
SECOND_OPINION = 0.6  # below this, the model is unsure and the prototypes may decide...
NEAREST_CLEAR = 0.08  # ...when their feeling leads the plain lines by this much
SURE = 0.4  # below RULES_FIRST, the model decides when its label has at least this probability
# Tiredness said in the evening is still there the next morning (a friend who heard "running on
# empty" asks how you slept): a session whose own words read at least FATIGUE_CARRY of fatigue
# stores a reading of FATIGUE_READ. From a rested mood that reading merges to about 0.54 and, with
# its 16 h half-life, is 0.33 ("tired" is 0.25) at 09:00 after a 21:00 session and below "tired"
# a day later; 0.55 (before feel4) merged to 0.37 and was below "tired" by the morning, so only
# tiredness the live turns had already read ever reached it.
FATIGUE_CARRY = 0.3
FATIGUE_READ = 0.8
TIRED_SURE = 0.5  # ...and so does one the tiredness head (``Model.tired``) reads this likely
# How strongly a session carries its feeling (``strength``): a fixed 0.7 whatever was said carried
# "meh, kind of a boring day" and "I feel confident about the pitch" as a full tone the next hours
# (the mood carry-over suite fell from 31/32 to 22/32). The carried valence now spans LIGHT, a trace
# that keeps the feeling's sign through the night but sets no tone (merged: about 0.15, under tone.py's
# bands at 0.25 / 0.3), to STRONG, what a plainly said strong feeling reads by the rules ("so happy!!",
# "I can't stop crying": 0.8-0.9), which is still a tone the next morning.
LIGHT = 0.2
STRONG = 0.85
FURTHER = 0.05  # a reading is stored only where it takes the closing mood this much further
# Where two feelings meet, the one after the turn is the point ("exhausted but we shipped it",
# "赔偿给得不错，但心里还是空落落的"); without a turn, the last sentence is what the day ended on.
_TURN = re.compile(
    # Chinese turns only where a clause starts: 不过 is also inside 喘不过气, 但 inside 不但
    r"\b(?:but|though|however)\b|(?:^|(?<=[，,。；;！!？?\s]))(?:但是|但|可是|不过|然而)",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"(?<=[.!?。！？…])\s*")
# A consoling clause after the point ("failed again. at least the examiner was nice lol", 房子没抢到，
# 算了): the lexicons' consolers where a clause starts (after a clause's punctuation or a line's end).
_CONSOLE = re.compile(
    r"[，,。.；;！!？?…~\n]\s*(?P<at>"
    + "|".join(
        rf"{re.escape(w)}\b" if w.isascii() else re.escape(w)
        for w in sorted(lexicon_en.CONSOLERS | lexicon_zh.CONSOLERS, key=len, reverse=True)
    )
    + ")",
    re.IGNORECASE,
)
_RULES = RuleClassifier()
_T0 = 0  # own_reading's clock: only the minute between lines matters
_MINUTE = 60_000


_STRIP = " ,，.。!！?？"


def point(lines: Sequence[str]) -> list[str]:
    """The session's lines up to a consoling clause that closes it: the silver lining or the shrug
    after the news ("Failed my driving test again. At least the examiner was nice about it lol",
    "公司裁员我在名单上，好在还有N+1吧") is not what the day ended on; the news is. Only a clause in
    the session's last sentence, with no turn after it, is cut ("还好不是我们" before a line about
    lunch is not the end), and again while what is left still ends in one; a session that only
    consoles stays whole."""
    kept = [line.strip() for line in lines if line.strip()]
    text = "\n".join(kept)
    cut = len(text)
    while found := [m.start("at") for m in _CONSOLE.finditer(text, 0, cut)]:
        clause = text[found[-1] : cut].rstrip(_STRIP + "\n…").replace("\n", "。")
        if _SENTENCE_END.search(clause) or _TURN.search(clause):
            break  # the news goes on after it, or turns again ("还好赔偿不错，但心里还是空落落的")
        cut = len(text[: found[-1]].rstrip(_STRIP + "\n"))
    return (text[:cut] if cut else text).split("\n")


def whole(lines: Sequence[str]) -> str:
    """What the session's vector is read from: its ``point``, joined (the consoling clause that
    closes it left out, as it is of the tail), each face written as its words (faces.gloss: the
    embedder reads every emoji as one unknown token)."""
    return faces.gloss(session_text(point(lines)))


def turned(lines: Sequence[str]) -> str | None:
    """What follows the last turn ("but", 但是, 不过…) of the session's ``point``, or None without
    one; as said (the rules read it too)."""
    parts = _TURN.split(session_text(point(lines)))
    after = parts[-1].strip(_STRIP)
    return after if len(parts) > 1 and after else None


def tail(lines: Sequence[str]) -> str:
    """The session's last word on how it felt: what follows its last turn, else the last sentence
    of its ``point`` (the whole session when it is one sentence), faces as words. A sentence of
    faces alone ("we got the puppy!!! 😭😭") is read with the sentence it follows: alone, the tears
    would be the session's last word whatever they were shed over."""
    after = turned(lines)
    if after is not None:
        return faces.gloss(after)
    sentences = [s.strip() for line in point(lines) for s in _SENTENCE_END.split(line) if s.strip()]
    while len(sentences) > 1 and faces.only(sentences[-1]):
        sentences[-2:] = [f"{sentences[-2]} {sentences[-1]}"]
    return faces.gloss(sentences[-1] if sentences else session_text(lines))


@dataclass(frozen=True, slots=True)
class Own:
    """The rules' reading of a session's own words (valence, fatigue, confidence)."""

    valence: float
    fatigue: float
    confidence: float


def own_reading(lines: Sequence[str]) -> Own:
    """Each line read by the rules and merged from a neutral mood a minute apart, as the live turns
    move the mood: the session's own feeling, without what earlier days left. Tears are read by the
    words beside them and the mood so far (tears.in_mood): "I GOT IN 😭😭😭" is not a strong low
    that stands against the reader (``decide``)."""
    params = MoodParams()
    state: MoodState = neutral(_T0, params)
    for i, line in enumerate(lines):
        at = _T0 + (i + 1) * _MINUTE
        reading = tears.in_mood(line, _RULES.classify(line), decay(state, at).valence)
        state = merge(state, reading, at, params)
    return Own(state.valence, state.fatigue, state.confidence)


@dataclass(frozen=True, slots=True)
class Model:
    """The fitted weights: features are the session's and its tail's unit vectors, standardised,
    and ``rule_gain`` times the own reading; one softmax row per label in ``LABELS`` order."""

    mean: np.ndarray  # (2 * dims,)
    scale: np.ndarray  # (2 * dims,)
    rule_gain: float
    weights: np.ndarray  # (labels, 2 * dims + 2)
    bias: np.ndarray  # (labels,)
    # Still tired the next morning: one logistic row over the same standardised vectors and
    # ``tired_gain`` times the rules' fatigue and confidence (``tired_features``). Tiredness is
    # mostly said without a tired word ("pulled two all-nighters", "腿已经不是我的了"), which the
    # rules read as nothing; None in a model fitted before the head existed.
    tired_weights: np.ndarray | None = None  # (2 * dims + 2,)
    tired_bias: float = 0.0
    tired_gain: float = 0.0

    @classmethod
    def load(cls, path: Path = MODEL_PATH) -> Model:
        with np.load(path) as data:
            labels = tuple(str(x) for x in data["labels"])
            if labels != LABELS:
                raise ValueError(f"{path}: labels {labels}, expected {LABELS}")
            return cls(
                data["mean"].astype(np.float64),
                data["scale"].astype(np.float64),
                float(data["rule_gain"]),
                data["weights"].astype(np.float64),
                data["bias"].astype(np.float64),
                data["tired_weights"].astype(np.float64) if "tired_weights" in data else None,
                float(data["tired_bias"]) if "tired_bias" in data else 0.0,
                float(data["tired_gain"]) if "tired_gain" in data else 0.0,
            )

    def save(self, path: Path, about: str) -> None:
        """Written by the fit script; ``about`` (what it was fitted on) is kept beside the weights."""
        arrays: dict[str, np.ndarray] = {
            "labels": np.array(LABELS),
            "mean": self.mean.astype(np.float32),
            "scale": self.scale.astype(np.float32),
            "rule_gain": np.array(self.rule_gain, dtype=np.float32),
            "weights": self.weights.astype(np.float32),
            "bias": self.bias.astype(np.float32),
            "about": np.array(about),
        }
        if self.tired_weights is not None:
            arrays["tired_weights"] = self.tired_weights.astype(np.float32)
            arrays["tired_bias"] = np.array(self.tired_bias, dtype=np.float32)
            arrays["tired_gain"] = np.array(self.tired_gain, dtype=np.float32)
        np.savez_compressed(path, allow_pickle=False, **arrays)

    def probabilities(self, whole: np.ndarray, last: np.ndarray, own: Own) -> dict[Label, float]:
        """Low, neutral and good for a session: ``whole`` is its vector (of ``whole``),
        ``last`` the vector of its ``tail``."""
        x = features(whole, last, own, self.mean, self.scale, self.rule_gain)
        z = self.weights @ x + self.bias
        p = np.exp(z - z.max())
        p /= p.sum()
        return {label: float(p[i]) for i, label in enumerate(LABELS)}

    def tired(self, whole: np.ndarray, last: np.ndarray, own: Own) -> float:
        """How likely the session's teller is still tired the next morning (0 without the head)."""
        if self.tired_weights is None:
            return 0.0
        x = tired_features(whole, last, own, self.mean, self.scale, self.tired_gain)
        return float(1.0 / (1.0 + np.exp(-(self.tired_weights @ x + self.tired_bias))))


def _unit(vector: np.ndarray) -> np.ndarray:
    v = np.asarray(vector, dtype=np.float64)
    norm = float(np.linalg.norm(v))
    return v / norm if norm > 0 else v


def features(
    whole: np.ndarray,
    last: np.ndarray,
    own: Own,
    mean: np.ndarray,
    scale: np.ndarray,
    rule_gain: float,
) -> np.ndarray:
    """What the model reads: the session's and its tail's unit vectors standardised, then the
    rules' own reading."""
    v = np.concatenate([_unit(whole), _unit(last)])
    rules = rule_gain * np.array([own.valence, own.confidence])
    return np.concatenate([(v - mean) / scale, rules])


def tired_features(
    whole: np.ndarray,
    last: np.ndarray,
    own: Own,
    mean: np.ndarray,
    scale: np.ndarray,
    rule_gain: float,
) -> np.ndarray:
    """What the tiredness head reads: the same standardised vectors, then the rules' fatigue."""
    v = np.concatenate([_unit(whole), _unit(last)])
    rules = rule_gain * np.array([own.fatigue, own.confidence])
    return np.concatenate([(v - mean) / scale, rules])


@functools.cache
def default() -> Model:
    """The packaged model, loaded once per process."""
    return Model.load()


def decide(
    p: dict[Label, float],
    own: Own,
    after_turn: dict[Label, float] | None = None,
    nearest: Felt | None = None,
    lost: bool = False,
) -> Label:
    """The feeling the session carries, in this order:

    0. a loss (``lost``: a death, a break-up, a grave diagnosis, as mood.loss reads it) is low,
       whatever comes after it ("工资涨了。但猫没了。") or however the model reads "the biopsy came
       back" (good news, to a model that reads "came back" as results awaited and received);
    1. a strong rule reading, unless the model all but rules it out (sarcasm, tears of joy);
    2. after a turn ("exhausted but we shipped it"), what follows it when the model reads that part
       alone as clearly low or good (``after_turn``: its probabilities as a session of its own);
    3. the model's label when it is sure (``SECOND_OPINION``);
    4. else the prototypes' (``nearest``, meaning.Prototypes.feel) when they read a feeling
       clearly (``NEAREST_CLEAR``): the two readers err on different sessions;
    5. else the model's label when it leads with ``SURE``; else what the rules read."""
    if lost:
        return "low"
    ruled = band(own.valence) if own.confidence > 0 else "neutral"
    if abs(own.valence) >= RULES_FIRST and own.confidence > 0:
        other: Label = "good" if own.valence < 0 else "low"
        return other if p[other] >= OVERRULE else ruled
    if after_turn is not None:
        point = max(LABELS, key=lambda k: after_turn[k])
        if point != "neutral" and after_turn[point] >= TURN_SURE:
            return point
    label = max(LABELS, key=lambda k: p[k])
    if p[label] >= SECOND_OPINION:
        return label
    if nearest is not None and nearest.label != "neutral" and nearest.margin >= NEAREST_CLEAR:
        return nearest.label
    return label if p[label] >= SURE else ruled


def strength(p: dict[Label, float], own: Own, label: Label, lost: bool = False) -> float:
    """How strongly the session carries ``label``: the magnitude of the valence it stores, from
    LIGHT to STRONG (0 for "neutral").

    - a loss is STRONG: grief is never a light trace;
    - where the rules heard this feeling (their own reading has its sign), their strength stands:
      the lexicons grade a feeling by its words and hedges ("a bit annoyed", "meh", 有点烦, 小烦 read
      mild; "I can't stop crying" strong), which the model, trained on which feeling and not how
      much, cannot tell apart (it reads "I feel confident" as good at 0.96, as it does "I got the job");
    - where they heard nothing or the other sign (understatement, euphemism, sarcasm: meaning alone
      decided), the model's margin, its label's probability over the next one's, sets it: a sure
      reading carries a tone, a doubtful one a trace of its sign."""
    if label == "neutral":
        return 0.0
    if lost and label == "low":
        return STRONG
    sign = -1.0 if label == "low" else 1.0
    if own.confidence > 0 and own.valence * sign > 0:
        return max(LIGHT, min(STRONG, abs(own.valence)))
    margin = p[label] - max(v for k, v in p.items() if k != label)
    return LIGHT + (STRONG - LIGHT) * max(0.0, margin)


@dataclass(frozen=True, slots=True)
class Session:
    """A session read by meaning: the rules' own reading, the feeling it carries and how strongly
    (``strength``), and the model's probabilities it was decided from (None: not kept)."""

    own: Own
    label: Label
    strength: float
    p: dict[Label, float] | None = None
    lost: bool = False


def read(
    model: Model,
    lines: Sequence[str],
    whole: np.ndarray,
    last: np.ndarray,
    nearest: Felt | None = None,
    lost: bool = False,
) -> Session:
    """The session's own rule reading, the feeling it carries and how strongly: ``whole`` is the
    vector of ``whole(lines)``, ``last`` of ``tail(lines)`` (what follows a turn, when there is
    one), ``nearest`` the prototypes' reading of ``whole``, ``lost`` whether it told of a loss
    (``lost``)."""
    own = own_reading(lines)
    after = turned(lines)
    after_turn = model.probabilities(last, last, own_reading([after])) if after else None
    p = model.probabilities(whole, last, own)
    label = decide(p, own, after_turn, nearest, lost)
    return Session(own, label, strength(p, own, label, lost), p, lost)


def read_told(
    model: Model,
    lines: Sequence[str],
    whole: np.ndarray,
    last: np.ndarray,
    nearest: Felt | None,
    lost: bool,
    told: bool,
) -> Session:
    """``read``, with a loss that a clause told by itself (``told``: consolidation's clause reading,
    a death and its plan in one breath) taken as one, unless the session is carried as good without
    it: a clause is short, and "哭成狗" in "领养手续办下来了，哭成狗，是开心的" (tears of joy) reads as a
    dog and crying. The returned session's ``lost`` says whether a loss decided it."""
    felt = read(model, lines, whole, last, nearest, lost)
    if told and not lost and felt.label != "good":
        return read(model, lines, whole, last, nearest, True)
    return felt


def asked_sign(felt: Session) -> bool:
    """Whether the chat model is asked which feeling the session carries (mood/asked.py): only
    where this reader carries one and no loss decided it. Which sign is where the embedder errs
    (irony read as its words, "真棒，…食物中毒"; good news said flatly, "My novel's getting published";
    "破防了" read as good); whether there is a feeling at all is where the model errs: on
    feelings_dev6.json's train half the 1.5B answered "sad" to every calm session about others'
    sad news and to plain errands."""
    return felt.label != "neutral" and not felt.lost


def signed(felt: Session, sign: Label) -> Session:
    """The session carrying the model's ``sign`` (low or good; "neutral" leaves it as read), as
    strongly as ``strength`` grades that sign: the rules' own where they heard it, else this
    reader's margin for it (a sign this reader did not choose carries LIGHT, a trace without a tone)."""
    if sign == "neutral" or sign == felt.label or felt.p is None:
        return felt
    return Session(felt.own, sign, strength(felt.p, felt.own, sign, felt.lost), felt.p, felt.lost)


def lost(lines: Sequence[str], margins: Sequence[float | None]) -> bool:
    """Whether a line tells of a loss by both readers: the rules (mood.loss.ruled: a death said
    without a word for dying, a word for a death, grave news or a break-up) and meaning
    (``meaning.Prototypes.loss`` of the line's vector at least LOSS_MARGIN; None: no vector, the
    rules alone). Either alone is not enough to override a feeling: meaning alone sits a dog we
    have next to a dog that died, the rules alone read "happy tears" as grief."""
    return any(
        loss_rules.ruled(t) and (m is None or m >= LOSS_MARGIN)
        for t, m in zip(lines, margins, strict=True)
    )


GRIEVING = 0.4  # a low carried at least this strongly backs a loss that meaning read


def grieving(felt: Session) -> bool:
    """Whether the session is carried as a strong low (``strength`` at least GRIEVING): what tells
    a loss that meaning read ("got the diagnosis back. it's MS", "we had to have Murphy put to
    sleep") from a worry that sits near one in the embedder ("the dog won't touch his food, taking
    him in tomorrow", carried at 0.2): the check-in reader (scheduler/matter.py) then does not doubt
    the loss, and no "how it went" is armed on it. On checkin_dev.json's asks whose message meaning
    reads as a loss, the strongest low carried is 0.34."""
    return felt.label == "low" and felt.strength >= GRIEVING


def still_tired(model: Model, own: Own, whole: np.ndarray, last: np.ndarray) -> bool:
    """Whether the session carries tiredness to the morning: the rules read it in its words
    (``FATIGUE_CARRY``), or the tiredness head reads it in its meaning (``TIRED_SURE``): "three
    flights, two delays, one lost suitcase", "带了一天孙子，腰直不起来了"."""
    return own.fatigue >= FATIGUE_CARRY or model.tired(whole, last, own) >= TIRED_SURE


def carry(
    closing: MoodState,
    own: Own,
    felt: Label,
    loss: bool,
    tired: bool | None = None,
    strength: float | None = None,
) -> Reading | None:
    """The reading consolidation stores at the session's last word, or None when the stored mood
    already carries what the session says. A feeling moves the valence to ``strength`` (``strength``;
    None: READ_VALENCE) of its sign only where that takes the closing mood at least FURTHER its way:
    "neutral" never stores (it must not wipe an earlier day's grief), nor does a mild reading after
    a stronger closing. Tiredness is carried to the morning when ``tired`` (``still_tired``; None:
    the rules' own reading at ``FATIGUE_CARRY`` alone)."""
    valence = closing.valence
    magnitude = READ_VALENCE if strength is None else strength
    if felt != "neutral" and magnitude > 0:
        target = magnitude if felt == "good" else -magnitude
        if (target - closing.valence) * (1 if felt == "good" else -1) >= FURTHER:
            valence = target
    fatigue = closing.fatigue
    if tired is None:
        tired = own.fatigue >= FATIGUE_CARRY
    if tired and closing.fatigue < FATIGUE_READ:
        fatigue = FATIGUE_READ
    if valence == closing.valence and fatigue == closing.fatigue:
        return None
    cues = [f"meaning:{'good' if valence > 0 else 'low'}"] if valence != closing.valence else []
    if fatigue != closing.fatigue:
        cues.append("meaning:tired")
    return Reading(
        valence=valence,
        arousal=max(closing.arousal, BASELINE_AROUSAL),
        fatigue=fatigue,
        intensity=INTENSITY,
        confidence=CONFIDENCE,
        cues=tuple(cues),
        lasting=LOSS_LASTING if loss else 1.0,
    )
