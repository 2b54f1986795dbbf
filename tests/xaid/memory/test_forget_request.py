"""The rules that recognise a request to forget, said in conversation (xaid.memory.forget_request)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from xaid.memory import forget_prototypes, forget_request
from xaid.memory.forget import term_matcher
from xaid.memory.forget_request import (
    ForgetRequest,
    by_meaning,
    instruction,
    parse,
    placeholder,
    unframed,
)

TOPIC_EN: list[tuple[str, tuple[str, ...]]] = [
    ("Forget what I told you about my ex.", ("ex",)),
    ("Delete what I said about the loan.", ("loan",)),
    ("Could you forget what I said about my sister's wedding?", ("sister", "wedding")),
    ("Please forget everything I told you about my job at Globex.", ("job", "globex")),
    ("Please forget about my ex.", ("ex",)),
    ("Can you forget the stuff about the loan?", ("loan",)),
    ("Erase what I told you about Tom.", ("tom",)),
    ("I want you to forget what I said about my ex.", ("ex",)),
    ("Delete my ex from your memory.", ("ex",)),
    ("Ok. Please forget that I mentioned the loan.", ("loan",)),
]
PREVIOUS_EN = [
    "Please don't remember that.",
    "forget that",
    "Actually, forget what I just said.",
    "Please delete that from your memory.",
    "Don't keep that.",
    "Forget I said that.",
    "You don't need to remember that.",
    "Forget what I told you about him.",
]
TOPIC_ZH: list[tuple[str, tuple[str, ...]]] = [
    ("把我前男友的事忘了吧", ("前男友",)),
    ("请把关于贷款的事都删了", ("贷款",)),
    ("你能不能把我说的关于前男友的事忘掉", ("前男友",)),
    ("忘掉我前男友的事吧", ("前男友",)),
    ("把我跟你说过的关于贷款的那些事都忘了吧", ("贷款",)),
    ("别记住我前男友的事", ("前男友",)),
]
PREVIOUS_ZH = [
    "别记这个",
    "把刚才那句话删掉",
    "刚才说的别记了",
    "不要记住这件事",
    "这个别记",
    "删掉刚才那句",
    "好吧，把这件事忘了吧",
    "不用记这个了",
    "把我刚才说的话删了吧",
    # A frame whose topic is only a sigh or "that" names nothing (session 34): what was just said.
    "算了算了当我没说，吐槽完舒服多了，这段别存哈",
    "哎呀 刚那个你别记哈",
]
NEGATIVE_EN = [
    "I forgot my keys.",
    "I always forget her birthday.",
    "Don't forget to remind me.",
    "Forget it, it doesn't matter.",  # "never mind": the subject is dropped, nothing is deleted
    "Never mind, forget it.",
    "Forget about it.",
    "Forget that, it doesn't matter.",
    "I'll never forget that day.",
    "Did you forget what I told you about my ex?",
    "Do you remember my ex?",
    "He wants to forget what happened.",
    "Please remember that.",
    "I can't remember that.",
    "Delete the old photos on my phone.",
    "I want to forget this whole year.",
    "Don't forget my birthday!",
    "Let's forget about work tonight.",
    "You'll forget me one day, won't you?",
    "Forget about the loan, I'll pay it off next month.",
    "I need to forget my ex.",
    "Remind me to delete the email.",
    "I deleted that app yesterday.",
]
NEGATIVE_ZH = [
    "我忘了带钥匙",
    "别忘了提醒我",
    "我老是忘事",
    "我总是忘记她的生日",
    "你忘了我说过的话吗？",
    "不要忘记吃药",
    "我永远不会忘记那一天",
    "算了，忘了吧",
    "忘了吧，不重要",
    "我想忘掉他",
    "把照片删掉",
    "帮我删掉这个文件",
    "别删我的文件",
    "别记恨他",
    "别记错了时间",
    "忘记密码了怎么办",
    "她把我忘了",
    "你还记得我前男友吗",
    "我不想记住这些",
    "记住这个",
    "你可别忘了",
]


@pytest.mark.parametrize(("text", "terms"), TOPIC_EN + TOPIC_ZH)
def test_a_named_topic_is_recognised_with_its_words(text: str, terms: tuple[str, ...]) -> None:
    found = parse(text)
    assert found is not None and found.kind == "topic" and found.terms == terms


@pytest.mark.parametrize("text", PREVIOUS_EN + PREVIOUS_ZH)
def test_that_is_the_previous_message(text: str) -> None:
    found = parse(text)
    assert found is not None and found.kind == "previous" and found.terms == ()


@pytest.mark.parametrize("text", NEGATIVE_EN + NEGATIVE_ZH)
def test_forget_words_that_ask_nothing_do_not_fire(text: str) -> None:
    assert parse(text) is None


def test_the_sets_are_as_large_as_promised() -> None:
    assert len(TOPIC_EN) + len(PREVIOUS_EN) >= 8 and len(TOPIC_ZH) + len(PREVIOUS_ZH) >= 8
    assert len(NEGATIVE_EN) >= 10 and len(NEGATIVE_ZH) >= 10


def test_the_language_of_the_request_is_the_language_of_what_is_kept_and_said() -> None:
    en, zh = parse("forget that"), parse("别记这个")
    assert en is not None and zh is not None and (en.lang, zh.lang) == ("en", "zh")
    assert placeholder(en) == "(the user asked to forget something)"
    assert placeholder(zh) == "（用户请求忘记一些内容）"
    assert "you have forgotten it" in instruction(en, 3) and "已经忘掉了" in instruction(zh, 3)
    assert "nothing matching" in instruction(en, 0)
    assert ForgetRequest("topic", ("前男友",), "zh").what == "前男友"
    assert ForgetRequest("topic", ("job", "globex")).what == "job globex"
    assert en.what is None


def test_topic_words_match_as_words_and_chinese_as_written() -> None:
    ex = term_matcher(("ex",))
    assert ex("My ex is called Tom.") and ex("my EX's flat") and ex("echo: my ex")
    assert not ex("See you next week") and not ex("I expect rain") and not ex(None)
    both = term_matcher(("job", "globex"))
    assert both("My job at Globex is dull") and not both("My job is dull")
    assert term_matcher(("前男友",))("我前男友叫汤姆") and not term_matcher(("前男友",))(
        "我男朋友叫汤姆"
    )


@pytest.mark.parametrize(
    ("text", "kind", "terms"),
    [
        ("刚才那句话删掉吧", "previous", ()),
        ("那段话忘了吧", "previous", ()),
        ("关于工资的事，别记了", "topic", ("工资",)),
    ],
)
def test_chinese_object_first_and_a_topic_named_before_the_request(
    text: str, kind: str, terms: tuple[str, ...]
) -> None:
    request = parse(text)
    assert request is not None and request.kind == kind and request.terms == terms


@pytest.mark.parametrize(
    "text", ["那张照片删掉", "这个文件删掉吧", "算了，那个忘了吧", "关于工资，我还没想好"]
)
def test_object_first_tasks_and_never_mind_are_not_requests(text: str) -> None:
    assert parse(text) is None


@pytest.mark.parametrize(
    ("text", "kind", "phrase"),
    [
        (
            "What I told you the other night about my cousin's money trouble, please forget it.",
            "topic",
            "my cousin's money trouble",
        ),
        ("Pretend I never said anything about my salary.", "topic", "my salary"),
        ("Pretend I never said that.", "previous", ""),
        ("I'd rather you didn't remember what I told you about my old school friend.", "topic", "my old school friend"),
        ("Don't remember the thing about my back, it's embarrassing.", "topic", "my back"),
        ("forget what I said yesterday about how much I earn", "topic", "how much i earn"),
        ("上回说的那个老同学的事，你就当没听过吧", "topic", "老同学"),
        ("工资那件事就当我没说过", "topic", "工资"),
        ("那天晚上跟你说的我表哥欠钱的事，忘掉吧", "topic", "表哥欠钱"),
        ("上周说的跟我妈吵架的事，删掉吧", "topic", "跟我妈吵架"),
        ("把徒步旅行的计划从你记忆里删掉", "topic", "徒步旅行的计划"),
        ("我朋友的那些事你都忘了吧", "topic", "朋友"),
    ],
)  # fmt: skip
def test_general_frames_name_their_topic_without_its_time(
    text: str, kind: str, phrase: str
) -> None:
    """Issue 24 item 2: said the way people say it; the time words go to forget_topic, not the topic."""
    request = parse(text)
    assert request is not None and request.kind == kind and request.phrase == phrase


@pytest.mark.parametrize(
    "text",
    [
        "Forget about the meeting for a sec and help me write this email.",
        'She said "just forget about him" and walked off.',
        "How do I make myself forget someone?",
        "Let's pretend it's summer and plan a beach day.",
        "就当是放假吧，今天什么都不想干",
        "她跟我说“忘了他吧”，然后就走了",
        "先别管会议的事了，帮我写封邮件",
    ],
)
def test_the_general_frames_do_not_fire_on_their_look_alikes(text: str) -> None:
    assert parse(text) is None


# -- By meaning, after the frames (issue 24 item 2, second pass) -----------------------------------
# Requests no frame takes, in wordings that are in neither dev set: the cue words open the door and
# the real default embedder (USE-multilingual-v3) decides against the prototypes.
SAID_EN: list[tuple[str, tuple[str, ...]]] = [
    (
        "I'd sleep better if you let go of what I said about my aunt's drinking.",
        ("aunt", "drinking"),
    ),
    ("The stuff about Marco's visa, could you not hold on to it?", ("marco", "visa")),
    ("Toss what I told you about my overdraft.", ("overdraft",)),
    ("I'd rather the bit about my knee surgery didn't stay with you.", ("knee", "surgery")),
]
SAID_ZH: list[tuple[str, str]] = [
    ("我舅妈住院那事儿，你就别往心里记了", "舅妈住院"),
    ("前几天跟你讲的我房贷的事，你给我清掉", "房贷"),
    ("上礼拜我提过我奶奶的病，你就别存档了", "奶奶的病"),
]
# Look-alikes with the same words: a report, a reminder, a wish, a question, a task, quoted speech.
LOOKALIKES_SAID = [
    "I forgot what I told you about my aunt, was it Tuesday?",
    "Don't forget what I said about Marco's visa, it matters.",
    "I wish I could let go of what I said to my aunt.",
    "Did you keep what I told you about my overdraft?",
    "Scratch the second paragraph about the budget and rewrite it.",
    'He said "let it go" about my overdraft and hung up.',
    "我忘了我跟你说过舅妈的事没有",
    "别忘了我说的房贷的事，下周要还",
    "你还记得我说过表姐离婚的事吗",
    "我真想把我说过的那些话都删掉",
    "她说“忘了那事吧”，我做不到",
    "帮我把文档里关于房贷的那段删掉",
]


@pytest.fixture(scope="module")
def recognise() -> Callable[[str], ForgetRequest | None]:
    """The daemon's order (conversation/forgetting.py): the frames, then by meaning."""
    from xaid.embed.use import UseEmbedder

    model = UseEmbedder()

    def embed(texts: list[str]) -> np.ndarray:
        return np.asarray(model.embed(texts), dtype=np.float32)

    prototypes = forget_prototypes.Prototypes.of(embed(forget_prototypes.texts()))

    def run(text: str) -> ForgetRequest | None:
        if (found := parse(text)) is not None:
            return found
        candidate = unframed(text)
        if candidate is None:
            return None
        return by_meaning(candidate, *prototypes.scores(embed([text])[0]))

    return run


