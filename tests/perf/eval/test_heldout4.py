"""The fourth and fifth held-out sets (perf/scenarios/heldout4_*.json, morning_heldout4.json,
associative_heldout4.json; the same names with 5) keep the shape their briefs ask for, the loaders
(perf/eval/heldout_files.py) refuse a malformed file, the new labels are judged as documented (a
calm session, an item's own older session), and the three areas select the sets by name and keep
which case failed out of perf/RESULTS.md.

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

from perf.eval import associative, heldout_files, morning, understanding
from perf.eval.morning import Judged
from perf.kit import SCENARIOS, at, contains, day0, load_scenario, scratch_daemon

LANGS = ("en", "zh")
CJK = re.compile(r"[\u4e00-\u9fff]")
ASSOC = "associative_heldout4.json"
SETS = (
    "heldout4",
    "heldout5",
)  # the held-out sets of the fourth format (own keep sessions, calm feelings)


# --- the sets ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("held", SETS)
def test_the_associative_set_has_four_users_and_40_cases_of_every_kind_per_language(
    held: str,
) -> None:
    data = heldout_files.associative(associative.SETS[held].path)
    for lang in LANGS:
        users = [s for s in data["samples"] if s["lang"] == lang]
        assert len(users) >= 4
        cases = [q for s in users for q in s["qa"]]
        assert len(cases) >= 40
        assert Counter(q["kind"] for q in cases).keys() == {"person", "activity", "place", "date"}
        for s in users:
            conv = s["conversation"]
            sessions = [k for k in conv if re.fullmatch(r"session_\d+", k)]
            assert len(sessions) >= 25, s["sample_id"]  # weeks of daily life, not one evening
            said = [
                t["text"] for k in sessions for t in conv[k] if t["speaker"] == conv["speaker_a"]
            ]
            assert len(said) >= 150, s["sample_id"]
    assert all(s["split"] == "test" for s in data["samples"])  # held out: nothing to tune on


@pytest.mark.parametrize("held", SETS)
def test_the_updates_set_has_40_changes_and_8_controls_per_language_and_no_key_in_a_probe(
    held: str,
) -> None:
    cases = heldout_files.updates(f"{held}_updates.json")["cases"]
    kinds = Counter((c["lang"], c["kind"]) for c in cases)
    for lang in LANGS:
        assert kinds[(lang, "change")] >= 40 and kinds[(lang, "control")] >= 8
    for c in cases:
        probe = [c["probe"]["text"]]
        assert not contains(probe, c["current"]), c["id"]
        if c["kind"] == "change":
            assert not contains(probe, c["old"]), c["id"]
        elif c["control"] != "same value restated":
            assert not contains(c["after"]["lines"], c["current"]), c["id"]
        if c["lang"] == "zh":
            assert CJK.search(c["after"]["lines"][0]) and CJK.search(c["probe"]["text"]), c["id"]


@pytest.mark.parametrize("held", SETS)
def test_the_forget_set_has_30_requests_and_30_look_alikes_each_with_an_older_session(
    held: str,
) -> None:
    data = heldout_files.forgets(f"{held}_forgets.json")
    for lang in LANGS:
        mine = [r for r in data["requests"] if r["lang"] == lang]
        assert len(mine) == 30
        assert {r["refers_by"] for r in mine} == {"paraphrase", "person", "time", "that"}
        assert len([n for n in data["negatives"] if n["lang"] == lang]) == 30
    for item in [*data["requests"], *data["negatives"]]:
        assert "keep" in item, item["id"]  # the older session a forget must not take
    for r in data["requests"]:
        assert not contains(r["request"]["lines"], r["gone"]), r["id"]


@pytest.mark.parametrize("held", SETS)
def test_the_feelings_set_has_40_per_language_with_calm_sessions_losses_and_mixed_tails(
    held: str,
) -> None:
    cases = heldout_files.feelings(f"{held}_feelings.json")["cases"]
    for lang in LANGS:
        mine = [c for c in cases if c["lang"] == lang]
        assert len(mine) == 40
        assert sum(c["valence"] == "0" for c in mine) >= 10
        assert sum(c["loss"] for c in mine) >= 8
        assert {"understatement", "mixed"} <= {c["kind"] for c in mine}
        mixed = {c["valence"] for c in mine if c["kind"] == "mixed"}
        assert mixed == {"+", "-"}  # the tail decides, either way


@pytest.mark.parametrize("held", SETS)
def test_the_morning_set_has_12_scenes_and_2_held_back_per_language(held: str) -> None:
    data = heldout_files.scenes(morning.SCENE_SETS[held])
    for lang in LANGS:
        mine = [s for s in data["scenes"] if s["lang"] == lang]
        assert sum(s["may_raise"] for s in mine) >= 12
        assert sum(not s["may_raise"] for s in mine) >= 2
        assert len({s["probe"]["text"] for s in mine}) >= 10  # openers of many kinds
    generic = ("how are you", "怎么样", "how was", "what's up")
    for s in data["scenes"]:
        if s["may_raise"]:
            assert len(s["picks_up"]) >= 3, s["id"]
            assert not any(w.lower() in generic for w in s["picks_up"]), s["id"]


# --- the loaders refuse a malformed file ------------------------------------------------------------

Loader = Callable[[str | Path], dict[str, Any]]


def _qa(d: dict[str, Any]) -> dict[str, Any]:
    qa: dict[str, Any] = d["samples"][0]["qa"][0]
    return qa


def _companion_turn(d: dict[str, Any]) -> str:
    conv = d["samples"][0]["conversation"]
    turn = next(t for t in conv["session_1"] if t["speaker"] == conv["speaker_b"])
    return str(turn["dia_id"])


BREAKS: list[tuple[str, Loader, Callable[[dict[str, Any]], None], str]] = [
    (ASSOC, heldout_files.associative, lambda d: d.update(format=2), "'format'"),
    (
        ASSOC,
        heldout_files.associative,
        lambda d: _qa(d).update(evidence=["D99:1"]),
        "evidence names no turn",
    ),
    (
        ASSOC,
        heldout_files.associative,
        lambda d: _qa(d).update(answer=_qa(d)["answer"] + " zeppelin"),
        "not in the evidence turn",
    ),
    (
        ASSOC,
        heldout_files.associative,
        lambda d: _qa(d).update(evidence=[_companion_turn(d)]),
        "not the user's",
    ),
    (
        ASSOC,
        heldout_files.associative,
        lambda d: _qa(d).update(question=_qa(d)["question"] + " " + _qa(d)["answer"]),
        "already holds an answer word",
    ),
    (
        ASSOC,
        heldout_files.associative,
        lambda d: d["samples"][0]["conversation"].update(session_2_date_time="tomorrow-ish"),
        "not a LoCoMo session time",
    ),
    (
        ASSOC,
        heldout_files.associative,
        lambda d: d["samples"][0].update(split="dev"),
        "'split'",
    ),
    (
        "heldout4_forgets.json",
        heldout_files.forgets,
        lambda d: d["requests"][0]["keep"].update(day=d["requests"][0]["history"]["day"] + 1),
        "not older",
    ),
    (
        "heldout4_forgets.json",
        heldout_files.forgets,
        lambda d: d["requests"][0]["keep"]["lines"].append(d["requests"][0]["gone"][0]),
        "'gone' word in its keep",
    ),
    (
        "heldout4_forgets.json",
        heldout_files.forgets,
        lambda d: d["negatives"][0]["keep"].update(words=["never said anywhere"]),
        "whose 'words' it says",
    ),
    (
        "heldout4_feelings.json",
        heldout_files.feelings,
        lambda d: next(c for c in d["cases"] if c["valence"] == "0").update(fatigue=True),
        "calm session carries no tiredness",
    ),
    (
        "heldout4_feelings.json",
        heldout_files.feelings,
        lambda d: d["cases"][0].update(valence="meh"),
        "'valence'",
    ),
    (
        "morning_heldout4.json",
        heldout_files.scenes,
        lambda d: next(s for s in d["scenes"] if not s["may_raise"]).update(held_back=["zeppelin"]),
        "not in the history",
    ),
    (
        "morning_heldout4.json",
        heldout_files.scenes,
        lambda d: next(s for s in d["scenes"] if not s["may_raise"]).pop("picks_up"),
        "'picks_up' always",
    ),  # the fifth author's files, refused by the same loaders
    (
        "associative_heldout5.json",
        heldout_files.associative,
        lambda d: _qa(d).update(evidence=["D99:1"]),
        "evidence names no turn",
    ),
    (
        "heldout5_updates.json",
        heldout_files.updates,
        lambda d: d["cases"][0]["before"][0]["lines"].append(d["cases"][0]["current"][0]),
        "'current' already said before",
    ),
    (
        "heldout5_forgets.json",
        heldout_files.forgets,
        lambda d: d["requests"][0]["keep"]["lines"].append(d["requests"][0]["gone"][0]),
        "'gone' word in its keep",
    ),
    (
        "heldout5_feelings.json",
        heldout_files.feelings,
        lambda d: next(c for c in d["cases"] if c["valence"] == "0").update(fatigue=True),
        "calm session carries no tiredness",
    ),
    (
        "morning_heldout5.json",
        heldout_files.scenes,
        lambda d: next(s for s in d["scenes"] if not s["may_raise"]).update(held_back=["zeppelin"]),
        "not in the history",
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
    data = copy.deepcopy(load_scenario(name))
    edit(data)
    path = tmp_path / name
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(heldout_files.ScenarioError, match=re.escape(message)) as refused:
        load(path)
    assert name in str(refused.value)


def test_the_associative_area_refuses_a_malformed_held_out_file_before_a_daemon_starts(
    tmp_path: Path,
) -> None:
    data = copy.deepcopy(load_scenario(ASSOC))
    _qa(data).update(evidence=["D99:1"])
    path = tmp_path / ASSOC
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(heldout_files.ScenarioError):
        associative.load(path)


# --- the new labels, judged ---------------------------------------------------------------------------


def mood(valence: float, fatigue: float, bands: dict[str, str] | None = None) -> dict[str, Any]:
    return {"valence": valence, "fatigue": fatigue, **({"bands": bands} if bands else {})}


CALM = {"valence": "0", "fatigue": None}


def test_a_calm_session_passes_only_when_nothing_strong_carried_to_the_morning() -> None:
    neutral = {"valence": "neutral", "fatigue": "none"}
    assert understanding.judge_feeling(CALM, mood(0.05, 0.1, neutral))[0]
    assert not understanding.judge_feeling(CALM, mood(-0.3, 0.1, neutral | {"valence": "low"}))[0]
    assert not understanding.judge_feeling(CALM, mood(0.35, 0.1, neutral | {"valence": "good"}))[0]
    assert not understanding.judge_feeling(CALM, mood(0.0, 0.3, neutral | {"fatigue": "tired"}))[0]
    # the turn's own reading has no bands: the band edges of docs/mood.md stand in
    assert understanding.judge_feeling(CALM, mood(0.1, 0.1))[0]
    assert not understanding.judge_feeling(CALM, mood(-0.4, 0.1))[0]
    # the other labels are judged as before
    assert understanding.judge_feeling({"valence": "-", "fatigue": None}, mood(-0.3, 0.0))[0]


def test_an_item_with_its_own_older_session_lives_both_and_a_loss_of_either_counts() -> None:
    keep = {"day": 0, "hour": 19, "lines": ["a"], "words": ["a"]}
    own = {"day": 1, "hour": 12, "lines": ["b"], "words": ["b"]}
    assert understanding.keeps_of({"id": "x", "keep": own}, keep) == [keep, own]
    assert understanding.keeps_of({"id": "x"}, keep) == [keep]


def test_a_look_alike_leaves_its_own_older_session_in_place_on_a_real_daemon() -> None:
    """Real daemon, real SQLite (scripted provider: no model words are judged here): a line that
    asks nothing leaves both older sessions findable; a word never said is reported lost, so the
    collateral row can fail."""
    data = heldout_files.forgets("heldout4_forgets.json")
    base = day0(data)
    own: dict[str, Any] = {
        "day": 1,
        "hour": 12,
        "lines": ["my cousin Leo opened a bakery in Hull, the croissants are great"],
        "words": ["croissants"],
    }
    neg: dict[str, Any] = {
        "id": "en-quiet",
        "lang": "en",
        "text": "quiet day, soup and an early night",
        "keep": own,
        "said": {"day": 9, "hour": 20},
        "probe": {"day": 17, "hour": 9},
    }
    keep = data["keep"]["en"]
    out = understanding.Forgets()
    with scratch_daemon() as daemon, daemon.client(timeout=120.0) as c:
        understanding.play_negative(c, neg, keep, base, out)
        probe = at(base, 17, 9)
        agent = "hfn-en-quiet"
        assert not understanding.lost_any(c, agent, [keep, own], probe)
        never = {"lines": ["a zeppelin over the harbour"], "words": ["zeppelin"]}
        assert understanding.lost_any(c, agent, [never], probe)
    assert out.misfired.get("en").hits == 0 and out.collateral.get("en").hits == 0


# --- selecting them and keeping the cases private ---------------------------------------------------


@pytest.mark.parametrize(
    ("held", "area"), [("heldout4", "understanding4"), ("heldout5", "understanding5")]
)
def test_the_understanding_area_plays_the_later_sets_into_a_private_section_of_their_own(
    monkeypatch: pytest.MonkeyPatch, held: str, area: str
) -> None:
    monkeypatch.setenv(understanding.SETS_ENV, held)
    sets = understanding.chosen_sets()
    assert sets.area == area and sets.private
    for name in (sets.updates, sets.forgets, sets.feelings):
        assert name.startswith(f"{held}_") and (SCENARIOS / name).is_file()


@pytest.mark.parametrize(
    ("held", "area"), [("heldout4", "associative4"), ("heldout5", "associative5")]
)
def test_the_associative_area_plays_the_held_out_set_apart_from_the_dev_set(
    monkeypatch: pytest.MonkeyPatch, held: str, area: str
) -> None:
    monkeypatch.setenv(associative.SET_ENV, held)
    chosen = associative.chosen_set()
    assert chosen.area == area and chosen.held_out
    assert chosen.path.name == f"associative_{held}.json"
    halves = associative.load(chosen.path)
    assert associative.splits_to_play(chosen, halves, quick=True) == ("test",)
    monkeypatch.delenv(associative.SET_ENV)
    dev = associative.chosen_set()
    assert dev.area == "associative" and not dev.held_out
    with pytest.raises(ValueError, match="one of"):
        associative.chosen_set("heldout9")


def failed_reply(scene: str) -> Judged:
    checks = dict.fromkeys(morning.CHECKS, True) | {"picks_up": False}
    return Judged("qwen2.5-1.5b", scene, "en", True, 1, 0, True, "Morning!", checks, True, 1.0, 9)


@pytest.mark.parametrize(
    ("held", "area", "title", "scene"),
    [
        ("heldout4", "morning4", "fourth held-out", "en-h4-mould"),
        ("heldout5", "morning5", "fifth held-out", "en-h5-inspection"),
    ],
)
def test_the_morning_area_names_its_later_sets_apart_and_keeps_failed_scenes_out(
    held: str, area: str, title: str, scene: str
) -> None:
    judged = [failed_reply(scene)]
    later = morning.section(judged, held, (1,), 1)
    assert later.area == area and title in later.title
    assert not any(scene in note for note in later.notes)
    assert any("suggestion given in 1/1" in note for note in later.notes)  # the count stays
