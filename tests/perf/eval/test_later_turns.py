"""The later-turn scenes are what perf/eval/later_turns.py says they are: ten per language, the
lead-in before the probe in the same evening, and no word the judge looks for already in the probe
(a reply that echoes the user's message would pick it up for free)."""

from __future__ import annotations

import json
from collections import Counter

from perf.eval import later_turns
from perf.eval.replies import at, base_ms, mentions


def test_ten_scenes_per_language_lead_in_first_and_nothing_to_echo() -> None:
    data = json.loads(later_turns.SCENES.read_text(encoding="utf-8"))
    scenes = data["scenes"]
    assert Counter(s["lang"] for s in scenes) == {"en": 10, "zh": 10}
    base = base_ms(data)
    for s in scenes:
        history_end = max(at(base, part) for part in s["history"])
        assert history_end < at(base, s["lead_in"]) < at(base, s["probe"]), s["id"]
        assert s["picks_up"], s["id"]
        echoed = [w for w in s["picks_up"] if mentions(s["probe"]["text"], w)]
        assert not echoed, (s["id"], echoed)
        said = " ".join(text for part in s["history"] for _, text in part["lines"])
        assert any(mentions(said, w) for w in s["picks_up"]), s["id"]
