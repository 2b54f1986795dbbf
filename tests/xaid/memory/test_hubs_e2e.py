"""A mention that names a person another way than the line a friend would think of, among weeks of
small talk, through a real daemon (in-process, real socket, real database, the real embedder; the
scripted provider is never asked). English and Chinese.

Issue 28 (branch assoc14, perf/scenarios/associative_dev14.json): told "rang my dad this evening", a
friend thinks of "my old man is finally selling his caravan", said weeks before. The two share no
word, and the embedder puts the mention about as near the everyday lines ("quiet one today, just tv
and tea", the companion's "mm, tell me more?") as near it: those lines are near every line, hubs, and
by raw cosine they filled the block first. Discounted by their hubness (hubs.py) they no longer do.
"""

from __future__ import annotations

import pytest
from xaiclient import Client

from .test_supersede import DAY, T0

CASES = [
    (
        "en",
        "my old man is finally selling his caravan, says he's too stiff to tow it anywhere now",
        "rang my dad this evening",
        "caravan",
    ),
    (
        "zh",
        "我家老头子退休以后迷上钓鱼了，天天往水库跑，空手回来还乐呵呵的",
        "我爸今天打电话来了，聊了挺久",
        "钓鱼",
    ),
]
SMALL_TALK = {
    "en": [
        "quiet one today, just tv and tea",
        "work was long, nothing to report",
        "tired but okay i guess",
        "made pasta again, zero effort",
        "ugh, mondays",
        "went for a little walk after dinner",
        "it rained all day, stayed in",
        "not much going on tbh",
        "had a nap and feel worse lol",
        "cleaned the kitchen finally",
        "long day, just want my bed",
        "watched some random show, it was fine",
    ],
    "zh": [
        "今天没干啥，看电视喝茶",
        "上班好累，没啥好说的",
        "有点困，还行吧",
        "又煮了面条，懒得折腾",
        "周一好烦",
        "吃完饭出去溜达了一圈",
        "下了一天雨，在家窝着",
        "今天没什么事",
        "睡了个午觉，醒来更困了",
        "终于把厨房收拾了",
        "好累，只想躺着",
        "随便看了个剧，还行",
    ],
}
REPLIES = {
    "en": ["mm, tell me more?", "haha fair", "that sounds cosy", "oof, hang in there"],
    "zh": ["嗯嗯，然后呢？", "哈哈可以", "听着挺舒服的", "抱抱，辛苦了"],
}


def _session(c: Client, agent: str, lang: str, lines: list[str], ts: int) -> None:
    """One evening's talk: each user line answered by one of the companion's stock replies."""
    sid = c.session_open(agent, ts=ts)["session_id"]
    turns = []
    for i, line in enumerate(lines):
        turns.append({"role": "user", "text": line, "ts": ts + 2 * i * 60_000})
        reply = REPLIES[lang][i % len(REPLIES[lang])]
        turns.append({"role": "assistant", "text": reply, "ts": ts + (2 * i + 1) * 60_000})
    c.session_ingest(sid, turns)
    c.session_close(sid, ts=ts + 2 * len(lines) * 60_000, wait=True)


@pytest.mark.parametrize(("lang", "said", "mention", "word"), CASES)
def test_a_line_said_weeks_ago_outranks_small_talk_near_every_line(
    client: Client, lang: str, said: str, mention: str, word: str
) -> None:
    talk = SMALL_TALK[lang]
    client.agent_create("mia", name="Kai")
    _session(client, "mia", lang, [talk[0], said, talk[1]], T0)
    for day in range(2, 30, 2):  # four weeks of small talk, every line said again and again
        start = day % len(talk)
        _session(client, "mia", lang, (talk * 2)[start : start + 4], T0 + day * DAY)
    items = client.memory_search("mia", mention, ts=T0 + 31 * DAY, k=20, budget_tokens=400)["items"]
    texts = [i["text"] for i in items]
    assert any(word in t for t in texts), texts
