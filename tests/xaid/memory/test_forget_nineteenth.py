"""The nineteenth pass's readings of a request to forget, without a daemon (issue 24 item 2), in
both languages; each request case fails on the code before (the look-alikes are guards):

- a stretch of talk named by a demonstrative and a measure word (这条, 那段, 那两句, 那句:
  forget_request.TALK_REF_ZH) is words said, whatever verb takes it: 删了, 撤回, 不算, and a
  "never mind" (算了) before it does not make it one; 别存着 is not keeping, as 别记着 is;
- a drop or a void of such a stretch opens the gate ("那个事你就别放心上了", "刚才那段不算"), a game
  voided ("刚才那局不算") does not;
- a forget under a negation is a reminder ("别弄忘了", "don't let me forget"): no gate, and the
  ``remind`` cue, while "你能不能忘掉" still opens it;
- a function character in a request's person is no longer stripped as a polite lead:
  "对象借网贷的事" keeps 对象 (forget_request._ZH_POLITE no longer holds a bare 对).
"""

from __future__ import annotations

import pytest

from xaid.memory import forget_intent, forget_request

REMIND = forget_intent.CUE_NAMES.index("remind")


@pytest.mark.parametrize(
    "text",
    ["这条你删了吧，说多了", "算了算了，刚才那几句撤回", "刚那段不算", "前面那两句作废"],
)
def test_a_stretch_of_talk_named_by_a_measure_word_is_the_previous_words(text: str) -> None:
    found = forget_request.parse(text)
    assert found is not None and found.kind == "previous" and found.lang == "zh"


@pytest.mark.parametrize(
    ("text", "topic"),
    [
        ("在酒吧门口哭的事，你别存着了，太丢人", "在酒吧门口哭"),
        ("对象借网贷的事你别存着了", "对象借网贷"),
        ("关于我表姐离婚那档子事，你也别存着了", "表姐离婚"),
        ("周日下午吐槽房东的那些统统忘掉", "吐槽房东"),
    ],
)
def test_a_topic_kept_with_its_whole_words(text: str, topic: str) -> None:
    found = forget_request.parse(text)
    assert found is not None and found.kind == "topic"
    assert topic in found.phrase and "统统" not in found.phrase


@pytest.mark.parametrize(
    "text",
    ["上一把那局不算，重新开", "那些截图统统删掉", "算了，忘了吧", "这局不算，我们再来一把"],
)
def test_a_game_or_a_thing_or_a_bare_never_mind_is_no_request(text: str) -> None:
    assert forget_request.parse(text) is None


@pytest.mark.parametrize("text", ["我爸住院那个事，你就别放心上了", "唉，前面那几句不算"])
def test_a_drop_or_a_void_of_talk_named_opens_the_gate(text: str) -> None:
    assert forget_intent.goes(text)


@pytest.mark.parametrize(
    "text",
    [
        "水电费周五到期，你帮我记一下，别弄忘了",
        "千万别让我忘了下周二的体检",
        "这事你可得记牢了，别给我搞忘了",
        "上一把那局不算，重新开",
        "don't let me forget the plumber on monday",
        "dont forget my mum's birthday is friday",
    ],
)
def test_a_reminder_or_a_game_opens_no_gate(text: str) -> None:
    assert not forget_intent.goes(text)


@pytest.mark.parametrize("text", ["房租周五交，别弄忘了", "千万别给我搞忘了"])
def test_a_negated_forget_is_a_reminder_cue(text: str) -> None:
    assert forget_intent.shape(text)[REMIND] == 1.0


@pytest.mark.parametrize(
    "text", ["阿伟的事你能不能忘掉", "don't forget it, delete that last message", "别忘了删掉那条"]
)
def test_another_verb_or_a_polite_question_still_opens_it(text: str) -> None:
    assert forget_intent.goes(text)


def test_the_clause_with_a_verb_of_removing_is_the_request_clause() -> None:
    text = "昨晚聊的那些就算了吧，早上已经和好了，别留着"
    assert forget_intent.request_clause(text) == "别留着"
    assert forget_intent.request_clause("唉，前面那几句不算") == "前面那几句不算"


@pytest.mark.parametrize("text", ["阿伟的事你能不能把它忘了", "能不能给我忘掉那段"])
def test_a_polite_can_you_forget_is_no_reminder(text: str) -> None:
    assert forget_intent.shape(text)[REMIND] == 0.0
    assert forget_intent.goes(text)
