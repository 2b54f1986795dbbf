"""Asking to forget, in conversation, through a real daemon: what the request names (a topic, or
"that": the previous message) leaves search, the turns, the messages and the prompt; the request is
kept only as a placeholder; explain and stats say what happened; mere forget words delete nothing.

Real SQLite (sqlite-vec, FTS5) and real ONNX embeddings; the scripted provider stands in for the LLM
(it echoes the newest user message as the model read it).
"""

from __future__ import annotations

import pytest
from xaiclient import Client

from testkit.forgetting import everything, talk

DAY = 86_400_000
T0 = 1_764_536_400_000  # a day at 21:00 UTC


@pytest.mark.parametrize(
    ("said", "asked", "secret", "what", "placeholder"),
    [
        (
            "My ex is called Tom and he lives in Leeds.",
            "Please forget what I told you about my ex.",
            "Leeds",
            "ex",
            "(the user asked to forget something)",
        ),
        (
            "我前男友叫汤姆，他住在利兹。",
            "把我前男友的事忘了吧",
            "利兹",
            "前男友",
            "（用户请求忘记一些内容）",
        ),
    ],
)
def test_a_named_topic_is_forgotten_a_day_later(
    client: Client, said: str, asked: str, secret: str, what: str, placeholder: str
) -> None:
    client.agent_create("mia")
    # The tea turns away from the ex ("Anyway, …"): a plain next line of a conversation the matter
    # opened is the matter's (forget_topic._span, session 45).
    first = talk(client, "mia", [said, "Anyway, I like tea in the morning."], T0)
    assert secret in everything(client, "mia", [first], secret, T0 + DAY)
    sid = client.session_open("mia", ts=T0 + DAY)["session_id"]
    result = client.session_send(sid, asked, ts=T0 + DAY, explain=True).finish()
    assert result["context"]["forgotten"]["kind"] == "topic"
    assert result["context"]["forgotten"]["what"] == what
    assert result["context"]["forgotten"]["deleted"] >= 3  # the message, the reply, their turns, …
    assert result["context"]["memories"] == []
    assert (
        result["text"] == "echo: " + placeholder
    )  # the model read the placeholder, not the request
    client.session_close(sid, ts=T0 + DAY + 60_000, wait=True)
    later = everything(client, "mia", [first, sid], secret, T0 + 8 * DAY)
    assert secret not in later, later
    assert "tea in the morning" in later  # the rest of that evening stays
    assert placeholder in later  # the request is kept as a placeholder only
    probe = client.session_open("mia", ts=T0 + 8 * DAY)["session_id"]
    context = client.session_send(
        probe, f"Where does Tom live? {secret}?", ts=T0 + 8 * DAY, explain=True
    ).finish()["context"]
    assert secret not in repr(context["memories"]) and context["forgotten"] is None
    memory = client.stats()["memory"]
    assert memory["forget_requests"] == 1 and memory["forget_requests_topic"] == 1
    assert memory["forget_requests_deleted"] == result["context"]["forgotten"]["deleted"]


@pytest.mark.parametrize(
    ("said", "asked"),
    [
        ("My PIN is 4921, by the way.", "Please don't remember that."),
        ("我的密码是4921。", "刚才说的别记了"),
    ],
)
def test_that_is_the_previous_message_and_consolidation_does_not_bring_it_back(
    client: Client, said: str, asked: str
) -> None:
    client.agent_create("mia")
    sid = client.session_open("mia", ts=T0)["session_id"]
    client.session_send(sid, "I had pasta for dinner.", ts=T0).finish()
    client.session_send(sid, said, ts=T0 + 60_000).finish()
    result = client.session_send(sid, asked, ts=T0 + 120_000, explain=True).finish()
    forgotten = result["context"]["forgotten"]
    assert forgotten["kind"] == "previous" and forgotten["what"] is None
    assert (
        forgotten["deleted"] == 2 and len(forgotten["message_ids"]) == 2
    )  # the message and its reply
    assert "4921" not in repr(result)  # nor echoed back
    client.session_send(sid, "Thanks.", ts=T0 + 180_000).finish()
    client.session_close(sid, ts=T0 + 240_000, wait=True)
    later = everything(client, "mia", [sid], "4921", T0 + 2 * DAY)
    assert "4921" not in later and "pasta" in later
    assert client.stats()["memory"]["forget_requests_previous"] == 1


def test_that_with_nothing_before_it_deletes_nothing_and_says_so(client: Client) -> None:
    client.agent_create("mia")
    sid = client.session_open("mia", ts=T0)["session_id"]
    forgotten = client.session_send(sid, "forget that", ts=T0, explain=True).finish()["context"][
        "forgotten"
    ]
    # A bare "forget that" reads in the classifier's middle band since the fifth pass (fire 0.77,
    # ask 0.55): it asks back whether to forget; either way nothing is deleted.
    sure = forgotten["sure"]
    assert forgotten == {
        "kind": "previous",
        "what": None,
        "deleted": 0,
        "message_ids": [],
        "decision": "previous" if sure else "ask",
        "match": None,
        "asked": None,
        "sure": sure,
        "probability": forgotten["probability"],  # the classifier's reading (forget_intent.py)
        "hidden": [],  # nothing said before it: nothing to hold back while asking
    }
    assert forgotten["probability"] is not None and forgotten["probability"] >= 0.5
    if sure:
        assert client.stats()["memory"]["forget_requests_unmatched"] == 1


@pytest.mark.parametrize(
    "text", ["I forgot my keys.", "我忘了带钥匙", "Forget it, it doesn't matter."]
)
def test_forget_words_that_ask_nothing_delete_nothing(client: Client, text: str) -> None:
    client.agent_create("mia")
    first = talk(client, "mia", ["My keys are on a red lanyard."], T0)
    sid = client.session_open("mia", ts=T0 + DAY)["session_id"]
    result = client.session_send(sid, text, ts=T0 + DAY, explain=True).finish()
    assert result["context"]["forgotten"] is None
    assert result["text"] == "echo: " + text
    history = client.session_history(sid)["messages"]
    assert [m["text"] for m in history if m["role"] == "user"] == [text]
    assert "red lanyard" in everything(client, "mia", [first], "lanyard", T0 + DAY)
    assert "forget_requests" not in client.stats()["memory"]
