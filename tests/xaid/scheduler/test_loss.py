"""A loss is never a matter to ask about (issue 24 item 6): a death, a break-up or a grave diagnosis
arms no "how did it go" (not on the funeral next week either), only a gentle, mood-gated check-in
about the person; ordinary plans said with the same words still arm as before. Both languages.

The first tests are pure (arm.matters over a consolidation draft); the last go through a real
daemon, real SQLite and the default embedder, where consolidation reads losses by meaning too (a
death said as "人没了" has no word of the rules). The scripted provider is never asked.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from xaiclient import Client

from xaid.memory import draft
from xaid.mood import loss
from xaid.scheduler import arm, fire, matter
from xaid.store.mood import MoodState
from xaid.store.recall import RecallItem
from xaid.store.sessions import Message

DAY0 = 1_764_547_200_000  # Monday 2025-12-01 00:00 UTC
HOUR = 3_600_000
LOW = MoodState(valence=-0.7, arousal=0.3, fatigue=0.2)


NIGHT = DAY0 + 20 * HOUR


def told_at_night(client: Client, line: str) -> list[dict[str, Any]]:
    """The items pending after ``line`` was told to a new agent at 20:00 on day 0 and its session
    closed (consolidated through the real daemon: SQLite, the default embedder, the reader)."""
    client.agent_create("mia")
    sid = client.session_open("mia", ts=NIGHT)["session_id"]
    client.session_send(sid, line, ts=NIGHT).finish()
    client.session_close(sid, ts=NIGHT + 600_000, wait=True)
    items: list[dict[str, Any]] = client.scheduler_list("mia", states=["pending"])["items"]
    return items


def drafted(*lines: str) -> draft.Draft:
    messages = [
        Message("s", "a", "user", text, DAY0 + 20 * HOUR + i * 60_000, message_id=i + 1)
        for i, text in enumerate(lines)
    ]
    return draft.draft(messages, {i + 1: 0.8 for i in range(len(lines))}, LOW, "Mia")


@pytest.mark.parametrize(
    "lines",
    [
        ("My aunt died on Sunday, the funeral is next Friday.",),
        (
            "Grandpa passed away last night.",
            "The funeral is next Thursday, I have to give a speech.",
        ),
        ("Mum was diagnosed with breast cancer, she starts chemo next week.",),
        ("奶奶上周去世了，下周六出殡。",),
        ("我们分手了，下周末他来搬东西。",),
        ("外公昨晚走了。",),
        # a pet's name is no word of the rules, but the rite after the death is (morning11's test
        # half: the 1.5B asked "明天带它去火化的事，你准备好了吗？")
        ("旺财今天走了，陪了我十一年", "明天带它去火化"),
        ("Biscuit didn't make it through the night.", "We're taking her to be cremated tomorrow."),
        # a death said gently, beside a stay in hospital: meaning alone reads it as near an illness
        # as a death (arm_dev23), so the lexicons' words say it
        ("Nan had been in the hospital for weeks. She slipped away this morning.",),
        ("My grandad didn't make it through the night.",),
        ("舅舅在医院住了两个月，今天早上还是没挺过来",),
        ("外婆抢救无效，今天凌晨走的。",),
    ],
)
def test_a_loss_arms_a_check_in_on_the_person_never_how_it_went(lines: tuple[str, ...]) -> None:
    found = arm.matters(drafted(*lines), LOW)
    assert [a.scene for a in found] == ["loss"], found
    # not the same evening, and due by the next morning: the morning after is when a friend says
    # "I've been thinking of you" (morning_dev32: due a day later, that morning had nothing)
    assert DAY0 + 24 * HOUR <= found[0].not_before <= DAY0 + 32 * HOUR


def test_a_loss_read_by_meaning_alone_is_still_a_loss() -> None:
    """ "人没了" has no word of the rules; consolidation passes the message ids meaning read as a loss."""
    # ("我家狗狗昨晚人没了" is the rules' own since mood.loss._NAMED: 我家, a name, a day, 没了)
    d = drafted("陪了我十三年的老伙计，昨晚人没了。")
    assert [a.scene for a in arm.matters(d, LOW)] != ["loss"]  # the rules alone miss it
    assert [a.scene for a in arm.matters(d, LOW, frozenset({1}))] == ["loss"]


@pytest.mark.parametrize(
    "lines",
    [
        ("oh and we lost Whiskers on sunday, still can't really talk about it",),
        ("buried Noodle under the apple tree after work",),
        ("we had to put Max down this afternoon",),
        ("下班回来把团子埋在了小区后面那棵树下",),
        ("对了，我家小黑周日没了，到现在还缓不过来",),
    ],
)
def test_a_named_pets_death_said_softly_arms_only_the_check_in(lines: tuple[str, ...]) -> None:
    """A being called by its name and what is done after a death (losses_dev17's train half): the
    rules read it (mood.loss._NAMED), and "on sunday" is the Sunday gone, not a plan."""
    assert [a.scene for a in arm.matters(drafted(*lines), LOW)] == ["loss"]


@pytest.mark.parametrize(
    "line",
    [
        # a named thing lost (mood.loss._NAMED)
        "we lost Sunday's match",
        "I lost The plot of that film",
        "we lost the game",
        "我家网络昨天断了",
        # not making it somewhere (mood.loss._PATTERNS' "didn't make it")
        "I didn't make it to the gym today.",
        "We didn't make it in time for the train.",
        "She didn't make it to the party.",
        # a close person's thing lost (morning_dev39: "lost my grandma's ring" kept company as a death)
        "lost my grandma's ring at the gym",
        "we lost our parents' old house",
    ],
)
def test_a_thing_lost_or_a_place_not_reached_is_no_death(line: str) -> None:
    assert not loss.ruled(line)


@pytest.mark.parametrize(
    ("line", "ruled"),
    [
        # a death said of the speaker is a way of speaking (morning_dev37: a best man's nerves)
        ("上台讲五分钟 我真的会当场去世", False),
        ("被老板看到我直接原地去世", False),
        ("if she reads this i'm literally gonna die", False),
        ("i died laughing at the wedding video", False),
        # another's death, and whose (的) a death, stay losses
        ("我妈去世三年了 今天又梦到她", True),
        ("我去世的外婆留给我一个镯子", True),
        ("my grandpa died on sunday", True),
    ],
)
def test_a_death_said_of_the_speaker_is_no_loss(line: str, ruled: bool) -> None:
    assert loss.ruled(line) is ruled


@pytest.mark.parametrize(
    ("line", "ruled"),
    [
        # "passed" without "away", of a close person with when or how (morning_dev38's train half)
        ("grandpa Walt passed this morning. hospice called at 6", True),
        ("my nan passed peacefully in her sleep", True),
        ("our dog passed on sunday", True),
        # an exam passed, news passed on
        ("my sister passed!! first try", False),
        ("dad passed the bar exam today", False),
        ("my brother passed his driving test yesterday", False),
        ("grandpa passed on the news to everyone", False),
    ],
)
def test_passed_of_a_close_person_with_when_or_how_is_a_death(line: str, ruled: bool) -> None:
    assert bool(loss.losses(line)) is ruled


@pytest.mark.parametrize(
    ("line", "gone"),
    [
        ("豆豆走了 兽医说是心脏有问题", True),
        ("今天下午阿黄没了", True),
        ("他不在了，我还是不敢相信", True),
        # grave news still open, and a going somewhere
        ("我爸住院了 医生说要观察", False),
        ("他走了，去超市买菜", False),
        ("我妈刚做完手术，人还没醒", False),
    ],
)
def test_of_words_read_as_a_loss_a_being_gone_is_a_death(line: str, gone: bool) -> None:
    """loss.gone: the check-in's lead names grave news still open and never a death."""
    assert loss.gone(line) is gone


def test_a_capitalised_thing_lost_is_vetoed_by_meaning() -> None:
    """ "lost Google Drive access" has the shape of a named being lost: the rules read it, and
    meaning far from a loss vetoes it (``is_loss``), as it does "my phone died"."""
    assert loss.ruled("lost Google Drive access")
    assert not loss.is_loss("lost Google Drive access", meaning_margin=-0.1)


def test_beside_a_loss_the_reader_arms_nothing_else_of_the_session() -> None:
    """The session is about the loss (losses_dev17: an evening's overtime told before the dog's
    death); a friend stays with the person. A plan of the rules' own (an event and a date) stays."""
    d = drafted("今天加班到八点，外卖还送错了", "对了，我家小黑周日没了，到现在还缓不过来")
    sure = matter.Readings({1: matter.Read(0.9, 0.05, 0.05)}, 0.5, 0.15)
    assert [a.scene for a in arm.matters(d, LOW, frozenset(), sure)] == ["loss"]
    alone = drafted("今天加班到八点，外卖还送错了")
    assert [a.scene for a in arm.matters(alone, MoodState(), frozenset(), sure)] == ["matter"]
    planned = drafted("Grandpa passed away last night.", "My driving test is next Thursday.")
    assert [a.scene for a in arm.matters(planned, LOW)][:2] == ["loss", "plan"]


def test_someone_in_care_read_near_a_loss_by_meaning_alone_is_asked_after_when_the_reader_is_unsure() -> (
    None
):
    """A fall and a ward sit as near the loss prototypes as a death (arm_dev23's train half): a loss
    meaning alone reads and the reader neither rules out nor is sure of (matter.UNSURE_LOSS) is grave
    news still open, a matter a friend asks after ("how's your grandma?"); the reader sure of a
    loss, or a grieving session, keeps the gentle check-in."""
    d = drafted("Grandma had a fall today, she's on the ward now with a broken hip.")
    unsure = matter.Readings({1: matter.Read(0.2, 0.45, 0.35)}, 0.5, 0.15)
    assert [a.scene for a in arm.matters(d, LOW, frozenset({1}), unsure)] == ["matter"]
    sure = matter.Readings({1: matter.Read(0.1, 0.8, 0.1)}, 0.5, 0.15)
    assert [a.scene for a in arm.matters(d, LOW, frozenset({1}), sure)] == ["loss"]
    grieving = replace(unsure, grieving=True)
    assert [a.scene for a in arm.matters(d, LOW, frozenset({1}), grieving)] == ["loss"]
    # not read near a loss at all: the reader's low matter arms nothing, as before
    assert arm.matters(d, MoodState(), frozenset(), unsure) == []


@pytest.mark.parametrize(
    ("line", "words"),
    [
        (
            "grandma had a fall in her kitchen today. she's on the ward now, they think she's broken her hip",
            "grandma",
        ),
        ("老婆今天手术做完了，医生说挺顺利，就是人还很虚", "老婆"),
    ],
)
def test_someone_in_care_is_asked_after_the_next_day_through_the_daemon(
    client: Client, line: str, words: str
) -> None:
    """Through a real daemon, SQLite, the default embedder and the check-in reader (arm_dev23's train
    half): before ill23 each armed the loss check-in, which never names the person."""
    items = told_at_night(client, line)
    assert [i["scene"] for i in items] == ["matter"], items
    assert words in items[0]["topic"]
    assert items[0]["not_before"] <= NIGHT + 12 * HOUR  # due the next morning


@pytest.mark.parametrize(
    ("line", "scene"),
    [
        ("I have my driving test next Thursday, I'm nervous.", "worry"),
        ("We lost the match on Saturday, the final is next Sunday.", "plan"),
        ("下周四考科目二，有点紧张。", "worry"),
        ("手机丢了，下周一去营业厅补卡，顺便参加面试。", "plan"),
    ],
)
def test_the_same_words_for_ordinary_things_arm_as_before(line: str, scene: str) -> None:
    found = arm.matters(drafted(line), MoodState())
    # and, the date still ahead the next morning, its twin asked before the day (test_ahead.py)
    assert [a.scene for a in found] == [scene, "ahead"], found


@pytest.mark.parametrize(
    ("lang", "line", "says", "never"),
    [
        ("en", "Grandpa passed away last night.", "thinking of them", "how it went"),
        ("zh", "外公昨晚走了。", "惦记", "后来怎么样了"),
    ],
)
def test_the_directive_stays_with_the_person(lang: str, line: str, says: str, never: str) -> None:
    (a,) = arm.matters(drafted(line), LOW)
    item = RecallItem(1, "a", 1, a.topic, a.keywords, a.scene, a.not_before, a.not_after,
                      a.priority, "armed", DAY0, None, None, None, None, None)  # fmt: skip
    directive = fire.Verdict(item, "all conditions hold").directive(lang) or ""
    assert says in directive and never not in directive


@pytest.mark.parametrize(
    ("line", "says", "never"),
    [
        ("外公昨晚走了。", "惦记", "后来怎么样了"),
        ("我家狗狗昨晚人没了，陪了我十三年。", "惦记", "后来怎么样了"),
        ("My aunt passed away, the funeral is on Friday.", "thinking of them", "how it went"),
    ],
)
def test_three_days_after_a_loss_the_check_in_never_asks_how_it_went(
    client: Client, line: str, says: str, never: str
) -> None:
    items = told_at_night(client, line)  # every item is pending right after the session
    assert [i["scene"] for i in items] == ["loss"], items
    later = NIGHT + 3 * 24 * HOUR + 13 * HOUR
    peeked = client.call("scheduler.check_in", agent_id="mia", ts=later, peek=True)
    suggestion = peeked["suggestion"] or ""
    assert never not in suggestion and says in suggestion, peeked


@pytest.mark.parametrize(
    ("line", "says"),
    [("My aunt Carol died this afternoon.", "thinking of them"), ("姑姑今天下午走了。", "惦记")],
)
def test_the_morning_after_a_loss_the_check_in_keeps_them_company(
    client: Client, line: str, says: str
) -> None:
    """Due the next morning, not a full day later (morning_dev32: "Hey! How's it going?" the morning
    after), and not held back by a grief still carried very low: it asks nothing. A matter still
    waits while they are that low."""
    told_at_night(client, line)
    morning = NIGHT + 13 * HOUR
    peeked = client.call("scheduler.check_in", agent_id="mia", ts=morning, peek=True)
    assert peeked["item"] is not None and peeked["item"]["scene"] == "loss", peeked
    assert says in peeked["suggestion"]
    sid = client.session_open("mia", ts=morning - HOUR)["session_id"]
    client.session_send(
        sid, "I feel terrible, so sad and hopeless 😭😭", ts=morning - HOUR
    ).finish()
    assert client.mood_get("mia", ts=morning)["valence"] <= fire.CARRIED_VERY_LOW
    client.scheduler_arm("mia", "the dentist", not_before=NIGHT, priority=1.0)  # outranks the loss
    low = client.call("scheduler.check_in", agent_id="mia", ts=morning, peek=True)
    assert low["item"] is not None and low["item"]["scene"] == "loss", low


@pytest.mark.parametrize(
    ("lines", "quoted", "not_quoted"),
    [
        (("My grandad passed away last night. Funeral's on Saturday.",), "passed away", "Funeral"),
        (("外公昨天夜里走了。周六出殡，我得请假回老家",), "外公昨天夜里走了", "出殡"),
        (("My uncle Ray died this morning. Heart attack at 58.",), "Heart attack at 58", "nothing"),
    ],
)
def test_the_loss_is_quoted_without_the_rite_ahead(
    lines: tuple[str, ...], quoted: str, not_quoted: str
) -> None:
    """The check-in quotes the loss as told, not the funeral the message plans after it: quoted
    whole, the 1.5B's "thinking of you" went on "since you told me about your grandad's funeral"."""
    (a,) = arm.matters(drafted(*lines), LOW)
    assert quoted in a.topic and not_quoted not in a.topic, a.topic


# --- a loss and its plan in one breath (issue 24 item 6, feel6) ---------------------------------------


def test_a_loss_a_clause_tells_arms_no_plan_though_the_whole_reads_as_one() -> None:
    """Read whole, "小舅上周走得很突然，下周三家里给他办告别仪式" is a matter ahead to the check-in reader
    (the date outweighs the death) and a loss it doubts; consolidation reads its clauses too and passes
    the message as ``told``: then it is a loss, and the plan in it is not asked about. (Its first
    example, "…，下周一出殡", is a loss by the rules since 出殡 is a word of them.)"""
    d = drafted("小舅上周走得很突然，下周三家里给他办告别仪式")
    sure_plan = matter.Readings({1: matter.Read(0.95, 0.03, 0.02)}, 0.5, 0.15)
    assert "plan" in [a.scene for a in arm.matters(d, LOW, frozenset({1}), sure_plan)]
    told = replace(sure_plan, told=frozenset({1}))
    assert [a.scene for a in arm.matters(d, LOW, frozenset({1}), told)] == ["loss"]


@pytest.mark.parametrize(
    ("margin", "loss", "told"),
    [(0.08, 0.73, True), (0.20, 0.99, True), (0.058, 0.59, False), (0.03, 0.95, False)],
)
def test_a_clause_tells_a_loss_when_both_readers_say_so(
    margin: float, loss: float, told: bool
) -> None:
    """The prototypes by LOSS_MARGIN and the reader by CLAUSE_LOSS: a fragment like "broke rn" (out
    of money, 0.59) is not a break-up."""
    assert matter.told_in_clause(margin, matter.Read(0.1, loss, 0.9 - loss)) is told


@pytest.mark.parametrize(
    "line",
    [
        "My grandmother slipped away last night. We're meeting the priest on Thursday to plan the service.",
        "外公昨晚在睡梦中离开了，下周一出殡",
        "小舅上周走得很突然，下周三家里给他办告别仪式",
    ],
)
def test_a_death_and_its_dated_plan_in_one_message_arm_only_the_check_in(
    client: Client, line: str
) -> None:
    """Through a real daemon, SQLite and the default embedder: before feel6 each of these armed a
    "how it went" (plan, and its twin "ahead") on the funeral; the scheduler now stays with the person."""
    items = told_at_night(client, line)
    assert [i["scene"] for i in items] == ["loss"], items


@pytest.mark.parametrize(
    ("loss_lines", "grief"),
    [
        (  # morning_dev38's train half: the cat's things put away the next day
            ("年糕没撑过去 肾衰 今天下午在宠物医院走的", "它最后还舔了一下我手指 呜呜呜"),
            "把它的碗和猫爬架都收起来了 看着难受",
        ),
    ],
)
def test_the_day_after_a_loss_a_line_of_that_grief_is_no_matter(
    client: Client, loss_lines: tuple[str, ...], grief: str
) -> None:
    """Read near a loss and near a pet gone missing, the line would be grave news still open (a
    matter at the threshold, matter.Readings.open_worry); in the days after the loss it is that
    grief (Readings.mourning), and the next morning asks after the person, not "现在怎么样了"."""
    client.agent_create("mia")
    for n, lines in enumerate((loss_lines, (grief,))):
        at = NIGHT + n * 24 * HOUR
        sid = client.session_open("mia", ts=at)["session_id"]
        client.session_ingest(
            sid, [{"role": "user", "text": t, "ts": at + i * 60_000} for i, t in enumerate(lines)]
        )
        client.session_close(sid, ts=at + 600_000, wait=True)
    items = client.scheduler_list("mia", states=["pending"])["items"]
    assert [i["scene"] for i in items] == ["loss"], items
