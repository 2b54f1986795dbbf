"""A mention of a person weeks after the user said something about them, with a newer look-alike
(the same person, nothing of weight) in between, through a real daemon (in-process, real socket, real
database, the real embedder; the scripted provider is never asked). English and Chinese.

Issue 28 (branch assoc10, perf/scenarios/associative_dev10.json): a friend told "Rosa rang me today"
thinks of the transplant said weeks before, beside last week's news of her cat. Before, two of
xaid's own steps lost it where plain hybrid retrieval over the raw turns kept it: the present-over-past
prior (recency.prefer_present) read the mention as a question about now and put the newer look-alike
first, the older turn at 0.6 of its score; and the fact drawn from the turn ("the user's aunt is
called Rosa") was shown in its place, which made the turn a repeat of it, so the transplant was never
shown. A present question keeps the prior (tests/xaid/memory/test_updates_e2e.py).
"""

from __future__ import annotations

import pytest
from xaiclient import Client

from .test_supersede import DAY, T0, session

CASES = [
    (
        "my aunt Rosa is going back to Lisbon in spring for a kidney transplant, "
        "the whole family is chipping in for the flights",
        "Rosa's cat knocked her plant off the windowsill again lol",
        "Rosa rang me today, she sounded tired",
        "transplant",
        "windowsill",
    ),
    (
        "我表哥大军下个月去深圳做心脏搭桥手术，全家都在帮他凑钱",
        "大军家的猫又把花盆打翻了哈哈",
        "大军今天给我打电话了，听着挺累的",
        "搭桥",
        "花盆",
    ),
]
SMALL_TALK = {
    "en": [
        "the bus was late again",
        "so tired today, long shift",
        "made soup, mostly carrots",
        "rainy and cold, stayed in",
        "today was ok i guess, sounded like rain all day",
    ],
    "zh": [
        "公交又晚了",
        "今天好累，加班到九点",
        "煮了锅汤，基本全是胡萝卜",
        "又冷又下雨，在家窝着",
        "今天还行吧，听着雨声睡了一下午",
    ],
}


@pytest.mark.parametrize(("said", "look_alike", "mention", "word", "other"), CASES)
def test_what_was_said_weeks_ago_is_shown_for_a_mention_after_a_newer_look_alike(
    client: Client, said: str, look_alike: str, mention: str, word: str, other: str
) -> None:
    talk = SMALL_TALK["en" if word.isascii() else "zh"]
    client.agent_create("mia", name="Kai")
    session(client, "mia", [talk[0], said, talk[2]], T0)
    for day in (4, 9, 13):
        session(client, "mia", talk, T0 + day * DAY)
    session(client, "mia", [talk[3], look_alike], T0 + 19 * DAY)
    items = client.memory_search("mia", mention, ts=T0 + 24 * DAY, k=20, budget_tokens=400)["items"]
    texts = [i["text"] for i in items]
    first = next((n for n, t in enumerate(texts) if word in t), None)
    # B's words are shown, and nothing but the look-alike (as near the mention's words) comes first:
    # the turn is neither demoted by the present-over-past prior nor stood for by its fact.
    assert first is not None, texts
    assert all(other in t for t in texts[:first]), texts
