"""The learned forget classifier (xaid/memory/forget_intent.py) on sentences in both languages that
none of its training sets holds: requests said the way people talk fire, look-alikes with the same
words do not, and the middle band asks rather than guessing.

The real default embedder (USE-multilingual-v3) and the weights shipped in the package; no daemon.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from xaid.embed.use import UseEmbedder
from xaid.memory import forget_intent, forget_request
from xaid.memory.forget_intent import Intent

SCENARIOS = Path(__file__).resolve().parents[3] / "perf" / "scenarios"


@cache
def embedder() -> UseEmbedder:
    return UseEmbedder()


def read(text: str) -> forget_intent.Recognised | None:
    """What the daemon's recognition decides (the frames, the classifier; no prototypes)."""
    framed = forget_request.parse(text)
    if not forget_intent.worth_reading(text, framed):
        return None
    vectors = np.asarray(
        embedder().embed([text, forget_intent.request_clause(text)]), dtype=np.float32
    )
    return forget_intent.recognise(text, framed, (vectors[0], vectors[1]), forget_intent.default())


def probability(text: str) -> float:
    vectors = np.asarray(
        embedder().embed([text, forget_intent.request_clause(text)]), dtype=np.float32
    )
    return forget_intent.default().probability(vectors[0], vectors[1], text)


def written_for_training() -> set[str]:
    texts: set[str] = set()
    for name in ("forgets_dev.json", "forgets_dev2.json"):
        data = json.loads((SCENARIOS / name).read_text(encoding="utf-8"))
        texts |= {r["text"] for r in data["requests"]} | {n["text"] for n in data["negatives"]}
    dev3 = json.loads((SCENARIOS / "forgets_dev3.json").read_text(encoding="utf-8"))
    texts |= {c["request"]["text"] for c in dev3["cases"]}
    return texts


REQUESTS = [
    pytest.param(
        "honestly just wipe the thing about my sister's rehab from your memory, ok?",
        marks=pytest.mark.xfail(
            strict=True,
            reason="a known miss, written before the weights were measured on it: its probability is below "
            "the ask cut (no frame takes 'honestly just wipe'); left as is, not fitted to",
        ),
    ),
    "Could you please not hold on to what I said about my landlord's lawsuit?",
    "the part where I talked about my salary, can that disappear pls",
    "我前几天说的那个关于我表哥坐牢的事，你就当没听过吧",
    "麻烦把我跟你讲的我爸住院那件事删了，谢谢",
    "关于我前女友的那些话，你别记着了好吗",
]
LOOKALIKES = [
    "I forgot my wallet at the gym again, ugh.",
    "Don't forget to remind me about the vet on Saturday!",
    "forget it, it's fine, not a big deal at all",
    "Do you ever forget what people tell you?",
    "我又忘了带充电器，手机快没电了。",
    "别忘了明天提醒我去交水费。",
    "他让我把那段视频删掉，我就删了。",
    "你还记得我跟你说过我妹妹的事吗？",
]


def test_the_sentences_here_are_in_no_training_set() -> None:
    requests = {r if isinstance(r, str) else str(r.values[0]) for r in REQUESTS}  # type: ignore[attr-defined]
    assert not (requests | set(LOOKALIKES)) & written_for_training()


@pytest.mark.parametrize("text", REQUESTS)
def test_a_request_said_the_way_people_talk_is_recognised(text: str) -> None:
    found = read(text)
    assert found is not None, f"{text!r}: p={probability(text):.2f}"


@pytest.mark.parametrize("text", LOOKALIKES)
def test_a_lookalike_with_the_same_words_is_not_carried_out(text: str) -> None:
    found = read(text)
    assert found is None or not found.sure, f"{text!r}: p={probability(text):.2f}"


def test_most_lookalikes_are_not_even_asked_about() -> None:
    asked = [t for t in LOOKALIKES if read(t) is not None]
    assert len(asked) <= 1, asked


def test_a_message_without_a_verb_of_removing_is_never_read() -> None:
    """The gate: most messages are not embedded at all."""
    assert not forget_intent.worth_reading("I had ramen for lunch, so good", None)
    assert not forget_intent.worth_reading("今天中午吃了牛肉面，很好吃", None)
    assert forget_intent.worth_reading("pretend I never said that", None)
    assert forget_intent.worth_reading("那件事你就当我没说过哈", None)


def test_the_middle_band_asks_and_only_a_clear_reading_fires() -> None:
    intent = Intent("use", np.zeros(3), 0.0, 1.0, fire=0.8, ask=0.4, agree=0.5)
    assert intent.decide(0.9) == "fire"
    assert intent.decide(0.6) == "ask"
    assert intent.decide(0.6, agreed=True) == "fire"  # the frames or the prototypes agree
    assert intent.decide(0.45, agreed=True) == "ask"
    assert intent.decide(0.3) is None
    assert intent.decide(0.3, agreed=True) is None  # never on a weak reading


