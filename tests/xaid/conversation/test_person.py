"""Reported speech (xaid/conversation/person.py): the user's words recited after "you said" take the
listener's person, in Chinese and English; the reply's own first person, a quotation and words not
copied from the user stay as written. The replies are the 1.5B's on the Morning dev sets 18 and 20
(perf/eval/morning.py), after the daemon's lead."""

from __future__ import annotations

import pytest

from testkit.streaming import streamed
from xaid.conversation.person import recites_their_question, to_listener
from xaid.conversation.voice import Voice, VoiceGate

ROOMMATE = "跟室友因为水电费吵翻了，她现在见了我就当没看见，回家都不想出房间。"
SERVER = "服务器又宕机了，我守着数据迁移熬到十二点多，眼睛都睁不开了。"
BUSY = "最近事情多到喘不过气，工作、装修、我妈那边，不知道先顾哪头。"
LANDLORD = "The landlord keeps ignoring my emails about the boiler, and I was showering at the gym."


@pytest.mark.parametrize(
    ("before", "sentence", "theirs", "turned"),
    [
        ("早上好！上次你说", "跟室友因为水电费吵翻了，她现在见了我就当没看见，回家都不想出房间。",
         ROOMMATE, "跟室友因为水电费吵翻了，她现在见了你就当没看见，回家都不想出房间。"),
        ("早。上次你说服务器又宕机了，", "我守着数据迁移熬到十二点多，眼睛都睁不开了。", SERVER,
         "你守着数据迁移熬到十二点多，眼睛都睁不开了。"),
        ("在呢。", "上次你说最近事情多到喘不过气，工作、装修、我妈那边，不知道先顾哪头。", BUSY,
         "上次你说最近事情多到喘不过气，工作、装修、你妈那边，不知道先顾哪头。"),
        ("Morning! ", "Last time you said the landlord keeps ignoring my emails.", LANDLORD,
         "Last time you said the landlord keeps ignoring your emails."),
        ("Morning! Last time you said ", "the landlord kept ignoring you, and I was showering at the gym.",
         LANDLORD, "the landlord kept ignoring you, and you were showering at the gym."),
    ],
)  # fmt: skip
def test_their_first_person_after_you_said_is_turned_to_the_listener(
    before: str, sentence: str, theirs: str, turned: str
) -> None:
    assert to_listener(sentence, [theirs], before) == turned


@pytest.mark.parametrize(
    ("before", "sentence", "theirs"),
    [
        # the reply's own first person: not words of theirs
        ("早。上次你说服务器又宕机了，", "我一直惦记着，今天还好吗？", SERVER),
        ("早。", "上次你说你有点累，我鼓励你早点休息。", SERVER),
        # no words given to the listener: the voice check's other rules judge it
        ("早。", "服务器又宕机了，我守着数据迁移熬到十二点多。", SERVER),
        # their words quoted as theirs
        ("早。上次你说“", "我守着数据迁移熬到十二点多”，今天还好吗？", SERVER),
        ("Morning! ", "You said the boiler broke. I had to look up who fixes those.", LANDLORD),
    ],
)  # fmt: skip
def test_the_replys_own_first_person_and_a_quotation_stay(
    before: str, sentence: str, theirs: str
) -> None:
    assert to_listener(sentence, [theirs], before) == sentence


def test_the_gate_sends_the_recited_words_turned_however_the_stream_is_cut() -> None:
    """Through the voice check, as a turn streams it: the lead untouched, the model's recitation
    sent turned ("见了你"), counted, and nothing dropped."""
    lead = "早上好！上次你说"
    reply = "跟室友因为水电费吵翻了，她现在见了我就当没看见，回家都不想出房间。你的情绪怎么样？"
    for seed in range(5):
        gate = VoiceGate(Voice("早。", quoted=(ROOMMATE,)), lead)
        out = streamed(gate, lead + reply, seed)
        assert out == lead + reply.replace("见了我", "见了你")
        assert gate.broken is None and gate.turned == 1


