"""Layer B: from a finished session to an episode (summary, highlights, closing mood, tension) and
fact candidates, rules first.

Rules decide when something stands out (a feeling, a name, a number, a plan); a short LLM call
(prompt ≤ 200 tokens) writes the summary only when the rules are unsure: a long session in
which nothing stands out. The path that decided is recorded on the episode.

The summary's own words (the frame around the quotes) are in the session's language, the language
the companion replied in: a Chinese session's memory read back into a Chinese prompt would
otherwise put English sentences right before the reply, and a small model then mixes languages or
reads past the memory.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .. import clock
from ..mood.state import MoodState
from ..store.sessions import Message
from ..text import features, timeparse
from ..text.lang import Lang, language
from . import index
from .rules import extract

MAX_HIGHLIGHTS = 8
HIGHLIGHT_SPECIFICITY = 0.3
SUMMARY_QUOTES = 3
QUOTE_CHARS = 160
UNSURE_MIN_TURNS = 6
UNSURE_MAX_SALIENCE = 0.3
PROMPT_CHARS = 600  # ≈ 200 tokens with the instruction


@dataclass(frozen=True, slots=True)
class Utterance:
    message: Message
    intensity: float
    specificity: float
    candidates: tuple[extract.Candidate, ...]

    @property
    def salience(self) -> float:
        return 0.5 * self.intensity + 0.3 * self.specificity + (0.2 if self.candidates else 0.0)

    @property
    def ref(self) -> str:
        return self.message.ref if self.message.ref is not None else str(self.message.message_id)


@dataclass
class Draft:
    started_ms: int
    ended_ms: int
    summary: str
    decided_by: str
    highlights: list[Utterance] = field(default_factory=list)
    utterances: list[Utterance] = field(default_factory=list)
    tension: float = 0.0
    unsure: bool = False
    llm_prompt: str = ""

    def sources(self) -> list[tuple[int | None, str]]:
        return [(u.message.message_id, u.ref) for u in self.utterances]


@dataclass(frozen=True, slots=True)
class Frame:
    """The sentences of a rule-made summary that are not the user's own words, in one language."""

    opened: str  # formats {day}, {who}, {agent}
    user: str  # who, when the user has no name
    said: str  # formats {who}, {quote}; the quote in ASCII quotes, which rewrite.sentences keeps whole
    they: str  # the subject of ``said`` when the user has no name
    moods: dict[str, str]  # closing band -> sentence
    count: str  # formats {n}
    ask: str  # the LLM summary's instruction


FRAMES: dict[Lang, Frame] = {
    "en": Frame(
        "On {day} {who} talked with {agent}.",
        "the user",
        '{who} said: "{quote}"',
        "They",
        {
            "worn": "By the end they sounded worn out.",
            "low": "By the end they sounded low.",
            "tense": "By the end they sounded tense.",
            "good": "By the end they sounded in good spirits.",
        },
        "There were {n} messages from the user in all.",
        "Summarise in 3 short sentences, in the third person, what the user talked about:",
    ),
    "zh": Frame(
        "{day}，{who}和{agent}聊了天。",
        "用户",
        '{who}说："{quote}"',
        "用户",
        {
            "worn": "最后听起来很疲惫。",
            "low": "最后听起来情绪低落。",
            "tense": "最后听起来很紧张。",
            "good": "最后听起来心情不错。",
        },
        "用户一共发了{n}条消息。",
        "用三句简短的话，以第三人称概括用户聊了什么：",
    ),
}


def said(who: str | None, text: str, lang: Lang) -> str:
    """One quoted message of a summary, as ``draft`` writes it (and as a superseded one is found again)."""
    frame = FRAMES[lang]
    return frame.said.format(who=who or frame.they, quote=quote(text))


def episode_language(utterances: Sequence[Utterance]) -> Lang:
    return language([u.message.text for u in utterances])


