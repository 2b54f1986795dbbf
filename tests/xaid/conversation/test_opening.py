"""The companion's own name in a reply's opening: dropped as a vocative, kept anywhere else, and the
stream the user reads is the text that is stored."""

from __future__ import annotations

import random

import pytest

from testkit.inproc import InProcessDaemon
from xaid.conversation.opening import OpeningGuard, could_start, fix, fix_head


@pytest.mark.parametrize(
    ("reply", "name", "fixed"),
    [
        ("嗨，小雅！今天怎么样？", "小雅", "嗨！今天怎么样？"),
        ("早安，小雅。", "小雅", "早安。"),
        ("早，小雅，昨晚睡得好吗？", "小雅", "早，昨晚睡得好吗？"),
        ("小雅，你今天还好吗", "小雅", "你今天还好吗"),
        ("Hi Mia! How are you?", "Mia", "Hi! How are you?"),
        ("Good morning, Mia. Did you sleep?", "Mia", "Good morning. Did you sleep?"),
        ("Hey mia, you ok?", "Mia", "Hey, you ok?"),
        ("Mia, how was it?", "Mia", "How was it?"),
        (
            "嗨！你好，小雅。有什么想聊的吗？",
            "小雅",
            "嗨！你好。有什么想聊的吗？",
        ),  # after a second greeting
        ("Hi! Good morning, Mia!", "Mia", "Hi! Good morning!"),
        # right after a greeting, the name that starts a sentence reads as the user's: "我"
        ("嗨！小满在这儿，想和你聊聊天。", "小满", "嗨！我在这儿，想和你聊聊天。"),
        ("早上好！小雅很想你", "小雅", "早上好！我很想你"),
    ],
)
def test_a_greeting_with_the_companions_own_name_loses_the_name(
    reply: str, name: str, fixed: str
) -> None:
    assert fix(reply, name) == fixed


@pytest.mark.parametrize(
    ("reply", "name"),
    [
        ("我是小雅，很高兴认识你", "小雅"),  # the companion naming itself
        ("Mia is here for you.", "Mia"),
        ("Miami was fun, right?", "Mia"),
        ("Morning! How was the exam?", "Mia"),
        ("Mia", "Mia"),  # the name alone: nothing would be left
    ],
)
def test_the_name_anywhere_else_stays(reply: str, name: str) -> None:
    assert fix(reply, name) == reply


@pytest.mark.parametrize(
    "reply",
    [
        "嗨，小雅！今天怎么样？",
        "早上好！今天怎么样",
        "Hi Mia! How are you?",
        "嗨！你好，小雅。有什么想聊的吗？",
        "Hi! Good morning, Mia!",
        "I am so sorry to hear that.",
        "Hello there, Mia~ hi",
        "  Hi, Mia!",
        "嗨！小雅在这儿，想和你聊聊天。",
        "早上好！小雅",
    ],
)
def test_the_stream_sends_what_is_stored_however_it_is_cut(reply: str) -> None:
    name = "小雅" if any("\u4e00" <= ch <= "\u9fff" for ch in reply) else "Mia"
    rng = random.Random(7)
    for _ in range(40):
        guard, out, i = OpeningGuard(name), "", 0
        while i < len(reply):
            k = rng.randint(1, 4)
            out += guard.feed(reply[i : i + k])
            i += k
        assert out + guard.finish() == fix_head(reply, name)
    if reply.startswith("嗨！小雅在"):
        assert fix_head(reply, name) == "嗨！我在这儿，想和你聊聊天。"


def test_an_opening_that_cannot_become_the_name_is_not_held() -> None:
    assert not could_start("I am", "Mia") and not could_start("早上好！今", "小雅")
    assert could_start("Good mor", "Mia") and could_start("嗨，小", "小雅")
    guard = OpeningGuard("Mia")
    assert (
        guard.feed("Sorry") == "Sorry"
    )  # released at once: the first token reaches the user unheld


def test_the_daemon_streams_and_stores_the_fixed_opening(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The scripted provider stands in for a model that greets the user with the companion's name."""
    with InProcessDaemon(tmp_path / "d") as daemon, daemon.client() as c:
        for name, said, fixed in (
            ("Mia", "Hi Mia! How did the exam go?", "Hi! How did the exam go?"),
            ("小雅", "嗨，小雅！考试怎么样？", "嗨！考试怎么样？"),
        ):
            agent = c.agent_create(f"a{len(name)}", name=name)["agent_id"]
            sid = c.session_open(agent)["session_id"]
            stream = c.session_send(sid, f"[[say:{said}]]")
            streamed = "".join(ev.data["delta"] for ev in stream)
            assert streamed == fixed and stream.result["text"] == fixed
            assert c.session_history(sid)["messages"][-1]["text"] == fixed
