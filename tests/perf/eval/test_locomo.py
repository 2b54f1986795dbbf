"""The LoCoMo runner (perf/eval/locomo.py) and its scorers (perf/eval/locomo_score.py), on inputs small enough to
work out by hand."""

from __future__ import annotations

import datetime as dt
import json
import math
from pathlib import Path

import pytest

from perf.eval import locomo
from perf.eval import locomo_score as score
from xaid.text import tokens


def ms(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> int:
    return int(dt.datetime(year, month, day, hour, minute, tzinfo=dt.UTC).timestamp() * 1000)


# --- session times --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1:56 pm on 8 May, 2023", ms(2023, 5, 8, 13, 56)),
        ("10:04 am on 19 June, 2023", ms(2023, 6, 19, 10, 4)),
        ("12:05 am on 1 January, 2024", ms(2024, 1, 1, 0, 5)),
        ("12:30 pm on 3 Mar 2024", ms(2024, 3, 3, 12, 30)),
    ],
)
def test_session_times_are_read_as_utc(text: str, expected: int) -> None:
    assert score.parse_session_time(text) == expected


def test_a_session_time_that_is_not_one_is_refused() -> None:
    with pytest.raises(ValueError):
        score.parse_session_time("yesterday at noon")


# --- words and answer-token recall ----------------------------------------------------------------


def test_words_lower_case_strip_punctuation_and_cut_chinese_into_pairs() -> None:
    assert score.words("Hello, World! It's 7 May.") == ["hello", "world", "it", "s", "7", "may"]
    assert score.words("我喜欢猫") == ["我喜", "喜欢", "欢猫"]
    assert score.words("猫") == ["猫"]
    assert score.words("I love 杭州!") == ["i", "love", "杭州"]
    assert score.words("《卡农》") == ["卡农"]


def test_answer_words_drop_stopwords_and_repeats() -> None:
    assert score.answer_words("The Lisbon half-marathon, the one in May") == [
        "lisbon",
        "half",
        "marathon",
        "one",
        "may",
    ]
    assert score.answer_words(15) == ["15"]
    assert score.answer_words("the") == []


def test_answer_recall_is_the_share_of_answer_words_found() -> None:
    # "brightline" is found, "labs" is not: 1 of 2
    assert score.answer_recall("Brightline Labs", ["I work at Brightline."]) == 0.5
    # an int answer is str()-ed; "15" is a word of "about 15 km"
    assert score.answer_recall(15, ["about 15 km", "nothing"]) == 1.0
    # words spread over several texts count; "blue" in one, "mug" in the other, "wonky" nowhere: 2 of 3
    assert score.answer_recall("a wonky blue mug", ["the blue one", "my mug"]) == pytest.approx(
        2 / 3
    )
    # whole words only: "pepper" is not in "peppers"
    assert score.answer_recall("Pepper", ["green peppers"]) == 0.0
    assert score.answer_recall("the", ["the"]) is None
    # Chinese: 团子 is one pair; 星火互娱 is three pairs (星火 火互 互娱), two found in "星火互动": 2 of 3
    assert score.answer_recall("团子", ["团子跟我一起走"]) == 1.0
    assert score.answer_recall("星火互娱", ["星火互动"]) == pytest.approx(2 / 3)


# --- evidence recall ------------------------------------------------------------------------------


def test_evidence_ids_split_joined_entries() -> None:
    assert score.evidence_ids(["D1:3; D1:5", "D2:1", "", "D1:3"]) == ["D1:3", "D1:5", "D2:1"]


def test_evidence_recall_is_the_share_of_evidence_among_refs() -> None:
    assert score.evidence_recall(["D1:1", "D2:3"], ["D2:3", "D9:9"]) == 0.5
    assert score.evidence_recall(["D1:1"], ["D1:1", "D1:1"]) == 1.0
    assert score.evidence_recall(["D1:1"], []) == 0.0
    assert score.evidence_recall([], ["D1:1"]) is None


