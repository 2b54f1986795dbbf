"""The later-turn scenes are what perf/eval/later_turns.py says they are: dev14 ten per language with
one lead-in; dev15 fourteen per language, probes and controls in both halves; every lead-in before
the probe in the same evening, and no word the judge looks for already in what the user says that
evening (a reply that echoes the user's message would pick it up, or drag it in, for free)."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from perf.eval import later_turns
from perf.eval.replies import at, base_ms, mentions


def _load(name: str) -> dict[str, Any]:
    return json.loads(later_turns.SETS[name].read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", sorted(later_turns.SETS))
def test_lead_ins_first_and_nothing_to_echo(name: str) -> None:
    data = _load(name)
    base = base_ms(data)
    for s in data["scenes"]:
        history_end = max(at(base, part) for part in s["history"])
        times = [at(base, line) for line in later_turns.lead_ins(s)] + [at(base, s["probe"])]
        assert history_end < times[0] and times == sorted(set(times)), s["id"]
        words = s["memory_words"] if s.get("kind") == "control" else s["picks_up"]
        assert words, s["id"]
        evening = " ".join(line["text"] for line in [*later_turns.lead_ins(s), s["probe"]])
        echoed = [w for w in words if mentions(evening, w)]
        assert not echoed, (s["id"], echoed)
        said = " ".join(text for part in s["history"] for _, text in part["lines"])
        assert any(mentions(said, w) for w in words), s["id"]


def test_dev14_ten_per_language_and_halves_by_order() -> None:
    scenes = _load("dev14")["scenes"]
    assert Counter(s["lang"] for s in scenes) == {"en": 10, "zh": 10}
    train = later_turns.halves(scenes, "train")
    assert Counter(s["lang"] for s in train) == {"en": 5, "zh": 5}
    assert {s["id"] for s in train}.isdisjoint(s["id"] for s in later_turns.halves(scenes, "test"))


def test_dev15_probes_and_controls_in_both_halves_and_languages() -> None:
    scenes = _load("dev15")["scenes"]
    counts = Counter((s["lang"], s["kind"], s["split"]) for s in scenes)
    for lang in ("en", "zh"):
        for split in ("train", "test"):
            assert counts[(lang, "later", split)] == 4
            assert counts[(lang, "control", split)] == 3
    late = [s for s in scenes if s["kind"] == "later" and len(later_turns.lead_ins(s)) >= 2]
    assert {s["split"] for s in late} == {"train", "test"}  # probes at a 3rd or 4th turn
    twice = [s for s in scenes if len(s["history"]) > 1]  # a matter told twice, in other words
    assert {(s["lang"], s["kind"]) for s in twice} >= {("en", "later"), ("zh", "later")}
