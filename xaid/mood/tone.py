"""From a mood to one line of tone guidance for the system prompt.

The guidance depends on coarse bands only, never on the exact numbers, so the prompt's head stays
byte-identical (and llama.cpp's KV cache valid) until the mood crosses a band. It tells the model
how to speak and, in the same breath, never to name the feeling: empathy shown, not announced.
"""

from __future__ import annotations

from dataclasses import dataclass

from .state import MoodState

MIN_CONFIDENCE = 0.1
VERY_LOW_VALENCE = -0.55  # the scheduler's "sore spot": no proactive questions below this


@dataclass(frozen=True, slots=True)
class Bands:
    fatigue: str  # none | tired | exhausted
    valence: str  # very_low | low | neutral | good
    tension: bool  # negative and activated: stressed, anxious, angry

    @property
    def neutral(self) -> bool:
        return self.fatigue == "none" and self.valence == "neutral" and not self.tension


def bands(state: MoodState) -> Bands:
    if state.confidence < MIN_CONFIDENCE:
        return Bands("none", "neutral", False)
    fatigue = "exhausted" if state.fatigue >= 0.5 else "tired" if state.fatigue >= 0.25 else "none"
    if state.valence <= VERY_LOW_VALENCE:
        valence = "very_low"
    elif state.valence <= -0.25:
        valence = "low"
    elif state.valence >= 0.3:
        valence = "good"
    else:
        valence = "neutral"
    tension = state.valence < -0.15 and state.arousal >= 0.6
    return Bands(fatigue, valence, tension)


_FATIGUE = {
    "exhausted": "The user has been running on empty lately: keep replies short, gentle and unhurried; "
    "ask nothing of them that can wait.",
    "tired": "The user seems a little worn down: keep a soft, easy pace and don't pile on.",
}
_VALENCE = {
    "very_low": "They have been having a hard time: be warm, patient and steady; listen more than you advise.",
    "low": "Their spirits have been low: be kind and encouraging without forced cheer.",
    "good": "They have been in good spirits: it's fine to be light and match their energy.",
}
_TENSION = "They have seemed tense: stay calm and grounded, and don't add pressure."
_NEVER = (
    "Let this shape only how you speak. Never mention, guess at or comment on their mood, energy or "
    "feelings unless they bring it up themselves."
)


def guidance(state: MoodState) -> str | None:
    b = bands(state)
    if b.neutral:
        return None
    parts = [_FATIGUE[b.fatigue]] if b.fatigue in _FATIGUE else []
    if b.valence in _VALENCE:
        parts.append(_VALENCE[b.valence])
    if b.tension:
        parts.append(_TENSION)
    parts.append(_NEVER)
    return "Tone: " + " ".join(parts)
