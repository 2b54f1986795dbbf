"""A message cut into its clauses: where one breath says two things.

"Grandpa passed away this morning, the funeral is on Friday", "豆豆今早安乐了，明天把它埋在院子里": a
reader of the whole message weighs the death and the plan together, and the plan (a date ahead, an
errand) can outweigh the loss. Read clause by clause, each part says what it says. The cut is at
punctuation of either language and at a joining "and" / "but" / "so"; shared by the change cues
(memory/change_cues.py: whose change a clause states) and consolidation's loss reading.
"""

from __future__ import annotations

import re
from collections.abc import Callable

_CLAUSE = re.compile(r"[,;.!?，。；！？…]+|\s+(?:and|but|so)\s+", re.I)


def clauses(text: str) -> list[str]:
    """The text's clauses, stripped, in order (the whole text when it is one clause)."""
    return [c.strip() for c in _CLAUSE.split(text) if c and c.strip()]


def until(text: str, stop: Callable[[str], bool]) -> str:
    """``text`` up to its first clause after the first for which ``stop`` holds, the marks that
    joined them trimmed: "my grandad passed away last night. funeral's on saturday" stopped at a
    clause naming a day ahead is "my grandad passed away last night". The whole text when no later
    clause stops it."""
    marks = list(_CLAUSE.finditer(text))
    for i, m in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
        clause = text[m.end() : end].strip()
        if clause and text[: m.start()].strip() and stop(clause):
            return text[: m.start()].rstrip()
    return text
