"""A present mention finds a turn made history; a present question about the value does not, through
a real daemon (in-process, real socket, real database, the real embedder; the scripted provider is
never asked: the rules read the change). English and Chinese.

Issue 28 (branch fuse8): "salsa tonight, legs still sore" weeks after "signed up for salsa classes on
tuesdays at the Rialto studio ..." and "the classes moved to wednesdays now" is a mention, not a
question about when the classes are: a friend thinks of the studio and the instructor, which only the
earlier turn said. Before, every query in the present saw current turns only, so the turn plain BM25
over the raw turns finds was no candidate (perf/scenarios/associative_dev8.json, trap "changed"). A
present question about the changed thing still gets the current statement and not the old one
(tests/xaid/memory/test_updates_e2e.py holds the same rule for facts and replies).
"""

from __future__ import annotations

import pytest
from xaiclient import Client

from xaid.memory.rules import extract

from .test_supersede import DAY, T0, two_sessions

CASES = [
    (
        "signed up for salsa classes on tuesdays at the Rialto studio, "
        "the instructor is Marguerite and she's terrifying",
        "no more tuesday salsa, the classes moved to wednesdays now",
        "salsa tonight, legs still sore from last week lol",
        "When are my salsa classes now?",
        "Marguerite",
        "wednesdays",
    ),
    (
        "报了个羽毛球班，每周二晚上在体育馆上课，教练姓邵，特别凶",
        "羽毛球班改到周四了",
        "今晚羽毛球，手腕还有点酸",
        "我的羽毛球班现在是周几？",
        "姓邵",
        "周四",
    ),
]


@pytest.mark.parametrize(("said", "change", "mention", "question", "word", "new"), CASES)
def test_a_mention_gets_the_turn_made_history_and_a_present_question_the_current_one(
    client: Client, said: str, change: str, mention: str, question: str, word: str, new: str
) -> None:
    assert two_sessions(client, said, change) == {said: "superseded", change: "current"}
    items = client.memory_search("mia", mention, ts=T0 + 20 * DAY)["items"]
    old = [i for i in items if word in i["text"]]
    assert old and old[0]["current"] is False, [i["text"] for i in items]
    asked = client.memory_search("mia", question, ts=T0 + 20 * DAY)["items"]
    texts = [i["text"] for i in asked]
    assert any(new in t for t in texts), texts
    assert not any(word in t for t in texts), texts


@pytest.mark.parametrize(
    ("text", "asks"),
    [
        ("salsa tonight, legs still sore from last week lol", False),
        ("saw Lucas carrying boxes down the stairs this morning", False),
        ("What car do I drive?", True),
        ("今晚羽毛球，手腕还有点酸", False),
        ("周四又要去抱石了，要不要缠胶布？", True),
        ("为了不伤膝盖，你教我做什么练习？", True),
        ("which college is my day release at", True),
        ("我们哪天搬家？阿杰问我我居然忘了", True),
        ("Sam's visiting this weekend, no idea what we'll do", False),
    ],
)
def test_a_message_is_a_mention_when_no_part_of_it_asks(text: str, asks: bool) -> None:
    assert extract.asks(text) is asks
