"""The voice check (xaid/conversation/voice.py): a sentence that speaks as the user or breaks a name
from memory never reaches the user, in English and Chinese, however the stream is cut; through a
real daemon the turn asks once more and counts it. The scripted provider's [[say:…]] stands in for
a small model that wrote those words (the 1.5B wrote "嗨！我回来了，感觉好多了。" in issue 25)."""

from __future__ import annotations

from pathlib import Path

import pytest

from testkit.inproc import InProcessDaemon
from testkit.streaming import streamed
from xaid.conversation import echo
from xaid.conversation.voice import (
    Voice,
    VoiceGate,
    listener_lead,
    name_broken,
    names_in,
    speaks_as_user,
)


@pytest.mark.parametrize(
    ("said", "reply", "sent"),
    [
        ("嗨，我回来了。", "嗨！我回来了，感觉好多了。你呢？", "嗨！"),
        ("Hey, I'm back.", "Hey! I'm back, feeling much better. You?", "Hey! "),
        ("早。", "早！我好累，昨晚没睡好。", "早！"),
        ("Morning.", "Morning! I'm exhausted today.", "Morning! "),
    ],
)
def test_a_sentence_in_the_users_voice_is_never_sent(said: str, reply: str, sent: str) -> None:
    for seed in range(20):
        gate = VoiceGate(Voice(said))
        assert streamed(gate, reply, seed) == sent == gate.kept
        assert gate.broken == "role"


@pytest.mark.parametrize(
    "reply",
    [
        "早！昨天跟林晓吵完，现在好点了吗？",
        "Morning! How did the pitch with Harbor Foods go? I hope they liked it.",
        "嗨，欢迎回来！我一直想着你。",  # the companion's own first person is fine
        "Hey! I hope Dr. Alvarez was kind.",
    ],
)
def test_the_companions_own_words_stream_through_unchanged(reply: str) -> None:
    for seed in range(20):
        gate = VoiceGate(Voice("早。", ("林晓", "Harbor Foods", "Alvarez")))
        assert streamed(gate, reply, seed) == reply and gate.broken is None


def test_a_name_fused_with_the_next_word_or_cut_is_dropped() -> None:
    assert name_broken("你不妨看看林晓五的喜好", "林晓")
    assert not name_broken("林晓最近怎么样", "林晓")
    assert name_broken("How did it go with Dr. Alvar?", "Alvarez")
    gate = VoiceGate(Voice("早。", ("林晓",)))
    assert streamed(gate, "早！你不妨看看林晓五的喜好。", 1) == "早！" and gate.broken == "name"


def test_the_lead_goes_out_untouched_and_a_retry_continues_after_what_was_sent() -> None:
    gate = VoiceGate(Voice("嗨，我回来了。"), "嗨，欢迎回来！上次说的面试")
    assert gate.feed("嗨，欢迎回来！上次说的面试") == "嗨，欢迎回来！上次说的面试"
    assert gate.feed("我回来了。") == "" and gate.broken == "role"
    prefix = gate.continue_after()
    assert prefix == "嗨，欢迎回来！上次说的面试"
    assert gate.feed(prefix) == ""  # the provider echoes its prefix: already on the screen
    assert gate.feed("怎么样了？") == "怎么样了？"
    assert gate.kept == "嗨，欢迎回来！上次说的面试怎么样了？"


def test_names_come_from_the_memories_shown() -> None:
    names = names_in(["The user pitches to Harbor Foods tomorrow.", "用户今晚跟林晓大吵了一架。"])
    assert "Harbor Foods" in names and "林晓" in names
    assert speaks_as_user("我回来了，感觉好多了", "嗨，我回来了。")
    assert not speaks_as_user("欢迎回来！面试怎么样了？", "嗨，我回来了。")


def test_a_daemon_drops_the_broken_sentence_asks_again_and_counts_it(tmp_path: Path) -> None:
    env = {"XAID_LLM_VOICE_CHECK": "on"}
    with InProcessDaemon(tmp_path / "d", env=env) as d, d.client() as c:
        c.agent_create("mia", name="小雅")
        sid = c.session_open("mia")["session_id"]
        stream = c.session_send(sid, "[[say:我好累，昨晚没睡好。你呢？]]")
        deltas = "".join(ev.data["delta"] for ev in stream if ev.event == "text")
        result = stream.result
        stats = c.stats()["memory"]
        history = c.session_history(sid)["messages"]
    # Broken in its first words, asked again, broken again (the scripted provider says the same words
    # twice): rather than an empty reply the words are kept, and counted as a failure.
    assert deltas == result["text"] == "我好累，昨晚没睡好。" == history[-1]["text"]
    assert (
        stats["voice_dropped"] == 2 and stats["voice_retries"] == 1 and stats["voice_failed"] == 1
    )


