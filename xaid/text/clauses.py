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

from . import cjk

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


# In Chinese typed as chat, a space is the comma: "我是傻逼 我真的是全世界最蠢的人 手一直冰凉".
_SPACE = re.compile(r"\s+")


def spans(text: str) -> list[tuple[int, str]]:
    """The text's clauses with where each starts, cut as ``clauses`` cuts them and, in a text with
    Chinese, at every space too (a space between English words joins them)."""
    cut = [_CLAUSE, _SPACE] if cjk.has(text) else [_CLAUSE]
    out: list[tuple[int, str]] = [(0, text)]
    for pattern in cut:
        out = [
            (at + m_start, piece) for at, part in out for m_start, piece in pieces(part, pattern)
        ]
    return [(at + len(p) - len(p.lstrip()), p.strip()) for at, p in out if p.strip()]


def pieces(text: str, pattern: re.Pattern[str]) -> list[tuple[int, str]]:
    """``text`` cut at ``pattern``, each piece (empty ones too) with where it starts in ``text``."""
    out, at = [], 0
    for m in pattern.finditer(text):
        out.append((at, text[at : m.start()]))
        at = m.end()
    out.append((at, text[at:]))
    return out


def since(text: str, skip: Callable[[str], bool]) -> str:
    """``text`` from its first clause (``spans``) for which ``skip`` does not hold: "我是傻逼 手一直冰凉
    有人冒充快递客服说要理赔…" with the clauses of a feeling skipped is "有人冒充快递客服说要理赔…". The
    whole text when ``skip`` holds for every clause."""
    for at, clause in spans(text):
        if not skip(clause):
            return text[at:].lstrip()
    return text
