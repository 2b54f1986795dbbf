"""The feelings dev sets split each kind evenly: what perf/eval/feelings.py plays and splits (loaded
as the area loads it), so each test half covers every kind its train half does, in both languages
alike. One check for every set that is split by kind; each set's own labels are checked beside it
(test_feelings_devN.py)."""

from __future__ import annotations

from collections import Counter

import pytest

from perf.eval.feelings_play import load

# each set: its kinds, and the fewest sessions of a kind in one half of one language
SETS: dict[str, tuple[frozenset[str], int]] = {
    "feelings_dev12.json": (
        frozenset(
            {"euphemism", "understatement", "idiom", "mixed", "calm", "told-calmly", "plain"}
        ),
        2,
    ),
    "feelings_dev13.json": (
        frozenset(
            {
                "emoji",
                "slang",
                "idiom",
                "understatement",
                "tired-unsaid",
                "calm-emoji",
                "calm-slang",
                "plain",
            }
        ),
        1,
    ),
    "feelings_dev14.json": (
        frozenset({"joy-tears", "relief", "slang", "idiom", "understatement", "calm"}),
        2,
    ),
}


@pytest.mark.parametrize("name", sorted(SETS))
def test_every_kind_is_in_both_halves_in_both_languages(name: str) -> None:
    """The halves split each kind evenly, and the two languages have the same kinds and counts."""
    kinds, minimum = SETS[name]
    halves = Counter((i["lang"], i["kind"], i["split"]) for i in load(name))
    assert {kind for _, kind, _ in halves} == kinds
    for kind in kinds:
        counts = {
            halves[(lang, kind, split)] for lang in ("en", "zh") for split in ("train", "test")
        }
        assert len(counts) == 1 and counts.pop() >= minimum