@pytest.mark.parametrize(("text", "terms"), SAID_EN)
def test_an_english_request_no_frame_takes_is_recognised_by_meaning(
    recognise: Callable[[str], ForgetRequest | None], text: str, terms: tuple[str, ...]
) -> None:
    assert parse(text) is None  # the first pass missed it
    found = recognise(text)
    assert found is not None and found.kind == "topic" and found.lang == "en"
    assert found.terms == terms


@pytest.mark.parametrize(("text", "topic"), SAID_ZH)
def test_a_chinese_request_no_frame_takes_is_recognised_by_meaning(
    recognise: Callable[[str], ForgetRequest | None], text: str, topic: str
) -> None:
    assert parse(text) is None
    found = recognise(text)
    assert found is not None and found.kind == "topic" and found.lang == "zh"
    assert found.phrase == topic


@pytest.mark.parametrize("text", LOOKALIKES_SAID)
def test_look_alikes_with_the_same_words_do_not_fire(
    recognise: Callable[[str], ForgetRequest | None], text: str
) -> None:
    assert recognise(text) is None


def test_the_meaning_step_decides_after_the_cue_words() -> None:
    """The cue words alone never make a request: far from the prototypes, or nearer a look-alike, is
    no request, in either language."""
    for text in ("Toss what I told you about my overdraft.", "我舅妈住院那事儿，你就别往心里记了"):
        candidate = unframed(text)
        assert candidate is not None
        assert by_meaning(candidate, 0.6, 0.4) is not None
        assert by_meaning(candidate, 0.2, 0.1) is None  # not near any request
        assert by_meaning(candidate, 0.5, 0.7) is None  # a look-alike is clearly nearer