def test_without_the_check_the_scripted_echo_streams_as_before(tmp_path: Path) -> None:
    with InProcessDaemon(tmp_path / "d") as d, d.client() as c:  # llm.voice_check = auto
        c.agent_create("mia", name="小雅")
        sid = c.session_open("mia")["session_id"]
        result = c.session_send(sid, "嗨，我回来了。").finish()
        stats = c.stats()["memory"]
    assert result["text"] == "echo: 嗨，我回来了。" and "voice_dropped" not in stats


# The demo's evening lines (client/xaiclient/cli_demo.py) and the 1.5B's replies that spoke as the user
# without a "我" the state list knows (issue 25, `make demo`); more of the same shape, written here.
EVENING_ZH = "终于到家了。我筋疲力尽：版本又延期了，电话会一直开到九点。"
SLEEPY_ZH = "只想睡觉。明天还得跟经理讲清楚修复方案。"
EVENING_EN = "Home at last. I'm exhausted: the release slipped again and I was on calls until nine."


@pytest.mark.parametrize(
    ("said", "reply", "sent"),
    [
        (
            EVENING_ZH,
            "累得要死！先喝口水吧。",
            "",
        ),  # a state with a degree complement, as the user's
        (SLEEPY_ZH, "嗯，我睡会儿。", "嗯"),  # the user's wish in the first person
        (SLEEPY_ZH, "辛苦啦。困死了！", "辛苦啦。"),
        ("今天搬家搬得腰都断了", "腰疼死我了。", ""),
        ("B超说甲状腺有个结节，有点慌。", "嗯。B超结果让我有点慌。", "嗯。"),
        # `xaictl demo` with the 1.5B, seed 2 (issue 25): the user's state as the speaker's feeling
        (EVENING_ZH, "太好了！终于回家了，感觉好累。", "太好了！终于回家了"),
        # the user's words first, then their feeling: the whole sentence is theirs (a parrot)
        (SLEEPY_ZH, "明天还要跟经理讲清修复方案，感觉很疲惫。", ""),
        (EVENING_EN, "Exhausted! Long day.", ""),  # the user's own state, said as the speaker's
        # `make demo`'s 1.5B (session 34): a state of the user's kind, said alone as the speaker's
        (EVENING_EN, "Relieved, but tired. I'll catch up next time.", ""),
        ("I just want to sleep.", "Okay. I want to sleep too.", "Okay. "),
    ],
)
def test_the_users_state_said_without_i_is_not_sent(said: str, reply: str, sent: str) -> None:
    for seed in range(20):
        gate = VoiceGate(Voice(said))
        assert streamed(gate, reply, seed) == sent == gate.kept, seed
        assert gate.broken in ("role", "parrot")  # "I want to sleep too": both, the parrot first


@pytest.mark.parametrize(
    ("said", "reply"),
    [
        (EVENING_ZH, "累坏了吧？先好好歇一歇。"),  # asked about the listener: a friend's echo
        (EVENING_ZH, "辛苦了！你一定累得不行。"),
        (SLEEPY_ZH, "好好睡一觉，明天的事明天再说。"),
        (SLEEPY_ZH, "我明白，早点休息。"),
        (EVENING_ZH, "感觉你今天特别累，早点睡。"),
        (EVENING_ZH, "到家了就好。感觉好点了吗？"),
        (EVENING_EN, "Exhausted, huh? Go rest."),
        ("I just want to sleep.", "Sleep well! Talk tomorrow."),
    ],
)
def test_a_friends_echo_of_the_users_state_streams_through(said: str, reply: str) -> None:
    for seed in range(20):
        gate = VoiceGate(Voice(said))
        assert streamed(gate, reply, seed) == reply and gate.broken is None, seed


def test_a_daemon_never_sends_a_state_said_as_the_users(tmp_path: Path) -> None:
    """The scripted provider's [[say:…]] stands in for the 1.5B's evening reply of `make demo`: the
    first sentence is the companion's, the second the user's state in the speaker's mouth."""
    env = {"XAID_LLM_VOICE_CHECK": "on"}
    with InProcessDaemon(tmp_path / "d", env=env) as d, d.client() as c:
        c.agent_create("mia", name="小雅")
        sid = c.session_open("mia")["session_id"]
        stream = c.session_send(sid, "[[say:辛苦了，快坐下歇歇。累得要死！]]")
        deltas = "".join(ev.data["delta"] for ev in stream if ev.event == "text")
        result = stream.result
        stats = c.stats()["memory"]
    assert "累得要死" not in deltas and "累得要死" not in result["text"]
    # (the [[say:…]] markup is the user's message here, so its first sentence reads as a parrot and
    # the second ask begins with the listener's lead: "听起来辛苦了，…")
    assert "辛苦了，快坐下歇歇。" in result["text"] and stats["voice_dropped"] >= 1


