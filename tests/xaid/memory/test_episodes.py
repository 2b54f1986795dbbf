"""Consolidation's fact planning through a real daemon: repeats within a session, the fast path, and
when the model is still asked.

Real SQLite (sqlite-vec, FTS5) and real ONNX embeddings. The scripted provider stands in for the
LLM: its answers ("echo: …") never parse, so a consulted decision ends as decided_by 'rules', and
``stats.memory.llm_calls`` counts every call memory made. The sessions here are short (under the 6
turns that make a summary "unsure") and every candidate is one the rules are sure of, so every
counted call is a fact decision.
"""

from __future__ import annotations

from typing import Any

import pytest
from xaiclient import Client

DAY = 86_400_000
T0 = 1_770_000_000_000  # Mon 2026-02-02, 02:40 UTC


def talk(c: Client, agent: str, lines: list[str], ts: int) -> int:
    """One session, closed and consolidated; how many LLM calls memory made for it."""
    before = llm_calls(c)
    sid = c.session_open(agent, ts=ts)["session_id"]
    for i, line in enumerate(lines):
        c.session_send(sid, line, ts=ts + i * 60_000, ref=f"m{i}").finish()
    c.session_close(sid, ts=ts + len(lines) * 60_000, wait=True)
    return llm_calls(c) - before


def llm_calls(c: Client) -> int:
    return int(c.call("stats")["memory"].get("llm_calls", 0))


def all_facts(c: Client, agent: str, subject: str) -> list[dict[str, Any]]:
    items = c.call("memory.list", agent_id=agent, kind="fact", status="all", limit=1000)["items"]
    return sorted((f for f in items if f["subject"] == subject), key=lambda f: f["fact_id"])


def history(c: Client, agent: str, fact_id: int) -> list[tuple[str, str]]:
    found = c.call("memory.get", agent_id=agent, id=f"fact:{fact_id}")["history"]
    return [(h["action"], h["decided_by"]) for h in found]


@pytest.mark.parametrize(
    ("line", "subjects"),
    [
        ("I work at Stark.", ["user.work"]),
        ("我在百度当编辑。", ["user.work", "user.job"]),
    ],
)
def test_a_fact_said_twice_in_one_session_is_one_fact_with_both_sources(
    client: Client, line: str, subjects: list[str]
) -> None:
    client.agent_create("mia")
    assert talk(client, "mia", [line, "ok", line], T0) == 0
    for subject in subjects:
        found = all_facts(client, "mia", subject)
        assert len(found) == 1 and found[0]["status"] == "current"  # no twin, nothing superseded
        assert found[0]["decided_by"] == "fast" and found[0]["refs"] == ["m0", "m2"]


@pytest.mark.parametrize("line", ["I'm allergic to gluten.", "我对花生过敏。"])
def test_an_exact_restatement_is_noop_without_a_model_call(client: Client, line: str) -> None:
    client.agent_create("mia")
    talk(client, "mia", [line], T0)
    assert talk(client, "mia", [line.replace(".", "!").replace("。", "！")], T0 + 7 * DAY) == 0
    found = all_facts(client, "mia", "user.allergy")
    assert len(found) == 1 and found[0]["status"] == "current"
    assert history(client, "mia", found[0]["fact_id"]) == [("ADD", "fast"), ("NOOP", "fast")]


def test_two_plans_on_different_dates_are_both_added_fast(client: Client) -> None:
    client.agent_create("mia")
    talk(client, "mia", ["I have a dentist appointment next Monday at 4pm."], T0)
    # The same words a week on: another appointment (cosine 0.99, which the near-duplicate rule would NOOP).
    calls = talk(client, "mia", ["I have a dentist appointment next Monday at 4pm."], T0 + 7 * DAY)
    calls += talk(
        client, "mia", ["I have a doctor's appointment next Wednesday at 2pm."], T0 + 8 * DAY
    )
    plans = all_facts(client, "mia", "user.plan")
    assert calls == 0 and len(plans) == 3
    assert all(p["status"] == "current" and p["decided_by"] == "fast" for p in plans)
    assert len({p["valid_from"] for p in plans}) == 3


def test_allergies_add_up_on_the_fast_path(client: Client) -> None:
    client.agent_create("mia")
    talk(client, "mia", ["I'm allergic to gluten."], T0)
    assert talk(client, "mia", ["I'm allergic to peanuts."], T0 + 7 * DAY) == 0
    found = all_facts(client, "mia", "user.allergy")
    assert [("gluten" in f["text"], "peanuts" in f["text"]) for f in found] == [
        (True, False),
        (False, True),
    ]
    assert all(f["status"] == "current" and f["decided_by"] == "fast" for f in found)


@pytest.mark.parametrize(
    ("first", "later", "subject", "old", "new"),
    [
        ("I work at Globex.", "I work at Initech.", "user.work", "Globex", "Initech"),
        (
            "I like Python.",
            "I mainly write Rust now.",
            "user.programming_language",
            "Python",
            "Rust",
        ),
        ("我喜欢Python。", "我现在主要写Rust。", "user.programming_language", "Python", "Rust"),
    ],
)
def test_an_exclusive_subject_change_asks_the_model_and_the_fallback_supersedes(
    client: Client, first: str, later: str, subject: str, old: str, new: str
) -> None:
    client.agent_create("mia")
    assert talk(client, "mia", [first], T0) == 0
    assert (
        talk(client, "mia", [later], T0 + 7 * DAY) == 1
    )  # one decision call; its answer is unusable
    before, after = all_facts(client, "mia", subject)
    assert (
        old in before["text"]
        and before["status"] == "superseded"
        and before["superseded_by"] == after["fact_id"]
    )
    assert new in after["text"] and after["status"] == "current" and after["decided_by"] == "rules"


def test_a_denial_asks_the_model_and_the_fallback_supersedes(client: Client) -> None:
    client.agent_create("mia")
    talk(client, "mia", ["I'm allergic to gluten."], T0)
    assert talk(client, "mia", ["I'm not allergic to gluten anymore."], T0 + 7 * DAY) == 1
    before, after = all_facts(client, "mia", "user.allergy")  # cosine 0.95, yet no NOOP
    assert before["status"] == "superseded" and before["superseded_by"] == after["fact_id"]
    assert "not allergic" in after["text"] and after["status"] == "current"
