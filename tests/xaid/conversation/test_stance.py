"""The companion's first person in an opening on the user's matter (xaid/conversation/stance.py):
a friend's stance toward the listener passes; the listener's life said as the companion's does not.
Sentences written for this test, in both languages, none from perf/scenarios/voice_dev34.json."""

from __future__ import annotations

import pytest

from xaid.conversation.stance import claims_their_part
from xaid.conversation.voice import Voice, VoiceGate

THEIR_PART = [
    "I spent the whole night ironing my shirt for it.",
    "so I'll probably hear back on Monday.",
    "My ankle still hurts from the fall.",
    "honestly I was shaking the whole time in the waiting room.",
    "I can pay the deposit once my paycheck clears.",
    "我昨晚一点才睡，满脑子都是那个答辩。",
    "医生让我下周再去拍个片子。",
    "我的签证材料还差一份在职证明。",
    "不过我已经想好了，下个月就搬走。",
    "你放心，我面完第一时间跟你说结果。",
]
FRIENDS_STANCE = [
    "I remember you were dreading it.",
    "I'm so proud of you for going through with it.",
    "I've been thinking about you all morning.",
    "I'm nervous for you, honestly.",
    "I'm here if you want to talk it through.",
    "I hope it went better than you feared.",
    "我一直惦记着这事呢。",
    "我有点替你担心，睡得还好吗？",
    "我陪你聊会儿吧。",
    "有什么想说的都可以跟我说。",
    'You said "I\'m a wreck", how are you now?',
]


@pytest.mark.parametrize("sentence", THEIR_PART)
def test_the_listener_s_life_said_as_the_companion_s_is_their_part(sentence: str) -> None:
    assert claims_their_part(sentence)


@pytest.mark.parametrize("sentence", FRIENDS_STANCE)
def test_a_friend_s_stance_toward_the_listener_passes(sentence: str) -> None:
    assert not claims_their_part(sentence)


def test_what_stands_before_the_first_person_is_read() -> None:
    """The gate checks a sentence from its first risk on: "我说。" of "想说的都可以跟我说。" is the
    object of 跟, not a speaker saying something."""
    assert not claims_their_part("我说。", before="想说的都可以跟")
    assert claims_their_part("我说了算。", before="反正")


@pytest.mark.parametrize(
    ("lang", "quoted", "lead", "reply", "kept"),
    [
        (
            "en",
            "court date for the custody thing is on the 14th",
            "Morning! Last time you said the custody hearing was on the 14th,",
            " and I barely slept, my lawyer says we have a good shot.",
            "Morning! Last time you said the custody hearing was on the 14th,",
        ),
        (
            "zh",
            "周四要去车管所考科目二，好慌",
            "早！上次你说周四考科目二，",
            "我倒车入库练了一下午，希望别挂。",
            "早！上次你说周四考科目二，",
        ),
    ],
)
def test_an_opening_on_their_matter_drops_their_part_in_the_companion_s_mouth(
    lang: str, quoted: str, lead: str, reply: str, kept: str
) -> None:
    """Through the streaming gate, as a turn with a check-in quoting the user runs it: the sentence
    that goes on in the user's part is not sent (the turn then asks once more)."""
    gate = VoiceGate(Voice("Morning." if lang == "en" else "早。", quoted=(quoted,)), lead)
    out = gate.feed(lead + reply) + gate.finish()
    assert gate.broken == "role"
    assert out.rstrip() == kept


def test_without_a_quoted_matter_the_companion_may_have_its_own_life() -> None:
    """Later turns (no check-in quoting the user) are not read by this rule: "I love that song"."""
    gate = VoiceGate(Voice("what do you think of this song?"))
    out = gate.feed("I love that song, my favourite part is the chorus.") + gate.finish()
    assert gate.broken is None and out.startswith("I love that song")