def test_a_quote_of_the_user_that_goes_on_in_the_first_person_is_cut_at_the_first_person() -> None:
    """The 1.5B after the lead "在呢。上次你说去医院拿体检报告，" (perf dev, zh-doctor): the user's words,
    then their fear as the speaker's own."""
    said = "周五去医院拿体检报告，B超说甲状腺有个结节，也不知道是好是坏，有点慌。"
    lead = "在呢。上次你说去医院拿体检报告，"
    gate = VoiceGate(Voice(said), lead)
    out = gate.feed(lead) + gate.feed("B超说甲状腺有个结节，我有点慌。") + gate.finish()
    assert out == lead + "B超说甲状腺有个结节" and gate.broken == "role"


# --- the parrot: the user's own words handed back as the companion's -----------------------------

DEMO_EVENING = (
    "只想睡觉，明天还得跟老板讲清楚修复计划。"  # `make demo`'s evening line, answered with itself
)
QUOTED_ZH = (
    "今天加班到十点半，脑子已经转不动了。"  # a check-in's quote, continued after "早。上次你说"
)


@pytest.mark.parametrize(
    ("said", "quoted", "lead", "reply", "sent"),
    [
        (DEMO_EVENING, (), "", DEMO_EVENING, ""),
        (DEMO_EVENING, (), "", "早点睡吧。只想睡觉，明天还得跟老板讲清楚。", "早点睡吧。"),
        ("I just want to sleep, tomorrow I have to walk my boss through the fix plan.", (), "",
         "Just want to sleep, tomorrow I have to walk my boss through the fix plan.", ""),
        ("早。", (QUOTED_ZH,), "早。上次你说",
         "你累坏了。今天加班到十点半，脑子已经转不动了。好好休息。", "早。上次你说你累坏了。"),
        ("Morning.", ("Back-to-back calls from 8 to 7, my brain is mush.",), "Morning! ",
         "Back-to-back calls from 8 to 7, my brain is mush. Sleep ok?", "Morning! "),
        # a short sentence of one clause of theirs, a word moved or left out (make demo's 1.5B)
        ("终于到家了。我筋疲力尽：版本又延期了，电话会一直开到九点。", (), "", "终于到了家。", ""),
        # a mood particle changed does not hide it (morning14), in either language's short echo
        ("终于到家了。我筋疲力尽：版本又延期了，电话会一直开到九点。", (), "", "终于到家啦。", ""),
        ("只想睡觉。明天还得跟经理讲清楚修复方案。", (), "", "只想睡觉啊。", ""),
        (DEMO_EVENING, (), "", "想睡觉。", ""),
        ("Home at last. I'm exhausted: the release slipped again.", (), "", "Home at last.", ""),
        ("I just want to sleep. Tomorrow I have to walk my manager through the fix.", (), "",
         "Just want to sleep.", ""),
    ],
)  # fmt: skip
def test_a_reply_that_hands_the_users_words_back_is_cut_there(
    said: str, quoted: tuple[str, ...], lead: str, reply: str, sent: str
) -> None:
    for seed in range(5):
        gate = VoiceGate(Voice(said, quoted=quoted), lead)
        assert streamed(gate, lead + reply, seed) == sent and gate.broken == "parrot"


@pytest.mark.parametrize(
    ("said", "quoted", "lead", "reply"),
    [
        # whose words they are, said by the lead or the sentence itself
        ("早。", (QUOTED_ZH,), "早。上次你说", "今天加班到十点半，脑子已经转不动了，睡得还好吗？"),
        ("早。", (QUOTED_ZH,), "早。", "上次你说加班到十点半，脑子已经转不动了。今天好点了吗？"),
        # a friend's echo: to the listener, a question, or a few of their words in its own sentence
        (DEMO_EVENING, (), "", "你明天还得跟老板讲清楚修复计划，今晚先好好睡。"),
        (DEMO_EVENING, (), "", "先好好睡一觉，明天跟老板讲清楚修复计划就行。"),
        ("I just want to sleep, tomorrow I have to walk my boss through the fix plan.", (), "",
         "Sleep first. Walking your boss through the fix plan can wait till morning."),
        ("Morning.", ("Back-to-back calls from 8 to 7, my brain is mush.",), "Morning! Last time you said",
         " back-to-back calls from 8 to 7 turned your brain to mush. Sleep ok?"),
        # short, with words of its own, or a greeting said back
        ("终于到家了。我筋疲力尽：版本又延期了，电话会一直开到九点。", (), "", "到家就好。又延期了，辛苦了。"),
        (DEMO_EVENING, (), "", "睡吧。"),
        ("早上好。", (), "", "早上好！睡得好吗？"),
        ("Home at last. I'm exhausted: the release slipped again.", (), "", "Finally! Rest up."),
        ("Good morning", (), "", "Good morning! Sleep well?"),
    ],
)  # fmt: skip
def test_a_friends_echo_of_the_users_words_passes(
    said: str, quoted: tuple[str, ...], lead: str, reply: str
) -> None:
    for seed in range(5):
        gate = VoiceGate(Voice(said, quoted=quoted), lead)
        assert streamed(gate, lead + reply, seed) == lead + reply and gate.broken is None