def test_precise_evidence_counts_an_episode_only_for_the_turns_it_quotes() -> None:
    turns = {
        "D1:1": locomo.Turn("D1:1", "Lena", "I signed up for pottery at Clayworks.", 0, "user"),
        "D1:3": locomo.Turn("D1:3", "Lena", "My cat is called Pepper.", 0, "user"),
    }
    episode = {
        "kind": "episode",
        "text": 'They said: "My cat is called Pepper."',
        "refs": ["D1:1", "D1:3"],
    }
    question = {"evidence": ["D1:1", "D1:3"]}
    assert locomo.precise_evidence(question, [episode], turns) == 0.5  # quotes D1:3, not D1:1
    fact = {"kind": "fact", "text": "The user does pottery.", "refs": ["D1:1"]}
    assert (
        locomo.precise_evidence(question, [episode, fact], turns) == 1.0
    )  # a fact's refs are exact
    assert locomo.precise_evidence({"evidence": []}, [fact], turns) is None


# --- packing to a budget --------------------------------------------------------------------------


def test_pack_skips_what_does_not_fit_and_keeps_trying() -> None:
    assert score.pack([5, 10, 3], 9) == [0, 2]  # 5, then 10 would make 15 > 9, then 3 makes 8
    assert score.pack([12], 9) == []
    assert score.pack([4, 5], 9) == [0, 1]  # exactly the budget fits


def test_pack_texts_uses_the_daemons_token_count() -> None:
    # tokens.count: one per English word (5 and 1 here), 0.68 per Chinese character (6 → 4)
    texts = ["one two three four five", "six", "今天好累啊呀", "seven eight nine ten eleven"]
    assert [tokens.count(t) for t in texts] == [5, 1, 4, 5]
    assert score.pack_texts(texts, 10) == [0, 1, 2]
    assert score.pack_texts(texts, 9) == [0, 1]


# --- BM25 -----------------------------------------------------------------------------------------


def test_bm25_on_a_three_document_corpus() -> None:
    docs = [["cat", "sat", "mat"], ["dog", "sat", "log"], ["cat", "cat", "dog"]]
    bm = score.BM25(docs)
    # N = 3, every document has 3 words (avgdl 3), so the length factor is k1·(1 − b + b) = 1.2.
    # "cat" is in 2 documents: idf = ln(1 + (3 − 2 + 0.5) / (2 + 0.5)) = ln(1.6)
    idf_cat = math.log(1.6)
    assert bm.idf["cat"] == pytest.approx(0.4700036)
    s = bm.scores(["cat"])
    assert s[0] == pytest.approx(idf_cat * 1 * 2.2 / (1 + 1.2))  # = idf·1 = 0.4700
    assert s[1] == 0.0
    assert s[2] == pytest.approx(idf_cat * 2 * 2.2 / (2 + 1.2))  # = 0.6463: two "cat"s win
    assert bm.rank(["cat"])[0] == 2
    # "log" is only in document 1, "sat" in 0 and 1: document 1 is the known top hit
    assert bm.rank(["sat", "log"])[0] == 1
    # a repeated query word counts once
    assert bm.scores(["cat", "cat"]) == s


def test_bm25_prefers_the_shorter_document_for_the_same_count() -> None:
    bm = score.BM25([["pottery", "class", "clay", "wheel", "glaze", "kiln"], ["pottery", "class"]])
    s = bm.scores(["pottery"])
    # both contain it once (idf ln(1 + 0.5/2.5) = ln 1.2); avgdl 4: long norm 1.2·(0.25 + 0.75·1.5) = 1.65,
    # short norm 1.2·(0.25 + 0.75·0.5) = 0.75
    assert s[0] == pytest.approx(math.log(1.2) * 2.2 / (1 + 1.65))
    assert s[1] == pytest.approx(math.log(1.2) * 2.2 / (1 + 0.75))
    assert bm.rank(["pottery"]) == [1, 0]


