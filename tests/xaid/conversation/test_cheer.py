"""A reply does not cheer at a hardship (xaid/conversation/cheer.py and the voice check): bare
applause ("That's great to hear!", "太棒了！") to a bad day is dropped; sympathy, applause of good
news and applause that picks up the good part of a mixed message pass; the hardship is read by
the rules and by meaning with the real default embedder, in English and Chinese. Through a real
daemon the scripted provider's [[say:…]] stands in for the 1.5B that answered a back "killing me"
with "That's great to hear!" (perf/scenarios/voice_dev8.json)."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest

from testkit.inproc import InProcessDaemon
from testkit.streaming import streamed
from xaid.conversation.cheer import applauds, told_hardship
from xaid.conversation.voice import Voice, VoiceGate
from xaid.embed.use import UseEmbedder
from xaid.mood import meaning

BACK_EN = "Finally home. Meetings all day and my back is killing me."
BACK_ZH = "终于下班回家了，今天开了一整天的会，腰都要断了。"


@pytest.mark.parametrize(
    ("sentence", "said", "bare"),
    [
        ("That's great to hear!", BACK_EN, True),
        ("Awesome!", "missed the last bus, walked home in the rain", True),
        ("太棒了！", "末班车没赶上，淋着雨走回来的", True),
        ("真棒！", BACK_ZH, True),
        # sympathy, reassurance, or the good part of their message picked up
        ("Oof, that sounds rough.", BACK_EN, False),
        ("Don't worry!", "IELTS next week and my speaking is still shaky", False),
        ("That's great about the contract!", "long day, but the client signed the contract", False),
        ("合同签了太好了！", "累了一天，不过客户把合同签了", False),
        ("Nice upgrade!", "flight delayed 3 hours but they upgraded me", False),
        ("辛苦了，快躺下歇歇吧。", BACK_ZH, False),
        # longer: it says something of its own
        ("That's great, and I'm glad you made it home before the storm hit.", BACK_EN, False),
    ],
)
def test_bare_applause_is_a_short_glad_sentence_with_nothing_of_theirs(
    sentence: str, said: str, bare: bool
) -> None:
    assert applauds(sentence, said) is bare


@pytest.mark.parametrize(
    ("said", "hard"),
    [
        (BACK_EN, True),  # no feeling word: meaning reads it
        ("I failed my driving test again. third time.", True),
        ("只想睡觉。明天还得跟经理解释事故的原因。", True),  # the rules read it tired
        ("孩子昨晚每小时醒一次，我快累死了", True),
        # good news, a plan, a relief the model alone read as low by its topic
        ("I passed my driving test!!", False),
        ("thinking of making lasagna tonight", False),
        ("Check-up this afternoon, the doctor says I'm healing well.", False),
        ("驾照考过了！！", False),
        ("今晚打算做千层面", False),
    ],
)
def test_a_hardship_is_read_by_the_rules_or_by_both_meaning_readers(
    use_embedder: UseEmbedder, prototypes: meaning.Prototypes, said: str, hard: bool
) -> None:
    vector = np.asarray(use_embedder.embed([said])[0], dtype=np.float32)
    assert told_hardship(said, vector, prototypes) is hard


def test_without_a_vector_only_the_rules_read_it() -> None:
    assert told_hardship("只想睡觉。明天还得跟经理解释事故的原因。")
    assert not told_hardship(BACK_EN)  # no feeling word the rules know


@pytest.mark.parametrize(
    ("said", "reply", "sent"),
    [
        (BACK_EN, "That's great to hear! Get some rest.", ""),
        (BACK_ZH, "真棒！今天过得怎么样？", ""),
        (
            BACK_EN,
            "Oof, that sounds rough. Get some rest.",
            "Oof, that sounds rough. Get some rest.",
        ),
        (BACK_ZH, "辛苦了，快躺下歇歇吧。", "辛苦了，快躺下歇歇吧。"),
    ],
)
def test_the_gate_drops_applause_only_at_a_hardship(said: str, reply: str, sent: str) -> None:
    for seed in range(4):
        gate = VoiceGate(Voice(said, hardship=True))
        assert streamed(gate, reply, seed) == sent
        assert gate.broken == ("cheer" if not sent else None)
        calm = VoiceGate(Voice(said))  # good news or nothing read: applause is fine
        assert streamed(calm, reply, seed) == reply and calm.broken is None


def test_a_daemon_drops_applause_at_a_bad_day_and_counts_it(tmp_path: Path) -> None:
    env = {"XAID_LLM_VOICE_CHECK": "on"}
    say = {"system_prompt": "[[say:That's great to hear! Get some rest.]]"}
    with InProcessDaemon(tmp_path / "d", env=env) as d, d.client() as c:
        c.agent_create("bad", name="Mia", config=say)
        # a fresh daemon, no session closed yet: the feeling prototypes, which a turn reads by
        # meaning only once they are there, are embedded at start (conversation.banks)
        for _ in range(1200):
            if c.stats()["memory"]["meaning"] == "ready":
                break
            time.sleep(0.05)
        c.session_send(c.session_open("bad")["session_id"], BACK_EN).finish()
        after_bad_day = c.stats()["memory"]
        c.agent_create("good", name="Mia", config=say)
        c.session_send(c.session_open("good")["session_id"], "I passed my driving test!!").finish()
        after_good_news = c.stats()["memory"]
    # the bad day: dropped, asked again, the same again (kept, as nothing else was left)
    assert after_bad_day["voice_cheer"] == 2 and after_bad_day["voice_retries"] == 1
    # the good news: applauded, untouched
    assert after_good_news["voice_cheer"] == 2 and after_good_news["voice_retries"] == 1
