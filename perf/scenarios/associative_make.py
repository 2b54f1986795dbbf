"""What the associative dev-set writers share: a case and a user, a session laid out as LoCoMo turns, a
sample's record, the answer-word check and the file written.

Each ``associative_devN_make.py`` keeps its own calendar (which days have a session, where B and its
look-alike fall) and its own lines; this module is the one place that turns a day's lines into turns,
a user's cases into questions, and refuses a set whose answer words are not B's alone. The writers
draw from one seeded ``random.Random`` in a fixed order, so moving code here must not change the
order of the draws (the sets are rewritten byte for byte).
"""

from __future__ import annotations

import datetime as dt
import json
import random
import sys
from dataclasses import dataclass
from pathlib import Path

START = dt.date(2026, 1, 12)
DAYS = 42  # six weeks
SESSIONS = 32  # sessions of a pooled user: most days, not all (held-out set 5's shape)


@dataclass(frozen=True)
class Case:
    """B (said weeks before), a look-alike of the mention said after B, the mention, B's words."""

    kind: str
    b: str
    answer: str
    lookalike: str
    mention: str


@dataclass(frozen=True)
class User:
    sample_id: str
    split: str
    lang: str
    name: str
    friend: str
    cases: tuple[Case, ...]


# A day's lines: the text and, for a B line, the index of its case (None for everything else).
Line = tuple[str, int | None]


def stamp(day: int, minute: int) -> str:
    """A LoCoMo session time for ``day`` days after START at ``minute`` past 18:00."""
    when = dt.datetime.combine(START + dt.timedelta(days=day), dt.time(18)) + dt.timedelta(
        minutes=minute
    )
    return f"{when:%-I:%M} {when:%p}".lower() + f" on {when.day} {when:%B}, {when.year}"


def add_session(
    conversation: dict[str, object],
    n: int,
    day: int,
    user: User,
    lines: list[Line],
    said: list[Line],
    replies: list[str],
    rng: random.Random,
    evidence: dict[int, str],
) -> None:
    """Session ``n`` on ``day``: ``said`` (B lines, look-alikes) slipped among the small-talk ``lines``,
    each user line answered by a reply; a B line's dia_id goes to ``evidence`` under its case."""
    for line in said:
        lines.insert(rng.randint(0, len(lines)), line)
    turns: list[dict[str, str]] = []
    for text, case_at in lines:
        dia = f"D{n}:{len(turns) + 1}"
        if case_at is not None:
            evidence[case_at] = dia
        turns.append({"speaker": user.name, "dia_id": dia, "text": text})
        turns.append(
            {
                "speaker": user.friend,
                "dia_id": f"D{n}:{len(turns) + 1}",
                "text": rng.choice(replies),
            }
        )
    conversation[f"session_{n}_date_time"] = stamp(day, rng.randint(0, 180))
    conversation[f"session_{n}"] = turns


def record(
    user: User, conversation: dict[str, object], evidence: dict[int, str]
) -> dict[str, object]:
    """The user's LoCoMo sample: the conversation and one question per case (the mention, B's words)."""
    qa = [
        {
            "question": case.mention,
            "answer": case.answer,
            "evidence": [evidence[i]],
            "category": 1,
            "lang": user.lang,
            "split": user.split,
            "kind": case.kind,
        }
        for i, case in enumerate(user.cases)
    ]
    return {
        "sample_id": user.sample_id,
        "split": user.split,
        "lang": user.lang,
        "conversation": conversation,
        "qa": qa,
    }


def pooled_sample(
    user: User, rng: random.Random, talk: list[str], reply: list[str]
) -> dict[str, object]:
    """32 sessions over six weeks (the first and last day always), 3-5 small-talk lines each drawn
    from ``talk`` without repeats until it runs out; B on every other session of the
    first four weeks, its look-alike on the first session 12-16 days after it."""
    days = sorted({0, DAYS - 1, *rng.sample(range(1, DAYS - 1), SESSIONS - 2)})
    early = [d for d in days if d < 28]
    b_days = sorted(rng.sample(early[1::2], len(user.cases)))
    said: dict[int, list[Line]] = {d: [] for d in days}
    for index, (case, day) in enumerate(zip(user.cases, b_days, strict=True)):
        said[day].append((case.b, index))
        later = [d for d in days if day + 12 <= d <= DAYS - 1]
        said[later[min(len(later) - 1, rng.randint(0, 3))]].append((case.lookalike, None))
    pool: list[str] = []
    conversation: dict[str, object] = {"speaker_a": user.name, "speaker_b": user.friend}
    evidence: dict[int, str] = {}
    for n, day in enumerate(days, 1):
        lines: list[Line] = []
        for _ in range(rng.randint(3, 5)):
            if not pool:
                pool = rng.sample(talk, len(talk))
            lines.append((pool.pop(), None))
        add_session(conversation, n, day, user, lines, said[day], reply, rng, evidence)
    return record(user, conversation, evidence)


def check(data: dict[str, object]) -> list[str]:
    """Each answer word said in B's turn and in no other turn (nor the mention) of that user."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from perf.eval import locomo_score as score

    problems = []
    for s in data["samples"]:  # type: ignore[attr-defined]
        conv = s["conversation"]
        turns = [
            t
            for k, v in conv.items()
            if k.startswith("session_") and isinstance(v, list)
            for t in v
        ]
        for q in s["qa"]:
            for word in score.answer_words(q["answer"]):
                holders = {t["dia_id"] for t in turns if word in score.words(t["text"])}
                if holders != set(q["evidence"]) or word in score.words(q["question"]):
                    problems.append(f"{s['sample_id']}: {word!r} in {sorted(holders)}")
    return problems


def save(out: Path, about: str, samples: list[dict[str, object]]) -> int:
    """Writes the set to ``out``; 1 (after printing why) when an answer word is not B's alone."""
    data: dict[str, object] = {"format": 1, "about": about, "samples": samples}
    problems = check(data)
    for p in problems:
        print(p)
    out.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return 1 if problems else 0
