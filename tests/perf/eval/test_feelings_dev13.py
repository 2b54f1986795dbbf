"""perf/scenarios/feelings_dev13.json is well formed: what perf/eval/feelings.py plays and splits
(loaded as the area loads it), so the test half covers each kind the train half does, in both
languages alike."""

from __future__ import annotations

from collections import Counter
from typing import Any

from perf.eval.feelings_play import load

KINDS = {
    "emoji",
    "slang",
    "idiom",
    "understatement",
    "tired-unsaid",
    "calm-emoji",
    "calm-slang",
    "plain",
}
CALM = {"calm-emoji", "calm-slang"}


def items() -> list[dict[str, Any]]:
    return load("feelings_dev13.json")


def test_every_kind_is_in_both_halves_in_both_languages() -> None:
    """The halves split each kind evenly, and the two languages have the same kinds and counts."""
    halves = Counter((i["lang"], i["kind"], i["split"]) for i in items())
    assert {kind for _, kind, _ in halves} == KINDS
    for kind in KINDS:
        counts = {
            halves[(lang, kind, split)] for lang in ("en", "zh") for split in ("train", "test")
        }
        assert len(counts) == 1 and counts.pop() >= 1


def test_labels_are_what_the_judge_reads() -> None:
    """Calm controls carry nothing, tiredness never named is judged by the fatigue band alone, and
    ids are unique."""
    seen = set()
    for i in items():
        assert i["expect"] in {"low", "good", "neutral", "any"}
        assert (i["expect"] == "neutral") is (i["kind"] in CALM)
        assert (i["expect"] == "any") is (i["kind"] == "tired-unsaid") is i["fatigue"]
        assert isinstance(i["lines"], list) and 1 <= len(i["lines"]) <= 2
        seen.add(i["id"])
    assert len(seen) == len(items()) == 92
