"""The mood arithmetic on a replayed clock: strong feelings carry for days, mild ones fade overnight."""

from __future__ import annotations

import pytest

from xaid.mood.classifier import Reading
from xaid.mood.state import HOUR_MS, MoodParams, MoodState, decay, merge, neutral, weight
from xaid.mood.tone import bands, guidance
from xaid.text import lang

P = MoodParams()
NIGHT = 21 * HOUR_MS  # day 0, 21:00
EXHAUSTED = Reading(
    valence=-0.5, arousal=0.35, fatigue=0.9, intensity=0.9, confidence=0.8, cues=("exhausted",)
)
MILD_ANNOYANCE = Reading(
    valence=-0.3, arousal=0.45, fatigue=0.0, intensity=0.3, confidence=0.6, cues=("annoyed",)
)
NOTHING = Reading(0.0, 0.3, 0.0, 0.0, 0.0, ())


def after(reading: Reading, hours: float) -> MoodState:
    state = merge(neutral(0, P), reading, NIGHT, P)
    return decay(state, NIGHT + int(hours * HOUR_MS))


def test_yesterdays_exhaustion_is_clearly_present_ten_hours_later() -> None:
    assert after(EXHAUSTED, 0).fatigue > 0.6
    assert after(EXHAUSTED, 10).fatigue > 0.4
    assert bands(after(EXHAUSTED, 10)).fatigue in {"tired", "exhausted"}


def test_and_close_to_baseline_after_three_days() -> None:
    assert after(EXHAUSTED, 72).fatigue < 0.1
    assert bands(after(EXHAUSTED, 72)).neutral


def test_a_mild_annoyance_is_gone_by_the_next_morning() -> None:
    assert after(MILD_ANNOYANCE, 0).valence < -0.08
    morning = after(MILD_ANNOYANCE, 11)  # 08:00 next day
    assert abs(morning.valence) < 0.03
    assert guidance(morning) is None


def test_the_literal_roadmap_formula_would_have_forgotten_by_morning() -> None:
    """Why the intensity scaling exists: λ = 0.3 and exp(-Δt/12h) leave ~0.04 of a 0.9 reading."""
    import math

    literal = 0.3 * 0.9 * math.exp(-11 / 12)
    assert literal < 0.15 < after(EXHAUSTED, 11).fatigue


def test_a_message_without_cues_only_lets_time_pass() -> None:
    state = merge(neutral(0, P), EXHAUSTED, NIGHT, P)
    later = merge(state, NOTHING, NIGHT + 5 * HOUR_MS, P)
    assert later == decay(state, NIGHT + 5 * HOUR_MS)


def test_decay_composes_and_never_runs_backwards() -> None:
    state = merge(neutral(0, P), EXHAUSTED, NIGHT, P)
    stepwise = decay(decay(state, NIGHT + 3 * HOUR_MS), NIGHT + 9 * HOUR_MS)
    direct = decay(state, NIGHT + 9 * HOUR_MS)
    assert stepwise.fatigue == pytest.approx(direct.fatigue)
    assert decay(state, NIGHT - HOUR_MS) == state


def test_repeated_strong_readings_build_up_and_stay_bounded() -> None:
    state = neutral(0, P)
    for i in range(10):
        state = merge(state, EXHAUSTED, NIGHT + i * 60_000, P)
    assert 0.85 < state.fatigue <= 1.0 and -1.0 <= state.valence < 0


def test_strong_weighs_more_than_mild() -> None:
    assert weight(EXHAUSTED, P) > 2 * weight(MILD_ANNOYANCE, P)


def test_guidance_never_announces_and_is_stable_within_a_band() -> None:
    a = guidance(after(EXHAUSTED, 1))
    b = guidance(after(EXHAUSTED, 2))
    assert (
        a is not None and a == b
    )  # numbers moved, the band did not: the directive stays identical
    assert "never say what you think they feel" in a
    for phrase in ("you are tired", "you seem", "I can tell", "I detect"):
        assert phrase.lower() not in a.lower()
    zh = guidance(after(EXHAUSTED, 1), "zh")
    assert zh is not None and zh.startswith("语气：") and "不要说出你觉得对方是什么情绪" in zh
    assert not lang.cjk_share(a) and lang.cjk_share(zh) > 0.9  # each in its own language