def test_under_another_embedder_only_the_frames_decide() -> None:
    framed = forget_request.parse("Please forget what I told you about Marcus.")
    assert framed is not None
    found = forget_intent.recognise(
        "Please forget what I told you about Marcus.", framed, None, None
    )
    assert found is not None and found.sure and found.probability is None
    assert forget_intent.recognise("pretend I never did?", None, None, None) is None
    # vectors of another size give no reading at all
    small = np.ones(8, dtype=np.float32)
    assert forget_intent.default().probability(small, small, "forget it") == 0.0


def test_the_request_clause_is_the_one_with_the_verb() -> None:
    text = "anyway, Dana's news, please don't hold on to it. how was your day?"
    assert forget_intent.request_clause(text) == "please don't hold on to it"
    assert forget_intent.request_clause("那件事你就当我没说过哈") == "那件事你就当我没说过哈"
    assert forget_intent.request_clause("上次说的那个，删了吧，挺丢人的") == "删了吧"


@pytest.mark.parametrize(
    "text",
    [
        "上周五晚上跟你发的那通牢骚，就算了吧",
        "前天冲你抱怨老板的那些话，不作数哈",
        "the cigarettes thing - let's just say I never said it",
        "the stuff about my cousin, could you not hang on to that",
    ],
)
def test_letting_words_said_go_without_a_verb_of_removing_opens_the_gate(text: str) -> None:
    """Fifteenth pass: 算了/不作数/收回 open the gate only with the user's own words to the companion
    named (跟你说的, 牢骚); "never said", "hang on to" like the other verbs of not keeping. The
    classifier still decides."""
    assert forget_intent.goes(text)


@pytest.mark.parametrize(
    "text",
    ["算了，今天不去健身房了", "那次吵架早就翻篇了，我们和好了", "老板说那个方案不作数了，重新做"],
)
def test_never_mind_and_a_quarrel_put_behind_stay_shut(text: str) -> None:
    assert not forget_intent.goes(text)


@pytest.mark.parametrize(
    ("text", "points"),
    [
        ("the bit about my uncle's drinking, I'd rather you let it go", True),
        ("我吐槽同事那一通，你别存着了", True),
        ("can you not keep what I told you about the interview?", True),
        ("deleted the photos from the party lol", False),  # a thing, not words said
        ("Dana said to forget what she told me about the loan", False),  # someone else's words
        ("Jo texted 'forget I said anything about the job' lol", False),  # quoted speech
        ("I'd rather you didn't keep the stuff about my ex", True),  # an apostrophe is no quote
        ("do you remember what I said about my sister?", False),  # asking what it remembers
        ("提醒我别忘了我说的那件事", False),  # a reminder
    ],
)
def test_a_middle_band_reading_may_be_settled_by_memory_only_when_it_points_at_words(
    text: str, points: bool
) -> None:
    assert forget_intent.points_at_words(text) is points


def test_a_verb_first_request_names_what_follows_the_verb() -> None:
    """ "could you forget the Rafa stuff": the topic is "the rafa stuff", not the whole message,
    whose request words read as what it says of the matter beyond the person (a person in two
    matters was then taken as told apart and one forgotten on a guess)."""
    request = forget_request.read_unframed("could you forget the Rafa stuff")
    assert request.phrase == "the rafa stuff"


@pytest.mark.parametrize(
    "text",
    [
        "the stuff about my brother's arrest... can that just not exist anymore?",
        "老周离婚那事，你那儿也别有这段了",
        "那些聊天记录可不能留着啊，你懂的",
        "我姐的事我不希望以后再从你这儿冒出来",
    ],
)
def test_not_keeping_said_with_any_negation_is_read_and_recognised(text: str) -> None:
    """Session 34: a wish that it not be kept or come up again, with any negation (不能留, 别有这段,
    不希望…再…冒出来, "not exist"), opens the gate like 别留 did; the classifier then reads it as a
    request (these are no training sentence)."""
    assert forget_intent.goes(text)
    assert read(text) is not None, f"{text!r}: p={probability(text):.2f}"


@pytest.mark.parametrize("text", ["这家店别有一番风味", "今天没什么特别的事"])
def test_a_negation_without_keeping_stays_shut(text: str) -> None:
    assert not forget_intent.goes(text)


@pytest.mark.parametrize(
    ("text", "own"),
    [
        ("帮我忘掉吧，小林的事", False),  # the listener asked to forget for the user
        ("我说的那些你帮我忘了吧", False),  # the user's words, a request
        ("我跟你吐槽的那些忘了吧", False),
        ("我又把伞忘在地铁上了", True),  # the user's own forgetting
        ("我都忘了今天是周几", True),
    ],
)
def test_the_user_s_own_forgetting_is_not_a_request_for_help_forgetting(
    text: str, own: bool
) -> None:
    """The ``self`` cue: 帮我/替我/给我 before the 我, or a verb of saying between it and the 忘, is
    the listener asked to forget what the user said, not the user forgetting."""
    self_cue = forget_intent.shape(text)[forget_intent.CUE_NAMES.index("self")]
    assert bool(self_cue) is own


