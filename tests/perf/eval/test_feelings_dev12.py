"""perf/scenarios/feelings_dev12.json is well formed: what perf/eval/feelings.py plays and splits
(loaded as the area loads it); its kinds split evenly (test_feelings_halves.py)."""

from __future__ import annotations

from typing import Any

from perf.eval.feelings_play import load


def items() -> list[dict[str, Any]]:
    return load("feelings_dev12.json")


def test_labels_are_what_the_judge_reads() -> None:
    """Calm days carry nothing, losses and sad news told calmly are low, and ids are unique."""
    seen = set()
    for i in items():
        assert i["expect"] in {"low", "good", "neutral"}
        assert (i["expect"] == "neutral") is (i["kind"] == "calm")
        if i["loss"] or i["kind"] in ("euphemism", "told-calmly"):
            assert i["expect"] == "low"
        assert isinstance(i["lines"], list) and 1 <= len(i["lines"]) <= 2
        seen.add(i["id"])
    assert len(seen) == len(items()) == 80
