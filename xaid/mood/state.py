"""The mood state and its arithmetic: decay toward a neutral baseline, and merging a reading.

The roadmap's update is ``mood = λ·observed + (1-λ)·prev·decay(Δt)`` with λ = 0.3 and a 12 h
half-life. Taken literally it forgets a night's exhaustion by morning (DESIGN.md works it out:
0.9 → 0.27 → 0.04). Two changes, both driven by the reading's intensity ``i`` (0..1), make
strong feelings carry for days and mild ones fade overnight:

- the weight of an observation grows with its intensity:
  ``λ_eff = (λ + (1-λ)·i²) · (0.5 + 0.5·confidence)`` — one "exhausted" counts, one "meh" barely;
- each feeling carries its own half-life, set by the intensity that formed it and by what was felt:
  ``h = H · (0.25 + 1.5·i²) · p`` — from H/4 for a trace of feeling to 1.75·H for the strongest,
  times the reading's persistence ``p`` (``Reading.lasting``: 4 for grief and grave news, 0.5 for
  an irritation or a shrug, 1 otherwise), capped at ``MAX_HALF_LIFE`` H;
  a merge blends the carried half-life with the new one, each weighted by how much feeling it
  carries (its weight times its distance from the baseline), so a neutral past does not slow
  the fading of a fresh feeling; a reading that goes the same way as a clear carried feeling
  (tears after the news of a death) never shortens it.

Decay is a true half-life, ``2^(-Δt/h)``, applied to the distance from the baseline. The curve,
with numbers, is in docs/mood.md; tests/xaid/mood/test_state.py checks the scene it must serve.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..clock import HOUR_MS
from ..store.mood import BASELINE_AROUSAL, BASELINE_FATIGUE, BASELINE_VALENCE, MoodState
from .classifier import Reading

__all__ = [
    "BASELINE_AROUSAL",
    "BASELINE_FATIGUE",
    "BASELINE_VALENCE",
    "HOUR_MS",
    "MoodParams",
    "MoodState",
    "decay",
    "distance",
    "merge",
    "neutral",
    "reading_half_life",
    "weight",
]


@dataclass(frozen=True, slots=True)
class MoodParams:
    half_life_ms: int = 12 * HOUR_MS
    learning_rate: float = 0.3


def neutral(at_ms: int, params: MoodParams) -> MoodState:
    return MoodState(half_life_ms=params.half_life_ms, updated_ms=at_ms)


def decay(state: MoodState, now_ms: int) -> MoodState:
    """The state as it will have faded by ``now_ms``; asking about the past changes nothing."""
    dt = now_ms - state.updated_ms
    if dt <= 0:
        return state
    k = 2.0 ** (-dt / state.half_life_ms)
    return MoodState(
        valence=BASELINE_VALENCE + (state.valence - BASELINE_VALENCE) * k,
        arousal=BASELINE_AROUSAL + (state.arousal - BASELINE_AROUSAL) * k,
        fatigue=BASELINE_FATIGUE + (state.fatigue - BASELINE_FATIGUE) * k,
        confidence=state.confidence * k,
        half_life_ms=state.half_life_ms,
        updated_ms=now_ms,
    )


MAX_HALF_LIFE = (
    8.0  # times H: even the heaviest news is not a mood for ever (4 days at the default)
)


def reading_half_life(reading: Reading, params: MoodParams) -> int:
    factor = (0.25 + 1.5 * reading.intensity**2) * reading.lasting
    return int(params.half_life_ms * min(MAX_HALF_LIFE, factor))


def distance(valence: float, arousal: float, fatigue: float) -> float:
    """How far from neutral: the largest deviation over the three dimensions."""
    return max(
        abs(valence - BASELINE_VALENCE),
        abs(arousal - BASELINE_AROUSAL),
        abs(fatigue - BASELINE_FATIGUE),
    )


def weight(reading: Reading, params: MoodParams) -> float:
    lam = params.learning_rate
    return (lam + (1 - lam) * reading.intensity**2) * (0.5 + 0.5 * reading.confidence)


def _same_way(carried: MoodState, reading: Reading) -> bool:
    """More of the feeling already carried (tears after the news of a death): it cannot make that
    feeling shorter-lived than it was."""
    v = carried.valence - BASELINE_VALENCE
    return abs(v) >= 0.25 and v * (reading.valence - BASELINE_VALENCE) > 0


def merge(prev: MoodState, reading: Reading, now_ms: int, params: MoodParams) -> MoodState:
    """One observation after a user turn; a reading with no cue only lets time pass."""
    carried = decay(prev, now_ms)
    if reading.confidence <= 0.0:
        return replace(carried, updated_ms=max(now_ms, carried.updated_ms))
    w = weight(reading, params)

    def mix(old: float, new: float) -> float:
        return w * new + (1 - w) * old

    new_share = w * distance(reading.valence, reading.arousal, reading.fatigue)
    old_share = (1 - w) * distance(carried.valence, carried.arousal, carried.fatigue)
    total = new_share + old_share
    half_life = reading_half_life(reading, params)
    if total > 0:
        blended = int((new_share * half_life + old_share * carried.half_life_ms) / total)
        half_life = max(blended, carried.half_life_ms) if _same_way(carried, reading) else blended
    return MoodState(
        valence=max(-1.0, min(1.0, mix(carried.valence, reading.valence))),
        arousal=max(0.0, min(1.0, mix(carried.arousal, reading.arousal))),
        fatigue=max(0.0, min(1.0, mix(carried.fatigue, reading.fatigue))),
        confidence=max(0.0, min(1.0, mix(carried.confidence, reading.confidence))),
        half_life_ms=half_life,
        updated_ms=max(now_ms, carried.updated_ms),
    )
