"""perf/scenarios/feelings_dev14.json is well formed: what perf/eval/feelings.py plays and splits
(loaded as the area loads it); its kinds split evenly (test_feelings_halves.py)."""

from __future__ import annotations

from typing import Any

from perf.eval.feelings_play import load


def items() -> list[dict[str, Any]]:
    return load("feelings_dev14.json")


def test_each_line_has_the_feeling_read_at_its_turn() -> None:
    """One turn label per line; calm controls read nothing at any turn, the others end on the
    session's closing feeling; ids are unique."""
    seen = set()
    for i in items():
        assert i["expect"] in {"low", "good", "neutral"}
        assert isinstance(i["lines"], list) and 1 <= len(i["lines"]) <= 2
        assert len(i["turns"]) == len(i["lines"]) and set(i["turns"]) <= {"low", "good", "neutral"}
        assert (i["expect"] == "neutral") is (i["kind"] == "calm")
        assert i["turns"][-1] == i["expect"]
        seen.add(i["id"])
    assert len(seen) == len(items()) == 84


def test_tears_on_good_news_are_labelled_good() -> None:
    """The kind the set is for: every session of crying on good news closes good, in both languages."""
    tears = [i for i in items() if i["kind"] == "joy-tears"]
    assert {i["lang"] for i in tears} == {"en", "zh"}
    assert all(i["expect"] == "good" for i in tears)
