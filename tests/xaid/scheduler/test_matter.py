"""Check-ins armed by meaning (issue 25, issue 24 item 6): the learned reader of
xaid.scheduler.matter with its packaged weights and the real default embedder (USE-multilingual-v3),
and what arm.matters does with its readings. Both languages, with wordings written for these tests
(not in perf/scenarios/checkin_dev.json): a matter no list names is read as one, a loss and an
errand are not; an undated matter is asked about from the next morning for a few days, in the
user's own words; a dated one after its date; a loss the rules read is never a "how is it going".

The last tests go through a real daemon on a real socket with real SQLite: a session whose matter
has no event word of the rules' lists arms an item. The scripted provider is never asked.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from xaiclient import Client

from xaid.clock import DAY_MS, HOUR_MS
from xaid.embed.use import UseEmbedder
from xaid.memory import draft
from xaid.scheduler import arm, matter
from xaid.store.mood import MoodState
from xaid.store.sessions import Message

DAY0 = 1_764_547_200_000  # Monday 2025-12-01 00:00 UTC
EVENING = DAY0 + 20 * HOUR_MS
CALM = MoodState()

MATTERS = [
    "my little girl has had a cough and a fever since saturday, we barely slept",
    "the plumber still hasn't fixed the leak, third visit this week",
    "房东说下个月要把房子卖了，我们可能得搬",
    "老板让我周五前决定去不去上海分公司",
]
NOT_MATTERS = [
    "my grandma passed away last night",  # a loss: gentle, never "how is it going"
    "外公昨晚走了。",
    "need to grab some bread and toilet paper later",  # errands
    "晚点去超市买点面包和纸巾",
    "lol my dog just stole my sandwich",  # small talk
    "哈哈我家狗把我三明治叼走了",
    "I got the promotion!!! so happy",  # finished good news
    "终于拿到驾照了！！",
]


@pytest.fixture(scope="module")
def reader() -> matter.Reader:
    loaded = matter.default()
    assert loaded is not None, "xaid/scheduler/checkin_model.npz is missing"
    return loaded


@pytest.fixture(scope="module")
def embedder() -> UseEmbedder:
    return UseEmbedder()


def read(reader: matter.Reader, embedder: UseEmbedder, text: str) -> matter.Read:
    (vector,) = embedder.embed([text])
    return reader.read(np.asarray(vector), text, EVENING)


def test_the_packaged_reader_is_fitted_for_the_default_embedder(reader: matter.Reader) -> None:
    assert reader.embedder == "use"
    assert 0.5 <= reader.threshold < 1.0 and 0.0 < reader.loss_floor < 0.5


@pytest.mark.parametrize("text", MATTERS)
def test_a_matter_no_list_names_is_read_as_one(
    reader: matter.Reader, embedder: UseEmbedder, text: str
) -> None:
    assert not arm._event(text)  # no event word of the rules' lists
    assert read(reader, embedder, text).matter >= reader.threshold


@pytest.mark.parametrize("text", NOT_MATTERS)
def test_a_loss_an_errand_small_talk_and_good_news_are_not(
    reader: matter.Reader, embedder: UseEmbedder, text: str
) -> None:
    assert read(reader, embedder, text).matter < reader.threshold


@pytest.mark.parametrize("text", NOT_MATTERS[:2])
def test_a_loss_is_read_as_a_loss(reader: matter.Reader, embedder: UseEmbedder, text: str) -> None:
    assert read(reader, embedder, text).loss >= reader.loss_floor


# --- what arm.matters does with the readings (pure) -----------------------------------------------


def drafted(*lines: str) -> draft.Draft:
    messages = [
        Message("s", "a", "user", text, EVENING + i * 60_000, message_id=i + 1)
        for i, text in enumerate(lines)
    ]
    return draft.draft(messages, {i + 1: 0.5 for i in range(len(lines))}, CALM, "Mia")


def readings(**by_id: tuple[float, float]) -> matter.Readings:
    """Readings by message id (``m1=(matter, loss)``), with a threshold 0.6 and a loss floor 0.2."""
    reads = {
        int(k[1:]): matter.Read(m, loss, max(0.0, 1 - m - loss)) for k, (m, loss) in by_id.items()
    }
    return matter.Readings(reads, 0.6, 0.2)


def test_an_undated_matter_is_asked_about_from_the_next_morning_in_the_users_words() -> None:
    d = drafted("hey", "my kid's had a fever since tuesday", "anyway, how are you")
    (a,) = arm.matters(d, CALM, read=readings(m1=(0.1, 0.0), m2=(0.9, 0.0), m3=(0.2, 0.0)))
    assert a.scene == "matter"
    assert '"my kid\'s had a fever since tuesday"' in a.topic
    assert "fever" in a.keywords
    assert a.not_before >= DAY0 + DAY_MS  # not the same evening
    assert a.not_after - a.not_before == arm.MATTER_DAYS * DAY_MS
    # still asked about five days on (morning_dev36: a mortgage in approval, small talk between)
    assert a.not_after > EVENING + 5 * DAY_MS


@pytest.mark.parametrize(
    "line",
    [
        "car wouldn't start this morning, the garage is having a look today",
        "女儿发烧了，今天没去幼儿园，饭也不吃",
    ],
)
def test_a_matter_told_in_the_morning_is_asked_about_that_evening(line: str) -> None:
    """arm_dev22's same-day scenes: told at 08:00, the matter was due only from midnight, and a
    session at 17:00 heard nothing of it. Six hours on, as the session's feeling is; after an
    evening session that is the next morning, as before."""
    at = DAY0 + 8 * HOUR_MS
    message = Message("s", "a", "user", line, at, message_id=1)
    morning = draft.draft([message], {1: 0.5}, CALM, "Mia")
    (a,) = arm.matters(morning, CALM, read=readings(m1=(0.9, 0.0)))
    assert a.scene == "matter" and a.not_before == at + 6 * HOUR_MS  # 14:00 the same day
    (b,) = arm.matters(drafted(line), CALM, read=readings(m1=(0.9, 0.0)))
    assert b.not_before == EVENING + 6 * HOUR_MS > DAY0 + DAY_MS  # 02:00 the next day


def test_a_dated_matter_is_asked_about_after_its_date() -> None:
    d = drafted("周五要去见家长了，礼物还没买")
    a, before = arm.matters(d, CALM, read=readings(m1=(0.9, 0.0)))
    assert a.scene in ("plan", "worry") and "见家长" in a.topic
    assert a.not_before == DAY0 + 4 * DAY_MS + 17 * HOUR_MS  # Friday's end of work (no hour said)
    assert before.scene == "ahead" and before.not_after == a.not_before  # and before it


@pytest.mark.parametrize(
    "lines",
    [
        ("CFA level one is twelve days away, can't finish the question bank", "mock test saturday"),
        ("CFA一级还剩十二天 题刷不完", "周六打算做一套模考"),
    ],
)
def test_the_readers_dated_matter_is_armed_beside_a_plan_of_the_lists(
    lines: tuple[str, str],
) -> None:
    """The lists take the mock test; the exam twelve days away is the reader's alone, and was
    dropped for it, so the mornings between asked nothing of the exam (morning_dev36)."""
    d = drafted(*lines)
    armed = arm.matters(d, CALM, read=readings(m1=(0.9, 0.0), m2=(0.1, 0.0)))
    days = sorted({arm.window_day(a.not_before) for a in armed if a.scene in ("plan", "worry")})
    assert len(days) == 2, armed  # the practice test's and the exam's
    assert any(a.scene == "ahead" and "CFA" in a.topic for a in armed)


@pytest.mark.parametrize(
    ("dated", "light"),
    [
        (
            "the vet is removing the lump on thursday",
            "saw a guy in a dinosaur suit on the train today",
        ),
        ("周四给猫做手术，切掉那个硬块", "今天地铁上看到一个人穿恐龙服"),
    ],
)
def test_a_matter_meaning_alone_found_does_not_outrank_a_dated_one(dated: str, light: str) -> None:
    """The reader's probability says how sure it is that something is left open, not how pressing
    it is: a later evening's anecdote read at 0.87 (morning_dev36: the dinosaur suit) outranked
    the operation told two evenings before, and the morning asked about the suit. A date said and
    its day come is the surer matter; with no worry on either side the dated one is asked first."""

    def calm(line: str) -> draft.Draft:  # said without feeling: the plan's priority its least
        return draft.draft([Message("s", "a", "user", line, EVENING, message_id=1)], {1: 0.0},
                           CALM, "Mia")  # fmt: skip

    (plan, _) = arm.matters(calm(dated), CALM, read=readings(m1=(0.1, 0.0)))
    (guess,) = arm.matters(calm(light), CALM, read=readings(m1=(1.0, 0.0)))
    assert plan.scene == "plan" and guess.scene == "matter"
    assert guess.priority <= plan.priority


def test_below_the_threshold_nothing_is_armed() -> None:
    assert arm.matters(drafted("my kid's had a fever since tuesday"), CALM,
                       read=readings(m1=(0.55, 0.0))) == []  # fmt: skip


def test_a_loss_the_rules_read_is_never_a_matter() -> None:
    d = drafted("外公昨晚走了。")
    assert [a.scene for a in arm.matters(d, CALM, read=readings(m1=(0.9, 0.0)))] == ["loss"]


def test_a_loss_read_by_meaning_alone_is_doubted_only_when_the_reader_doubts_it() -> None:
    d = drafted("the dog won't touch his food since the park")
    doubted = arm.matters(d, CALM, frozenset({1}), readings(m1=(0.9, 0.05)))
    kept = arm.matters(d, CALM, frozenset({1}), readings(m1=(0.3, 0.6)))
    assert [a.scene for a in doubted] == ["matter"]
    assert [a.scene for a in kept] == ["loss"]


def test_a_grieving_evenings_sleepless_line_beside_a_matter_is_no_loss() -> None:
    """A heavy evening, not a death: the line meaning puts near a loss is one the reader all but
    rules out (under matter.RULED_OUT), and another line is surely a matter (a biopsy awaiting its
    result): the matter is asked after (morning_dev37). A death said softly reads more loss to
    the reader and stays one."""
    d = drafted("睡不着 脑子停不下来", "今天去做了穿刺 要等病理结果 吓死了")
    heavy = replace(readings(m1=(0.30, 0.05), m2=(0.90, 0.05)), grieving=True)
    assert [a.scene for a in arm.matters(d, CALM, frozenset({1}), heavy)] == ["matter"]
    soft = replace(readings(m1=(0.30, 0.20), m2=(0.90, 0.05)), grieving=True)
    assert "loss" in [a.scene for a in arm.matters(d, CALM, frozenset({1}), soft)]


def test_a_loss_read_by_meaning_gives_way_to_a_matter_the_reader_is_surer_of() -> None:
    """A call put off for months, feared to end in a row, reads close to a loss to the prototypes;
    the reader, surer of a matter than of a loss, has the matter armed, except while grieving."""
    d = drafted("拖了好几个月了，一打电话就怕又跟我妈吵起来")
    sure = readings(m1=(0.7, 0.35))  # the loss above the floor (0.2), the matter above both
    assert [a.scene for a in arm.matters(d, CALM, frozenset({1}), sure)] == ["matter"]
    grieving = replace(sure, grieving=True)
    assert [a.scene for a in arm.matters(d, CALM, frozenset({1}), grieving)] == ["loss"]
    # the reader surer of a loss (matter.UNSURE_LOSS and more) keeps it one; unsure of both (ill23),
    # it is grave news still open, asked after like someone ill in hospital
    surer_of_loss = readings(m1=(0.3, 0.65))
    assert [a.scene for a in arm.matters(d, CALM, frozenset({1}), surer_of_loss)] == ["loss"]
    unsure = readings(m1=(0.3, 0.35))
    assert [a.scene for a in arm.matters(d, CALM, frozenset({1}), unsure)] == ["matter"]


# --- the reaches of a reading: a sentence alone, the messages together -----------------------------


def reached(
    by_id: matter.Readings, parts: tuple[tuple[int, str, float], ...] = (), session: float = 0.0
) -> matter.Readings:
    """``by_id`` with sentences read alone (message id, sentence, matter probability) and the
    messages read together (``session``, 0: not read)."""
    read = tuple(matter.Part(i, text, matter.Read(p, 0.0, 1 - p)) for i, text, p in parts)
    whole = matter.Read(session, 0.0, 1 - session) if session else None
    return replace(by_id, parts=read, session=whole)


@pytest.mark.parametrize(
    ("line", "aside", "chat"),
    [
        (
            "we watched the new show, so good. btw kinda worried the bank letter means they'll cut my "
            "overdraft. anyway, pasta or curry?",
            "btw kinda worried the bank letter means they'll cut my overdraft.",
            "pasta",
        ),
        (
            "今晚看了那部新剧，挺好看。顺便说一句，我有点担心银行来信是要降我的额度。算了，晚饭吃啥？",
            "顺便说一句，我有点担心银行来信是要降我的额度。",
            "晚饭",
        ),
    ],
)
def test_a_matter_said_as_an_aside_is_armed_in_its_own_sentence(
    line: str, aside: str, chat: str
) -> None:
    """The message as a whole reads below the threshold (the chat around it dilutes its vector);
    its middle sentence alone reads above: that sentence is armed and quoted, not the chat."""
    read = reached(readings(m1=(0.45, 0.0)), ((1, aside, 0.8), (1, chat, 0.0)))
    (a,) = arm.matters(drafted(line), CALM, read=read)
    assert a.scene == "matter" and f'"{aside}"' in a.topic and chat not in a.topic
    assert (
        arm.matters(drafted(line), CALM, read=readings(m1=(0.45, 0.0))) == []
    )  # the message alone


@pytest.mark.parametrize(
    ("lines", "named"),
    [
        (("so the Bristol team made me an offer", "they want an answer soon, I keep flip-flopping"), "bristol"),
        (("杭州那边给我发了offer", "让我尽快回复，我来回想了好几天还是定不下来"), "杭州"),
    ],
)  # fmt: skip
def test_a_matter_told_over_several_messages_is_quoted_whole(
    lines: tuple[str, str], named: str
) -> None:
    """Neither message reaches the threshold alone, together they do: the matter is armed in the
    words of both, so the second message's "an answer soon" comes with the offer it is about."""
    read = reached(readings(m1=(0.1, 0.0), m2=(0.4, 0.0)), session=0.7)
    (a,) = arm.matters(drafted(*lines), CALM, read=read)
    assert a.scene == "matter" and named in a.topic.lower() and named in a.keywords
    assert arm.matters(drafted(*lines), CALM, read=readings(m1=(0.1, 0.0), m2=(0.4, 0.0))) == []


