"""perf/eval/morning_arm.py judges what the first turn would get: an item fire.py passes over for
want of episode tension (fire.holds_tension) is not counted as armed (dev18's en18-rollback-fumes
was reported armed while fire.py closed its item as "no open tension")."""

from __future__ import annotations

from typing import Any

from perf.eval import morning_arm
from perf.eval.morning_arm import _due, judge
from xaid.scheduler.fire import MIN_TENSION

PROBE = 1_000


def _item(scene: str, episode: int | None, lo: int = 0, hi: int = 2_000) -> dict[str, Any]:
    return {
        "scene": scene,
        "topic": f"{scene} topic",
        "not_before": lo,
        "not_after": hi,
        "source_episode": episode,
    }


def test_an_item_whose_episode_holds_too_little_tension_is_not_due() -> None:
    items = [_item("plan", 7)]
    assert _due(items, PROBE, {7: MIN_TENSION - 0.01}) == ()
    assert _due(items, PROBE, {}) == ()  # an episode not read counts as none, as fire.py's 0.0
    assert _due(items, PROBE, {7: MIN_TENSION}) == (("plan", "plan topic"),)


def test_a_feeling_item_is_due_while_its_episode_is_there_whatever_its_tension() -> None:
    """fire.holds_tension: the closing mood armed it, which the episode's tension does not count."""
    items = [_item("emotion", 7)]
    assert _due(items, PROBE, {7: 0.0}) == (("emotion", "emotion topic"),)
    assert _due(items, PROBE, {}) == ()  # the episode gone (forgotten): nothing to ask after


def test_a_manual_item_without_an_episode_passes_and_any_other_does_not() -> None:
    assert _due([_item("manual", None)], PROBE, {}) == (("manual", "manual topic"),)
    assert _due([_item("matter", None)], PROBE, {}) == ()


def test_losses_and_items_outside_their_window_are_not_due() -> None:
    tension = {1: 1.0}
    assert _due([_item("loss", 1)], PROBE, tension) == ()
    assert _due([_item("plan", 1, lo=PROBE + 1)], PROBE, tension) == ()
    assert _due([_item("plan", 1, hi=PROBE - 1)], PROBE, tension) == ()


def test_a_scene_that_may_raise_is_wrong_when_its_only_item_is_passed_over() -> None:
    scene = {"may_raise": True}
    assert not judge(scene, _due([_item("plan", 3)], PROBE, {3: 0.0}))
    assert judge(scene, _due([_item("plan", 3)], PROBE, {3: 0.5}))
    assert judge({"may_raise": False}, _due([_item("matter", 3)], PROBE, {3: 0.0}))


def test_an_ahead_item_is_wrong_after_the_event_whatever_the_kind() -> None:
    """A scene that lists ``too_early`` is probed after its event: an "ahead" item due then would
    ask "how's the prep?" about an operation already done (arm19: until then only ``results``
    scenes were held to it). Before the event, or with no event said, it is armed right."""
    ahead = _due([_item("ahead", 3), _item("plan", 3, lo=PROBE + 1)], PROBE, {3: 0.5})
    after = {"may_raise": True, "kind": "health", "too_early": ["ready", "准备"]}
    assert not judge(after, ahead)
    assert not judge({"may_raise": True, "kind": "results"}, ahead)
    assert judge({"may_raise": True, "kind": "health"}, ahead)
    assert judge(after, _due([_item("plan", 3)], PROBE, {3: 0.5}))
    assert not judge(after, _due([_item("ahead", 3), _item("plan", 3)], PROBE, {3: 0.5}))


