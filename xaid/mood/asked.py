"""A session's closing feeling asked of the chat model: one short call, one word back.

Issue 24 item 5 names two ways of reading what a session leaves for the next day by meaning: the
embedder (meaning.py's prototypes, learned.py's reader) and the default model once per consolidated
session. The embedder reads a text by its topic before its feeling: irony ("What a treat this day
has been"), good news said flatly among errands ("Oh and the biopsy was benign"), a feeling said
between logistics. A chat model reads the whole situation.

The question offers plain feeling words (sad, happy, fine) rather than the labels (low, good,
neutral): asked for "low, good or neutral" the 1.5B answered the last word offered for nearly
everything (docs/mood.md, feel3). The answer is read only where it *begins* with an offered word;
anything else (an echo, a sentence, a refusal) is unreadable and the embedder's reading stands.
Pure: consolidation makes the call (``Consolidation.ask``, the path the memory's own questions take).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .meaning import Label, session_text

ANSWER_TOKENS = 4
_PROMPT = (
    "A friend told you this today:\n{said}\n\n"
    "How will they feel tomorrow because of it: sad, happy, or fine (nothing to carry)? "
    "Answer with one word."
)
_ANSWERS: dict[str, Label] = {"sad": "low", "happy": "good", "fine": "neutral"}
_FIRST_WORD = re.compile(r"\W*([a-z]+)")


def prompt(lines: Sequence[str]) -> str:
    """The question for a session's user lines, the instruction last (DESIGN 3b)."""
    return _PROMPT.format(said=session_text(lines))


def label(answer: str | None) -> Label | None:
    """The feeling the answer names, or None when it does not begin with one of the words offered."""
    if answer is None:
        return None
    m = _FIRST_WORD.match(answer.lower())
    return _ANSWERS.get(m.group(1)) if m else None
