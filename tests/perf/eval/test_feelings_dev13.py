"""perf/scenarios/feelings_dev13.json is well formed: what perf/eval/feelings.py plays and splits
(loaded as the area loads it); its kinds split evenly (test_feelings_halves.py)."""

from __future__ import annotations

from typing import Any

from perf.eval.feelings_play import load

CALM = {"calm-emoji", "calm-slang"}


def items() -> list[dict[str, Any]]:
    return load("feelings_dev13.json")


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
