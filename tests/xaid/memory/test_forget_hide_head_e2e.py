"""While the companion asks back which matter a "forget that" meant, the profile's lines and the
check-ins drawn from the likeliest candidate are held back too (issue 24 item 2, fifteenth pass;
memory/hide.py ``holds``, memory/standing.py, scheduler/fire.py), not only what recall finds: a
question back that kept "the user's sister is getting married" in the next conversation's head, or
asked the next morning how the exhausting week went, brought up what the user had just asked to let
go. A "no" shows them again. Both languages.

Through a real daemon on a real socket, with a real SQLite database and the real embedder; the
scripted provider stands in for the model (it echoes the newest user message), since this is about
what the daemon puts in the prompt and suggests, not the words of the reply. Two evenings fit "the
other night" equally, so the request is asked back about the latest (forget_topic: a time alone
that two sessions fit), whose turns are hidden meanwhile.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from xaiclient import Client

from testkit.forgetting import ask, talk
from testkit.inproc import InProcessDaemon

HOUR = 3_600_000
PROFILE = "What you know about the user:"
NIGHT0 = 1_764_622_800_000  # Monday 2025-12-01 21:00 UTC
NIGHT1 = NIGHT0 + 24 * HOUR
ASKED = NIGHT1 + 10 * HOUR  # Wednesday 07:00
MORNING = NIGHT1 + 11 * HOUR  # Wednesday 08:00: the check-in on Tuesday evening is due

# (the earlier evening, the later evening (the candidate), the request by a time alone, the words
# of the candidate's profile line, its check-in's word, the earlier evening's profile word, no)
CASES = {
    "en": (
        ["I'm a programmer at a small agency."],
        [
            "My sister is called Ana, she is getting married in Porto next month.",
            "Work has been brutal lately, I'm completely exhausted.",
        ],
        "please forget what I told you the other night",
        "Ana",
        "exhausted",
        "programmer",
        "no, not that one",
    ),
    "zh": (
        ["我是程序员，天天写代码。"],
        ["我妹妹叫小美，下个月在杭州结婚。", "最近加班太多，累死了，整个人都被掏空了。"],
        "那天晚上跟你说的那些，请你忘掉吧",
        "小美",
        "掏空",
        "程序员",
        "不是这个",
    ),
}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[Client]:
    """A daemon whose profile is rewritten after every episode (``memory.persona_every`` 1), so
    the later evening's matter is in the profile the next morning."""
    with (
        InProcessDaemon(tmp_path / "d", config="[memory]\npersona_every = 1\n") as daemon,
        daemon.client() as c,
    ):
        yield c


def _profile(context: dict[str, Any]) -> str:
    """The profile (L3) line of the prompt's head."""
    return str(context["system_prompt"]).split(PROFILE, 1)[-1].split("\n", 1)[0]


def _lived(client: Client, agent: str, lang: str) -> None:
    earlier, later, *_ = CASES[lang]
    client.agent_create(agent)
    talk(client, agent, earlier, NIGHT0)
    talk(client, agent, later, NIGHT1)


def _morning(client: Client, agent: str, ts: int) -> dict[str, Any]:
    """The first turn of a new conversation: what its head holds and what it suggests."""
    sid = client.session_open(agent, ts=ts)["session_id"]
    context = client.session_send(sid, "hi", ts=ts, explain=True).finish()["context"]
    return dict(context)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_asking_back_holds_back_the_candidates_profile_line_and_check_in(
    client: Client, lang: str
) -> None:
    _earlier, _later, request, line_word, check_word, kept_word, _no = CASES[lang]
    # Without a request, the next morning's head holds the later evening's profile line and the
    # scheduler suggests a check-in on it: what the question back must hold back.
    _lived(client, "kai", lang)
    control = _morning(client, "kai", MORNING)
    assert line_word in _profile(control) and kept_word in _profile(control), _profile(control)
    assert check_word in repr(control["suggestion"]), control["suggestion"]

    _lived(client, "mia", lang)
    sid, forgotten = ask(client, "mia", request, ASKED)
    assert forgotten["decision"] == "ask" and forgotten["deleted"] == 0, forgotten
    assert forgotten["hidden"]
    client.session_close(sid, ts=ASKED + 30 * 60_000, wait=True)  # never answered
    head = _morning(client, "mia", MORNING)
    assert line_word not in head["system_prompt"]  # nor in the standing block (twelfth pass)
    assert kept_word in _profile(head)  # the other evening's line stays
    assert check_word not in repr(head["suggestion"]), head["suggestion"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_no_brings_the_profile_line_back(client: Client, lang: str) -> None:
    _earlier, _later, request, line_word, _check_word, _kept_word, no = CASES[lang]
    _lived(client, "mia", lang)
    sid, forgotten = ask(client, "mia", request, ASKED)
    assert forgotten["decision"] == "ask", forgotten
    client.session_send(sid, no, ts=ASKED + 60_000).finish()
    client.session_close(sid, ts=ASKED + 30 * 60_000, wait=True)
    head = _morning(client, "mia", MORNING)
    assert line_word in _profile(head), _profile(head)
