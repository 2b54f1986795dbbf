"""forgets_dev45.json loads as a held-out forgets file and its halves split every language and kind
(perf/eval/forget_dev45.py plays them apart): a case without a half would silently drop out."""

from __future__ import annotations

from collections import Counter

from perf.eval import forget_dev45, forget_dev46, heldout_files


def test_the_set_loads_and_each_half_holds_both_languages_and_every_kind() -> None:
    data = heldout_files.forgets(forget_dev45.SET)
    items = [*data["requests"], *data["negatives"]]
    assert {i["split"] for i in items} == set(forget_dev45.HALVES)
    halves = [forget_dev45.half(data, name) for name in forget_dev45.HALVES]
    assert sum(len(h["requests"]) + len(h["negatives"]) for h in halves) == len(items)
    for h in halves:
        kinds = Counter((r["lang"], r["refers_by"]) for r in h["requests"])
        assert {lang for lang, _ in kinds} == {"en", "zh"}
        assert len(kinds) == 8  # paraphrase, person, time, "that" in each language


def test_the_look_alike_set_loads_and_each_half_holds_both_languages() -> None:
    """forgets_dev46.json (perf/eval/forget_dev46.py plays it with the same halves)."""
    data = heldout_files.forgets(forget_dev46.SET)
    for name in forget_dev45.HALVES:
        h = forget_dev45.half(data, name)
        assert {n["lang"] for n in h["negatives"]} == {"en", "zh"}
        assert {r["lang"] for r in h["requests"]} == {"en", "zh"}
