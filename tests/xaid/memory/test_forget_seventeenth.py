"""The seventeenth pass's readings of a request to forget, without a daemon (issue 24 item 2), in
both languages; each case of a request fails on the code before (the look-alikes' cases are guards
and pass either way):

- "don't bring it up again" / 别再提 opens the gate (the classifier then decides), and so do
  不提了/划掉 said of the user's words to the companion or of a matter; a reminder (别再提醒我),
  "don't bring it up with my mum", "别提了，今天倒霉透了" and a quarrel dropped among others do not;
- "forgot to tell you, …" / 忘了告诉你 is the user's own forgetting: no gate, and a ``self`` cue;
- a Chinese request that names only "that" once its request words are off is about the previous
  message, not a topic of its own words;
- a plan changed in the same breath ("算了，周末不去露营了，当我没说") does not point at words said.
"""

from __future__ import annotations

import pytest

from xaid.memory import forget_intent, forget_request

SELF = forget_intent.CUE_NAMES.index("self")


@pytest.mark.parametrize(
    "text",
    [
        "the thyroid thing, can you not bring it up again",
        "please stop bringing it up, the whole cousin mess",
        "体检结果那事你别再提了",
        "这个你以后别再提了啊",
    ],
)
def test_not_bringing_it_up_again_opens_the_gate(text: str) -> None:
    assert forget_intent.goes(text)


@pytest.mark.parametrize(
    "text",
    [
        "跟你吐槽的我妈那些事，不提了",
        "那天跟你说我想辞职的事，划掉吧",
        "我说的那些话你就别往心里去了",
        "my cousin's stuff, please stop bringing it up",
    ],
)
def test_letting_words_drop_from_talk_opens_the_gate(text: str) -> None:
    assert forget_intent.goes(text)


@pytest.mark.parametrize(
    "text",
    [
        "don't bring it up with my mum please, she'll worry",
        "别再提醒我喝水了，烦死了",
        "别提了，今天倒霉透了",
        "算了不提了，说点开心的",
        "洗碗那事我们说好了翻篇，不提了",
    ],
)
def test_raising_something_else_opens_no_gate(text: str) -> None:
    assert not forget_intent.goes(text)


@pytest.mark.parametrize(
    "text",
    [
        "forgot to tell you, I switched to the night shift",
        "oh I forgot to tell you, Sam is moving",
        "忘了告诉你，我换到面包店上夜班了",
        "对了，忘了跟你说，我搬家了",
    ],
)
def test_forgot_to_tell_you_is_the_users_own_forgetting(text: str) -> None:
    assert not forget_intent.goes(text)
    assert forget_intent.shape(text, framed=False)[SELF] == 1.0


@pytest.mark.parametrize(
    "text", ["唉，刚说的就当没发生过吧", "这个你以后别再提了啊", "算了，这段你别存了"]
)
def test_a_chinese_request_naming_only_that_is_about_the_previous_message(text: str) -> None:
    assert forget_request.read_unframed(text).kind == "previous"


@pytest.mark.parametrize(
    ("text", "phrase"),
    [("那个相亲男的事，就当我没说过", "相亲男"), ("丢工作那事，别再提了", "丢工作")],
)
def test_a_chinese_request_keeps_its_topic(text: str, phrase: str) -> None:
    found = forget_request.read_unframed(text)
    assert (found.kind, found.phrase) == ("topic", phrase)


@pytest.mark.parametrize(
    ("text", "points"),
    [
        ("算了，周末不去露营了，当我没说，要下雨", False),
        ("we're not going camping after all, forget what I said about it", False),
        ("老公的事不提了，你也别记着了", True),
        ("the bit about my dad, please don't keep it", True),
    ],
)
def test_a_plan_changed_in_the_same_breath_points_at_no_words(text: str, points: bool) -> None:
    assert forget_intent.points_at_words(text) is points
