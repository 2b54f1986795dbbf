"""One session of a feelings set played the daemon's way in pure functions, and its morning judged.

The pieces perf/eval/feelings.py (the area) and feelings_model.py (the model's reading, a script)
both play: the session's lines read by the rules a minute apart from 21:00 (``evening``), what
consolidation embeds (``session_vectors``, ``told_in_clauses``) and stores (``before``, ``after``),
and the next morning's judgement (``judged_toned``). Kept apart so neither module imports the other.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from xaid.mood import learned, meaning
from xaid.mood.classifier import BASELINE_AROUSAL, Reading, RuleClassifier
from xaid.mood.state import HOUR_MS, MoodParams, MoodState, merge, neutral
from xaid.mood.tone import bands
from xaid.scheduler import matter
from xaid.text.clauses import clauses

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
EVENING = 21 * HOUR_MS
NIGHT_HOURS = 12
EPS = 0.02  # perf/eval/understanding.py's VALENCE_EPS
Embed = Callable[[list[str]], np.ndarray]
_RULES = RuleClassifier()
PARAMS = MoodParams()


def load(name: str) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = json.loads((SCENARIOS / name).read_text(encoding="utf-8"))[
        "items"
    ]
    return items


def evening(lines: Sequence[str]) -> tuple[MoodState, int]:
    """The mood at the session's last word, each line read by the rules a minute apart."""
    state, at = neutral(EVENING, PARAMS), EVENING
    for line in lines:
        at += 60_000
        state = merge(state, _RULES.classify(line), at, PARAMS)
    return state, at


def before(bank: meaning.Prototypes, vector: np.ndarray, closing: MoodState) -> Reading | None:
    """What consolidation stored before this change (prototypes; xaid/consolidation.py at 3b05f48)."""
    felt = bank.feel(vector)
    carried = meaning.closing_valence(closing.valence, closing.confidence, felt)
    if meaning.band(carried) == meaning.band(closing.valence):
        return None
    return Reading(
        valence=meaning.READ_VALENCE * (1 if carried > 0 else -1 if carried < 0 else 0),
        arousal=max(closing.arousal, BASELINE_AROUSAL),
        fatigue=closing.fatigue,
        intensity=meaning.INTENSITY,
        confidence=meaning.CONFIDENCE,
        cues=(),
    )


def after(
    model: learned.Model,
    bank: meaning.Prototypes,
    vectors: np.ndarray,
    lines: Sequence[str],
    closing: MoodState,
    told: bool = False,
) -> Reading | None:
    """What consolidation stores now (xaid/consolidation.py's ``_felt``): ``vectors`` are the
    session's, its tail's and each line's; ``told``: a clause of a line tells of a loss by itself
    (``told_in_clauses``)."""
    whole, last = vectors[0], vectors[1]
    lost = learned.lost(lines, [bank.loss(v) for v in vectors[2:]])
    felt = learned.read_told(model, lines, whole, last, bank.feel(whole), lost, told)
    lost = felt.lost
    tired = learned.still_tired(model, felt.own, whole, last)
    return learned.carry(closing, felt.own, felt.label, lost, tired, felt.strength)


def judged(item: dict[str, Any], morning: MoodState) -> bool:
    v, b = morning.valence, bands(morning)
    want = item["expect"]
    ok = (
        (want == "low" and v < -EPS)
        or (want == "good" and v > EPS)
        or (want == "neutral" and b.valence == "neutral")
        or want == "any"  # the held-out judge's valence null: only the fatigue band is judged
    )
    return ok and (not item.get("fatigue") or b.fatigue in ("tired", "exhausted"))


def session_vectors(items: Sequence[dict[str, Any]], embed: Embed) -> list[np.ndarray]:
    """Per session, what consolidation embeds: the whole, its tail, each line (one call)."""
    texts = [
        t for i in items for t in (learned.whole(i["lines"]), learned.tail(i["lines"]), *i["lines"])
    ]
    flat = embed(texts)
    out, at = [], 0
    for i in items:
        n = 2 + len(i["lines"])
        out.append(flat[at : at + n])
        at += n
    return out


def told_in_clauses(
    items: Sequence[dict[str, Any]], embed: Embed, bank: meaning.Prototypes
) -> list[bool]:
    """Per session, whether a clause of one of its lines tells of a loss by itself, as consolidation
    reads it (``_told_in_clauses``: matter.told_in_clause on each clause of a line of several)."""
    reader = matter.default()
    out = []
    for item in items:
        parts = [c for line in item["lines"] if len(cs := clauses(line)) > 1 for c in cs]
        vectors = list(embed(parts)) if parts and reader is not None else []
        out.append(
            reader is not None
            and any(
                matter.told_in_clause(bank.loss(v), reader.read(v, c, EVENING))
                for c, v in zip(parts, vectors, strict=True)
            )
        )
    return out


def toned(item: dict[str, Any], morning: MoodState) -> bool:
    """Where the item says whether a tone is still set the next morning (feelings_dev5's ``tone``),
    whether the morning's valence band agrees; True where it does not say."""
    return "tone" not in item or (bands(morning).valence != "neutral") == item["tone"]


def judged_toned(item: dict[str, Any], morning: MoodState) -> bool:
    """The whole judgement of one session's morning: ``judged`` and ``toned``."""
    return judged(item, morning) and toned(item, morning)
