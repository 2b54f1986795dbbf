"""perf/scenarios/feelings_dev7.json is well formed: what perf/eval/feelings.py plays and splits."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

DEV7 = Path(__file__).resolve().parents[3] / "perf" / "scenarios" / "feelings_dev7.json"
KINDS = {
    "plain",
    "slang",
    "emoji",
    "idiom",
    "understatement",
    "sarcasm",
    "euphemism",
    "tired-unsaid",
    "mixed",
    "calm",
}


def items() -> list[dict[str, object]]:
    loaded: list[dict[str, object]] = json.loads(DEV7.read_text(encoding="utf-8"))["items"]
    return loaded


def test_forty_sessions_per_language_in_every_kind() -> None:
    per = Counter((i["lang"], i["kind"]) for i in items())
    assert {lang for lang, _ in per} == {"en", "zh"}
    assert {kind for _, kind in per} == KINDS
    assert sum(n for (lang, _), n in per.items() if lang == "en") == 40
    assert sum(n for (lang, _), n in per.items() if lang == "zh") == 40


def test_halves_alternate_within_each_kind() -> None:
    """Every kind has as many train as test sessions in each language, so the test half (never
    tuned on) covers what the train half does."""
    halves = Counter((i["lang"], i["kind"], i["split"]) for i in items())
    for lang in ("en", "zh"):
        for kind in KINDS:
            assert halves[(lang, kind, "train")] == halves[(lang, kind, "test")] > 0


def test_labels_are_what_the_judge_reads() -> None:
    ids = set()
    for i in items():
        assert i["expect"] in {"low", "good", "neutral", "any"}
        assert isinstance(i["fatigue"], bool) and isinstance(i["loss"], bool)
        assert i["expect"] != "any" or i["fatigue"], (
            "a valence not judged needs the tiredness judged"
        )
        lines = i["lines"]
        assert isinstance(lines, list) and 1 <= len(lines) <= 4
        ids.add(i["id"])
    assert len(ids) == len(items())
