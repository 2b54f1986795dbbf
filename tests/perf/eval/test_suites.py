"""The evaluation suites (perf/eval/suites.py): the scenario files hold what their formats promise, the
generators are deterministic, and a quick run through a real daemon reports every figure."""

from __future__ import annotations

import re

import pytest

from perf import kit
from perf.eval import suites
from perf.kit import Section

BANDS = {
    "fatigue": {"none", "tired", "exhausted"},
    "valence": {"very_low", "low", "neutral", "good"},
}


def test_contains_ignores_case_and_needs_one_key_in_one_text() -> None:
    assert kit.contains(["I work at Figma"], ["figma"])
    assert kit.contains(["a", "我妹妹小美"], ["Maya", "小美"])
    assert not kit.contains(["Figma"], ["Maya"])
    assert not kit.contains([], ["x"])


def test_times_count_days_and_hours_from_day0() -> None:
    data = {"start": "2025-12-01"}
    base = kit.day0(data)
    assert base == 1_764_547_200_000  # 2025-12-01 00:00 UTC
    assert kit.at(base, 1, 8) - base == 32 * kit.HOUR
    assert kit.at(base, -12, 19) < base


def test_cross_session_cases() -> None:
    data = kit.load_scenario("cross_session.json")
    cases = data["cases"]
    assert len(cases) == 30 and len({c["id"] for c in cases}) == 30
    assert sorted(c["lang"] for c in cases) == ["en"] * 15 + ["zh"] * 15
    for c in cases:
        assert 1 <= c["open"]["day"] <= 7 and c["said"]["day"] == 0, c["id"]
        said = " ".join(c["said"]["lines"])
        assert c["expect"] and all(k.casefold() in said.casefold() for k in c["expect"]), c["id"]
        assert not kit.contains([c["open"]["text"]], c["expect"]), c[
            "id"
        ]  # the opener does not say it
        old_keys = [k for old in data["background"][c["lang"]] for k in old["keys"]]
        old_lines = [line for old in data["background"][c["lang"]] for line in old["lines"]]
        assert not kit.contains(c["said"]["lines"], old_keys), c["id"]
        assert not kit.contains(old_lines, c["expect"]), c["id"]
    assert {s["lang"] for s in data["scenes"]} == {"en", "zh"}
    for old in [o for lang in data["background"].values() for o in lang]:
        assert old["day"] < -7 and kit.contains(old["lines"], old["keys"])


def test_mood_pairs() -> None:
    pairs = kit.load_scenario("mood_pairs.json")["pairs"]
    assert len(pairs) == 32 and len({p["id"] for p in pairs}) == 32
    assert sorted(p["lang"] for p in pairs) == ["en"] * 16 + ["zh"] * 16
    assert {p["tone"] for p in pairs} == {"present", "absent"}
    for p in pairs:
        assert p["after_hours"] > 0 and p["lines"] and p["reason"], p["id"]
        for dim, allowed in (p.get("band") or {}).items():
            assert set(allowed) <= BANDS[dim], p["id"]
            assert p["tone"] == "present", p[
                "id"
            ]  # a band is named only where a feeling should carry


def test_update_cases_change_one_value_and_the_probe_gives_neither_away() -> None:
    cases = kit.load_scenario("updates.json")["cases"]
    assert len({c["id"] for c in cases}) == len(cases) >= 16
    assert sorted({c["lang"] for c in cases}) == ["en", "zh"]
    for c in cases:
        assert c["before"]["day"] < c["after"]["day"] < c["probe"]["day"], c["id"]
        assert kit.contains(c["before"]["lines"], c["old"]) and not kit.contains(
            c["after"]["lines"], c["old"]
        )
        assert kit.contains(c["after"]["lines"], c["new"]) or any(
            k in {"not vegetarian", "vegetarian anymore"} for k in c["new"]
        ), c["id"]
        assert not kit.contains([c["probe"]["text"]], [*c["old"], *c["new"]]), c["id"]