HERNIA = (
    "dad's having his hernia op on wednesday. he's pretending he isn't worried but he's called me "
    "three times today"
)
SHIYOU = "她说下周把我俩叫过去当面说清楚，我好紧张"


@pytest.mark.parametrize(
    ("quoted", "lead", "reply", "sent"),
    [
        # the 1.5B after the check-in's lead (morning_dev16's test half): their worry said as its own
        ((HERNIA,), "Hey! Last time you said your dad's having his hernia op,",
         " I was so worried. He's not even worried about it though!", ""),
        ((HERNIA,), "Hey! Last time you said your dad's having his hernia op,",
         " I was so worried he wasn't feeling well.", ""),
        ((SHIYOU,), "早。上次你说她要把你俩叫过去当面说清楚，", "我也好紧张。", ""),
    ],
)  # fmt: skip
def test_their_state_said_as_the_companions_own_is_cut(
    quoted: tuple[str, ...], lead: str, reply: str, sent: str
) -> None:
    for seed in range(5):
        gate = VoiceGate(Voice("home finally", quoted=quoted), lead)
        # the lead stands (the daemon's own), nothing of the model's after it
        assert streamed(gate, lead + reply, seed).rstrip() == lead + sent and gate.broken == "role"


@pytest.mark.parametrize(
    ("quoted", "reply"),
    [
        # turned to them, asked, or a word of theirs that is no state of the speaker's
        ((HERNIA,), "I was so worried for you. How did the op go?"),
        ((HERNIA,), "I'm worried about you, is he home yet?"),
        ((HERNIA,), "Hey! I'm here. How did wednesday go?"),
        ((SHIYOU,), "我也替你紧张。当面说清楚也好。"),
        ((SHIYOU,), "我很担心你，后来说清楚了吗？"),
        ((SHIYOU,), "我知道这种事很难，慢慢来。"),
    ],
)  # fmt: skip
def test_the_companions_own_feeling_for_them_passes(quoted: tuple[str, ...], reply: str) -> None:
    for seed in range(5):
        gate = VoiceGate(Voice("home finally", quoted=quoted), "")
        assert streamed(gate, reply, seed) == reply and gate.broken is None


def test_a_daemon_counts_a_parrot_and_asks_again(tmp_path: Path) -> None:
    """The scripted provider's [[say:…]] stands in for the 1.5B that answered the demo's evening
    line with itself: dropped, asked again, the same again: the words are kept and it is counted."""
    env = {"XAID_LLM_VOICE_CHECK": "on"}
    with InProcessDaemon(tmp_path / "d", env=env) as d, d.client() as c:
        c.agent_create("mia", name="小雅")
        sid = c.session_open("mia")["session_id"]
        c.session_send(sid, f"{DEMO_EVENING}[[say:{DEMO_EVENING}]]").finish()
        stats = c.stats()["memory"]
    assert stats["voice_parrot"] == 2 and stats["voice_retries"] == 1


# --- voice6: a parrot read as an alignment, the first person, names at character level --------------

# `make demo`'s Chinese evening (issue 25): the 1.5B's answer to the second line, one word swapped
# (经理 -> 领导, 讲 -> 说) and a tail added; 59 % of its character pairs are the user's, under the old 70 %.
DEMO_SLEEPY_ZH = "只想睡觉。明天还得跟经理讲清楚修复方案。"
DEMO_REPLY_ZH = "只想睡觉，明天还得跟领导说清楚修复方案，真是辛苦了！"
DEMO_SLEEPY_EN = "I just want to sleep. Tomorrow I have to walk my manager through the fix."


def test_the_demos_near_copy_aligns_as_the_users_words() -> None:
    found = max(echo.align(DEMO_REPLY_ZH, DEMO_SLEEPY_ZH), key=lambda e: min(e.share, e.coverage))
    assert found.first == 0 and found.share >= 0.6 and found.coverage >= 0.8
    friend = "先好好睡一觉，明天跟经理讲修复方案之前再看一遍。"
    assert all(e.first > 3 or e.share < 0.6 for e in echo.align(friend, DEMO_SLEEPY_ZH))


