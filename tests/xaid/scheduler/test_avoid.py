""" "Don't bring this up": topics in the scheduler's ``avoid`` list are never suggested, in English
and Chinese; the list is kept by ``scheduler.config``, exported and imported. Real daemon and
database; the day before is consolidated by the rules (the scripted provider is never asked)."""

from __future__ import annotations

import pytest
from xaiclient import BadParams, Client

from xaid.scheduler import arm, fire
from xaid.store.recall import RecallItem, Settings

from .test_check_in import MORNING, day0


def _item(topic: str) -> RecallItem:
    return RecallItem(
        1,
        "mia",
        None,
        topic,
        arm.keywords(topic),
        "worry",
        0,
        1,
        0.5,
        "pending",
        0,
        None,
        None,
        None,
        None,
        None,
    )


def _avoiding(*topics: str) -> Settings:
    return Settings(True, False, 0, (), topics)


def test_an_avoided_topic_matches_its_words_or_all_its_keywords() -> None:
    interview = _item('how it went: "My job interview at Acme is on Friday."')
    assert fire.avoided(interview, _avoiding("interview"))
    assert fire.avoided(interview, _avoiding("Acme interview"))  # every keyword of the entry
    assert not fire.avoided(interview, _avoiding("dentist"))
    assert not fire.avoided(interview, _avoiding())
    ex = _item("前任的婚礼让我很难受")
    assert fire.avoided(ex, _avoiding("前任"))
    assert not fire.avoided(ex, _avoiding("牙医"))


@pytest.mark.parametrize(
    ("said", "avoid"),
    [("The project crashed, I'm exhausted.", "project"), ("最近项目搞崩了，很累", "项目")],
)
def test_an_avoided_topic_is_never_suggested(client: Client, said: str, avoid: str) -> None:
    day0(client, "mia", said)
    assert client.call("scheduler.check_in", agent_id="mia", ts=MORNING, peek=True)["item"]
    settings = client.call("scheduler.config", agent_id="mia", avoid=[avoid])
    assert settings["avoid"] == [avoid]
    got = client.call("scheduler.check_in", agent_id="mia", ts=MORNING)
    assert got["suggestion"] is None and got["item"] is None
    assert got["reason"] == "the user asked not to bring the due topics up"
    exported = client.call("memory.export", agent_id="mia")
    assert exported["scheduler"]["settings"]["avoid"] == [avoid]
    client.agent_create("copy")
    client.call("memory.import", agent_id="copy", scheduler=exported["scheduler"])
    assert client.call("scheduler.config", agent_id="copy")["avoid"] == [avoid]
    client.call("scheduler.config", agent_id="mia", avoid=[])
    assert client.call("scheduler.check_in", agent_id="mia", ts=MORNING, peek=True)["item"]


def test_a_malformed_avoid_list_is_bad_params(client: Client) -> None:
    client.agent_create("mia")
    for bad in ([""], ["x" * 201], [3], ["a"] * 101):
        with pytest.raises(BadParams):
            client.call("scheduler.config", agent_id="mia", avoid=bad)
    assert client.call("scheduler.config", agent_id="mia")["avoid"] == []
