"""The updates dev set (perf/scenarios/updates_dev.json) is what its README says: enough changes in
each language, controls of every kind, and keys that only the right statement holds."""

from __future__ import annotations

from collections import Counter

from perf import kit


def test_the_dev_set_has_40_changes_and_controls_in_both_languages() -> None:
    cases = kit.load_scenario("updates_dev.json")["cases"]
    assert len({c["id"] for c in cases}) == len(cases)
    kinds = Counter((c["lang"], c["kind"]) for c in cases)
    assert kinds[("en", "change")] + kinds[("zh", "change")] >= 40
    assert min(kinds[("en", "control")], kinds[("zh", "control")]) >= 6
    whys = {c["why"] for c in cases if c["kind"] == "control"}
    assert {"addition", "past narration", "hypothetical", "someone else's change"} <= whys


def test_each_key_is_in_the_right_statement_and_not_in_the_probe() -> None:
    for c in kit.load_scenario("updates_dev.json")["cases"]:
        if c["kind"] == "change":
            assert kit.contains([c["before"]], c["old"]), c["id"]
            assert not kit.contains([c["after"]], c["old"]), c["id"]
            assert kit.contains([c["after"]], c["new"]), c["id"]
            assert not kit.contains([c["probe"]], [*c["old"], *c["new"]]), c["id"]
        else:
            assert kit.contains([c["before"]], c["keep"]), c["id"]
            assert not kit.contains([c["probe"]], c["keep"]), c["id"]