def test_the_bm25_baseline_packs_matching_turns_only() -> None:
    turns = [
        locomo.Turn("D1:1", "A", "I adopted a cat called Pepper.", 0, "user"),
        locomo.Turn("D1:2", "B", "Nice, what colour is she?", 1000, "assistant"),
        locomo.Turn("D1:3", "A", "I started a new job at Brightline Labs.", 2000, "user"),
    ]
    base = locomo.Baselines(turns, embed=None, dated=False)
    answer = base.bm25_answer(
        {"question": "What is the cat called?", "answer": "Pepper", "evidence": ["D1:1"]}, 1000
    )
    assert answer.refs == ["D1:1"]  # no other turn shares a word with the question
    assert answer.evidence == 1.0 and answer.answer == 1.0
    assert answer.tokens == tokens.count(turns[0].text)
    assert (
        base.dense_answer({"question": "x", "answer": "y"}, 1000) is None
    )  # no embedder, no dense


def test_a_fair_baseline_shows_each_turn_dated_and_attributed() -> None:
    """The baselines rank, show and count a turn as a developer would store it, with its session's
    date and its speaker, so a "when" or "who" question can be answered from what they return, as it
    can from xaid's dated lines. In the old form (turn text only) the date is nowhere to be found."""
    when = ms(2023, 5, 8, 13, 56)
    turns = [
        locomo.Turn("D1:1", "Caroline", "I went to a LGBTQ support group yesterday.", when, "user"),
        locomo.Turn("D1:2", "Mel", "那太好了！你感觉怎么样？", when + 1000, "assistant"),
    ]
    assert locomo.dated_line(turns[0]) == (
        "[8 May 2023] Caroline: I went to a LGBTQ support group yesterday."
    )
    assert locomo.dated_line(turns[1]) == "[8 May 2023] Mel: 那太好了！你感觉怎么样？"
    q = {"question": "When did Caroline go to the support group?", "answer": "7 May 2023"}
    fair = locomo.Baselines(turns, embed=None).bm25_answer(q, 1000)
    old = locomo.Baselines(turns, embed=None, dated=False).bm25_answer(q, 1000)
    assert fair.texts[0] == locomo.dated_line(turns[0])
    assert fair.tokens == tokens.count(locomo.dated_line(turns[0]))  # counted as shown
    assert fair.answer == pytest.approx(2 / 3)  # "may", "2023" found; the day is for the reader
    assert old.answer == 0.0
    zh = {"question": "Mel 问了什么？", "answer": "感觉"}
    assert locomo.Baselines(turns, embed=None).bm25_answer(zh, 1000).refs[0] == "D1:2"


def test_the_hybrid_baseline_fuses_both_rankings_by_rank() -> None:
    """The embedding here is a fixed table (a stand-in for the daemon's embedder, so the fusion arithmetic
    can be checked by hand): D1:3 is second in both lists (2/62) and so first fused, ahead of D1:1, first by
    BM25 and last by vector (1/61 + 1/64)."""
    import numpy as np

    turns = [
        locomo.Turn("D1:1", "A", "Pepper the cat sleeps on the cat bed.", 0, "user"),
        locomo.Turn("D1:2", "B", "Lovely weather for a walk.", 1000, "assistant"),
        locomo.Turn("D1:3", "A", "The cat chased a bird today.", 2000, "user"),
        locomo.Turn("D1:4", "B", "Felines love chasing things.", 3000, "assistant"),
    ]
    table = {
        t.text: v
        for t, v in zip(turns, ([-0.5, 1.0], [0.0, 1.0], [0.8, 0.6], [1.0, 0.0]), strict=True)
    }

    def embed(texts: list[str]) -> np.ndarray:
        rows = [table.get(t, [1.0, 0.0]) for t in texts]
        return np.array([np.array(r) / np.linalg.norm(r) for r in rows], dtype=np.float32)

    base = locomo.Baselines(turns, embed, dated=False)
    q = {"question": "What did the cat chase?", "answer": "bird", "evidence": ["D1:3"]}
    assert base.bm25_answer(q, 1000).refs == [
        "D1:1",
        "D1:3",
    ]  # "cat" twice in a longer turn, then once
    dense, hybrid = base.dense_answer(q, 1000), base.hybrid_answer(q, 1000)
    assert dense is not None and dense.refs == ["D1:4", "D1:3", "D1:2", "D1:1"]
    assert hybrid is not None and hybrid.refs == ["D1:3", "D1:1", "D1:4", "D1:2"]


