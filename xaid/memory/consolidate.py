"""Layer B: from a finished session to an episode (summary, highlights, closing mood, tension) and
fact candidates, rules first.

Rules decide when something stands out (a feeling, a name, a number, a plan); a short LLM call
(prompt ≤ 200 tokens) writes the summary only when the rules are unsure: a long session in
which nothing stands out. The path that decided is recorded on the episode.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .. import clock
from ..mood.state import MoodState
from ..store.sessions import Message
from ..text import features, timeparse
from . import extract, index

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
            return (f"{who}'s" if generic.endswith("'s") else who) + text[len(generic):]
    return text


def read_utterances(messages: Sequence[Message], intensity: dict[int, float]) -> list[Utterance]:
    out = []
    for m in messages:
        if m.role != "user" or not m.text.strip():
            continue
        cands = () if extract.is_question(m.text) else tuple(extract.candidates(timeparse.annotate(m.text, m.ts_ms)))
        out.append(Utterance(m, intensity.get(m.message_id or -1, 0.0), features.specificity(m.text), cands))
    return out


def _tension(utterances: Sequence[Utterance], closing_valence: float | None, ended_ms: int) -> float:
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


def _mood_sentence(closing: MoodState | None) -> str | None:
    if closing is None:
        return None
    valence, arousal, fatigue = closing.valence, closing.arousal, closing.fatigue
    if fatigue >= 0.5:
        return "By the end they sounded worn out."
    if valence <= -0.4:
        return "By the end they sounded low."
    if valence <= -0.15 and arousal >= 0.6:
        return "By the end they sounded tense."
    if valence >= 0.4:
        return "By the end they sounded in good spirits."
    return None


def draft(messages: Sequence[Message], intensity: dict[int, float], closing: MoodState | None,
          agent_name: str) -> Draft:
    utterances = read_utterances(messages, intensity)
    started = messages[0].ts_ms if messages else 0
    ended = max((m.ts_ms for m in messages), default=started)
    ranked = sorted(utterances, key=lambda u: -u.salience)
    quotes = sorted(ranked[:SUMMARY_QUOTES], key=lambda u: u.message.message_id or 0)
    who = speaker(utterances)
    sentences = [f"On {_day(started)} {who or 'the user'} talked with {agent_name}."]
    sentences += [f'{who or "They"} said: "{quote(u.message.text)}"' for u in quotes]
    if (mood := _mood_sentence(closing)) is not None:
        sentences.append(mood)
    if len(sentences) < 3 and len(utterances) > len(quotes):
        sentences.append(f"There were {len(utterances)} messages from the user in all.")
    # Verbatim keepers: emotional peaks, anything specific (a name, a number, a date), anything the user
    # stated about themselves (even when the rules were not sure enough to make it a fact), and, while
    # room is left, other substantial statements: a small model cannot tell yet what will matter later.
    keep = [u for u in ranked if u.intensity >= 0.6 or u.specificity >= HIGHLIGHT_SPECIFICITY or u.candidates]
    keep += [u for u in ranked if u not in keep and _substantial(u.message.text)]
    highlights = keep[:MAX_HIGHLIGHTS]
    top = ranked[0].salience if ranked else 0.0
    unsure = len(utterances) >= UNSURE_MIN_TURNS and top < UNSURE_MAX_SALIENCE
    d = Draft(started, ended, " ".join(sentences[:5]), "rules",
              sorted(highlights, key=lambda u: u.message.message_id or 0), utterances,
              _tension(utterances, closing.valence if closing else None, ended), unsure)
    if unsure:
        d.llm_prompt = summary_prompt(utterances)
    return d


def summary_prompt(utterances: Sequence[Utterance]) -> str:
    lines: list[str] = []
    budget = PROMPT_CHARS
    for u in utterances:
        line = "- " + quote(u.message.text)
        if len(line) > budget:
            break
        lines.append(line)
        budget -= len(line)
    return ("Summarise in 3 short sentences, in the third person, what the user talked about:\n"
            + "\n".join(lines))


def accept_summary(answer: str | None) -> str | None:
    """An LLM summary worth keeping: some words, not an essay, not a refusal, not the prompt parroted."""
    if not answer:
        return None
    text = " ".join(answer.split())
    if not 20 <= len(text) <= 1200 or text.lower().startswith(("i'm sorry", "i cannot", "as an ai")):
        return None
    if "summarise in 3 short sentences" in text.lower() or text.lower().startswith("echo:"):
        return None
    return text
