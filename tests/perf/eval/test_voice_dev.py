"""perf/scenarios/voice_dev.json and the voice_dev area: the set is what its docstring says (both
languages, both halves, every label, at least 40 replies a language), and the area judges the
demo's near-copy as caught and a friend's pick-up as passed."""

from __future__ import annotations

from collections import Counter

from perf.eval import voice_dev
from perf.kit import load_scenario


def test_the_dev_set_has_both_languages_halves_and_labels() -> None:
    cases = load_scenario(voice_dev.SET)["cases"]
    assert len({c["id"] for c in cases}) == len(cases)
    per = Counter((c["lang"], c["half"], c["label"]) for c in cases)
    for lang in ("en", "zh"):
        assert sum(n for (lg, _, _), n in per.items() if lg == lang) >= 40
        for half in ("train", "test"):
            for label in ("ok", *voice_dev.LABELS):
                assert per[(lang, half, label)] >= 2, (lang, half, label)


def test_the_area_reads_the_demos_near_copy_as_caught() -> None:
    demo = {
        "id": "t",
        "lang": "zh",
        "half": "train",
        "label": "parrot",
        "said": "只想睡觉。明天还得跟经理讲清楚修复方案。",
        "reply": "只想睡觉，明天还得跟领导说清楚修复方案，真是辛苦了！",
    }
    assert voice_dev.judge(demo).broken == "parrot"
    friend = demo | {"label": "ok", "reply": "辛苦了，明天跟经理讲方案之前先好好睡一觉。"}
    verdict = voice_dev.judge(friend)
    assert verdict.broken is None and verdict.sent == friend["reply"]