@pytest.mark.parametrize(
    ("said", "reply", "sent"),
    [
        (DEMO_SLEEPY_ZH, DEMO_REPLY_ZH, ""),
        (DEMO_SLEEPY_ZH, "嗯嗯，只想睡觉，明天还要跟经理把修复方案讲清楚。", ""),
        # the 1.5B with the copy block on (perf voice_live, seed 1): the short first sentence is
        # theirs whole, the second walks through theirs ("tomorrow", 講) and adds its own tail
        (DEMO_SLEEPY_ZH, "只想睡觉。 tomorrow还得跟经理講清楚修复方案，确保一切都安排妥当。", ""),
        (DEMO_SLEEPY_ZH, "晚安！只想睡觉，明天还得跟领导说清楚修复方案，你真是辛苦了！", "晚安！"),
        (DEMO_SLEEPY_EN, "Just want to sleep, tomorrow still have to walk the boss through the fix, rough!", ""),
        ("IELTS next Wednesday and my speaking is still shaky.",
         "Good luck! IELTS is next Wednesday and the speaking is still shaky.", "Good luck! "),
        ("今天 presentation 搞砸了，手一直抖 orz", "今天presentation搞砸了，手一直在抖。", ""),
    ],
)  # fmt: skip
def test_a_near_copy_with_a_word_swapped_or_a_tail_added_is_not_sent(
    said: str, reply: str, sent: str
) -> None:
    for seed in range(10):
        gate = VoiceGate(Voice(said))
        assert streamed(gate, reply, seed) == sent == gate.kept, seed
        assert gate.broken == "parrot"


@pytest.mark.parametrize(
    ("said", "reply"),
    [
        # a phrase picked up and answered, not the message walked through
        ("下午去医院复查，医生说恢复得不错。", "医生说恢复得不错，太好了！这段时间辛苦你了。"),
        ("老板今天当着全组的面批评我，好丢人。", "当着全组的面批评人，是他做得不对。"),
        (DEMO_SLEEPY_ZH, "你说明天还得跟经理讲清楚修复方案，那今晚就早点睡吧。"),
        (DEMO_SLEEPY_ZH, "明天还要跟经理讲修复方案啊？今晚别熬了。"),
        (DEMO_SLEEPY_EN, "You have to walk your manager through the fix tomorrow, so sleep now."),
        (EVENING_ZH, "终于到家了，好好休息一下。"),  # a short sentence of theirs, then its own
        ("My boss called me out in front of the whole team today. So embarrassing.",
         "Calling you out in front of the whole team wasn't fair of him."),
        ("IELTS next Wednesday and my speaking is still shaky.", "Next Wednesday already? You've got this."),
        # the companion's own feeling about the user's news, in the first person
        ("Check-up this afternoon, the doctor says I'm healing well.", "I'm so glad the check-up went well."),
        ("Hey, I'm back.", "Welcome back! How did the client meeting go?"),
        ("Hey, I'm back.", "Hey, welcome back! I missed you."),
        ("下午去医院复查，医生说恢复得不错。", "恢复得不错，我放心多了。"),
        ("今天开会我把PPT放反了，全场安静三秒。", "哈哈，我笑死了，三秒也太长了。"),
        # the user's words quoted as theirs (the 0.5B, perf voice_live), or inside a longer answer
        ("我妈又催我相亲了，说过年前必须带个人回去。", "你记得：“我妈妈又催我相亲了，说过年前必须带个人回去。”"),
        ("My mom keeps pushing me to date, says I need to bring someone home by Christmas.",
         'You remember: "My mom keeps pushing me to date." Maybe tell her how you feel?'),
        ("周末要搬家，东西还一点没收拾，烦死了", "先列个清单吧。如果还觉得有遗漏的，可以找朋友帮忙。"),
    ],
)  # fmt: skip
def test_a_friend_who_picks_up_the_users_words_is_sent_whole(said: str, reply: str) -> None:
    for seed in range(10):
        gate = VoiceGate(Voice(said))
        assert streamed(gate, reply, seed) == reply and gate.broken is None, seed


@pytest.mark.parametrize(
    ("said", "reply", "sent"),
    [
        ("just ran 5k, my legs are jelly lol", "Nice! My legs are jelly too lol.", "Nice! "),
        ("My mom keeps pushing me to date.", "Ugh. My mom does the same, she never stops pushing.", "Ugh. "),
        ("cant sleep lately, still scrollin my phone at 3am", "Same. I can't sleep either.", "Same. "),
        ("刚跑完五公里，腿都软了哈哈", "厉害！我腿也软了，跑不动了。", "厉害！"),
        # the 1.5B's whole answer to the demo's first evening line (perf voice_live, seed 1)
        (EVENING_ZH, "终于到家啦，我真是累得要命了。电话会一直开着，直到晚上九点。", "终于到家啦"),
        # the user's first person inside a copied run (the 0.5B's answer, perf voice_live)
        ("老板今天当着全组的面批评我，好丢人。", "唉。老板批评我，很丢人。", "唉。"),
    ],
)  # fmt: skip
def test_the_users_words_said_of_oneself_are_not_sent(said: str, reply: str, sent: str) -> None:
    for seed in range(10):
        gate = VoiceGate(Voice(said))
        assert streamed(gate, reply, seed) == sent == gate.kept, seed
        assert gate.broken in ("role", "parrot")


