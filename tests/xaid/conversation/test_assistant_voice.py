"""The companion never speaks as a generic assistant (xaid/conversation/assistant.py, issue 25 item 2):
a sentence that calls the speaker an AI or a model, says it lacks what a program lacks, or offers
service is not sent, in English and Chinese, however the stream is cut; an honest answer when the
user asked what the companion is passes. Through a real daemon the turn asks once more and counts
it. The scripted provider's [[say:A||B]] stands in for the 1.5B, which answered "do you like rainy
days?" with "As an AI language model, …" after the later-turn directive was shortened (perf
later_turns, session 16), and, asked again, wrote something else."""

from __future__ import annotations

from pathlib import Path

import pytest

from testkit.inproc import InProcessDaemon
from testkit.streaming import streamed
from xaid.conversation.assistant import asked_what_it_is, speaks_as_assistant
from xaid.conversation.voice import Voice, VoiceGate


@pytest.mark.parametrize(
    ("said", "reply", "sent"),
    [
        ("do you like rainy days?", "As an AI language model, I don't have preferences.", ""),
        ("any good shows?", "I can't access real-time streaming information, sorry.", ""),
        ("hey", "Hey! How can I help you today?", "Hey! "),
        (
            "do you like rainy days?",
            "Rainy days are cozy! Being an AI, I never feel them.",
            "Rainy days are cozy! ",
        ),
        (
            "ugh mondays",
            "Mondays, right? Let me know if you have any other questions.",
            "Mondays, right? ",
        ),
        ("你喜欢下雨天吗？", "作为一个AI语言模型，我没有个人喜好。", ""),
        ("听说今晚要下雪", "我无法获取实时信息，建议你看看天气预报。", ""),
        ("在吗", "在呢！有什么可以帮您的吗？", "在呢！"),
        ("刚看完一本书，结局太好哭了", "懂你！我没有个人感受，但结局确实动人。", "懂你！"),
        ("你喜欢下雨天吗？", "喜欢！不过我只是个机器人。", "喜欢！"),
        # the 1.5B in perf later_turns: the clause before the disclaimer goes with it
        ("do you like rainy days?", "As a friend, I don't have personal preferences.", ""),
        (
            "lol my roommate set off the smoke alarm",
            "Oh no! Let me know if you need anything else.",
            "Oh no! ",
        ),
    ],
)
def test_a_sentence_in_a_generic_assistants_voice_is_never_sent(
    said: str, reply: str, sent: str
) -> None:
    for seed in range(20):
        gate = VoiceGate(Voice(said))
        assert streamed(gate, reply, seed) == sent == gate.kept
        assert gate.broken == "assistant"


@pytest.mark.parametrize(
    ("said", "reply"),
    [
        ("Dad's birthday is Saturday, I'm baking him a cake", "I can't wait to hear how it goes!"),
        ("work was brutal", "I don't have much to add, but I'm glad you told me."),
        ("hey", "I'm here if you need me."),
        ("my sister is building a chatbot", "A chatbot, huh? Is she enjoying it?"),
        ("I'm baking a cake Saturday", "Want me to help you pick a recipe?"),
        ("你说我要不要养只狗？", "我也没法替你决定，不过你要是真喜欢狗，就养吧。"),
        ("同事说明天一起去撸串", "我没办法陪你去，但你一定要好好玩。"),
        ("想去做个美甲", "要不要我帮你挑挑颜色？"),
        ("在吗", "我在呢，有事随时找我。"),
        ("公司最近在用人工智能写报告", "人工智能发展得真快，你用着顺手吗？"),
    ],
)
def test_a_friends_near_misses_stream_through_unchanged(said: str, reply: str) -> None:
    for seed in range(20):
        gate = VoiceGate(Voice(said))
        assert streamed(gate, reply, seed) == reply and gate.broken is None


@pytest.mark.parametrize(
    ("said", "reply"),
    [
        ("are you a bot?", "Yeah, I'm an AI, but I remember what you tell me."),
        ("do you actually have feelings?", "Not the way you do, I'm an AI, but I care about you."),
        ("你是机器人吗？", "是的，我是个AI，但我记得你说过的事。"),
        ("你有身体吗？", "说实话我没有身体，不过我很愿意陪你聊。"),
    ],
)
def test_asked_what_it_is_the_companion_may_say_so(said: str, reply: str) -> None:
    assert asked_what_it_is(said)
    for seed in range(20):
        gate = VoiceGate(Voice(said))
        assert streamed(gate, reply, seed) == reply and gate.broken is None


def test_asked_what_it_is_service_talk_is_still_dropped() -> None:
    assert speaks_as_assistant("How can I assist you today?", "are you a bot?") is not None
    assert speaks_as_assistant("有什么可以帮您的吗？", "你是机器人吗？") is not None
    assert not asked_what_it_is("do you like rainy days?")
    assert not asked_what_it_is("你喜欢下雨天吗？")
    assert not asked_what_it_is("你是什么时候到的？")


def test_the_disclaimers_opening_clause_is_held_until_the_sentence_shows_what_it_is() -> None:
    gate = VoiceGate(Voice("do you like rainy days?"))
    assert gate.feed("As an AI language model, ") == ""  # no "I" yet, but not sent either
    assert gate.feed("I love the sound") == ""  # a clause after "I": held to its end too
    assert gate.feed(" of rain.") + gate.finish() == ""
    assert gate.broken == "assistant" and gate.kept == ""
    gate = VoiceGate(Voice("你喜欢下雨天吗？"))
    assert gate.feed("作为一个AI语言模型，") == ""
    assert gate.feed("我没有个人喜好。") == "" and gate.broken == "assistant"


@pytest.mark.parametrize(
    ("name", "said", "script", "kept"),
    [
        (
            "Mia",
            "do you like rainy days?",
            "As an AI language model, I don't have personal preferences.||"
            "Rainy days are the best, honestly.",
            "Rainy days are the best, honestly.",
        ),
        (
            "小雅",
            "你喜欢下雨天吗？",
            "作为一个AI语言模型，我没有个人喜好。||喜欢呀，下雨天听着雨声特别安心。",
            "喜欢呀，下雨天听着雨声特别安心。",
        ),
    ],
)
def test_a_daemon_drops_assistant_talk_asks_again_and_counts_it(
    tmp_path: Path, name: str, said: str, script: str, kept: str
) -> None:
    env = {"XAID_LLM_VOICE_CHECK": "on"}
    with InProcessDaemon(tmp_path / "d", env=env) as d, d.client() as c:
        c.agent_create("mia", name=name, config={"system_prompt": f"[[say:{script}]]"})
        sid = c.session_open("mia")["session_id"]
        stream = c.session_send(sid, said)
        deltas = "".join(ev.data["delta"] for ev in stream if ev.event == "text")
        result = stream.result
        stats = c.stats()["memory"]
    assert deltas == result["text"] == kept
    assert stats["voice_assistant"] == 1 and stats["voice_dropped"] == 1
    assert stats["voice_retries"] == 1 and stats.get("voice_failed", 0) == 0
