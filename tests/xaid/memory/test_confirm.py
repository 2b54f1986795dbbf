"""The unsure fact candidates of a session go to the model in one call (issue 28 item 5), and its
answer decides each candidate as one question per candidate did.

Through a real daemon (real database, real embedder): the scripted provider stands in for the model.
Where a test is about what the daemon does with the model's words, the provider's reply is replaced
by one that answers the numbered question with the test's words (``model``); the other
questions of a consolidation (a summary, a fact decision) still get the scripted echo, which never
parses. "I use Notion." and "我用印象笔记。" are facts the rules are unsure of (confidence 0.4).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import anyio
import pytest
from xaiclient import Client

from xaid.memory import confirm
from xaid.memory.rules import extract
from xaid.providers.base import GenerateRequest
from xaid.providers.scripted import ScriptedProvider

DAY = 86_400_000
T0 = 1_764_619_200_000  # 2025-12-01 20:00 UTC
UNSURE = ["I use Notion for all my notes.", "我用印象笔记。"]


def session(c: Client, agent: str, lines: list[str], ts: int) -> None:
    sid = c.session_open(agent, ts=ts)["session_id"]
    c.session_ingest(
        sid, [{"role": "user", "text": line, "ts": ts + i * 60_000} for i, line in enumerate(lines)]
    )
    c.session_close(sid, ts=ts + len(lines) * 60_000, wait=True)


def counters(c: Client) -> dict[str, Any]:
    return dict(c.stats()["memory"])


def facts(c: Client, agent: str) -> list[str]:
    items = c.call("memory.list", agent_id=agent, kind="fact", status="all", limit=100)["items"]
    return sorted(f["text"] for f in items if f["subject"] == "user.uses")


@dataclass
class Model:
    """What the stand-in model answers the candidates' question with, and the prompts it got."""

    answer: str = ""
    asked: list[str] = field(default_factory=list)


@pytest.fixture
def model(monkeypatch: pytest.MonkeyPatch) -> Iterator[Model]:
    m = Model()
    original = ScriptedProvider._reply

    def reply(self: ScriptedProvider, request: GenerateRequest) -> Any:
        text = request.messages[-1].content
        if "lasting fact about the user" in text:
            m.asked.append(text)
            return m.answer
        return original(self, request)

    monkeypatch.setattr(ScriptedProvider, "_reply", reply)
    yield m


def test_the_rules_are_unsure_of_the_test_sentences() -> None:
    for line in UNSURE:
        found = extract.candidates(line)
        assert found and all(c.confidence < confirm.SURE for c in found), (line, found)


@pytest.mark.parametrize(
    ("answer", "kept"),
    [
        ("1: no\n2: yes", ["用户用印象笔记。"]),
        ("1. yes\n2、否", ["The user uses Notion for all my notes."]),
    ],
)
def test_a_sessions_unsure_candidates_are_one_call_decided_per_candidate(
    client: Client, model: Model, answer: str, kept: list[str]
) -> None:
    model.answer = answer
    client.agent_create("mia", name="Kai")
    before = counters(client)
    session(client, "mia", UNSURE, T0)
    after = counters(client)
    assert len(model.asked) == 1 and "Notion" in model.asked[0] and "印象笔记" in model.asked[0]
    assert after["fact_unsure_calls"] - before.get("fact_unsure_calls", 0) == 1
    assert after["fact_unsure_asked"] - before.get("fact_unsure_asked", 0) == 2
    assert after["fact_unsure_kept"] == 1 and after["fact_unsure_dropped"] == 1
    found = facts(client, "mia")
    assert len(found) == 1 and any(k.split(" for")[0] in found[0] for k in kept), found


@pytest.mark.parametrize("garbage", ["banana", "1: maybe", "9: yes", "Yes"])
def test_an_answer_that_cannot_be_read_decides_as_one_unreadable_answer_did(
    client: Client, model: Model, garbage: str
) -> None:
    """Nobody confirmed the unsure facts: neither is written (as one unreadable answer per candidate
    always dropped it), nothing stored is touched, and the turns stay searchable."""
    model.answer = garbage
    client.agent_create("mia", name="Kai")
    session(client, "mia", UNSURE, T0)
    got = counters(client)
    assert got["fact_unsure_calls"] == 1 and got["fact_unsure_dropped"] == 2
    assert got["fact_unsure_unreadable"] == 2
    assert facts(client, "mia") == []
    for query, word in (
        ("what app do I take notes in?", "Notion"),
        ("我用什么记笔记？", "印象笔记"),
    ):
        texts = [i["text"] for i in client.memory_search("mia", query, ts=T0 + DAY)["items"]]
        assert any(word in t for t in texts), (query, texts)


async def _never(prompt: str, tokens: int) -> str | None:
    raise AssertionError("the model was asked although every candidate is sure")


def _candidate(text: str, confidence: float) -> extract.Candidate:
    return extract.Candidate("preference", "user.uses", text, text, confidence, False)


def test_sure_candidates_stand_without_a_call() -> None:
    done = anyio.run(
        confirm.confirm,
        [_candidate("The user uses Vim.", 0.6), _candidate("用户用飞书。", 0.9)],
        _never,
    )
    assert done.kept == [True, True] and done.calls == 0 and done.asked == 0


def test_one_unsure_candidate_is_asked_in_the_one_question_wording_it_always_had() -> None:
    prompts: list[str] = []

    async def ask(prompt: str, tokens: int) -> str | None:
        prompts.append(prompt)
        return "Yes."

    c = _candidate("用户用飞书。", 0.4)
    done = anyio.run(confirm.confirm, [_candidate("The user uses Vim.", 0.6), c], ask)
    assert prompts == [confirm.single_prompt(c)] and done.kept == [True, True]


def test_many_unsure_candidates_are_asked_in_chunks_and_the_numbers_map_back() -> None:
    prompts: list[str] = []

    async def ask(prompt: str, tokens: int) -> str | None:
        prompts.append(prompt)
        n = prompt.count("Fact:")
        return "\n".join(f"{i}: {'yes' if i % 2 else 'no'}" for i in range(1, n + 1))

    n = confirm.MAX_ASKED + 3
    done = anyio.run(
        confirm.confirm, [_candidate(f"The user uses tool {i}.", 0.4) for i in range(n)], ask
    )
    assert done.calls == 2 and done.asked == n
    # chunk one: items 1..8 → yes for odd numbers; chunk two: items 1..3 likewise
    assert done.kept == [i % 2 == 0 for i in range(confirm.MAX_ASKED)] + [True, False, True]
