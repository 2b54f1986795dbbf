"""perf/scenarios/feelings_dev9.json is well formed: what perf/eval/feelings.py plays and splits
(loaded as the area loads it)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from perf.eval.feelings_play import load

KINDS = {
    "plain",
    "mixed",
    "concessive",
    "understatement",
    "idiom",
    "slang",
    "emoji",
    "sarcasm",
    "calm",
    "loss",
}


def items() -> list[dict[str, Any]]:
    return load("feelings_dev9.json")


def test_four_sessions_of_every_kind_per_language_in_both_halves() -> None:
    """Every kind has two train and two test sessions in each language, so the test half (never
    tuned on) covers what the train half does."""
    halves = Counter((i["lang"], i["kind"], i["split"]) for i in items())
    assert {kind for _, kind, _ in halves} == KINDS
    for lang in ("en", "zh"):
        for kind in KINDS:
            assert halves[(lang, kind, "train")] == halves[(lang, kind, "test")] == 2


def test_labels_are_what_the_judge_reads() -> None:
    """Losses are low, calm sessions carry nothing, and ids are unique."""
    ids = set()
    for i in items():
        assert i["expect"] in {"low", "good", "neutral"}
        assert i["loss"] is (i["kind"] == "loss")
        assert i["expect"] == (
            "low" if i["loss"] else "neutral" if i["kind"] == "calm" else i["expect"]
        )
        lines = i["lines"]
        assert isinstance(lines, list) and 1 <= len(lines) <= 3
        ids.add(i["id"])
    assert len(ids) == len(items())
