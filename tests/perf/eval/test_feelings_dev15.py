"""perf/scenarios/feelings_dev15.json is well formed: what perf/eval/feelings_turns.py and the wire
harness play and split (loaded as the area loads it); its kinds split evenly (test_feelings_halves.py)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from perf.eval.feelings_play import load

CALM = frozenset({"calm", "calm-glad"})


def items() -> list[dict[str, Any]]:
    return load("feelings_dev15.json")


def test_each_line_has_the_feeling_read_at_its_turn() -> None:
    """One turn label per line; calm sessions read nothing at any turn, the others end on the
    session's closing feeling; ids are unique."""
    seen = set()
    for i in items():
        assert i["expect"] in {"low", "good", "neutral"}
        assert isinstance(i["lines"], list) and 1 <= len(i["lines"]) <= 2
        assert len(i["turns"]) == len(i["lines"]) and set(i["turns"]) <= {"low", "good", "neutral"}
        assert (i["expect"] == "neutral") is (i["kind"] in CALM)
        if i["kind"] in CALM:
            assert set(i["turns"]) == {"neutral"}
        assert i["turns"][-1] == i["expect"]
        seen.add(i["id"])
    assert len(seen) == len(items()) == 100


def test_each_half_holds_as_many_lows_and_goods_of_a_kind() -> None:
    """Within a kind, the train and test halves of a language close low and good equally often
    (mixed days ending low and ending high are both in each half)."""
    labels = Counter((i["lang"], i["kind"], i["split"], i["expect"]) for i in items())
    for lang, kind, split, expect in labels:
        other = "test" if split == "train" else "train"
        assert labels[(lang, kind, other, expect)] == labels[(lang, kind, split, expect)]


def test_relief_closes_good_in_both_languages() -> None:
    relief = [i for i in items() if i["kind"] == "relief"]
    assert {i["lang"] for i in relief} == {"en", "zh"}
    assert all(i["expect"] == "good" for i in relief)
