"""perf/scenarios/supersede_dev28.json is what its `about` says: both languages, both halves, and
keys that can only be found where they should (an old key in the earlier sessions only, a new key in
the last session only, a kept key in the history), so a pass means what the runner says."""

from __future__ import annotations

from collections import Counter

from perf import kit
from perf.eval import supersede_chat


def _said(sessions: list[list[str]]) -> str:
    return " ".join(line for lines in sessions for line in lines).casefold()


def test_the_set_has_changes_and_controls_in_both_languages_and_halves() -> None:
    cases = kit.load_scenario(supersede_chat.SET)["cases"]
    kinds = Counter((c["lang"], c["kind"], c["split"]) for c in cases)
    for lang in ("en", "zh"):
        for split in ("train", "test"):
            assert kinds[(lang, "change", split)] == 3
            assert kinds[(lang, "control", split)] == 4


def test_each_key_occurs_only_where_the_runner_looks_for_it() -> None:
    for c in kit.load_scenario(supersede_chat.SET)["cases"]:
        history, last = _said(c["history"]), _said([c["last"]])
        assert len(c["history"]) == len(c["days"]) and c["last_day"] > max(c["days"])
        if c["kind"] == "change":
            assert any(k.casefold() in history for k in c["old"]), c["id"]
            assert not any(k.casefold() in last for k in c["old"]), c["id"]
            assert any(k.casefold() in last for k in c["new"]), c["id"]
            assert not any(k.casefold() in history for k in c["new"]), c["id"]
        else:
            assert any(k.casefold() in history for k in c["keep"]), c["id"]