def test_forget_cases_and_the_negative_set() -> None:
    data = kit.load_scenario("forgets.json")
    ids = [c["id"] for c in data["requests"]] + [n["id"] for n in data["negatives"]]
    assert len(ids) == len(set(ids))
    assert sorted({c["lang"] for c in data["requests"]}) == ["en", "zh"]
    assert sorted({n["lang"] for n in data["negatives"]}) == ["en", "zh"]
    for c in data["requests"]:
        assert kit.contains(c["said"]["lines"], c["gone"]), c["id"]
        assert not kit.contains([c["probe"]["text"]], c["gone"]), c["id"]


def test_follow_up_situations_load_in_the_scheduler_format() -> None:
    from perf.eval import scheduler

    situations = scheduler.load(kit.SCENARIOS / "followups.json")
    assert len(situations) >= 20 and {s.lang for s in situations} == {"en", "zh"}
    opens = [o for s in situations for o in s.opens]
    assert {o.expected for o in opens} == {"ask", "quiet"} and any(o.intrusive for o in opens)


def test_the_long_conversation_is_generated_deterministically_with_the_facts_early() -> None:
    data = kit.load_scenario("long_conversation.json")
    assert {c["lang"] for c in data["conversations"]} == {"en", "zh"}
    for conv in data["conversations"]:
        turns = suites.generate(conv)
        assert turns == suites.generate(conv)
        assert len(turns) >= 100
        for p in conv["planted"]:
            assert turns[p["turn"]] == p["text"] and p["turn"] < 20
            assert kit.contains([p["text"]], p["key"]) and not kit.contains(
                [p["question"]], p["key"]
            )
            others = [t for i, t in enumerate(turns) if i != p["turn"]]
            assert not kit.contains(others, p["key"]), p["id"]  # said once, early
        assert all("{" not in t for t in turns)


def test_recall_items_are_200_said_once_across_40_sessions() -> None:
    data = kit.load_scenario("recall.json")
    users = suites.recall_users(data, 2)
    assert len(users) == 4 and sum(len(s) for _, _, s, _ in users) == 40
    items = [i for *_, its in users for i in its]
    assert len(items) == 200 and len({i.id for i in items}) == 200
    assert users == suites.recall_users(data, 2)  # seeded
    for _agent, lang, sessions, its in users:
        lines = [line for s in sessions for line in s]
        assert sorted(i.say for i in its) == sorted(
            line for line in lines if line not in data["filler"][lang]
        )
        for item in its:
            assert item.key in item.say
            # the key is said exactly once and appears nowhere else the agent hears or the question gives away
            assert sum(item.key.casefold() in line.casefold() for line in lines) == 1, item.id
            assert item.key.casefold() not in item.ask.casefold(), item.id


def test_earlier_chunks_beyond_a_third_of_the_prompt_are_dropped_oldest_first() -> None:
    budget = suites.LLMConfig().n_ctx - suites.LLMConfig().max_tokens
    chunk = "x" * 300  # 104 tokens each
    many = [f"{i}{chunk}" for i in range(20)]
    kept = suites.fitting_earlier(many)
    assert kept == many[-len(kept) :] and sum(len(k) // 3 + 4 for k in kept) <= budget // 3
    assert suites.fitting_earlier(many[:2]) == many[:2]


@pytest.fixture(scope="module")
def quick_run() -> Section:
    return suites.run(quick=True)


def test_a_quick_run_reports_every_suite(quick_run: Section) -> None:
    figures = [r.figure for r in quick_run.rows]
    for word in (
        "cross-session",
        "mood carry-over",
        "Morning scene",
        "long conversation",
        "recall",
        "updates",
        "conversational forget",
        "follow-ups",
    ):
        assert any(f.startswith(word) for f in figures), word
    for row in quick_run.rows:
        assert row.unit == "%" and 0.0 <= row.value <= 100.0, row.figure
    aims = {r.figure.split(":")[0]: r.aim.bound for r in quick_run.rows if r.aim}
    assert aims["cross-session"] == 80 and aims["long conversation"] == 70 and aims["recall"] == 85
    notes = " ".join(quick_run.notes)
    for label in (
        "cross-session misses",
        "mood carry-over misses",
        "long conversation misses",
        "recall misses",
    ):
        assert label in notes
    counts = [
        int(m)
        for m in re.findall(
            r"(\d+)/\d+ (?:cases|pairs|questions|items)", " ".join(r.note for r in quick_run.rows)
        )
    ]
    assert counts and all(n >= 0 for n in counts)
