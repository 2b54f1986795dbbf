"""L2 facts: what a candidate is worth, and whether it adds to, replaces or repeats what is known.

Value (DESIGN.md §2): ``0.2·recency + 0.3·specificity + 0.3·emotional_intensity +
0.2·user_reference_count`` with configurable weights; the raw signals are always stored. A stated
fact about the user (who they are, where they work, whom they love, what they like) is specific
by its nature even without a proper noun, so such candidates get a specificity floor of 0.5
(0.3 for other kinds): "我喜欢猫" must be able to become a fact.

Consistency (Mem0-style with a fast path): the three nearest current facts are found by vector;
when all are below ``fast_path_cosine`` and no current fact shares an exclusive subject (one can
have one employer, one home town, one main programming language), the candidate is added with
no LLM call. Otherwise one short LLM call must answer ADD / UPDATE <id> / DELETE <id> / NOOP;
an answer that does not parse falls back to rules, and the path that decided is recorded.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from ..config import MemoryConfig
from ..store.memory import Fact

DAY_MS = 86_400_000
EXCLUSIVE = frozenset({
    "user.name", "user.work", "user.job", "user.school", "user.lives_in", "user.from", "user.programming_language",
    "user.partner", "user.diet",
})
INTRINSIC = frozenset({"identity", "work", "person", "preference", "place", "health"})
NEAR_DUPLICATE = 0.92
_ANSWER = re.compile(r"^\s*(ADD|NOOP|UPDATE\s+\[?(\d+)\]?|DELETE\s+\[?(\d+)\]?)\b", re.I)

Ask = Callable[[str, int], Awaitable[str | None]]


@dataclass(frozen=True, slots=True)
class Signals:
    recency: float
    specificity: float
    intensity: float
    user_refs: int

    def as_dict(self) -> dict[str, float]:
        return {"recency": self.recency, "specificity": self.specificity, "intensity": self.intensity,
                "user_refs": self.user_refs}


def recency(ts_ms: int, now_ms: int, half_life_days: float = 30.0) -> float:
    return 2.0 ** (-max(0, now_ms - ts_ms) / (half_life_days * DAY_MS))


def signals(kind: str, text_specificity: float, intensity: float, mentions: int, ts_ms: int, now_ms: int) -> Signals:
    floor = 0.5 if kind in INTRINSIC else 0.3
    return Signals(recency(ts_ms, now_ms), max(text_specificity, floor), intensity, mentions)


def value(s: Signals, cfg: MemoryConfig) -> float:
    refs = min(1.0, s.user_refs / 3)
    return (cfg.weight_recency * s.recency + cfg.weight_specificity * s.specificity
            + cfg.weight_intensity * s.intensity + cfg.weight_references * refs)


@dataclass(frozen=True, slots=True)
class Decision:
    action: str  # ADD | UPDATE | DELETE | NOOP
    target: int | None
    decided_by: str  # fast | llm | rules


def fast_path(subject: str, neighbours: Sequence[tuple[Fact, float]], same_subject: Sequence[Fact],
              cfg: MemoryConfig) -> bool:
    nearest = max((cos for _, cos in neighbours[:3]), default=0.0)
    return nearest < cfg.fast_path_cosine and not (subject in EXCLUSIVE and same_subject)


def prompt(text: str, known: Sequence[Fact]) -> str:
    lines = [f"[{f.fact_id}] {f.text}" for f in known]
    return (
        "Known facts about the user:\n" + "\n".join(lines) + f"\nNew information: {text}\n"
        "Reply with exactly one line: ADD (new fact), UPDATE <id> (replaces that fact), "
        "DELETE <id> (that fact is no longer true), or NOOP (already known)."
    )


def parse(answer: str | None, known_ids: set[int]) -> Decision | None:
    if not answer:
        return None
    first = answer.strip().splitlines()[0] if answer.strip() else ""
    m = _ANSWER.match(first)
    if m is None:
        return None
    verb = m.group(1).split()[0].upper()
    target = int(m.group(2) or m.group(3)) if (m.group(2) or m.group(3)) else None
    if verb in {"UPDATE", "DELETE"} and target not in known_ids:
        return None
    return Decision(verb, target, "llm")


def fallback(subject: str, negated: bool, neighbours: Sequence[tuple[Fact, float]],
             same_subject: Sequence[Fact]) -> Decision:
    """What the rules decide when the model's answer is unusable (or no model is consulted)."""
    if neighbours and neighbours[0][1] >= NEAR_DUPLICATE:
        return Decision("NOOP", neighbours[0][0].fact_id, "rules")
    if subject in EXCLUSIVE and same_subject:
        return Decision("UPDATE", same_subject[-1].fact_id, "rules")
    if negated and neighbours and neighbours[0][1] >= 0.75:
        return Decision("UPDATE", neighbours[0][0].fact_id, "rules")
    return Decision("ADD", None, "rules")


async def decide(text: str, subject: str, negated: bool, neighbours: Sequence[tuple[Fact, float]],
                 same_subject: Sequence[Fact], cfg: MemoryConfig, ask: Ask | None) -> Decision:
    if fast_path(subject, neighbours, same_subject, cfg):
        return Decision("ADD", None, "fast")
    known = list({f.fact_id: f for f in [*same_subject, *(f for f, _ in neighbours[:3])]}.values())
    if ask is not None:
        decision = parse(await ask(prompt(text, known), 8), {f.fact_id for f in known})
        if decision is not None:
            return decision
    return fallback(subject, negated, neighbours, same_subject)