@pytest.mark.parametrize(
    ("text", "opens"),
    [
        ("Keep it up, you're doing great!", False),
        ("keep going, you've got this", False),
        ("Keep me posted on how it goes!", False),
        ("keep an eye on the weather tomorrow", False),
        ("please don't keep what I said about my brother", True),
        ("you don't need to keep any of that", True),
        ("keep it to yourself and don't store it", True),
    ],
)
def test_keep_for_going_on_does_not_open_the_gate(text: str, opens: bool) -> None:
    """Session 34: "keep" for going on or staying ("keep it up", "keep me posted") opened the gate
    in about 400 of 4,000 LoCoMo turns and the classifier asked back about 78 of them; keeping
    what was said still opens it."""
    assert forget_intent.goes(text) is opens


@pytest.mark.parametrize(
    "said",
    [
        "老李说“钱的事你忘了吧，这顿我请”，抢着就把单买了",
        'My boss said "just forget what I told you about the budget" and walked off',
        "她回我「那件事你就当我没说」，然后就下线了",
        "my boss literally said 'delete that email and pretend you never saw it' lmao",
    ],
)
def test_a_request_someone_else_made_quoted_is_none(said: str) -> None:
    """forgets_dev45's test half: a friend's "钱的事你忘了吧" told inside quotes was read as the
    user's own request (a frame took "老李说“钱" as its topic). A quoted span holding a verb of
    removing is someone else's words (forget_intent.unquoted); fails on the code before."""
    assert read(forget_intent.unquoted(said)) is None


@pytest.mark.parametrize(
    "said", ["把“我要辞职”那句删了", 'please forget what I said about "the thing" at work']
)
def test_a_quote_the_user_asks_to_forget_keeps_its_request(said: str) -> None:
    """A quote the request names keeps its verb outside the quotes: still a request."""
    assert forget_intent.unquoted(said) == said
    assert read(said) is not None


@pytest.mark.parametrize(
    "said",
    [
        "我家记账软件一升级把我半年的账全清空了！！客服说恢复不了",
        "我昨晚把和前任的聊天记录都删了，清爽",
        "the update wiped my reading list, two years of it",
        "I deleted tiktok for lent lol",
        "你会把我跟你说的都记住吗？连我怕黑这种事也不会忘？😂",
        "你不会已经把我上周说的那家火锅店忘了吧？名字我自己都想不起来了",
        "wait did you delete the stuff about my brother?",
    ],
)
def test_a_removal_told_as_done_or_asked_about_makes_no_request(said: str) -> None:
    """forgets_dev46's look-alikes (a bookkeeping app that lost three months, "你会把我说的都记住吗？
    …也不会忘？😂"): every clause with a verb of removing tells it as done or asks about it, not put
    politely; the frames and the classifier had carried four of them out, deleting the older
    session they named. Fails on the code before (``not_asked`` did not exist)."""
    assert forget_intent.not_asked(said)


@pytest.mark.parametrize(
    "said",
    [
        "把我昨天说的那段删了吧",
        "你能把那件事忘了吗？",
        "那件事就当我没说过吧？",
        "I deleted the wrong message, can you forget what I said about Tom?",
        "pretend I never said it ok?",
        "please delete what I told you about my boss",
        "can we pretend that never happened?",
        "the thing I read on her phone... delete it? I feel awful",
        "would it be possible to forget the crypto loss I mentioned?",
        "能把我说我前任的那些话删了吗",
        "昨晚聊的那些，能抹掉吗？",
    ],
)
def test_a_request_put_as_a_question_or_beside_a_removal_told_stays_one(said: str) -> None:
    assert not forget_intent.not_asked(said)
    assert not forget_intent.taken_back(said) and not forget_intent.supposed(said)


@pytest.mark.parametrize(
    "said",
    [
        "邻居吵架那事你别记了… 哎 算了 还是记着吧",
        "电梯那段你删了吧 诶 别删了",
        "forget what I said about the audition. actually no, keep it",
        "delete the bit about my dad. wait, don't",
    ],
)
def test_a_request_taken_back_in_the_same_message_is_none(said: str) -> None:
    assert forget_intent.taken_back(said)


def test_a_bare_keep_after_a_request_but_not_one_that_names_something_else() -> None:
    assert not forget_intent.taken_back("forget the Tom thing but remember the party is friday")
    assert not forget_intent.taken_back("那件事你忘了吧 记着点别的")


@pytest.mark.parametrize(
    ("said", "supposed"),
    [
        ("if I asked you to delete something, could you actually do it?", True),
        ("hypothetically, could you forget the stuff about my ex?", True),
        ("要是我让你忘掉一件事，你能做到吗？", True),
        ("假如哪天我叫你把我说的都删了，你会照做吗", True),
        ("if you could forget the Tom thing that'd be great", False),
        ("如果可以的话，帮我把那件事忘了吧", False),
    ],
)
def test_a_request_only_supposed_is_none(said: str, supposed: bool) -> None:
    assert forget_intent.supposed(said) is supposed
