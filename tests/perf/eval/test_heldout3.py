"""The third held-out sets (perf/scenarios/heldout3_*.json, morning_heldout3.json) keep the shape
issue 24 item 7 and issue 25 ask for, their keys sit where the judges look for them, the loaders
(perf/eval/heldout_files.py) refuse a malformed file, and the two areas select the sets by name and
keep which case failed out of perf/RESULTS.md.

These tests read the files' structure only; they say nothing about how the rules fare on them."""

from __future__ import annotations

import copy
import json
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from perf.eval import heldout_files, morning, understanding
from perf.eval.morning import Judged
from perf.kit import SCENARIOS, CaseTally, contains, load_scenario

CJK = re.compile(r"[\u4e00-\u9fff]")
LANGS = ("en", "zh")
CONTROLS = {
    "addition",
    "one-off",
    "plan, not done",
    "hypothetical",
    "someone else's change",
    "past narrative",
    "same value restated",
}


def hours(spec: dict[str, Any]) -> int:
    return int(spec["day"]) * 24 + int(spec["hour"])


# --- the sets ---------------------------------------------------------------------------------------


def test_the_updates_set_has_80_changes_per_language_60_subjects_and_every_kind_of_control() -> (
    None
):
    cases = heldout_files.updates("heldout3_updates.json")["cases"]
    kinds = Counter((c["lang"], c["kind"]) for c in cases)
    assert kinds[("en", "change")] + kinds[("zh", "change")] >= 160
    assert min(kinds[("en", "change")], kinds[("zh", "change")]) >= 80
    assert min(kinds[("en", "control")], kinds[("zh", "control")]) >= 14
    assert len({c["subject"] for c in cases}) >= 60
    for lang in LANGS:
        assert {c["control"] for c in cases if c["kind"] == "control" and c["lang"] == lang} == (
            CONTROLS
        )


def test_no_update_key_is_in_the_probe_and_only_a_restatement_repeats_its_value() -> None:
    for c in load_scenario("heldout3_updates.json")["cases"]:
        probe = [c["probe"]["text"]]
        assert not contains(probe, c["current"]), c["id"]
        if c["kind"] == "change":
            assert not contains(probe, c["old"]), c["id"]
        elif c["control"] != "same value restated":
            assert not contains(c["after"]["lines"], c["current"]), c["id"]
        if c["lang"] == "zh":
            assert CJK.search(c["after"]["lines"][0]) and CJK.search(c["probe"]["text"]), c["id"]


def test_the_forget_set_has_30_requests_of_every_reference_and_30_look_alikes_per_language() -> (
    None
):
    data = heldout_files.forgets("heldout3_forgets.json")
    for lang in LANGS:
        mine = [r for r in data["requests"] if r["lang"] == lang]
        assert len(mine) == 30
        assert {r["refers_by"] for r in mine} == {"paraphrase", "person", "time", "that"}
        negatives = [n for n in data["negatives"] if n["lang"] == lang]
        assert len(negatives) == 30
        assert {"self", "question", "reported", "dismissal", "world"} <= {
            n["kind"] for n in negatives
        }
    for r in data["requests"]:
        assert not contains(r["request"]["lines"], r["gone"]), r["id"]  # named, not repeated


def test_the_feelings_set_has_40_per_language_with_losses_and_the_hard_kinds() -> None:
    cases = heldout_files.feelings("heldout3_feelings.json")["cases"]
    for lang in LANGS:
        mine = [c for c in cases if c["lang"] == lang]
        assert len(mine) == 40
        assert sum(c["loss"] for c in mine) >= 8
        assert {c["valence"] for c in mine} >= {"+", "-"}
        assert {"tired-unsaid", "understatement", "sarcasm", "idiom", "mixed", "emoji", "flat"} <= {
            c["kind"] for c in mine
        }
        assert any(c["kind"] == "flat" and c["valence"] == "+" for c in mine)


def test_the_morning_set_has_12_scenes_and_2_held_back_per_language() -> None:
    data = heldout_files.scenes(morning.SCENE_SETS["heldout3"])
    for lang in LANGS:
        mine = [s for s in data["scenes"] if s["lang"] == lang]
        assert sum(s["may_raise"] and s["kind"] == "morning" for s in mine) >= 12
        assert sum(not s["may_raise"] and s["kind"] == "held" for s in mine) >= 2
        assert len({s["probe"]["text"] for s in mine}) >= 8  # openers of many kinds
    generic = ("how are you", "怎么样", "how was", "what's up")
    for s in data["scenes"]:
        if s["may_raise"]:
            assert len(s["picks_up"]) >= 3, s["id"]
            assert not any(w.lower() in generic for w in s["picks_up"]), s["id"]


# --- the loaders refuse a malformed file ------------------------------------------------------------

Loader = Callable[[str | Path], dict[str, Any]]


def broken(
    tmp_path: Path, name: str, edit: Callable[[dict[str, Any]], None]
) -> tuple[Path, dict[str, Any]]:
    data = copy.deepcopy(load_scenario(name))
    edit(data)
    path = tmp_path / name
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path, data


def first(key: str) -> Callable[[dict[str, Any]], dict[str, Any]]:
    return lambda data: data[key][0]