def test_the_arm19_dev_set_holds_each_kind_in_both_halves_and_languages() -> None:
    """arm_dev19.json: in each half and language, strong tiredness, someone else's operation or
    illness, a routine evening and a loss, and at least one scene probed after its event."""
    from perf.eval import heldout_files, morning

    scenes = heldout_files.scenes(morning.SCENE_SETS["arm19"])["scenes"]
    for lang in ("en", "zh"):
        for half in ("train", "test"):
            mine = [s for s in scenes if s["lang"] == lang and s["half"] == half]
            kinds = {s["kind"] for s in mine}
            assert {"emotion", "health", "routine", "loss"} <= kinds
            assert all(not s["may_raise"] for s in mine if s["kind"] in ("routine", "loss"))
            assert any("too_early" in s for s in mine)


def test_the_arm22_dev_set_holds_matters_and_controls_in_both_halves_and_languages() -> None:
    """arm_dev22.json: in each half and language, matters that may be raised (some probed after
    their event) and controls that must arm nothing to ask about."""
    from perf.eval import heldout_files, morning

    scenes = heldout_files.scenes(morning.SCENE_SETS["arm22"])["scenes"]
    for lang in ("en", "zh"):
        for half in ("train", "test"):
            mine = [s for s in scenes if s["lang"] == lang and s["half"] == half]
            assert sum(s["may_raise"] for s in mine) >= 8
            assert {"routine", "held"} & {s["kind"] for s in mine if not s["may_raise"]}
            assert any("too_early" in s for s in mine)


def test_the_arm23_dev_set_holds_illnesses_and_losses_in_both_halves_and_languages() -> None:
    """arm_dev23.json: in each half and language, someone ill or in hospital (a matter a friend asks
    after) beside deaths and a break-up (controls: a gentle check-in only)."""
    from perf.eval import heldout_files, morning

    scenes = heldout_files.scenes(morning.SCENE_SETS["arm23"])["scenes"]
    for lang in ("en", "zh"):
        for half in ("train", "test"):
            mine = [s for s in scenes if s["lang"] == lang and s["half"] == half]
            assert sum(s["may_raise"] for s in mine) >= 4
            assert {s["kind"] for s in mine if not s["may_raise"]} == {"loss"}
            assert all(s["picks_up"] for s in mine if s["may_raise"])


def test_all_plays_every_dev_set_on_one_clock_and_names_each_half_by_its_set() -> None:
    """``morning_arm all``: one daemon, one day 0, so only the sets that start on ALL_FROM; each
    scene's half says its set ("dev30:train") so the figures can be read per set and together; no
    held-out scene is ever among them; scene ids stay unique (each is an agent of one daemon)."""
    from perf.eval import heldout_files, morning
    from perf.eval.morning_arm import ALL_FROM, every_dev_set

    scenes, base = every_dev_set()
    sets = {s["half"].split(":")[0] for s in scenes}
    assert {"dev30", "dev31", "dev25"} <= sets and not sets & morning.PRIVATE
    assert "dev" not in sets and "dev2" not in sets  # day 0 in 2025-12: another clock
    assert all(heldout_files.scenes(morning.SCENE_SETS[n])["start"] == ALL_FROM for n in sets)
    assert len({s["id"] for s in scenes}) == len(scenes)
    dev30 = [s for s in scenes if s["half"].startswith("dev30:")]
    assert {s["half"] for s in dev30} == {"dev30:train", "dev30:test"} and len(dev30) == 32
    assert base > 0


def test_a_suggestion_picks_the_matter_by_one_of_the_scenes_words() -> None:
    scene = {"may_raise": True, "picks_up": ["手术", "surgery"]}
    assert morning_arm.picks(scene, 'plan: 后来怎么样了："周四手术"')
    assert morning_arm.picks(scene, 'plan: how it went: "Surgery on thursday"')  # any case
    assert not morning_arm.picks(scene, 'matter: 现在怎么样了："地铁上看到恐龙服"')
    assert not morning_arm.picks(scene, None)
    control = {"may_raise": False, "picks_up": []}
    assert morning_arm.picks(control, None)
    assert morning_arm.picks(control, "loss: 对方最近怎么样")  # a loss's check-in asks nothing
    assert not morning_arm.picks(control, 'matter: 现在怎么样了："前任订婚了"')
