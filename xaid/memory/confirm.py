"""The unsure fact candidates of one session, put to the model in one call.

A rule that is unsure of a fact (a hedged "I think I might take up running", a guessed name:
confidence below 0.5) asks the model whether it is a lasting fact about the user. One call per
candidate was what consolidation cost most after the change pairs (issue 28 item 5: every unsure
candidate asked once); the candidates of a session are now a numbered list in one question, the
directive last (DESIGN 3b), and the answer is read per number.

The decisions stay those of one question per candidate: "yes" keeps a candidate, anything else
drops it, as an unreadable or missing answer always did (the rule was unsure and nobody confirmed
it; nothing stored is touched). A lone candidate keeps the one-question wording it always had, so a
session with one unsure candidate is asked exactly what it was asked before. The numbered reading is
the change pairs' (``supersede.parse``): one reader of "2: yes" / "2、否" for both questions.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from . import draft, supersede
from .rules import extract

SURE = 0.5  # a candidate at this confidence or above stands without the model
MAX_ASKED = 8  # candidates in one call; a session with more (rare) is asked in chunks of this size
ANSWER_TOKENS = 4 * MAX_ASKED  # "8: yes" and a newline: ~4 tokens a line
_PARROT = re.compile(r"The user said:|Fact:|one line per number", re.I)

Ask = Callable[[str, int], Awaitable[str | None]]


@dataclass(frozen=True, slots=True)
class Confirmed:
    """Per candidate, whether it stands; and what it cost (the counters)."""

    kept: list[bool]
    asked: int = 0  # unsure candidates put to the model
    calls: int = 0
    unreadable: int = 0  # asked, but the answer said nothing readable about them (dropped)


def single_prompt(c: extract.Candidate) -> str:
    return (
        f'The user said: "{c.source}"\nIs this a lasting fact about the user: "{c.text}"? '
        "Answer yes or no."
    )


def prompt(cands: Sequence[extract.Candidate]) -> str:
    """One question for several candidates: each quoted with the words it came from."""
    if len(cands) == 1:
        return single_prompt(cands[0])
    lines = ["Each item is something the user said and a fact it may tell about them.", ""]
    for n, c in enumerate(cands, 1):
        lines.append(f'{n}. The user said: "{draft.quote(c.source)}"')
        lines.append(f'   Fact: "{c.text}"')
    lines += [
        "",
        "For each item: is the fact a lasting fact about the user?",
        "Answer one line per number: the item's number, then yes or no.",
    ]
    return "\n".join(lines)


def parse(answer: str | None, n: int) -> list[bool | None]:
    """A verdict per candidate (True: keep it), None where the answer says nothing readable."""
    if n == 1:  # the one-question wording and its reading, as before
        if not answer or not answer.strip():
            return [None]
        return [answer.strip().lower().startswith(("yes", "是"))]
    if not answer or _PARROT.search(answer):
        return [None] * n
    return supersede.parse(answer, n)


async def confirm(cands: Sequence[extract.Candidate], ask: Ask) -> Confirmed:
    """Which of a session's candidates stand: the sure ones, and the unsure ones the model says yes to."""
    kept = [c.confidence >= SURE for c in cands]
    unsure = [i for i, c in enumerate(cands) if c.confidence < SURE]
    calls = unreadable = 0
    for start in range(0, len(unsure), MAX_ASKED):
        chunk = unsure[start : start + MAX_ASKED]
        tokens = 3 if len(chunk) == 1 else ANSWER_TOKENS
        answer = await ask(prompt([cands[i] for i in chunk]), tokens)
        calls += 1
        for i, verdict in zip(chunk, parse(answer, len(chunk)), strict=True):
            kept[i] = verdict is True
            unreadable += verdict is None
    return Confirmed(kept, len(unsure), calls, unreadable)