@pytest.mark.parametrize(
    ("names", "sentence", "broken"),
    [
        (("林晓",), "晓林的婚礼准备得怎么样了？", True),  # swapped
        (("王思远",), "王思元那边有消息了吗？", True),  # one character changed after the surname
        (("周敏", "杭州"), "周敏杭玩得开心吗？", True),  # run into the next name's start
        (("Harbor Foods",), "Did Harbour Food like the pitch?", True),
        (("Hangzhou", "Priya"), "Have fun in Hangzou with Priya!", True),
        (("林晓",), "林晓五月结婚的话，送一套餐具吧。", False),
        (("周敏", "杭州"), "跟周敏去杭州玩，太好了！", False),
        (("Harbor Foods",), "How did the Harbor Foods pitch go?", False),
        (("Priya", "Hangzhou"), "Hangzhou with Priya sounds lovely.", False),
    ],
)
def test_a_name_from_memory_is_compared_character_by_character(
    names: tuple[str, ...], sentence: str, broken: bool
) -> None:
    assert any(name_broken(sentence, n, names) for n in names) is broken
    gate = VoiceGate(Voice("嗯", names))
    assert (streamed(gate, sentence, 3) == sentence) is not broken
    assert gate.broken == ("name" if broken else None)


def test_a_daemon_drops_the_demos_near_copy_and_counts_it(tmp_path: Path) -> None:
    """The scripted provider's [[say:…]] stands in for the 1.5B's answer to `make demo`'s line; the
    directive is part of the user's text here, so this checks the daemon's part (dropped, asked
    again, counted as a parrot), the gate tests above check the rule."""
    env = {"XAID_LLM_VOICE_CHECK": "on"}
    with InProcessDaemon(tmp_path / "d", env=env) as d, d.client() as c:
        c.agent_create("mei", name="小梅")
        sid = c.session_open("mei")["session_id"]
        result = c.session_send(sid, f"{DEMO_SLEEPY_ZH}[[say:{DEMO_REPLY_ZH}]]").finish()
        stats = c.stats()["memory"]
    assert stats["voice_parrot"] == 2 and stats["voice_retries"] == 1
    # asked twice (the second time from the listener's "听起来"), the same twice: kept rather than
    # nothing, and read as what the companion heard
    assert result["text"] == "听起来" + DEMO_REPLY_ZH


@pytest.mark.parametrize(
    ("own", "reply", "sent"),
    [
        ("Mia", "That's good, Mia. I hope you can rest now.", "That's good"),  # perf voice_live
        ("Mia", "Sure, I understand how hard it is, Mia. Take it slow.", "Sure"),  # from the "I"
        ("Mia", "Mia is here for you. Rest up.", "Mia is here for you. Rest up."),
        ("小梅", "辛苦了，小梅。早点睡。", "辛苦了"),
        ("小梅", "我是小梅，一直都在。", "我是小梅，一直都在。"),
    ],
)
def test_the_companion_never_speaks_to_itself_by_its_own_name(
    own: str, reply: str, sent: str
) -> None:
    for seed in range(5):
        gate = VoiceGate(Voice("今天好累。I'm beat.", own=own))
        assert streamed(gate, reply, seed) == sent, seed
        assert gate.broken == (None if sent == reply else "role")


# The user's clauses said back in another order: an alignment keeps one order and saw one clause;
# the token pairs (echo.pairs) see them all. Scripted replies standing in for the 0.5B's parrots
# of perf/scenarios/voice_dev8.json, in other wordings; the friends' replies share words, not pairs.
FLAT_TIRE = "Got a flat tire on the highway and waited two hours for the tow truck."


@pytest.mark.parametrize(
    ("said", "reply"),
    [
        ("论文被导师打回来了，要重写第三章。", "要重写第三章，论文被导师打回来了。"),
        ("周末要去爬山，天气预报说会下雨。", "天气预报说会下雨，周末要去爬山。"),
        (FLAT_TIRE, "Waited two hours for the tow truck after a flat tire on the highway."),
    ],
)
def test_the_users_words_in_another_order_are_a_parrot(said: str, reply: str) -> None:
    for seed in range(10):
        gate = VoiceGate(Voice(said))
        assert streamed(gate, reply, seed) == "" and gate.broken == "parrot", seed


@pytest.mark.parametrize(
    ("said", "reply"),
    [
        ("今天跟同事吵了一架，现在还在生气。", "你现在还在生气，是因为今天跟同事吵了一架吧？"),
        ("今天跟同事吵了一架，现在还在生气。", "现在还在生气的话，今晚先别想了，明天再跟同事聊。"),
        ("周末要去爬山，天气预报说会下雨。", "下雨爬山要小心路滑，记得带雨衣。"),
        (FLAT_TIRE, "Two hours for a tow truck, what a day. Are you home now?"),
        (FLAT_TIRE, "A flat tire on the highway is scary, glad you got a tow in the end."),
    ],
)
def test_a_friend_picking_up_their_words_in_another_order_passes(said: str, reply: str) -> None:
    for seed in range(10):
        gate = VoiceGate(Voice(said))
        assert streamed(gate, reply, seed) == reply and gate.broken is None, seed