@pytest.mark.parametrize(
    ("said", "named"),
    [
        ("no, the one about his job", "the one about his job"),
        ("No I meant the gate thing", "the gate thing"),
        ("no, the other one", "the other one"),
        ("不是，是他换工作那件", "他换工作那件"),
        ("没有，我说的是他修门那次", "他修门那次"),
        ("I meant the gate thing", "the gate thing"),
        ("oh sorry, I meant the other one", "the other one"),
        ("我说的是他修门那次", "他修门那次"),
        ("I meant it, thanks", None),
        ("no, I want to talk about my weekend instead", None),
        ("no, let's talk about something else", None),
        ("不是，我想聊聊周末", None),
        ("不是，是他工作的事", "他工作的事"),
        ("no, my sister's stuff", "my sister's stuff"),
        ("I miss him", None),
        ("nope", None),
        ("no, keep it", None),
        ("nope, never mind", None),
        ("no thanks", None),
        ("不是", None),
        ("不是，算了", None),
        ("yes please", None),
    ],
)
def test_a_no_may_name_what_was_meant_instead(said: str, named: str | None) -> None:
    assert forget_request.named_instead(said) == named


@pytest.mark.parametrize(
    ("text", "kind", "terms"),
    [
        ("ugh, scratch that, venting over, don't keep this bit", "previous", ()),
        ("oh god ok, delete that", "previous", ()),
        ("oh no, wipe the bit about my dad", "topic", ("dad",)),
        ("ok so delete the tom thing", "topic", ("tom",)),
    ],
)
def test_a_sigh_before_the_verb_names_nothing(text: str, kind: str, terms: tuple[str, ...]) -> None:
    """Session 34: "ugh, scratch that" was read as a request to forget a topic named "ugh", which
    meaning then matched to anything; a sigh or a lead (ugh, oh god, ok so) is taken off before
    the topic is read, and what is left may be "that"."""
    found = forget_request.read_unframed(text)
    assert (found.kind, found.terms) == (kind, terms)


@pytest.mark.parametrize(
    "text",
    ["haha ok forget I said that, she'd get fired", "lol forget I said that", "hehe, delete that"],
)
def test_laughter_before_the_request_is_a_filler(text: str) -> None:
    """forgets_dev45's train half: "haha ok forget I said that" took no frame (the frames allowed
    "ok" before the verb, not a laugh) and the classifier read nothing; "haha forget it" stays the
    idiom (test_object_first_tasks_and_never_mind_are_not_requests)."""
    found = forget_request.parse(text)
    assert found is not None and found.kind == "previous"
    assert forget_request.parse("haha forget it") is None
