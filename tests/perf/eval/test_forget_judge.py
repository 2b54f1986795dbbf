"""perf/eval/forget_judge.py reads requests and look-alikes from every forget dev set, in both
languages and halves, so each AUC it reports has both sides (a set whose format changed would
otherwise drop out silently)."""

from __future__ import annotations

from perf.eval.forget_judge import SETS, messages


def test_every_language_and_half_has_requests_and_look_alikes() -> None:
    got = messages()
    for lang in ("en", "zh"):
        for half in ("train", "test"):
            mine = [m for m in got if m.lang == lang and m.half == half]
            assert sum(m.request for m in mine) >= 100, (lang, half)
            assert sum(not m.request for m in mine) >= 100, (lang, half)
    assert all(m.text.strip() for m in got)
    assert len(SETS) == len(set(SETS)) and "forgets_dev3" not in SETS  # dev3 is read apart