def test_token_pairs_ignore_order_and_never_span_a_clause_mark() -> None:
    [whole, *_] = echo.pairs(
        "现在还在生气，今天跟同事吵了一架。", "今天跟同事吵了一架，现在还在生气。"
    )
    assert whole.share == whole.coverage == 1.0
    [apart, *_] = echo.pairs("生，气", "生气")
    assert apart.length == 0 and apart.coverage == 0.0


def test_yi_after_a_name_starts_a_word_not_a_fused_numeral() -> None:
    assert not name_broken("跟周敏去杭州一定很好玩！", "杭州", ("周敏", "杭州"))
    assert name_broken("林晓五的婚礼你打算送什么？", "林晓")


def test_an_english_sentence_that_says_whose_words_they_are_passes() -> None:
    """ "Last time", "yesterday you", "you said" are read as words: the pattern held backspace
    characters where word boundaries were meant, and only the Chinese forms ever matched."""
    said = "The printer jammed twice and the meeting ran two hours over."
    bare = "The printer jammed twice and the meeting ran two hours over, what a day."
    assert Voice(said).breaks(bare, True) == "parrot"
    for opener in ("Last time", "Yesterday you said", "You said"):
        told = f"{opener} the printer jammed twice and the meeting ran two hours over, what a day."
        assert Voice(said).breaks(told, True) is None


# --- the second ask begun with the listener's words ----------------------------------------------


@pytest.mark.parametrize(
    ("said", "broken", "lead"),
    [
        (DEMO_EVENING, "parrot", "听起来"),
        ("Home at last. I'm exhausted: the release slipped again.", "role", "That sounds"),
        ("Lost the match again today.", "cheer", "That sounds"),
        ("你还记得我妹妹叫什么吗？", "parrot", ""),  # a question: its answer is no impression
        ("Do you remember my sister's name?", "role", ""),
        (DEMO_EVENING, "name", ""),  # a garbled name: the plain second ask mends it
        (DEMO_EVENING, None, ""),
    ],
)  # fmt: skip
def test_the_listeners_lead_follows_a_break_in_the_users_voice(
    said: str, broken: str | None, lead: str
) -> None:
    assert listener_lead(said, broken) == lead


def test_a_retry_begun_with_the_listeners_words_checks_them_as_the_models_own() -> None:
    gate = VoiceGate(Voice(DEMO_EVENING))
    assert gate.feed("只想睡觉。") == "" and gate.broken == "parrot"
    prefix = gate.retry("听起来")
    assert (
        prefix == "听起来"
    )  # nothing was sent: the provider is asked to go on from the lead alone
    # The provider echoes the whole prefix; the lead is the model's sentence start, held and
    # checked with the rest: sent with a sentence that passes...
    assert (
        gate.feed("听起来") + gate.feed("今天真的很累，早点休息。")
        == "听起来今天真的很累，早点休息。"
    )
    assert gate.broken is None
    # ...the user's words after it are what the companion heard ("sounds like: only wants to sleep")...
    heard = VoiceGate(Voice(DEMO_EVENING))
    heard.feed("只想睡觉。")
    heard.retry("听起来")
    assert heard.feed("听起来") + heard.feed("只想睡觉。") == "听起来只想睡觉。"
    # ...and a sentence that breaks again is dropped with it, never left alone on the screen.
    again = VoiceGate(Voice(DEMO_EVENING))
    again.feed("只想睡觉。")
    again.retry("听起来")
    assert (
        again.feed("听起来") + again.feed("我好累，我只想睡觉。") == "" and again.broken == "role"
    )


@pytest.mark.parametrize(
    ("said", "parrot", "lead"),
    [
        ("终于到家了。我筋疲力尽：版本又延期了，电话会一直开到九点。", "终于到了家。", "听起来"),
        ("Home at last. I'm exhausted.", "Home at last.", "That sounds"),
    ],
)
def test_a_daemon_asks_again_from_the_listeners_words_after_a_parrot(
    tmp_path: Path, said: str, parrot: str, lead: str
) -> None:
    """The scripted provider's [[say:…]] stands in for the 1.5B that answered `make demo`'s Chinese
    evening with the user's own words twice: the second ask goes on from the listener's lead (the
    scripted model says its words again after it, so the give-up shows what the user reads then)."""
    env = {"XAID_LLM_VOICE_CHECK": "on"}
    with InProcessDaemon(tmp_path / "d", env=env) as d, d.client() as c:
        c.agent_create("mia", name="小雅")
        sid = c.session_open("mia")["session_id"]
        text = c.session_send(sid, f"{said}[[say:{parrot}]]").finish()["text"]
        stats = c.stats()["memory"]
    assert stats["voice_listener_leads"] == 1 and stats["voice_retries"] == 1
    assert text.startswith(lead)


