"""A do-not-ask said in a LATER session than the one that armed the matter takes it back (issue 25).

Monday armed a matter; on Tuesday the user said "算了，以后别再提他了" or "can we just not talk about
him for a while": the matter is not raised the next morning. A do-not-ask about another thing
("don't ask me about work lol", 别问我工作的事) takes nothing back. Both languages. The pure tests read
scheduler/refused.py and retire.py alone; the end-to-end ones go through a real daemon, real SQLite
and the default embedder, with the scripted provider standing in for the chat model (only what the
scheduler suggests is judged).
"""

from __future__ import annotations

import dataclasses

import pytest
from xaiclient import Client

from xaid.scheduler import refused, retire
from xaid.store.recall import RecallItem

DAY0 = 1_764_547_200_000  # Monday 2025-12-01 00:00 UTC
HOUR = 3_600_000
DAY = 24 * HOUR
TUESDAY = DAY0 + DAY + 21 * HOUR


def _item(topic: str, keywords: tuple[str, ...], item_id: int = 1, episode: int = 7) -> RecallItem:
    return RecallItem(
        item_id,
        "mia",
        episode,
        topic,
        keywords,
        "matter",
        DAY0 + DAY,
        DAY0 + 5 * DAY,
        0.8,
        "pending",
        DAY0 + episode * HOUR,  # armed in the order of their episodes
        None,
        None,
        None,
        None,
        None,
    )


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("please don't bring him up again, i mean it", ""),
        ("can we just not talk about him for a while", ""),
        ("算了，以后别再提他了", ""),
        ("拜托，以后别再跟我提她了", ""),
        ("don't ask me about work lol", "work"),
        ("别问我工作的事", "工作"),
        ("相亲那事我不想聊了", "相亲"),
        ("please don't mention my diet, i had three donuts", "diet"),
        ("the interview went fine", None),
    ],
)
def test_what_a_do_not_ask_names(text: str, said: str | None) -> None:
    assert refused.object_words(text) == said


BOYFRIEND = _item(
    '现在怎么样了："跟男朋友冷战第三天了，他一条消息都没回"', ("男朋友", "冷战", "消息")
)
SCAN = _item('how it went: "my mum\'s scan is wednesday morning"', ("mum's", "scan", "lump"), 2, 6)


@pytest.mark.parametrize(
    ("lines", "taken"),
    [
        # the session talked about it, then the pronoun
        (["他今天发朋友圈了，还是不理我，冷战继续", "算了，以后别再提他了"], [1]),
        (["still thinking about the scan, the lump thing", "don't bring it up anymore"], [2]),
        # nothing in the session names it: "him"/她 is a person of memory's, of the matter armed last
        (["她今天又打了三个电话问我考虑得怎么样", "拜托，以后别再跟我提她了"], [1]),
        (["he called again today", "please don't bring him up"], [1]),
        # the do-not-ask names another thing
        (["work was a disaster today. don't ask me about work lol"], []),
        (["今天被老板当众骂了，别问我工作的事"], []),
        # "him" about a person the session named itself, not one of memory's
        (["my coworker Dave stole my idea again", "don't bring him up tomorrow"], []),
    ],
)
def test_which_items_a_later_do_not_ask_takes_back(lines: list[str], taken: list[int]) -> None:
    items = [BOYFRIEND, SCAN]
    said = [retire.Line(t, TUESDAY + n * 60_000) for n, t in enumerate(lines)]
    got = retire.retired(items, said)
    assert sorted(r.item_id for r in got if r.how == refused.HOW) == taken


