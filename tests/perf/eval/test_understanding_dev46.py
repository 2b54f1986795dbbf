"""updates_dev46.json and feelings_dev46.json load as held-out files and each half holds both
languages, changes and controls, and every valence (perf/eval/understanding_dev46.py plays the halves
apart): a case without a half would silently drop out of both."""

from __future__ import annotations

from collections import Counter

from perf.eval import heldout_files, understanding_dev46


def test_each_update_half_holds_changes_and_controls_in_both_languages() -> None:
    cases = heldout_files.updates(understanding_dev46.UPDATES)["cases"]
    assert {c["split"] for c in cases} == set(understanding_dev46.HALVES)
    for name in understanding_dev46.HALVES:
        kinds = Counter((c["lang"], c["kind"]) for c in cases if c["split"] == name)
        assert set(kinds) == {(lang, k) for lang in ("en", "zh") for k in ("change", "control")}


def test_each_feelings_half_holds_every_valence_and_losses_in_both_languages() -> None:
    cases = heldout_files.feelings(understanding_dev46.FEELINGS)["cases"]
    assert {c["split"] for c in cases} == set(understanding_dev46.HALVES)
    for name in understanding_dev46.HALVES:
        half = [c for c in cases if c["split"] == name]
        for lang in ("en", "zh"):
            mine = [c for c in half if c["lang"] == lang]
            assert {c["valence"] for c in mine} >= {"+", "-", "0"}
            assert any(c["loss"] for c in mine)