def test_the_messages_together_are_not_read_past_a_loss() -> None:
    """A session that told of a death is the gentle check-in's: its messages together are not a
    matter to ask how it is going, however the reader reads them."""
    d = drafted("外公昨晚走了。", "后面的事我也不知道该怎么弄")
    read = reached(readings(m1=(0.1, 0.8), m2=(0.3, 0.1)), session=0.9)
    assert [a.scene for a in arm.matters(d, CALM, read=read)] == ["loss"]


@pytest.mark.parametrize(
    "line",
    [
        "please don't bring up the thing with my landlord again",
        "I'd rather not talk about the hearing",
        "can we not talk about the lawsuit tomorrow, I just needed to vent",
        "let's not talk about my ex when I'm back",
        "房东那事以后别再提了",
        "官司的事不想聊",
        "咱们明天别聊官司的事，我就是想说出来",
        "科目三又挂了，第三次了。明天别跟我提这事",
        "面试的事以后不要再和我聊了",
        "please don't ever ask me about the audition",
        # morning14: the object inside "bring … up", "just" after "can we", hearing of them
        "the court date is friday. please don't bring him up again",
        "interview on monday, don't bring my boss up though",
        "exam tomorrow, can we just not talk about it",
        "the hearing is on friday and i don't want to hear his name again",
        "周五开庭，他的名字我不想再听到了",
        "明天的复诊，别再提她了",
        # to speak of is to talk about (session 42)
        "the toast at the wedding tomorrow... we are never speaking of this again",
        "interview friday. let's never speak of it",
        "周五的面试，以后别再说了",
    ],
)
def test_asked_not_to_bring_it_up_nothing_is_armed(line: str) -> None:
    assert arm.matters(drafted(line), CALM, read=readings(m1=(0.95, 0.0))) == []


