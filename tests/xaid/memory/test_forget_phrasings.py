"""A wider phrasing set for forget requests in conversation (issue 22 items 4 and 5), kept as data in
data/forget_phrasings.json: ways to ask to forget a topic in Chinese and English, and near misses
that must not fire ("忘了关灯", "I forgot about the meeting"). Written before the rules changed; on
a099f48 it passed 5 of 15 Chinese and 10 of 14 English topics and 11 of 13 Chinese near misses.
Items 4 and 5 are then tried end to end through a real daemon (scripted provider: the test is
about what the daemon deletes, not the reply's words)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from xaiclient import Client

from testkit.inproc import InProcessDaemon
from xaid.memory.forget_request import EDGE, parse

DATA = json.loads((Path(__file__).parent / "data" / "forget_phrasings.json").read_text("utf-8"))
TOPICS = [(text, tuple(terms)) for lang in ("topic_zh", "topic_en") for text, terms in DATA[lang]]
NEAR_MISSES = DATA["near_miss_zh"] + DATA["near_miss_en"]


def test_the_set_is_as_wide_as_asked() -> None:
    assert len(DATA["topic_zh"]) >= 12 and len(DATA["topic_en"]) >= 12
    assert len(DATA["near_miss_zh"]) >= 10 and len(DATA["near_miss_en"]) >= 10


@pytest.mark.parametrize(("text", "terms"), TOPICS)
def test_every_way_of_asking_names_the_topic(text: str, terms: tuple[str, ...]) -> None:
    found = parse(text)
    assert found is not None and found.kind == "topic" and found.terms == terms


@pytest.mark.parametrize("text", NEAR_MISSES)
def test_near_misses_do_not_fire(text: str) -> None:
    assert parse(text) is None


STORY_EN = "We walked along the river and talked about the weather for a long time. " * 12
STORY_ZH = "我们沿着河边走了很久，聊了很多天气和工作的事情。" * 40


@pytest.mark.parametrize(
    "text",
    [
        STORY_EN + "Anyway, please forget what I told you about Afei.",
        "Please forget what I told you about Afei. " + STORY_EN,
        STORY_ZH + "对了，请你忘掉关于阿飞的事。",
        "请你忘掉关于阿飞的事。" + STORY_ZH,
    ],
)
def test_a_request_at_either_end_of_a_long_message_fires(text: str) -> None:
    """Also noted in issue 22: over 400 characters nothing fired, whatever the message said."""
    assert len(text) > 2 * EDGE
    found = parse(text)
    assert found is not None and found.kind == "topic" and found.terms in {("afei",), ("阿飞",)}


@pytest.mark.parametrize(
    "text",
    [
        STORY_EN + "She said: forget about the loan. " + STORY_EN,
        STORY_ZH + "请你忘掉关于阿飞的事。" + STORY_ZH,
    ],
)
def test_a_request_in_the_middle_of_a_long_text_is_someone_elses_words(text: str) -> None:
    assert parse(text) is None


@pytest.mark.parametrize(
    "asked", ["请你忘掉关于阿飞的事", "忘了关于阿飞的事吧", "请删掉关于阿飞的记录"]
)
def test_the_issue_phrasings_delete_what_was_said_about_the_topic(
    daemon: InProcessDaemon, client: Client, asked: str
) -> None:
    client.agent_create("mia")
    sid = client.session_open("mia")["session_id"]
    client.session_send(sid, "阿飞昨天又跟我借钱了，我很烦。").finish()
    client.session_send(sid, "今晚想早点睡。").finish()
    reply = client.session_send(sid, asked, explain=True).finish()
    forgotten = reply["context"]["forgotten"]
    assert forgotten["kind"] == "topic" and forgotten["what"] == "阿飞"
    assert forgotten["deleted"] >= 1
    texts = [m["text"] for m in client.session_history(sid)["messages"]]
    assert not any("阿飞" in t for t in texts)
    assert "今晚想早点睡。" in texts
    needle = "阿飞".encode()
    wal = Path(str(daemon.db_path) + "-wal")
    assert needle not in daemon.db_path.read_bytes()
    assert not wal.exists() or needle not in wal.read_bytes()
