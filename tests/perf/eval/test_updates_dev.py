"""The updates dev set (perf/scenarios/updates_dev.json) is what its README says: enough changes in
each language, controls of every kind, and keys that only the right statement holds."""

from __future__ import annotations

from collections import Counter
from typing import Any

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


CONTROL_KINDS = {
    "addition",
    "one-off",
    "plan",
    "hypothetical",
    "someone else",
    "past story",
    "restated",
    "question",
    "temporary",
    "other sub-subject",
}


def test_the_third_dev_set_has_40_of_each_kind_per_language_split_in_halves() -> None:
    """updates_dev3.json (written before branch updates4's change): precision first, so as many
    controls as changes, of every kind that looks like a change and is not."""
    cases = kit.load_scenario("updates_dev3.json")["cases"]
    assert len({c["id"] for c in cases}) == len(cases)
    kinds = Counter((c["lang"], c["kind"], c["split"]) for c in cases)
    for lang in ("en", "zh"):
        for kind in ("change", "control"):
            assert kinds[(lang, kind, "train")] + kinds[(lang, kind, "test")] >= 40
            assert kinds[(lang, kind, "test")] >= 20
        controls = {c["control"] for c in cases if c["lang"] == lang and c["kind"] == "control"}
        assert controls == CONTROL_KINDS


def test_the_third_dev_sets_keys_are_in_the_right_statement_only() -> None:
    for c in kit.load_scenario("updates_dev3.json")["cases"]:
        after = " ".join(c["after"]) if isinstance(c["after"], list) else c["after"]
        if c["kind"] == "change":
            assert kit.contains([c["before"]], c["old"]), c["id"]
            assert not kit.contains([after], c["old"]), c["id"]
            assert kit.contains([after], c["new"]), c["id"]
            assert not kit.contains([c["before"]], c["new"]), c["id"]
            assert not kit.contains([c["probe"]], [*c["old"], *c["new"]]), c["id"]
        else:
            assert kit.contains([c["before"]], c["keep"]), c["id"]
            assert not kit.contains([after], c["keep"]), c["id"]
            assert not kit.contains([c["probe"]], c["keep"]), c["id"]


def test_the_fourth_dev_set_is_weighted_to_chinese_and_split_in_halves() -> None:
    """updates_dev4.json (written before branch updates5's change): more Chinese controls and
    colloquial Chinese changes, every control kind in both languages, keys in the right statement."""
    cases = kit.load_scenario("updates_dev4.json")["cases"]
    assert len({c["id"] for c in cases}) == len(cases)
    kinds = Counter((c["lang"], c["kind"], c["split"]) for c in cases)
    assert kinds[("zh", "control", "train")] >= 16 and kinds[("zh", "control", "test")] >= 16
    assert kinds[("zh", "change", "test")] >= 12 and kinds[("en", "change", "test")] >= 6
    for lang in ("en", "zh"):
        controls = {c["control"] for c in cases if c["lang"] == lang and c["kind"] == "control"}
        assert controls == CONTROL_KINDS
    _keys_in_their_statement(cases)


def test_the_seventh_dev_set_has_every_kind_of_control_in_both_languages_and_both_halves() -> None:
    """updates_dev7.json (written before branch updates7's change): 30 changes and 20 controls per
    language, the eight kinds of statement that change nothing in each language, halves alternating
    so each half holds changes and controls of both languages; keys in the right statement only."""
    cases = kit.load_scenario("updates_dev7.json")["cases"]
    assert len({c["id"] for c in cases}) == len(cases)
    kinds = Counter((c["lang"], c["kind"], c["split"]) for c in cases)
    for lang in ("en", "zh"):
        assert kinds[(lang, "change", "train")] == kinds[(lang, "change", "test")] == 15
        assert kinds[(lang, "control", "train")] == kinds[(lang, "control", "test")] == 10
        controls = {c["control"] for c in cases if c["lang"] == lang and c["kind"] == "control"}
        assert controls >= {"mention", "someone else", "hypothetical", "past story", "negated"}
        assert controls >= {"repeated", "question"} and controls & {"plan", "wish"}
    _keys_in_their_statement(cases)


def test_the_eighth_dev_set_pairs_each_change_with_a_look_alike_of_the_same_statement() -> None:
    """supersede_dev8.json (written before branch supersede8's change): per language 20 changes and
    20 look-alikes, the look-alikes on the very earlier statements the changes replace (so a rule
    that reads the subject alone cannot pass both), halves alternating; keys in the right statement."""
    cases = kit.load_scenario("supersede_dev8.json")["cases"]
    assert len({c["id"] for c in cases}) == len(cases)
    kinds = Counter((c["lang"], c["kind"], c["split"]) for c in cases)
    for lang in ("en", "zh"):
        assert kinds[(lang, "change", "train")] == kinds[(lang, "change", "test")] == 10
        assert kinds[(lang, "control", "train")] == kinds[(lang, "control", "test")] == 10
        ours = [c for c in cases if c["lang"] == lang]
        controls = {c["control"] for c in ours if c["kind"] == "control"}
        assert controls >= {"event", "place_news", "someone_else", "plan", "opinion"}
        changed = {c["before"].split("，")[0][:6] for c in ours if c["kind"] == "change"}
        alike = [c for c in ours if c["kind"] == "control"]
        assert sum(c["before"].split("，")[0][:6] in changed for c in alike) >= 15
    _keys_in_their_statement(cases)