def test_questions_are_grouped_by_language_and_by_whose_turns_hold_the_evidence() -> None:
    user = {"D1:1", "D1:3"}
    assert locomo.labels({"question": "q", "lang": "zh", "evidence": ["D1:2"]}, user) == {
        "lang": "zh",
        "evidence_by": "companion",
    }
    assert locomo.labels({"question": "q", "evidence": ["D1:1; D1:2"]}, user) == {
        "evidence_by": "both"
    }
    assert locomo.labels({"question": "q", "evidence": []}, user) == {}


# --- the runner, end to end -----------------------------------------------------------------------


def test_loading_maps_speakers_to_roles_and_times_to_seconds() -> None:
    samples = locomo.load(locomo.TINY)
    assert len(samples) == 2 and all(len(s.sessions) == 3 for s in samples)
    first = samples[0]
    opened, turns = first.sessions[0]
    assert opened == ms(2024, 3, 3, 19, 30)
    assert [(t.dia_id, t.role, t.speaker) for t in turns[:2]] == [
        ("D1:1", "user", "Lena"),
        ("D1:2", "assistant", "Marco"),
    ]
    assert [t.ts - opened for t in turns[:3]] == [0, 1000, 2000]
    assert first.end_ms == first.sessions[-1][0] + 9000


def test_the_tiny_file_is_well_formed() -> None:
    data = json.loads(locomo.TINY.read_text(encoding="utf-8"))
    assert len(data) == 2
    qa = [q for s in data for q in s["qa"]]
    assert len(qa) >= 12 and {q["category"] for q in qa} == {1, 2, 3, 4}
    for sample in data:
        ids = {t["dia_id"] for k, v in sample["conversation"].items() if k[-1].isdigit() for t in v}
        assert all(e in ids for q in sample["qa"] for e in q["evidence"])


def test_the_runner_on_the_tiny_file(tmp_path: Path) -> None:
    report = locomo.run_file(locomo.TINY, budget=1000)
    assert report["samples"] == 2 and report["questions"] >= 12 and report["turns"] == 60
    assert set(report["systems"]) == {"xaid", "bm25", "dense", "hybrid"}  # the fair ones only
    for name, result in report["systems"].items():
        assert set(result["by_category"]) == {"1", "2", "3", "4"}
        for group in [result["overall"], *result["by_category"].values()]:
            assert 0.0 <= group["evidence_recall"] <= 1.0, name
            assert 0.0 <= group["answer_recall"] <= 1.0, name
            assert 0 < group["tokens"] <= 1000, name
    xaid = report["systems"]["xaid"]["overall"]
    assert 0.0 <= xaid["evidence_recall_precise"] <= xaid["evidence_recall"]
    assert report["episodes"] == 6 and len(report["ingest_s"]) == 2
    assert 0 < report["search_ms"]["p50"] <= report["search_ms"]["p95"]
    assert len(report["per_question"]) == report["questions"]
    text = locomo.render(report)
    assert "| xaid | all |" in text and "| bm25 | 2 temporal |" in text
    out = tmp_path / "report.json"
    out.write_text(json.dumps(report))  # JSON-ready
