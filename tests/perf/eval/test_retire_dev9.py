"""The ninth retire dev set's shape, and the harness's verdicts for its new expectations (retire9).

retire_dev9.json was written before branch retire9's change to xaid/: per language at least six
scenes of each defect it measures (a matter mentioned before its day, moved, called moot, sad news
that is no loss) with both halves holding some, and controls of each kind. The verdicts are pure:
``Judged.right`` on made-up probe results, no daemon.
"""

from __future__ import annotations

from collections import Counter

from perf.eval import retire
from perf.eval.retire import Judged

DEFECTS = ("mention", "moved", "moot", "sad")
CONTROLS = ("told", "loss", "past", "moot_other")


def test_the_ninth_set_has_six_scenes_per_defect_and_language_in_both_halves() -> None:
    scenes = retire.load("retire_dev9")
    assert len({s.id for s in scenes}) == len(scenes)
    kinds = Counter((s.lang, s.kind, s.split) for s in scenes)
    for lang in ("en", "zh"):
        for kind in DEFECTS:
            assert kinds[(lang, kind, "train")] + kinds[(lang, kind, "test")] >= 6
            assert kinds[(lang, kind, "train")] and kinds[(lang, kind, "test")]
        for kind in CONTROLS:
            assert kinds[(lang, kind, "train")] and kinds[(lang, kind, "test")]
    for s in scenes:
        assert (s.expect == "moved") == (s.new_day is not None), s.id
        assert len(s.sessions) == 2 and s.probes, s.id


def _scene(expect: str, new_day: int | None = None) -> retire.Scene:
    return retire.Scene("x", "en", "train", "k", expect, (), (), new_day)


def test_follow_needs_a_probe_on_the_matter_and_no_hold_for_a_loss() -> None:
    at = retire._at(5, 10)
    asked = Judged(
        _scene("follow"), (1,), True, True, ("plan: all conditions hold",), ((at, "plan"),)
    )
    assert asked.right
    held = Judged(
        _scene("follow"),
        (1,),
        True,
        True,
        ("-: the user has been grieving since; older matters wait", "plan: all conditions hold"),
        ((at, "plan"),),
    )
    assert not held.right
    assert not Judged(_scene("follow"), (1,), False, True, ("-: nothing is due",)).right


def test_moved_needs_no_early_how_did_it_go_and_an_ask_after_the_new_day() -> None:
    early, late = retire._at(5, 10), retire._at(15, 10)
    scene = _scene("moved", new_day=14)
    assert Judged(scene, (1,), True, True, (), ((early, "ahead"), (late, "plan"))).right
    assert not Judged(scene, (1,), True, True, (), ((early, "plan"), (late, "plan"))).right
    assert not Judged(scene, (1,), True, True, (), ((early, "ahead"),)).right