def test_a_retry_after_a_dropped_sentence_still_reads_the_lead_it_continues() -> None:
    """The 1.5B on dev18: after "早。上次你说服务器又宕机了，" its first attempt was dropped; asked
    again, it recited the line, and with the lead's "你说" forgotten by the retry its "我守着…" went
    out as the user's words. (Here the first attempt speaks as the user.)"""
    lead = "早。上次你说服务器又宕机了，"
    gate = VoiceGate(Voice("早。", quoted=(SERVER + " 先去睡了",)), lead)
    first = streamed(gate, lead + "我也累得要死。", 0)
    assert first == lead and gate.broken == "role"
    again = gate.retry()
    assert again == lead
    out = streamed(gate, lead + "我守着数据迁移熬到十二点多，眼睛都睁不开了。", 1)
    assert out == "你守着数据迁移熬到十二点多，眼睛都睁不开了。" and gate.broken is None


FIGHT = ["阿凯说我太作了 说要冷静一段时间 不就是想分手呗", "我把他微信删了又加回来 我是不是有病"]
TEXTS = ["Jake went through my texts last night. am I overreacting?"]


@pytest.mark.parametrize(
    ("before", "sentence", "theirs", "at"),
    [
        # the 1.5B on morning_dev37 (both seeds): her doubt said back as a question to her
        ("在呢。一直惦记着你。上次你说", "阿凯说你太作了，你是不是有病呢。", FIGHT, 8),
        ("在呢。上次你说", "阿凯说我太作了，我是不是有病？", FIGHT, 8),
        ("Hey! ", "Last time you said Jake went through your texts, are you overreacting?", TEXTS, 48),
    ],
)  # fmt: skip
def test_a_question_they_asked_of_themselves_is_not_asked_back(
    before: str, sentence: str, theirs: list[str], at: int
) -> None:
    assert recites_their_question(sentence, theirs, before) == at


@pytest.mark.parametrize(
    ("before", "sentence", "theirs"),
    [
        ("早。上次你说", "我是不是该早点问你？", FIGHT),  # the companion's own question
        ("早。", "你说你怀疑自己是不是有病，其实不是。", FIGHT),  # their doubt reported, not asked
        ("早。", "你是不是有病？", FIGHT),  # no words given to the listener: other rules judge it
        ("Hey! ", "Last time you said Jake went through your texts. How are you now?", TEXTS),
        ("早。上次你说", "三十了，你的人生都做不了主了，我担心你。", ["三十了 我的人生都做不了主"]),
    ],
)  # fmt: skip
def test_a_question_of_the_companions_own_or_a_doubt_reported_stays(
    before: str, sentence: str, theirs: list[str]
) -> None:
    assert recites_their_question(sentence, theirs, before) is None


def test_the_gate_leaves_their_question_out_and_keeps_what_came_before() -> None:
    """Through the voice check as a turn streams it: the recitation before the question goes out
    turned, the question is dropped with its clause, and the reply ends there as a sentence."""
    lead = "在呢。上次你说"
    reply = "阿凯说我太作了，我是不是有病呢。"
    for seed in range(5):
        gate = VoiceGate(Voice("在吗", quoted=tuple(FIGHT)), lead)
        out = streamed(gate, lead + reply, seed) + gate.end()
        assert out == lead + "阿凯说你太作了。"
        assert gate.broken == "their_question"


def test_a_question_recited_from_memory_the_check_in_does_not_quote_is_left_out() -> None:
    """morning_dev37 again, live: the check-in quoted the line about 阿凯, and the model took "我是不是
    有病" from the memory the prompt shows (Voice.memory), not from what the check-in quoted."""
    lead = "在呢。一直惦记着你。上次你说"
    memory = (
        "[3天前] 用户：阿凯说我太作了 说要冷静一段时间\n[3天前] 用户：我把他微信删了又加回来 我是不是有病",
    )
    for seed in range(5):
        gate = VoiceGate(Voice("在吗", quoted=(FIGHT[0],), memory=memory), lead)
        out = streamed(gate, lead + "阿凯说我太作了，我是不是有病呢。", seed) + gate.end()
        assert out == lead + "阿凯说你太作了。"
