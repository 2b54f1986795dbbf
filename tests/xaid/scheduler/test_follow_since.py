"""A matter follows what the user said since (issues 24 item 6 and 25, branch retire9).

Four things a friend does and the scheduler did not: a matter talked about before its day ("still
nervous about Friday's interview", 周五面试好紧张) is asked about after it, not closed for being
talked about; a matter moved ("the interview moved to the 15th", 面试改到15号了) is asked about after
its new day, not the old one; one called moot without a word of change ("doesn't matter now, I
accepted another offer", 无所谓了) is dropped; and sad news that is no loss ("my team lost the final
on penalties", 主队点球输了决赛，难受死了) does not hold the other matters back as a death does.

The pure tests read scheduler/retire.py and scheduler/matter.py alone. The others go through a real
daemon, real SQLite and the default embedder (USE), whose first turn and consolidation read the later
session; the scripted provider stands in for the chat model (no reply is judged, only what the
scheduler suggests at later openings).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from xaiclient import Client

from testkit.inproc import InProcessDaemon
from xaid.embed.onnx import EmbedWorker
from xaid.scheduler import matter, retire
from xaid.store.recall import RecallItem

from .test_retire import _item

DAY0 = 1_764_547_200_000  # Monday 2025-12-01 00:00 UTC; the interview is on Friday (day 4)
HOUR = 3_600_000
DAY = 24 * HOUR
WEDNESDAY = DAY0 + 2 * DAY + 20 * HOUR
SATURDAY = DAY0 + 5 * DAY + 10 * HOUR


def _interview() -> RecallItem:
    """A plan for Friday 2025-12-05 (test_retire's item: due from Saturday for a week)."""
    return _item('how it went: "job interview on Friday"', ("interview", "面试"))


@pytest.mark.parametrize(
    "line",
    [
        "meh, the friday interview doesn't matter now",
        "the interview is pointless now, no point going",
        "面试无所谓了，我已经签了别家",
        "周五那个面试没必要去了",
    ],
)
def test_a_matter_called_moot_is_settled(line: str) -> None:
    """Moot said as a denied need or relevance; "the friday thing" names the matter's own day, which
    is not a new date ahead."""
    item = _interview()
    assert retire.settled(retire.Line(line, WEDNESDAY), item, None) == "moot"


@pytest.mark.parametrize(
    "line",
    [
        "lost my umbrella, whatever, doesn't matter. still nervous about the interview",
        "伞丢了，无所谓。面试还是好紧张",
        "not nervous about the interview anymore, I've prepared loads",
        "今晚一直在改面试要用的作品集，改来改去",
    ],
)
def test_a_matter_named_as_still_on_is_not_settled(line: str) -> None:
    item = _interview()
    assert retire.settled(retire.Line(line, WEDNESDAY), item, None) is None


@pytest.mark.parametrize(
    ("line", "day"),
    [
        ("the interview got moved to the 15th, their panel had a clash", "2025-12-15"),
        ("they want to do the interview on the 16th instead", "2025-12-16"),
        ("面试改到15号了，面试官那天有冲突", "2025-12-15"),
        ("面试调到下周二了", "2025-12-09"),
    ],
)
def test_a_moved_matter_follows_its_new_day(line: str, day: str) -> None:
    item = _interview()
    moved = retire.moved([item], [retire.Line(line, WEDNESDAY)])
    assert [(m.item_id, m.day.isoformat()) for m in moved] == [(1, day)]
    not_before, not_after = retire.window(item, moved[0].day)
    new_day = dt.date.fromisoformat(day)
    assert dt.datetime.fromtimestamp(not_before / 1000, dt.UTC).date() == new_day + dt.timedelta(1)
    assert not_after - not_before == item.not_after - item.not_before


@pytest.mark.parametrize(
    "line",
    [
        "the interview on friday, then my sister's party on the 13th",  # another matter's day
        "interview is still on friday the 5th",  # its own day
        "面试还是周五，15号是我妹的生日",
    ],
)
def test_a_day_of_something_else_moves_nothing(line: str) -> None:
    assert retire.moved([_interview()], [retire.Line(line, WEDNESDAY)]) == []


@pytest.mark.parametrize(("whole", "stands"), [(-0.161, False), (-0.078, True), (0.097, True)])
def test_a_clause_told_as_a_loss_stands_only_in_a_message_not_far_from_one(
    whole: float, stands: bool
) -> None:
    """The defeat and how it felt read whole -0.16 (the feeling clause alone +0.09); a death and
    its funeral in one breath -0.08 and more."""
    assert matter.told_beside(whole) is stands


def _session(client: Client, agent: str, at: int, line: str) -> None:
    if at < WEDNESDAY:
        client.agent_create(agent)
    sid = client.session_open(agent, ts=at)["session_id"]
    client.session_send(sid, line, ts=at).finish()
    client.session_close(sid, ts=at + 600_000, wait=True)


def _asked(client: Client, agent: str, at: int) -> str | None:
    """The scene of the suggestion at an opening at ``at`` when it is about the first matter."""
    item = client.scheduler_check_in(agent, ts=at)["item"]
    if item is None:
        return None
    return (
        item["scene"]
        if "nterview" in item["topic"]
        or "面试" in item["topic"]
        or "exam" in item["topic"]
        or "考" in item["topic"]
        else None
    )


@pytest.mark.parametrize(
    ("first", "later"),
    [
        (
            "Job interview with the airline on Friday!",
            "still nervous about friday's interview, did a practice run tonight",
        ),
        ("周五要去航空公司面试！", "周五面试好紧张，今晚又练了一遍"),
    ],
)
def test_a_matter_mentioned_before_its_day_is_asked_after_it(
    client: Client, first: str, later: str
) -> None:
    """The mention is the first message of the session (the turn the scheduler decides at): the
    interview is not raised then, and not closed either; the mention, itself a dated worry, is not
    armed as a second "how did it go" beside it (main closed the first and armed the second)."""
    _session(client, "mia", DAY0 + 20 * HOUR, first)
    armed = {i["item_id"] for i in client.scheduler_list("mia")["items"] if i["scene"] == "plan"}
    _session(client, "mia", WEDNESDAY, later)
    item = client.scheduler_check_in("mia", ts=SATURDAY)["item"]
    assert item is not None and item["item_id"] in armed, item
    waiting = client.scheduler_list("mia", states=["pending"])["items"]
    assert not [i for i in waiting if i["scene"] in ("plan", "worry")], waiting


@pytest.mark.parametrize(
    ("first", "later"),
    [
        (
            "Job interview with the airline on Friday!",
            "the interview got moved to the 15th, their panel had a clash",
        ),
        ("周五要去航空公司面试！", "面试改到15号了，面试官那天有冲突"),
    ],
)
def test_a_moved_matter_is_asked_after_its_new_day(client: Client, first: str, later: str) -> None:
    _session(client, "mia", DAY0 + 20 * HOUR, first)
    _session(client, "mia", WEDNESDAY, later)
    assert _asked(client, "mia", SATURDAY) not in ("plan", "worry")  # not "how did it go" yet
    pending = client.scheduler_list("mia", states=["pending"])["items"]
    plans = [i for i in pending if i["scene"] in ("plan", "worry")]
    new_day = DAY0 + 14 * DAY  # Monday the 15th
    assert plans and all(i["not_before"] == new_day + DAY for i in plans), pending
    assert _asked(client, "mia", new_day + DAY + 10 * HOUR) in ("plan", "worry")


@pytest.mark.parametrize(
    ("first", "later"),
    [
        (
            "big exam on friday, the one for the scholarship",
            "my team lost the final on penalties, I'm gutted",
        ),
        ("周五大考，关系到奖学金", "主队点球输了决赛，难受死了"),
    ],
)
def test_sad_news_that_is_no_loss_holds_nothing_back(
    client: Client, first: str, later: str
) -> None:
    _session(client, "mia", DAY0 + 20 * HOUR, first)
    _session(client, "mia", WEDNESDAY, later)
    items = client.scheduler_list("mia", states=["pending", "pushed"])["items"]
    assert not any(i["scene"] == "loss" for i in items), items
    assert _asked(client, "mia", SATURDAY) in ("plan", "worry")


@pytest.mark.parametrize(
    ("first", "later"),
    [
        ("Job interview with the airline on Friday!", "ok so the airline interview, any tips?"),
        ("周五要去航空公司面试！", "航空公司的面试，有什么建议吗？"),
    ],
)
def test_the_items_words_are_embedded_once_for_the_first_turn_and_the_close(
    daemon: InProcessDaemon, monkeypatch: pytest.MonkeyPatch, first: str, later: str
) -> None:
    """Session 2's first turn reads the pending items' quoted words by meaning (first_words.py), and
    its consolidation reads them again to retire or move them: one embedding serves both (and when
    the words are a whole message of session 1, its turn's query vector serves all three)."""
    sent: list[str] = []
    batch, single = EmbedWorker.embed, EmbedWorker.embed_now

    async def noted(self: EmbedWorker, texts: list[str]) -> Any:
        sent.extend(texts)
        return await batch(self, texts)

    async def noted_now(self: EmbedWorker, text: str) -> Any:
        sent.append(text)
        return await single(self, text)

    monkeypatch.setattr(EmbedWorker, "embed", noted)
    monkeypatch.setattr(EmbedWorker, "embed_now", noted_now)
    with daemon.client() as c:
        _session(c, "mia", DAY0 + 20 * HOUR, first)
        pending = c.scheduler_list("mia", states=["pending"])["items"]
        quoted = {retire.quoted(_item(i["topic"], ())) for i in pending}
        sent.clear()
        _session(c, "mia", WEDNESDAY, later)
    assert quoted and sent  # session 2 was read by meaning
    assert [t for t in quoted if sent.count(t) > 1] == []  # main: twice each