@pytest.mark.parametrize(
    "line",
    [
        "can we talk about the lawsuit tomorrow?",
        "我们明天聊聊官司的事吧",
        "we can not wait",
        "你别跟我客气，官司的事明天再说",
        # raising children, a worry about news, a class: no person or "it" not to be heard of
        "i don't want to bring the kids up in this city",
        "exam results tomorrow, I don't want to hear bad news",
        "明天不想听课",
        "不想听他唠叨了，明天还得去他家",
    ],
)
def test_asking_to_talk_about_it_is_not_asking_not_to(line: str) -> None:
    assert not arm.do_not_ask(line)


@pytest.mark.parametrize(
    "line",
    [
        "the hearing is on friday. actually just pretend i never told you about it",
        "my boss wants to see me monday. forget i said anything",
        "ok act like you never heard that, the court thing is next week",
        "interview thursday... can we pretend this never happened",
        "周五开庭。算了，就当我没说过",
        "下周要去复查，你就当没听过吧",
        "周一老板找我谈话，当我什么都没说",
    ],
)
def test_taking_the_words_back_is_asking_not_to_raise_them(line: str) -> None:
    assert arm.do_not_ask(line)
    assert arm.matters(drafted(line), CALM, read=readings(m1=(0.95, 0.0))) == []