def quote(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= QUOTE_CHARS else text[: QUOTE_CHARS - 1] + "…"


def _day(ts_ms: int) -> str:
    return clock.local(ts_ms).strftime("%Y-%m-%d")


def speaker(utterances: Sequence[Utterance]) -> str | None:
    """The user's name when every message of theirs carries the same one (imports, group apps)."""
    names = {u.message.speaker for u in utterances}
    return names.pop() if len(names) == 1 and None not in names else None


def name_the_user(text: str, who: str | None) -> str:
    """ "The user works at X" becomes "Lena works at X": questions name people, not "the user"."""
    if not who:
        return text
    for generic in ("The user's", "The user", "用户"):
        if text.startswith(generic):
            return (f"{who}'s" if generic.endswith("'s") else who) + text[len(generic) :]
    return text


def read_utterances(messages: Sequence[Message], intensity: dict[int, float]) -> list[Utterance]:
    out = []
    for m in messages:
        if m.role != "user" or not m.text.strip():
            continue
        cands = (
            ()
            if extract.is_question(m.text)
            else tuple(extract.candidates(timeparse.annotate(m.text, m.ts_ms)))
        )
        out.append(
            Utterance(
                m, intensity.get(m.message_id or -1, 0.0), features.specificity(m.text), cands
            )
        )
    return out


def _tension(
    utterances: Sequence[Utterance], closing_valence: float | None, ended_ms: int
) -> float:
    """How much was left open: a plan still ahead, or a strong feeling at the end."""
    score = 0.0
    for u in utterances:
        refs = timeparse.find_times(u.message.text, u.message.ts_ms)
        ahead = timeparse.earliest_future(refs)
        if ahead is not None and any(c.kind == "plan" for c in u.candidates):
            score = max(score, 0.8)
        elif ahead is not None:
            score = max(score, 0.5)
        score = max(score, 0.7 * u.intensity if u.intensity >= 0.6 else 0.0)
    if closing_valence is not None and closing_valence <= -0.3:
        score = max(score, min(1.0, -closing_valence + 0.2))
    return round(min(1.0, score), 3)


def _substantial(text: str) -> bool:
    """A statement with some content: not small talk, not a question."""
    return index.content_words(text) >= 3 and not extract.is_question(text)


def _mood_sentence(closing: MoodState | None, lang: Lang) -> str | None:
    if closing is None:
        return None
    valence, arousal, fatigue = closing.valence, closing.arousal, closing.fatigue
    if fatigue >= 0.5:
        band = "worn"
    elif valence <= -0.4:
        band = "low"
    elif valence <= -0.15 and arousal >= 0.6:
        band = "tense"
    elif valence >= 0.4:
        band = "good"
    else:
        return None
    return FRAMES[lang].moods[band]


def draft(
    messages: Sequence[Message],
    intensity: dict[int, float],
    closing: MoodState | None,
    agent_name: str,
) -> Draft:
    utterances = read_utterances(messages, intensity)
    started = messages[0].ts_ms if messages else 0
    ended = max((m.ts_ms for m in messages), default=started)
    ranked = sorted(utterances, key=lambda u: -u.salience)
    quotes = sorted(ranked[:SUMMARY_QUOTES], key=lambda u: u.message.message_id or 0)
    who = speaker(utterances)
    lang = episode_language(utterances)
    frame = FRAMES[lang]
    sentences = [frame.opened.format(day=_day(started), who=who or frame.user, agent=agent_name)]
    sentences += [said(who, u.message.text, lang) for u in quotes]
    if (mood := _mood_sentence(closing, lang)) is not None:
        sentences.append(mood)
    if len(sentences) < 3 and len(utterances) > len(quotes):
        sentences.append(frame.count.format(n=len(utterances)))
    # Verbatim keepers: emotional peaks, anything specific (a name, a number, a date), anything the user
    # stated about themselves (even when the rules were not sure enough to make it a fact), and, while
    # room is left, other substantial statements: a small model cannot tell yet what will matter later.
    keep = [
        u
        for u in ranked
        if u.intensity >= 0.6 or u.specificity >= HIGHLIGHT_SPECIFICITY or u.candidates
    ]
    keep += [u for u in ranked if u not in keep and _substantial(u.message.text)]
    highlights = keep[:MAX_HIGHLIGHTS]
    top = ranked[0].salience if ranked else 0.0
    unsure = len(utterances) >= UNSURE_MIN_TURNS and top < UNSURE_MAX_SALIENCE
    d = Draft(
        started,
        ended,
        " ".join(sentences[:5]),
        "rules",
        sorted(highlights, key=lambda u: u.message.message_id or 0),
        utterances,
        _tension(utterances, closing.valence if closing else None, ended),
        unsure,
    )
    if unsure:
        d.llm_prompt = summary_prompt(utterances, lang)
    return d


def summary_prompt(utterances: Sequence[Utterance], lang: Lang = "en") -> str:
    lines: list[str] = []
    budget = PROMPT_CHARS
    for u in utterances:
        line = "- " + quote(u.message.text)
        if len(line) > budget:
            break
        lines.append(line)
        budget -= len(line)
    return FRAMES[lang].ask + "\n" + "\n".join(lines)


def accept_summary(answer: str | None) -> str | None:
    """An LLM summary worth keeping: some words, not an essay, not a refusal, not the prompt parroted."""
    if not answer:
        return None
    text = " ".join(answer.split())
    if not 20 <= len(text) <= 1200 or text.lower().startswith(
        ("i'm sorry", "i cannot", "as an ai")
    ):
        return None
    if any(f.ask[:16].lower() in text.lower() for f in FRAMES.values()) or text.lower().startswith(
        "echo:"
    ):
        return None
    return text