def test_the_thirteenth_dev_set_has_the_things_own_news_among_its_controls() -> None:
    """supersede_dev13.json (written before branch supersede13's change): per language 16 changes and
    16 controls, halves alternating, the controls of five kinds with the thing's own news the largest
    (the held-out failure it is for), and changes that tell the thing's news before the user's own
    change, so a rule that reads "the thing changed" alone cannot pass both."""
    cases = kit.load_scenario("supersede_dev13.json")["cases"]
    assert len({c["id"] for c in cases}) == len(cases)
    kinds = Counter((c["lang"], c["kind"], c["split"]) for c in cases)
    for lang in ("en", "zh"):
        assert kinds[(lang, "change", "train")] == kinds[(lang, "change", "test")] == 8
        assert kinds[(lang, "control", "train")] == kinds[(lang, "control", "test")] == 8
        controls = Counter(c["control"] for c in cases if c["lang"] == lang and "control" in c)
        assert controls["thing_news"] == 6
        assert set(controls) == {
            "thing_news",
            "addition",
            "retold",
            "someone_else",
            "plan",
            "question",
        }
    _keys_in_their_statement(cases)


def test_the_fourteenth_dev_set_has_indirect_changes_and_six_kinds_of_control() -> None:
    """supersede_dev14.json (written before branch update14's change): per language 16 changes and
    16 controls, halves alternating, every kind of control on both halves, among them a habit with
    a one-off exception ("skipped the gym today"), which a rule reading "today … instead" as a
    change would fail."""
    cases = kit.load_scenario("supersede_dev14.json")["cases"]
    assert len({c["id"] for c in cases}) == len(cases)
    kinds = Counter((c["lang"], c["kind"], c["split"]) for c in cases)
    for lang in ("en", "zh"):
        assert kinds[(lang, "change", "train")] == kinds[(lang, "change", "test")] == 8
        assert kinds[(lang, "control", "train")] == kinds[(lang, "control", "test")] == 8
        ours = [c for c in cases if c["lang"] == lang and c["kind"] == "control"]
        assert {c["control"] for c in ours} == {
            "thing_news",
            "addition",
            "someone_else",
            "plan",
            "retold",
            "exception",
        }
        for kind in {c["control"] for c in ours}:
            assert {c["split"] for c in ours if c["control"] == kind} == {"train", "test"}
    _keys_in_their_statement(cases)


def test_the_fifteenth_dev_set_weights_controls_and_has_far_changes_on_both_halves() -> None:
    """updates_dev15.json (written before branch update15's change): per language 20 changes (8 with
    no change word and the old value far in meaning) and 28 controls of six kinds that restate or
    add to a value without changing it, every style and kind on both halves, keys in the right
    statement only."""
    cases = kit.load_scenario("updates_dev15.json")["cases"]
    assert len({c["id"] for c in cases}) == len(cases)
    kinds = Counter((c["lang"], c["kind"], c["split"]) for c in cases)
    for lang in ("en", "zh"):
        assert kinds[(lang, "change", "train")] == kinds[(lang, "change", "test")] == 10
        assert kinds[(lang, "control", "train")] == kinds[(lang, "control", "test")] == 14
        ours = [c for c in cases if c["lang"] == lang]
        styles = Counter(c["style"] for c in ours if c["kind"] == "change")
        assert styles == {"far": 8, "unlisted": 6, "colloquial": 6}
        controls = {c["control"] for c in ours if c["kind"] == "control"}
        assert controls == {
            "restated",
            "detail",
            "alongside",
            "past_story",
            "negated",
            "hypothetical",
        }
        for kind in controls | set(styles):
            split = {c["split"] for c in ours if kind in (c.get("control"), c.get("style"))}
            assert split == {"train", "test"}, (lang, kind)
    _keys_in_their_statement(cases)


def _keys_in_their_statement(cases: list[dict[str, Any]]) -> None:
    """A change's old key is in the earlier statement only and its new key in the later one only;
    a control's kept key is in the earlier one only; the probe names none of them."""
    for c in cases:
        if c["kind"] == "change":
            assert kit.contains([c["before"]], c["old"]), c["id"]
            assert not kit.contains([c["after"]], c["old"]), c["id"]
            assert kit.contains([c["after"]], c["new"]), c["id"]
            assert not kit.contains([c["before"]], c["new"]), c["id"]
            assert not kit.contains([c["probe"]], [*c["old"], *c["new"]]), c["id"]
        else:
            assert kit.contains([c["before"]], c["keep"]), c["id"]
            assert not kit.contains([c["after"]], c["keep"]), c["id"]
            assert not kit.contains([c["probe"]], c["keep"]), c["id"]
