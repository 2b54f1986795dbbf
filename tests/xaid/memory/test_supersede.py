"""Changes found by meaning (issue 24 item 1), through a real daemon with the real embedder (USE,
the default) and a real database: a statement that reads as a change and is about what an earlier
one was about makes the earlier one history, in English and Chinese, whatever the subject; an
addition, a hypothetical, past narration and someone else's change do not.

Where the scripted provider answers, it stands in for the model deciding the unsure pairs: its
``[[say:…]]`` is the model's answer, what is tested is what the daemon does with it (one call for
all of a session's pairs; an answer it cannot read keeps both statements)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from xaiclient import Client

from testkit.inproc import InProcessDaemon
from xaid.memory import supersede

DAY = 86_400_000
T0 = 1_764_619_200_000  # 2025-12-01 20:00 UTC


def session(c: Client, agent: str, lines: list[str], ts: int) -> None:
    sid = c.session_open(agent, ts=ts)["session_id"]
    c.session_ingest(
        sid, [{"role": "user", "text": line, "ts": ts + i * 60_000} for i, line in enumerate(lines)]
    )
    c.session_close(sid, ts=ts + len(lines) * 60_000, wait=True)


def turns(c: Client, agent: str) -> dict[str, str]:
    """Each user turn's text and status."""
    items = c.memory_list(agent, kind="utterance", limit=100)["items"]
    return {u["text"]: u["status"] for u in items if u["role"] == "user"}


def two_sessions(c: Client, before: str, after: str) -> dict[str, str]:
    """A new agent told ``before`` on day 0 and ``after`` six days later, each session consolidated:
    each user turn's text and status."""
    c.agent_create("mia", name="Kai")
    session(c, "mia", [before], T0)
    session(c, "mia", [after], T0 + 6 * DAY)
    return turns(c, "mia")


def search(c: Client, agent: str, query: str, ts: int) -> list[str]:
    return [i["text"] for i in c.memory_search(agent, query, ts=ts)["items"]]


def memory_counters(c: Client) -> dict[str, Any]:
    return dict(c.stats()["memory"])


# Subjects no fact rule knows (a commute, a morning drink, a gym, a sport), said the way people
# say a change: the old rules left all of these current.
CHANGES = [
    (
        "I take the bus to the office, forty minutes each way.",
        "I switched to cycling to the office, so much better.",
        "How do I get to the office these days?",
        "cycling",
    ),
    (
        "Most evenings I do yoga at the studio on King Street.",
        "I gave up yoga, it's boxing at the studio for me now.",
        "What do I do in the evenings at the studio?",
        "boxing",
    ),
    (
        "我每天早上喝一杯美式咖啡。",
        "美式我戒了，现在早上只喝拿铁。",
        "我现在早上喝什么？",
        "拿铁",
    ),
    (
        "我周末去游泳馆游泳，一游就是一个小时。",
        "游泳不去了，最近周末改成去爬山。",
        "我现在周末都做什么运动？",
        "爬山",
    ),
]


@pytest.mark.parametrize(("before", "after", "question", "new"), CHANGES)
def test_a_change_said_in_any_words_makes_the_earlier_statement_history(
    client: Client, before: str, after: str, question: str, new: str
) -> None:
    client.agent_create("mia", name="Kai")
    session(client, "mia", [before], T0)
    session(client, "mia", [after], T0 + 6 * DAY)
    assert turns(client, "mia") == {before: "superseded", after: "current"}
    found = search(client, "mia", question, T0 + 13 * DAY)
    assert found and new in found[0], found
    assert not any(before in t for t in found), found
    assert memory_counters(client).get("change_rules") == 1


CONTROLS = [
    ("I play the guitar in the evenings.", "I also started learning the piano this month."),
    ("I work as a nurse at St Mary's.", "If I ever quit, I'd love to be a chef."),
    ("I drink oat milk lattes every morning.", "My brother switched to black coffee these days."),
    ("I live in Bristol with my partner.", "When I was a kid we lived in Cardiff for a few years."),
    ("我会弹吉他。", "我这个月又开始学钢琴了。"),
    ("我是一名护士。", "如果哪天辞职了，我想去当厨师。"),
    ("我每天早上喝牛奶。", "我哥现在改喝黑咖啡了。"),
    ("我在腾讯上班。", "我在考虑明年要不要跳槽去阿里。"),
]


@pytest.mark.parametrize(("before", "after"), CONTROLS)
def test_an_addition_a_hypothetical_the_past_or_someone_elses_change_replaces_nothing(
    client: Client, before: str, after: str
) -> None:
    client.agent_create("mia", name="Kai")
    session(client, "mia", [before], T0)
    session(client, "mia", [after], T0 + 6 * DAY)
    assert turns(client, "mia")[before] == "current"


def test_a_fact_drawn_from_the_earlier_statement_becomes_history_too(client: Client) -> None:
    client.agent_create("mia", name="Kai")
    session(client, "mia", ["I work at Globex on the payments team."], T0)
    facts = client.memory_list("mia", kind="fact")["items"]
    assert any("Globex" in f["text"] for f in facts), facts
    session(
        client, "mia", ["I left Globex in the spring, I'm at Initech these days."], T0 + 6 * DAY
    )
    current = client.memory_list("mia", kind="fact", status="current")["items"]
    assert not any("Globex" in f["text"] and "Initech" not in f["text"] for f in current), current
    found = search(client, "mia", "Where do I work now?", T0 + 13 * DAY)
    assert found and "Initech" in found[0], found
    assert not any("payments team" in t for t in found), found