@pytest.mark.parametrize(
    "line",
    [
        "家丑 昨天的事你别再提了 我不想让人知道",
        "昨天说的那些 以后别再提了",
        "please never bring up yesterday's stuff again",
    ],
)
def test_a_do_not_ask_naming_a_past_day_takes_back_what_was_armed_that_day(line: str) -> None:
    """morning_dev38's train half: a brother's arrest told on Monday, "昨天的事你别再提了" on
    Tuesday; the object names a day, not a keyword. The matter of another day stays."""
    sunday = dataclasses.replace(
        _item('现在怎么样了："房东说下个月不续租了"', ("房东", "续租"), 3),
        created_ms=DAY0 - 5 * HOUR,
    )
    got = retire.retired([sunday, BOYFRIEND, SCAN], [retire.Line(line, TUESDAY)])
    assert sorted(r.item_id for r in got if r.how == refused.HOW) == [1, 2]


def test_a_bare_do_not_ask_as_the_first_words_takes_back_the_matter_armed_last() -> None:
    older = _item('现在怎么样了："房东说下个月不续租了"', ("房东", "续租"), 3, episode=5)
    got = retire.retired([older, BOYFRIEND], [retire.Line("别再问了", TUESDAY)])
    assert [r.item_id for r in got] == [1]
    assert "asked later not to" in retire.reason(got[0])


def _two_sessions(client: Client, agent: str, first: list[str], later: list[str]) -> list[dict]:
    """Monday evening's matter, Tuesday evening's later session (ingested); the items Monday armed."""
    client.agent_create(agent)
    sid = client.session_open(agent, ts=DAY0 + 20 * HOUR)["session_id"]
    for n, line in enumerate(first):
        client.session_send(sid, line, ts=DAY0 + 20 * HOUR + n * 60_000).finish()
    client.session_close(sid, ts=DAY0 + 21 * HOUR, wait=True)
    armed = client.scheduler_list(agent)["items"]
    assert armed
    # ingested (an app's history): no first turn suggests the matter before the words are read,
    # consolidation reads them
    sid = client.session_open(agent, ts=TUESDAY)["session_id"]
    client.session_ingest(
        sid, [{"role": "user", "text": t, "ts": TUESDAY + n * 60_000} for n, t in enumerate(later)]
    )
    client.session_close(sid, ts=TUESDAY + HOUR, wait=True)
    return armed


@pytest.mark.parametrize(
    ("first", "later", "asked"),
    [
        (
            ["my brother Tom borrowed 2k off me and now he's ignoring my texts"],
            [
                "Tom finally texted back. a meme. unbelievable",
                "can we just not talk about him for a while",
            ],
            False,
        ),
        (
            ["跟男朋友冷战第三天了，他一条消息都没回", "我也不想先低头"],
            ["他今天发朋友圈了，跟朋友喝酒喝到半夜", "算了，以后别再提他了"],
            False,
        ),
        # the later session says nothing of the matter but the refusal: no keyword came up, so
        # before it stayed pending and was raised the next morning (issue 25 gap 3)
        (
            ["my brother Tom borrowed 2k off me and now he's ignoring my texts"],
            ["ugh. please don't bring him up again"],
            False,
        ),
        (
            ["跟男朋友冷战第三天了，他一条消息都没回", "我也不想先低头"],
            ["算了，以后别再提他了"],
            False,
        ),
        (
            ["my mum's scan is on wednesday morning, they're checking if the lump has grown"],
            ["work was a disaster today. don't ask me about work lol"],
            True,
        ),
        (
            ["下周一去复查，上次体检查出甲状腺结节，好担心"],
            ["今天被老板当众骂了，别问我工作的事"],
            True,
        ),
    ],
)
def test_a_later_do_not_ask_holds_back_only_its_own_matter(
    client: Client, first: list[str], later: list[str], asked: bool
) -> None:
    armed = _two_sessions(client, "mia", first, later)
    pending = {i["item_id"] for i in client.scheduler_list("mia")["items"]}
    assert bool(pending & {i["item_id"] for i in armed}) is asked
    if not asked:
        closed = client.scheduler_list(
            "mia", states=["pending", "pushed", "resolved", "expired", "cancelled"]
        )["items"]
        assert any("asked later not to" in (i["closed_reason"] or "") for i in closed), [
            (i["state"], i["closed_reason"]) for i in closed
        ]
