""" "Forget that" honoured, nothing else lost, no mis-fires (issue 24 item 2, the sixth pass), through
a real daemon in both languages; perf/scenarios/forgets_dev6.json (area ``forget_dev6``) measures
the same on more histories:

1. a request naming a person ("what I told you about Rivera getting in trouble") keeps an older
   session about the same person in another matter, although it holds the name: neither the name
   alone nor a name with loose meaning takes a turn from another conversation;
2. a part of the day named ("sunday afternoon", 周日下午) chooses what was said then, not the
   morning of the same day (the hours are timeparse's, one definition with the night's);
3. a message about a lapse or a reminder ("Davies forgot to book the pitch so practice is
   cancelled", 别忘了提醒我带转换插头) or a change denied (永远不会改主意) asks nothing and makes no
   older statement history: a present search still finds it (the updates path had taken them).

Real socket, real SQLite, the real default embedder (USE-multilingual-v3); the scripted provider
stands in for the model (it echoes the user's words): these are about what the daemon does with the
words, not how a model phrases a reply.
"""

from __future__ import annotations

import pytest
from xaiclient import Client

from testkit.forgetting import ask, everything, talk

DAY = 86_400_000
HOUR = 3_600_000
D0 = 1_764_547_200_000  # Monday 2025-12-01 00:00 UTC


def forgets_only_the_second(
    c: Client, first: tuple[list[str], int], second: tuple[list[str], int], request: str
) -> list[str]:
    """Two sessions (their lines and start times), then ``request`` on day 15: it must forget, with
    every matched turn in the second session. The sessions, the request's last."""
    c.agent_create("mia")
    sessions = [talk(c, "mia", lines, ts) for lines, ts in (first, second)]
    sid, forgotten = ask(c, "mia", request, D0 + 15 * DAY + 20 * HOUR)
    assert forgotten["decision"] == "forget", forgotten
    assert {m["session_id"] for m in forgotten["match"]["matched"]} == {sessions[1]}
    return [*sessions, sid]


def gone_and_kept(
    c: Client, sessions: list[str], gone: tuple[str, ...], kept: tuple[str, ...]
) -> None:
    left = everything(c, "mia", sessions, " ".join(gone + kept), D0 + 22 * DAY)
    assert not any(word in left for word in gone), left
    assert all(word in left for word in kept), left


SAME_PERSON = {
    "en": (
        ["Coach Davies made us do suicides at practice, my legs are jelly", "he's tough but fair"],
        [
            "Coach Davies got suspended, apparently he shoved a kid on the other team",
            "parents are losing it in the group chat",
        ],
        "Forget what I said about Davies getting in trouble, it might not even be true",
        ("suspended", "shoved"),
        ("suicides at practice", "legs are jelly"),
    ),
    "zh": (
        ["隔壁李大爷送了我们一袋他自己种的西红柿", "老人家人真好"],
        [
            "昨晚救护车把李大爷拉走了，中风",
            "他儿子让我们帮忙看着点房子，别声张，他们不想大家知道",
        ],
        "李大爷生病那些，都从你记忆里清掉",
        ("中风", "救护车"),
        ("西红柿", "自己种"),
    ),
}


@pytest.mark.parametrize(
    "lang",
    [
        pytest.param(
            "en",
            marks=pytest.mark.xfail(
                strict=True,
                reason="forget6's sixth pass (6ba0ae7) was withdrawn: on the fifth held-out forgets it "
                "lost more than it spared (honoured zh 13 -> 7/30, en 17 -> 15/30; collateral en 7 -> "
                "5/60, zh 9 -> 9/60)",
            ),
        ),
        "zh",  # kept since the thirteenth pass: the person's other matter is apart (forget_topic._matters)
    ],
)
def test_a_person_named_keeps_an_older_session_about_them_in_another_matter(
    client: Client, lang: str
) -> None:
    older, told, request, gone, kept = SAME_PERSON[lang]
    sessions = forgets_only_the_second(
        client, (older, D0 + 2 * DAY + 19 * HOUR), (told, D0 + 9 * DAY + 20 * HOUR), request
    )
    gone_and_kept(client, sessions, gone, kept)


AFTERNOON = {
    "en": (
        ["sunday brunch with the flatmates", "eggs benedict, too much hollandaise"],
        [
            "honestly the party on saturday was awful, I threw up in Hannah's sink",
            "everyone saw, I want to die",
        ],
        "sunday afternoon what I told you, just forget that ok",
        ("Hannah's sink", "everyone saw"),
        ("hollandaise", "brunch"),
    ),
    "zh": (
        ["周日跟室友吃早午饭", "班尼迪克蛋，酱太多了"],
        ["说真的周六那个聚会糟透了，我吐在小美家洗手池里", "所有人都看见了，想死"],
        "周日下午跟你说的那些，帮我删了吧",
        ("洗手池", "所有人都看见"),
        ("班尼迪克", "早午饭"),
    ),
}


@pytest.mark.xfail(
    strict=True,
    reason="forget6's sixth pass (6ba0ae7) was withdrawn: on the fifth held-out forgets it lost more than "
    "it spared (honoured zh 13 -> 7/30, en 17 -> 15/30; collateral en 7 -> 5/60, zh 9 -> 9/60)",
)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_part_of_the_day_named_takes_what_was_said_then_not_that_morning(
    client: Client, lang: str
) -> None:
    morning, afternoon, request, gone, kept = AFTERNOON[lang]
    sunday = D0 + 13 * DAY  # the request is the Tuesday after
    sessions = forgets_only_the_second(
        client, (morning, sunday + 10 * HOUR), (afternoon, sunday + 15 * HOUR), request
    )
    gone_and_kept(client, sessions, gone, kept)


LAPSES = [
    (["Coach Davies said the team photo is on wednesday", "I need a clean kit"],
     "Davies forgot to book the pitch so practice is cancelled lmao", "team photo"),
    (["去东京的票买好了，20号走", "好激动"], "别忘了提醒我带东京用的转换插头", "20号走"),
    (["又跟老陈为了足球吵起来", "他太倔了"], "算了，老陈反正永远不会改主意的", "足球"),
]  # fmt: skip


@pytest.mark.parametrize(("older", "said", "kept"), LAPSES)
def test_a_lapse_a_reminder_or_a_denied_change_asks_nothing_and_keeps_the_older_statement(
    client: Client, older: list[str], said: str, kept: str
) -> None:
    client.agent_create("mia")
    talk(client, "mia", older, D0 + 8 * DAY + 19 * HOUR)
    sid, forgotten = ask(client, "mia", said, D0 + 14 * DAY + 20 * HOUR)
    client.session_close(
        sid, ts=D0 + 14 * DAY + 21 * HOUR, wait=True
    )  # consolidated: the updates path ran
    assert forgotten == {}
    found = client.call("memory.search", agent_id="mia", query=older[0], ts=D0 + 22 * DAY)["items"]
    assert any(kept in item["text"] for item in found), found
