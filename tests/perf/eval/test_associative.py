"""The associative dev set and its loader (perf/eval/associative.py); the area itself is perf."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from perf.eval import associative, locomo
from perf.eval import locomo_score as score

DEV_SETS = [associative.SETS["dev"].path, associative.SETS["dev7"].path]


@pytest.mark.parametrize("path", DEV_SETS, ids=["dev", "dev7"])
def test_the_dev_set_has_forty_cases_per_language_in_two_halves(path: Path) -> None:
    halves = associative.load(path)
    for split in associative.SPLITS:
        langs = [q["lang"] for s in halves[split].samples for q in s["qa"]]
        assert langs.count("en") >= 20 and langs.count("zh") >= 20, split
    every = [q for h in halves.values() for s in h.samples for q in s["qa"]]
    assert sum(q["lang"] == "en" for q in every) >= 40
    assert sum(q["lang"] == "zh" for q in every) >= 40
    train = {s["sample_id"] for s in halves["train"].samples}
    assert train.isdisjoint(s["sample_id"] for s in halves["test"].samples)


@pytest.mark.parametrize("path", DEV_SETS, ids=["dev", "dev7"])
def test_each_case_points_at_b_said_weeks_before_and_its_words_are_there(path: Path) -> None:
    """B's words (the answer) are in B's turn and not in the mention: a case is about association, and
    a case whose mention already held the answer would score itself."""
    for half in associative.load(path).values():
        for sample in locomo.load(_as_file(half.samples)):
            by_id = {t.dia_id: t for t in sample.turns}
            for q in sample.qa:
                (ref,) = q["evidence"]
                said = by_id[ref]
                assert said.role == "user"
                wanted = score.answer_words(q["answer"])
                assert wanted and set(wanted) <= set(score.words(said.text)), q["question"]
                assert not set(wanted) & set(score.words(q["question"])), q["question"]
                assert sample.end_ms - said.ts >= 14 * 86_400_000  # two weeks at least


def test_dev7_mentions_share_a_word_with_b_and_only_b_holds_its_answer() -> None:
    """associative_dev7.json is the set where word overlap finds B: every mention shares a content
    word with B, and no other line of the user holds an answer word (so a look-alike that shares the
    mention's word is never credited)."""
    for half in associative.load(associative.SETS["dev7"].path).values():
        for sample in locomo.load(_as_file(half.samples)):
            by_id = {t.dia_id: t for t in sample.turns}
            for q in sample.qa:
                said = by_id[q["evidence"][0]]
                assert set(score.content_words(q["question"])) & set(score.words(said.text))
                wanted = set(score.answer_words(q["answer"]))
                others = [t for t in sample.turns if t is not said and t.role == "user"]
                assert not any(wanted & set(score.words(t.text)) for t in others), q["question"]


def test_a_file_with_an_unknown_split_is_refused(tmp_path: Path) -> None:
    data = json.loads(associative.DEV.read_text(encoding="utf-8"))
    data["samples"][0]["split"] = "dev"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(ValueError, match="split 'dev'"):
        associative.load(bad)


def _as_file(samples: list[dict[str, object]]) -> Path:
    import tempfile

    f = Path(tempfile.mkdtemp()) / "half.json"
    f.write_text(json.dumps(samples, ensure_ascii=False), encoding="utf-8")
    return f
