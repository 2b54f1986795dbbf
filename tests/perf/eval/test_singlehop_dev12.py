"""perf/scenarios/singlehop_dev12.json and locomo_split12.json: the set is what its README says (both
languages in equal numbers, single-hop questions answered by one turn), and the split file's halves
are the set's own ``split`` labels, disjoint, as perf.eval.locomo_diagnose reads them."""

from __future__ import annotations

import json
from pathlib import Path

from perf.eval import locomo, locomo_diagnose
from perf.eval import locomo_score as score

SCENARIOS = Path(__file__).resolve().parents[3] / "perf" / "scenarios"
DEV = SCENARIOS / "singlehop_dev12.json"
SPLIT = SCENARIOS / "locomo_split12.json"


def test_both_languages_in_equal_numbers_of_single_hop_questions() -> None:
    raw = json.loads(DEV.read_text(encoding="utf-8"))
    by_lang: dict[str, int] = {}
    for sample in raw:
        for q in sample["qa"]:
            assert q["category"] == 4 and len(q["evidence"]) == 1
            by_lang[q["lang"]] = by_lang.get(q["lang"], 0) + 1
    assert by_lang == {"en": 32, "zh": 32}


def test_every_answer_is_in_its_evidence_turn() -> None:
    for sample in locomo.load(DEV):
        turns = {t.dia_id: t.text for t in sample.turns}
        for q in sample.qa:
            assert score.answer_recall(q["answer"], [turns[q["evidence"][0]]]) == 1.0, q


def test_the_split_file_names_the_sets_own_halves() -> None:
    raw = json.loads(DEV.read_text(encoding="utf-8"))
    halves = locomo_diagnose.split_of(SPLIT, DEV)
    for half in ("train", "test"):
        assert {raw[n]["split"] for n in halves[half]} == {half}
        assert {raw[n]["qa"][0]["lang"] for n in halves[half]} == {"en", "zh"}
    assert len(halves["train"]) + len(halves["test"]) == len(raw)
    locomo_halves = locomo_diagnose.split_of(SPLIT, Path("locomo10.json"))
    assert not set(locomo_halves["train"]) & set(locomo_halves["test"])
