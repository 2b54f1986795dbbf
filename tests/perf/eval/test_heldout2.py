"""The second held-out sets (perf/scenarios/heldout2_*.json, morning_heldout2.json) keep the shape
issue 24 item 7 and issue 25 ask for, their keys sit where the judges look for them, and the two
areas that play them (perf/eval/understanding.py, perf/eval/morning.py) select them by name.

These tests read the files' structure only; they say nothing about how the rules fare on them."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from perf.eval import morning, understanding
from perf.kit import SCENARIOS, Row, Section, contains, load_results, load_scenario, save_results

CJK = re.compile(r"[\u4e00-\u9fff]")
LANGS = ("en", "zh")


def hours(spec: dict[str, Any]) -> int:
    return int(spec["day"]) * 24 + int(spec["hour"])


# --- updates ----------------------------------------------------------------------------------------


def test_the_updates_set_has_150_changes_half_each_language_and_24_controls() -> None:
    cases = load_scenario("heldout2_updates.json")["cases"]
    assert len({c["id"] for c in cases}) == len(cases)
    kinds = Counter((c["lang"], c["kind"]) for c in cases)
    assert kinds[("en", "change")] + kinds[("zh", "change")] >= 150
    assert min(kinds[("en", "change")], kinds[("zh", "change")]) >= 75
    assert min(kinds[("en", "control")], kinds[("zh", "control")]) >= 12
    assert len({c["subject"] for c in cases if c["unusual_subject"]}) >= 30
    controls = {c["control"] for c in cases if c["kind"] == "control"}
    assert {"addition", "past narrative", "hypothetical", "someone else's change"} <= controls
    assert "plan, not done" in controls


def test_each_update_key_is_where_the_judge_looks_and_never_in_the_probe() -> None:
    for c in load_scenario("heldout2_updates.json")["cases"]:
        before = [line for s in c["before"] for line in s["lines"]]
        after, probe = c["after"]["lines"], [c["probe"]["text"]]
        times = [*(hours(s) for s in c["before"]), hours(c["after"]), hours(c["probe"])]
        assert times == sorted(times) and len(set(times)) == len(times), c["id"]
        assert c["probe"]["day"] - c["after"]["day"] >= 7, c["id"]  # a week after the change
        assert not contains(probe, c["current"]), c["id"]
        if c["kind"] == "change":
            # the new value is said only in the change; the old one was said before it
            assert contains(after, c["current"]) and not contains(before, c["current"]), c["id"]
            assert contains(before, c["old"]) and not contains(probe, c["old"]), c["id"]
        else:
            # a control passes on its original value, which the later statement must not repeat
            assert contains(before, c["current"]) and not contains(after, c["current"]), c["id"]
            assert contains(after, c["distractor"]), c["id"]
        if c["lang"] == "zh":
            assert CJK.search(after[0]) and CJK.search(c["probe"]["text"]), c["id"]


# --- forgets ----------------------------------------------------------------------------------------


def test_the_forget_set_has_30_requests_and_30_negatives_per_language_of_every_reference() -> None:
    data = load_scenario("heldout2_forgets.json")
    ids = [x["id"] for x in [*data["requests"], *data["negatives"]]]
    assert len(set(ids)) == len(ids)
    for lang in LANGS:
        mine = [r for r in data["requests"] if r["lang"] == lang]
        assert len(mine) == 30
        assert sum(n["lang"] == lang for n in data["negatives"]) == 30
        assert {r["refers_by"] for r in mine} == {"paraphrase", "person", "time", "that"}
        keep = data["keep"][lang]
        assert keep["words"] and contains(keep["lines"], keep["words"])


def test_forget_words_are_in_the_history_only_and_the_times_leave_a_week() -> None:
    data = load_scenario("heldout2_forgets.json")
    for r in data["requests"]:
        h, req = r["history"], r["request"]
        assert r["gone"] and all(contains(h["lines"], [w]) for w in r["gone"]), r["id"]
        assert not contains(req["lines"], r["gone"]), r["id"]
        assert not contains(data["keep"][r["lang"]]["lines"], r["gone"]), r["id"]
        assert hours(h) > hours(data["keep"][r["lang"]]), r["id"]
        if not req.get("same_session"):
            assert hours(req) > hours(h), r["id"]
        assert hours(r["probe"]) >= hours(h) + 7 * 24, r["id"]
    for n in data["negatives"]:
        assert hours(n["probe"]) >= hours(n["said"]) + 7 * 24, n["id"]


# --- feelings ---------------------------------------------------------------------------------------


def test_the_feelings_set_has_40_per_language_with_8_losses_and_both_signs() -> None:
    cases = load_scenario("heldout2_feelings.json")["cases"]
    assert len({c["id"] for c in cases}) == len(cases)
    for lang in LANGS:
        mine = [c for c in cases if c["lang"] == lang]
        assert len(mine) == 40
        assert sum(c["loss"] for c in mine) >= 8
        assert {c["valence"] for c in mine} >= {"+", "-"}
        assert any(c["fatigue"] for c in mine)
    for c in cases:
        assert c["valence"] in ("+", "-", None) and c["fatigue"] in (True, None), c["id"]
        assert c["valence"] is not None or c["fatigue"], c["id"]  # something is judged
        assert not c["loss"] or c["valence"] == "-", c["id"]
        assert hours(c["read"]) > hours(c["said"]), c["id"]


# --- morning ----------------------------------------------------------------------------------------


def test_the_morning_set_has_10_scenes_and_2_held_back_per_language() -> None:
    data = json_of(morning.SCENE_SETS["heldout2"])
    scenes = data["scenes"]
    assert len({s["id"] for s in scenes}) == len(scenes)
    assert set(data["names"]) == set(LANGS)
    for lang in LANGS:
        mine = [s for s in scenes if s["lang"] == lang]
        assert sum(s["may_raise"] and s["kind"] == "morning" for s in mine) == 10
        assert sum(not s["may_raise"] and s["kind"] == "held" for s in mine) == 2
    for s in scenes:
        history = [text for part in s["history"] for _, text in part["lines"]]
        assert all(hours(s["probe"]) > hours(part) for part in s["history"]), s["id"]
        assert all(n in " ".join(history) for n in s["names"]), s["id"]  # names copied from it
        if s["may_raise"]:
            assert len(s["picks_up"]) >= 3, s["id"]  # several acceptable words
            generic = ("how are you", "怎么样", "how was", "what's up")
            assert not any(w.lower() in generic for w in s["picks_up"]), s["id"]
        else:
            assert s["held_back"] and contains(history, s["held_back"]), s["id"]


def json_of(path: Path) -> dict[str, Any]:
    return load_scenario(path.relative_to(SCENARIOS).as_posix())


# --- selecting them ---------------------------------------------------------------------------------


def test_the_understanding_area_plays_the_second_sets_into_a_section_of_their_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(understanding.SETS_ENV, raising=False)
    assert understanding.chosen_sets().area == "understanding"
    monkeypatch.setenv(understanding.SETS_ENV, "heldout2")
    sets = understanding.chosen_sets()
    assert sets.area == "understanding2" and sets.title != understanding.HELD_OUT["heldout"].title
    for name in (sets.updates, sets.forgets, sets.feelings):
        assert name.startswith("heldout2_") and (SCENARIOS / name).is_file()
    monkeypatch.setenv(understanding.SETS_ENV, "heldout9")
    with pytest.raises(ValueError, match="heldout2"):
        understanding.chosen_sets()


def test_the_second_sets_before_section_is_kept_apart_from_the_first(tmp_path: Path) -> None:
    results = tmp_path / "results.json"
    first = Section("first", [Row("updates, en", 50.0, "%")], area="understanding")
    second = Section("second", [Row("updates, en", 40.0, "%")], area="understanding2")
    save_results(results, {"understanding": first, "understanding2": second})
    understanding.freeze_before("main at abc1234", results, "understanding2")
    sections = load_results(results)
    assert sections["understanding2_before"].rows[0].value == 40.0
    assert "understanding_before" not in sections
    with pytest.raises(SystemExit, match="XAID_PERF_UNDERSTANDING_SETS=heldout2 python -m perf"):
        understanding.freeze_before("x", tmp_path / "empty.json", "understanding2")


def test_the_morning_area_names_its_second_set_apart() -> None:
    judged = morning.section([], "heldout2", (1,), 1)
    assert judged.area == "morning2" and "second held-out" in judged.title
    assert morning.section([], "heldout", (1,), 1).area == ""  # the first set keeps `morning`