@pytest.mark.parametrize(
    ("memory", "words"),
    [
        # a word before a date or an hour said with a numeral, whatever word comes before it
        (["表姐周琳八号结婚，非让我当伴娘"], ("周琳",)),
        (["周四下午跟客户陈立三点开会谈续约"], ("陈立",)),
        (["我妹林晓五月结婚"], ("林晓",)),
        # a time itself, a weekday, a function word before a count: no word of memory
        (["明天下午三点开会", "每周五次健身", "还有三天就考试了", "我们第三次见面"], ()),
        # English writes its numbers apart: nothing to fuse
        (["dinner with Marcus on the 3rd", "Professor Okafor at 2"], ()),
    ],
)
def test_the_words_of_memory_before_a_numeral(memory: list[str], words: tuple[str, ...]) -> None:
    """morning15 (issue 25 gap 4): names_in knows 林晓 only after 跟/找/叫/朋友…; a word before a
    numeral and its unit is read wherever it stands (表姐周琳八号, 客户陈立三点)."""
    from xaid.conversation.voice import numeral_words_in

    assert numeral_words_in(memory) == words


@pytest.mark.parametrize(
    ("reply", "broken"),
    [
        ("早！周琳八的婚礼准备得怎么样了？", True),
        ("嗨，陈立三的续约谈得怎么样？", True),
        ("早！周琳八号的婚礼准备得怎么样了？", False),
        ("嗨，跟陈立三点的会开得怎么样？", False),
        ("Morning! How did dinner with Marcus on the 3rd go?", False),
    ],
)
def test_a_word_run_into_its_numeral_is_dropped(reply: str, broken: bool) -> None:
    from xaid.conversation.voice import numeral_words_in

    words = numeral_words_in(
        ["表姐周琳八号结婚", "跟客户陈立三点开会谈续约", "dinner with Marcus on the 3rd"]
    )
    for seed in range(10):  # however the stream is cut
        gate = VoiceGate(Voice("早", ("Marcus",), numeral_words=words))
        streamed(gate, reply, seed)
        assert (gate.broken == "name") is broken


ZH_EVENING = "终于到家了。我筋疲力尽：版本又延期了，电话会一直开到九点。"
EN_EVENING = "Home at last. I'm exhausted: the release slipped again and I was on calls until nine."


@pytest.mark.parametrize(
    ("said", "reply", "restated"),
    [
        # `make demo`'s Chinese evening: the user's fact said back as the companion's own (gap 1)
        (ZH_EVENING, "电话会一直持续到晚上九点。", True),
        (ZH_EVENING, "版本又延期了，电话会开到九点。", True),
        (EN_EVENING, "The release slipped again and the calls went until nine.", True),
        # a friend responds: a clause of its own, a question, the listener, whose words they are
        (ZH_EVENING, "电话会开到九点，真辛苦。", False),
        (ZH_EVENING, "九点才结束，太辛苦了！", False),
        (ZH_EVENING, "你终于回家了，好好休息。", False),
        (EN_EVENING, "Calls until nine, that's brutal.", False),
        (EN_EVENING, "The release slipped again? Ugh.", False),
        (EN_EVENING, "Sounds like you were on calls until nine.", False),
    ],
)
def test_a_fact_of_theirs_restated_as_the_companions_own(
    said: str, reply: str, restated: bool
) -> None:
    from xaid.conversation.voice import restates

    assert restates(reply, [said]) is restated
    gate = VoiceGate(Voice(said))
    streamed(gate, reply, 3)
    assert (gate.broken == "parrot") is restated


@pytest.mark.parametrize(
    ("said", "broken", "again"),
    [
        (
            "That is a fun idea! How can I assist you today?",
            "assistant",
            " Maybe a walk by the river?",
        ),
        (
            "That is a fun idea! As an AI language model, I have no plans. ",
            "role",
            " Maybe a walk?",
        ),
        ("好主意！作为一个AI语言模型，我没有周末。", "assistant", " 要不去河边走走？"),
    ],
)
def test_a_retry_after_a_dropped_sentence_leaves_one_space_not_two(
    said: str, broken: str, again: str
) -> None:
    gate = VoiceGate(Voice("Any plans for the weekend? 周末有什么打算？"))
    for piece in (said[:10], said[10:25], said[25:]):
        gate.feed(piece)
    assert gate.broken == broken  # the sentence and the space before it: sent, then dropped
    prefix = gate.continue_after()
    assert gate.feed(prefix) == ""
    shown = gate.feed(again) + gate.finish()
    assert shown.strip() == again.strip()
    assert "  " not in gate.kept and gate.kept.endswith(again.strip())
