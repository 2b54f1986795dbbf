"""recall_dev9.json's shape: the dev set of branch recall9, written before its change to xaid/."""

from __future__ import annotations

from collections import Counter

from perf import kit


def test_the_ninth_recall_set_asks_by_another_word_and_holds_questions_with_no_answer() -> None:
    """Per language 11 changes, 11 facts and 12 no-answer probes, halves alternating; each key in
    the statement that holds it (a change's new value in the last session, its old one in the first
    only), never in the probe (the probe names the subject by another word)."""
    cases = kit.load_scenario("recall_dev9.json")["cases"]
    assert len({c["id"] for c in cases}) == len(cases)
    kinds = Counter((c["lang"], c["kind"]) for c in cases)
    splits = Counter((c["lang"], c["kind"], c["split"]) for c in cases)
    for lang in ("en", "zh"):
        assert kinds[(lang, "change")] == kinds[(lang, "fact")] == 11
        assert kinds[(lang, "none")] == 12
        for kind in ("change", "fact", "none"):
            assert 0 <= splits[(lang, kind, "train")] - splits[(lang, kind, "test")] <= 1
    for c in cases:
        assert 1 <= len(c["sessions"]) <= 4, c["id"]
        lines = [line for s in c["sessions"] for line in s]
        if c["kind"] == "none":
            continue
        assert not kit.contains([c["probe"]], [*c["new"], *c.get("old", [])]), c["id"]
        assert kit.contains(lines, c["new"]), c["id"]
        if c["kind"] == "change":
            assert kit.contains(c["sessions"][-1], c["new"]), c["id"]
            assert kit.contains(c["sessions"][0], c["old"]), c["id"]
            assert not kit.contains(c["sessions"][-1], c["old"]), c["id"]
            assert not kit.contains(c["sessions"][0], c["new"]), c["id"]