# Two statements close to earlier ones with no cue of change: the rules cannot tell, the model is
# asked, once, for both. The answer sits in the Chinese statement, which the prompt quotes.
UNSURE_BEFORE = ["I drink black coffee every morning.", "我睡前都会看一集美剧。"]


def unsure_after(answer: str) -> list[str]:
    return ["I drink matcha every morning.", f"我睡前都会看一集韩剧，很上头。[[say:{answer}]]"]


@pytest.fixture
def asking(tmp_path: Path) -> Iterator[Client]:
    """A daemon that asks the model about the unsure pairs (``memory.ask_changes``, off by default)."""
    with (
        InProcessDaemon(tmp_path / "ask", env={"XAID_MEMORY_ASK_CHANGES": "1"}) as d,
        d.client() as c,
    ):
        yield c


def test_the_unsure_pairs_are_not_asked_about_by_default_and_both_stay_current(
    client: Client,
) -> None:
    client.agent_create("mia", name="Kai")
    session(client, "mia", UNSURE_BEFORE, T0)
    session(client, "mia", unsure_after("1: yes\n2: yes"), T0 + 6 * DAY)
    assert "change_calls" not in memory_counters(client)
    status = turns(client, "mia")
    assert [status[t] for t in UNSURE_BEFORE] == ["current", "current"], status


def test_the_unsure_pairs_of_a_session_are_one_model_call_and_its_answer_decides(
    asking: Client,
) -> None:
    client = asking
    client.agent_create("mia", name="Kai")
    session(client, "mia", UNSURE_BEFORE, T0)
    before = memory_counters(client)
    session(client, "mia", unsure_after("1: yes\n2: yes"), T0 + 6 * DAY)
    after = memory_counters(client)
    assert after.get("change_calls", 0) - before.get("change_calls", 0) == 1
    assert after.get("change_pairs_asked", 0) - before.get("change_pairs_asked", 0) == 2
    assert after.get("change_llm") == 2
    status = turns(client, "mia")
    assert [status[t] for t in UNSURE_BEFORE] == ["superseded", "superseded"], status


@pytest.mark.parametrize("garbage", ["banana", "1: maybe", "9: yes", "Yes"])
def test_an_answer_that_cannot_be_read_keeps_both_statements(asking: Client, garbage: str) -> None:
    client = asking
    client.agent_create("mia", name="Kai")
    session(client, "mia", UNSURE_BEFORE, T0)
    session(client, "mia", unsure_after(garbage), T0 + 6 * DAY)
    status = turns(client, "mia")
    assert [status[t] for t in UNSURE_BEFORE] == ["current", "current"], status
    counters = memory_counters(client)
    assert counters.get("change_calls") == 1
    assert counters.get("change_pairs_unreadable") == counters.get("change_pairs_asked")
    assert "change_llm" not in counters


def test_a_present_question_gets_the_newer_statement_first_before_anything_is_superseded(
    client: Client,
) -> None:
    """Recency at retrieval (issue 24 item 3): both statements current (the model's answer was not
    readable), the question about now gets the newer one first; a question about the past still
    finds the older one."""
    client.agent_create("mia", name="Kai")
    session(client, "mia", UNSURE_BEFORE, T0)
    session(client, "mia", unsure_after("banana"), T0 + 6 * DAY)
    assert turns(client, "mia")[UNSURE_BEFORE[0]] == "current"
    for question in (
        "What do I drink in the morning these days?",
        "What do I drink in the morning?",
    ):
        found = search(client, "mia", question, T0 + 13 * DAY)
        assert found and "matcha" in found[0], (question, found)
    zh = search(client, "mia", "我现在睡前看什么？", T0 + 13 * DAY)
    assert zh and "韩剧" in zh[0], zh
    past = search(client, "mia", "What did I drink in the mornings before?", T0 + 13 * DAY)
    assert any("black coffee" in t for t in past), past


def test_parse_reads_one_verdict_per_pair_and_nothing_from_a_parroted_question() -> None:
    assert supersede.parse("1: yes\n2: no\n3. 是", 3) == [True, False, True]
    assert supersede.parse("2: yes", 2) == [None, True]
    assert supersede.parse("yes", 1) == [True]
    assert supersede.parse("yes", 2) == [None, None]
    assert supersede.parse(None, 2) == [None, None]
    question = supersede.prompt([("I drink tea.", "I drink coffee.")])
    assert supersede.parse(question, 1) == [None]
    assert question.splitlines()[-1].startswith("Answer"), "the directive comes last"


def test_agree_reads_the_subjects_words_in_both_languages() -> None:
    assert supersede.agree("Cancelled the gym membership.", "I go to PureGym on Mill Road.")
    assert supersede.agree("I left teaching last month.", "I'm a primary school teacher.")
    assert supersede.agree("美式我戒了，现在只喝拿铁。", "我每天早上喝一杯美式咖啡。")
    assert not supersede.agree("I read a lot of sci-fi.", "I'm a vegetarian.")
    assert not supersede.agree("我最近在看科幻小说。", "我是素食者。")
