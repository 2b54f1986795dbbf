"""A plan said in passing is armed when its meaning is an occasion, not routine (scheduler/
occasion.py), and grave news as a session's first message gets no check-in (meaning.Prototypes.grave).

The readings are the real ones: the default embedder (USE-multilingual-v3), the prototypes of
xaid/scheduler/occasion.py and xaid/mood/meaning.py. The daemon tests go through a real daemon on
a real socket with real SQLite; the scripted provider stands in for the model (it echoes). The
wordings are written for these tests, not taken from the perf/ dev sets.
"""

from __future__ import annotations

import numpy as np
import pytest
from xaiclient import Client

from testkit import evening
from xaid.clock import DAY_MS, HOUR_MS
from xaid.embed.use import UseEmbedder
from xaid.mood import meaning
from xaid.mood.meaning import Contrast
from xaid.scheduler import occasion

DAY0 = 1_764_547_200_000  # Monday 2025-12-01 00:00 UTC
EVENING = DAY0 + 21 * HOUR_MS

OCCASIONS = ["first piano lesson tomorrow, wish me luck", "明天第一次上钢琴课，有点小激动"]
ROUTINE = ["having lunch with the team tomorrow", "明天去超市买点菜"]


@pytest.fixture(scope="module")
def bank(use_embedder: UseEmbedder) -> Contrast:
    return occasion.BANK.from_vectors(list(np.asarray(use_embedder.embed(occasion.BANK.texts()))))


def test_an_occasion_reads_nearer_the_occasions_than_routine(
    use_embedder: UseEmbedder, bank: Contrast
) -> None:
    vectors = np.asarray(use_embedder.embed(OCCASIONS + ROUTINE))
    assert [occasion.is_occasion(bank, v) for v in vectors] == [True, True, False, False]


def test_grave_news_reads_grave_and_ordinary_news_does_not(
    use_embedder: UseEmbedder, prototypes: meaning.Prototypes
) -> None:
    grave = ["my dad had a stroke last night, he's still in the ICU", "我爸中风了，还在抢救"]
    ordinary = ["just got back from a run, my legs are jelly", "今天食堂的饺子还挺好吃"]
    vectors = np.asarray(use_embedder.embed(grave + ordinary))
    read = [prototypes.grave(v) >= meaning.GRAVE_MARGIN for v in vectors]
    assert read == [True, True, False, False]


def _pending(client: Client, agent: str) -> list[dict[str, object]]:
    return list(client.call("scheduler.list", agent_id=agent, states=["pending"])["items"])


@pytest.mark.parametrize("line", OCCASIONS)
def test_a_plan_for_tomorrow_is_armed_and_suggested_the_next_morning(
    client: Client, line: str
) -> None:
    evening.said(client, "mia", line, EVENING)
    assert {i["scene"] for i in _pending(client, "mia")} >= {"plan", "ahead"}
    morning = DAY0 + DAY_MS + 8 * HOUR_MS
    sid = client.session_open("mia", ts=morning)["session_id"]
    reply = client.session_send(
        sid, "早" if "钢琴" in line else "morning", ts=morning, explain=True
    )
    result = reply.finish()
    assert result["context"]["suggestion"] and result["context"]["lead"]


@pytest.mark.parametrize("line", ROUTINE)
def test_a_routine_day_ahead_arms_nothing(client: Client, line: str) -> None:
    evening.said(client, "mia", line, EVENING)
    assert _pending(client, "mia") == []


@pytest.mark.parametrize(
    ("first", "lang"),
    [
        ("my dad had a stroke last night, he's still in the ICU", "en"),
        ("我爸中风了，还在抢救", "zh"),
    ],
)
def test_grave_news_first_gets_no_check_in(client: Client, first: str, lang: str) -> None:
    plan = "interview at Northwind tomorrow" if lang == "en" else "明天去字节面试"
    evening.said(client, "mia", plan, EVENING)
    at = DAY0 + 2 * DAY_MS + 9 * HOUR_MS
    sid = client.session_open("mia", ts=at)["session_id"]
    result = client.session_send(sid, first, ts=at, explain=True).finish()
    assert result["context"]["suggestion"] is None
    assert result["context"]["suggestion_reason"] in (
        "the user is telling grave news",
        "the user is telling of a loss",
        "the user is very low right now",
    )


@pytest.mark.parametrize(
    ("first", "lang"),
    [
        # read very low by the learned reader alone, no nearer grave news than an ordinary line
        ("the roadworks outside my flat were insane today", "en"),
        ("今天的外卖等了一个半小时，饿疯了", "zh"),
        # near "our cat ran off" by meaning, but told laughing
        ("the neighbour's dog keeps napping on my doormat lol", "en"),
        ("楼下的狗天天在我门口睡觉哈哈", "zh"),
    ],
)
def test_an_everyday_complaint_first_keeps_the_check_in(
    client: Client, first: str, lang: str
) -> None:
    """Before session 31 each of these held the day's check-in back ("very low right now", "grave
    news"): a friend answers the complaint and still asks about yesterday's interview."""
    plan = "interview at Northwind tomorrow" if lang == "en" else "明天去字节面试"
    evening.said(client, "mia", plan, EVENING)
    at = DAY0 + 2 * DAY_MS + 9 * HOUR_MS
    sid = client.session_open("mia", ts=at)["session_id"]
    result = client.session_send(sid, first, ts=at, explain=True).finish()
    assert result["context"]["suggestion"], result["context"]["suggestion_reason"]


FIRST_DAYS = {
    "en": "starting at the garden centre tomorrow, first day at a new job in ages. no idea what to wear",
    "zh": "明天第一天去新单位上班，连地铁怎么换乘都还没搞明白",
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_first_day_at_a_new_job_said_in_passing_is_suggested_the_next_morning(
    client: Client, lang: str
) -> None:
    """No event word names a first day at a job; its meaning is an occasion (issue 25: held-out
    Morning scenes where nothing was armed). The next morning's opener gets the suggestion and the
    daemon's lead, which the scripted provider sends back with its echo."""
    evening.said(client, "mia", FIRST_DAYS[lang], EVENING)
    assert {i["scene"] for i in _pending(client, "mia")} >= {"plan", "ahead"}
    morning = DAY0 + DAY_MS + 8 * HOUR_MS
    sid = client.session_open("mia", ts=morning)["session_id"]
    result = client.session_send(
        sid, "早" if lang == "zh" else "morning", ts=morning, explain=True
    ).finish()
    context = result["context"]
    assert context["suggestion"] and context["lead"]
    assert result["text"].startswith(context["lead"])
    assert FIRST_DAYS[lang][:8] in context["directive"]  # the user's own words, quoted


@pytest.mark.parametrize(
    "line",
    ["the hearing is on friday, please don't ever ask me about it", "周五开庭，明天别跟我提这事"],
)
def test_asked_not_to_be_asked_nothing_is_suggested(client: Client, line: str) -> None:
    evening.said(client, "mia", line, EVENING)
    assert _pending(client, "mia") == []
