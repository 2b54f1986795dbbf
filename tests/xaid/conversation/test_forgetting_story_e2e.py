"""A matter told over a few lines that opened its conversation goes whole when a request names it,
though its later line says nothing that marks it as the same story; a line that turns to something
else ("anyway, …", 对了) still ends it (issue 24 item 2; session 45: forget_topic._span).

The story's later line neither points back, nor says the story goes on, nor is near the first in
meaning ("ended up eating both steaks by myself"), so the walk stopped before it and its words were
still found a week later: the story test fails on the code before.

Real socket, real SQLite, the real default embedder (USE-multilingual-v3); the scripted provider
stands in for the model (it echoes the user's words): this is about which words the daemon drops.
"""

from __future__ import annotations

import pytest
from xaiclient import Client

from testkit.forgetting import MONDAY, ask, everything, talk

DAY = 86_400_000
HOUR = 3_600_000

STORY = {
    "en": (
        [
            "my blind date said she was going to the loo and never came back",
            "ended up eating both steaks by myself",
        ],
        "please forget what I told you about my blind date",
        ("never came back", "both steaks"),
    ),
    "zh": (
        ["相亲对象说去趟洗手间，结果再也没回来", "我在餐厅坐了一个多小时才走"],
        "我相亲那件事你别记着了",
        ("再也没回来", "一个多小时"),
    ),
}
TURNS_AWAY = {
    "en": (
        [
            "my dad's scan showed a shadow on his liver",
            "anyway, the new bakery on our corner does amazing croissants",
        ],
        "please forget what I told you about my dad's scan",
        ("shadow on his liver",),
        "croissants",
    ),
    "zh": (
        ["我爸体检查出肝上有个阴影", "对了，我家楼下新开了一家面包店，可颂特别好吃"],
        "我爸体检那件事你别记着了",
        ("阴影",),
        "可颂",
    ),
}


def lived(client: Client, agent: str, lines: list[str], request: str, query: str) -> str:
    """``lines`` told one evening, ``request`` said two days later (a clear forget), and all an app
    can read back of the agent a week on."""
    client.agent_create(agent)
    told = talk(client, agent, lines, MONDAY + 2 * DAY + 21 * HOUR)
    sid, forgotten = ask(client, agent, request, MONDAY + 4 * DAY + 20 * HOUR)
    assert forgotten.get("decision") == "forget", forgotten
    client.session_close(sid, ts=MONDAY + 4 * DAY + 21 * HOUR, wait=True)
    return everything(client, agent, [told, sid], query, MONDAY + 12 * DAY)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_story_that_opened_its_conversation_goes_whole(client: Client, lang: str) -> None:
    lines, request, gone = STORY[lang]
    later = lived(client, f"story-{lang}", lines, request, " ".join(gone))
    for word in gone:
        assert word not in later, word


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_line_that_turns_away_after_the_telling_stays(client: Client, lang: str) -> None:
    lines, request, gone, kept = TURNS_AWAY[lang]
    later = lived(client, f"beside-{lang}", lines, request, kept)
    for word in gone:
        assert word not in later, word
    assert kept in later