BREAKS: list[tuple[str, Loader, Callable[[dict[str, Any]], None], str]] = [
    ("heldout3_updates.json", heldout_files.updates, lambda d: d.update(format=2), "'format'"),
    (
        "heldout3_updates.json",
        heldout_files.updates,
        lambda d: d["cases"][0].update(lang="fr"),
        "'lang'",
    ),
    (
        "heldout3_updates.json",
        heldout_files.updates,
        lambda d: d["cases"][1].update(id=d["cases"][0]["id"]),
        "duplicate id",
    ),
    (
        "heldout3_updates.json",
        heldout_files.updates,
        lambda d: d["cases"][0]["probe"].update(day=d["cases"][0]["after"]["day"] + 2),
        "within a week",
    ),
    (
        "heldout3_updates.json",
        heldout_files.updates,
        lambda d: d["cases"][0]["before"][0]["lines"].append(" / ".join(d["cases"][0]["current"])),
        "already said before",
    ),
    (
        "heldout3_updates.json",
        heldout_files.updates,
        lambda d: d["cases"][0].pop("old"),
        "'old'",
    ),
    (
        "heldout3_forgets.json",
        heldout_files.forgets,
        lambda d: d["requests"][0].update(gone=["never said anywhere"]),
        "not in history",
    ),
    (
        "heldout3_forgets.json",
        heldout_files.forgets,
        lambda d: d["requests"][0].update(refers_by="vibes"),
        "'refers_by'",
    ),
    (
        "heldout3_forgets.json",
        heldout_files.forgets,
        lambda d: d["negatives"][0].pop("text"),
        "'text'",
    ),
    (
        "heldout3_feelings.json",
        heldout_files.feelings,
        lambda d: d["cases"][0].update(valence=None, fatigue=None),
        "nothing to judge",
    ),
    (
        "heldout3_feelings.json",
        heldout_files.feelings,
        lambda d: d["cases"][0].update(read=d["cases"][0]["said"]),
        "read before",
    ),
    (
        "morning_heldout3.json",
        heldout_files.scenes,
        lambda d: d["scenes"][0].update(picks_up=[]),
        "needs 'picks_up'",
    ),
    (
        "morning_heldout3.json",
        heldout_files.scenes,
        lambda d: d["scenes"][0]["history"][0]["lines"].append(["narrator", "hm"]),
        "'history'",
    ),
    (
        "morning_heldout3.json",
        heldout_files.scenes,
        lambda d: d["scenes"][0].update(names=["Zebedee"]),
        "copied from the history",
    ),
]


@pytest.mark.parametrize(("name", "load", "edit", "message"), BREAKS)
def test_a_malformed_file_is_refused_naming_the_item(
    tmp_path: Path,
    name: str,
    load: Loader,
    edit: Callable[[dict[str, Any]], None],
    message: str,
) -> None:
    load(name)  # the file as committed loads
    path, _ = broken(tmp_path, name, edit)
    with pytest.raises(heldout_files.ScenarioError, match=re.escape(message)) as refused:
        load(path)
    assert name in str(refused.value)


def test_a_file_that_is_not_json_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "heldout3_updates.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(heldout_files.ScenarioError, match="not a readable JSON"):
        heldout_files.updates(path)


@pytest.mark.parametrize(
    ("load", "name"),
    [
        (heldout_files.updates, "heldout_updates.json"),
        (heldout_files.forgets, "heldout_forgets.json"),
        (heldout_files.feelings, "heldout_feelings.json"),
        (heldout_files.updates, "heldout2_updates.json"),
        (heldout_files.forgets, "heldout2_forgets.json"),
        (heldout_files.feelings, "heldout2_feelings.json"),
        (heldout_files.scenes, "morning_heldout.json"),
        (heldout_files.scenes, "morning_heldout2.json"),
        (heldout_files.scenes, "morning_dev.json"),
        (heldout_files.scenes, "morning_dev2.json"),
    ],
)
def test_every_set_the_areas_play_passes_the_checks(load: Loader, name: str) -> None:
    assert load(name)  # the checks are the judges' preconditions, which every set meets


# --- selecting them and keeping the cases private ---------------------------------------------------


def test_the_understanding_area_plays_the_third_sets_into_a_section_of_their_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(understanding.SETS_ENV, "heldout3")
    sets = understanding.chosen_sets()
    assert sets.area == "understanding3" and sets.private
    for name in (sets.updates, sets.forgets, sets.feelings):
        assert name.startswith("heldout3_") and (SCENARIOS / name).is_file()
    assert not understanding.HELD_OUT["heldout"].private
    assert understanding.HELD_OUT["heldout2"].private


def test_a_private_sets_per_case_lines_go_to_tmp_not_the_section(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    tally = CaseTally()
    tally.add(False, "zh-u007", "old value ranks first")
    lines = [understanding.misses("updates zh", tally)]
    monkeypatch.setattr(understanding, "CASES_FILE", str(tmp_path / "cases-{name}.json"))
    kept = understanding.place_case_lines(understanding.HELD_OUT["heldout3"], lines)
    assert not any("zh-u007" in note for note in kept)
    assert "zh-u007" in (tmp_path / "cases-heldout3.json").read_text(encoding="utf-8")
    assert understanding.place_case_lines(understanding.HELD_OUT["heldout"], lines) == lines


def failed_reply(scene: str) -> Judged:
    checks = dict.fromkeys(morning.CHECKS, True) | {"picks_up": False}
    return Judged("qwen2.5-1.5b", scene, "en", True, 1, 0, True, "Morning!", checks, True, 1.0, 9)


def test_the_morning_area_names_its_third_set_apart_and_keeps_failed_scenes_out() -> None:
    judged = [failed_reply("en-mum-hospital")]
    third = morning.section(judged, "heldout3", (1,), 1)
    assert third.area == "morning3" and "third held-out" in third.title
    assert not any("en-mum-hospital" in note for note in third.notes)
    assert any("suggestion given in 1/1" in note for note in third.notes)  # the count stays
    assert any("en-mum-hospital" in note for note in morning.section(judged, "dev", (1,), 1).notes)