@pytest.mark.parametrize(
    "line",
    [
        "i never said that to her, she made it up",
        "forget what i said earlier, the meeting is on friday not monday",
        "forget i said the meeting was monday, it's friday",
        "let's pretend we're on holiday this weekend",
        "i didn't tell him i'm quitting yet",
        "当时我没说，后来挺后悔的",
        "每当我没说话的时候他就着急",
        "我没说过要辞职啊",
    ],
)
def test_a_plain_past_or_a_correction_is_not_taking_the_words_back(line: str) -> None:
    assert not arm.do_not_ask(line)


@pytest.mark.parametrize("line", ["need to pick up groceries tomorrow", "明天去买菜"])
def test_an_errand_of_the_rules_is_never_a_matter(line: str) -> None:
    assert arm.matters(drafted(line), CALM, read=readings(m1=(0.95, 0.0))) == []


# --- through the daemon --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("my little girl has had a cough and a fever since saturday, we barely slept", "fever"),
        ("房东说下个月要把房子卖了，我们可能得搬", "房东"),
        # calm and undated: the episode's own tension (draft.py) is low; the armed matter raises it
        ("房东死活不退押金，微信里吵了好几轮", "押金"),
    ],
)
def test_a_session_with_an_unlisted_matter_arms_an_item(
    client: Client, line: str, words: str
) -> None:
    client.agent_create("mia")
    sid = client.session_open("mia", ts=EVENING)["session_id"]
    client.session_send(sid, line, ts=EVENING).finish()
    client.session_close(sid, ts=EVENING + 60_000, wait=True)
    items = [
        i for i in client.call("scheduler.list", agent_id="mia")["items"] if i["scene"] != "ahead"
    ]
    assert len(items) == 1 and items[0]["scene"] in ("matter", "plan", "worry"), items
    assert words in items[0]["topic"] and words in " ".join(items[0]["keywords"])
    next_morning = DAY0 + DAY_MS + 9 * HOUR_MS if items[0]["scene"] == "matter" else None
    if next_morning is not None:
        peeked = client.call("scheduler.check_in", agent_id="mia", ts=next_morning, peek=True)
        assert peeked["suggestion"] and words in peeked["suggestion"], peeked
