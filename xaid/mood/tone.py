"""From a mood to one line of tone guidance, in the user's language, for the turn's directive.

The guidance depends on coarse bands only, never on the exact numbers. It goes late in the prompt
(xaid.conversation.prompt), just before the newest user message, so a mood crossing a band re-reads a few tokens
and not the whole prompt. It tells the model how to speak and, in the same breath, never to name
the feeling: empathy shown, not announced.
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


# Short directives, one clause each: a 0.5-1.5B model follows "be gentle and brief" but loses a
# long description of the user's state, and any sentence that names the feeling invites the model to
# repeat it back ("I can tell you're exhausted"), so the feeling is named only where needed to pick the tone.
_FATIGUE = {
    "en": {
        "exhausted": "They are worn out: be gentle and brief, and ask nothing of them that can wait.",
        "tired": "They seem a little tired: keep it soft and easy.",
    },
    "zh": {
        "exhausted": "对方很疲惫：语气温柔，回复简短，不要给对方添事。",
        "tired": "对方有点累：说话轻松柔和一些。",
    },
}
_VALENCE = {
    "en": {
        "very_low": "They are having a hard time: be warm and patient, and listen more than you advise.",
        "low": "Their spirits are low: be kind and encouraging, without forced cheer.",
        "good": "They are in good spirits: you can be light and match their energy.",
    },
    "zh": {
        "very_low": "对方最近很不好过：温暖、耐心，多倾听，少给建议。",
        "low": "对方情绪不高：友善地鼓励，不要硬装开心。",
        "good": "对方心情不错：可以轻松一些，跟上对方的节奏。",
    },
}
_TENSION = {
    "en": "They seem tense: stay calm and add no pressure.",
    "zh": "对方有些紧张：保持平静，不要给压力。",
}
_NEVER = {
    "en": "Show this only in how you speak: never say what you think they feel or that you noticed it.",
    "zh": "只在语气里体现：不要说出你觉得对方是什么情绪，也不要说你察觉到了。",
}
# The same rule said once for every mood, in a later turn's steady part of the directive
# (xaid.conversation.prompt): it holds whatever the tone, so it is read ahead with the rest of that part,
# and the tone itself shrinks to the few words that change with the message.
_UNSAID = {
    "en": "Let how they feel show only in how you speak: never say what you think they feel or "
    "that you noticed it.",
    "zh": "对方的情绪只在语气里体现：不要说出你觉得对方是什么情绪，也不要说你察觉到了。",
}
_LABEL = {"en": "Tone: ", "zh": "语气："}


def guidance(state: MoodState, lang: str = "en", rule: bool = True) -> str | None:
    """The tone directive in ``lang`` ("en" or "zh"), or None when the mood is neutral. ``rule``
    False: without the clause that the tone is shown and never named (a later turn's directive says
    that once, in its steady part: ``unsaid``)."""
    b = bands(state)
    if b.neutral:
        return None
    lang = lang if lang in _LABEL else "en"
    parts = [_FATIGUE[lang][b.fatigue]] if b.fatigue in _FATIGUE[lang] else []
    if b.valence in _VALENCE[lang]:
        parts.append(_VALENCE[lang][b.valence])
    if b.tension:
        parts.append(_TENSION[lang])
    if rule:
        parts.append(_NEVER[lang])
    return _LABEL[lang] + ("" if lang == "zh" else " ").join(parts)


def unsaid(lang: str = "en") -> str:
    """The rule that the tone is shown, never named, for any mood (neutral too), in ``lang``."""
    return _UNSAID.get(lang, _UNSAID["en"])
