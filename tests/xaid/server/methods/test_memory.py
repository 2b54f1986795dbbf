"""memory.search through a real daemon (xaid/server/methods/memory.py ``find``): the same query
gets the same items whether its words are embedded for it or their vector is kept from the first
time (any change to how a search is sequenced must keep that); an
unknown agent is ``not_found``; words the model cannot read are not embedded and still found."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from xaiclient import Client
from xaiclient.wire import NotFound

from testkit.inproc import InProcessDaemon

T0 = 1_764_619_200_000  # 2025-12-01 20:00 UTC
DAY = 86_400_000

LINES = [
    "My sister Ana moved to Lisbon last spring.",
    "I started salsa classes on Tuesdays, my legs are so sore.",
    "Did you finish the book about the lighthouse keeper?",
    "我妹妹在杭州开了一家咖啡店。",
    "最近工作好累，老板一直加班。",
]
QUERIES = [
    "where does my sister live?",  # a question
    "salsa tonight, legs still sore",  # a mention
    "what did we talk about yesterday?",  # a named day
    "Morning!",  # an opener
    "我妹妹的咖啡店开在哪里？",
    "今天又加班了",
]


def embedded(c: Client) -> int:
    return int(c.stats()["memory"]["embed_texts"])


def items(c: Client, agent: str, query: str) -> list[tuple[str, int, str]]:
    found = c.memory_search(agent, query, k=20, budget_tokens=1000, ts=T0 + DAY, touch=False)
    return [(i["kind"], i["id"], i["text"]) for i in found["items"]]


def remember(c: Client, agent: str, lines: list[str]) -> None:
    sid = c.session_open(agent, ts=T0)["session_id"]
    c.session_ingest(
        sid, [{"role": "user", "text": line, "ts": T0 + i * 1000} for i, line in enumerate(lines)]
    )
    c.session_close(sid, ts=T0 + 60_000, wait=True)


def test_a_search_gets_the_same_items_embedded_and_from_the_kept_vector(client: Client) -> None:
    client.agent_create("mia")
    remember(client, "mia", LINES)
    first = {q: items(client, "mia", q) for q in QUERIES}
    start = embedded(client)
    for query in QUERIES:  # the vectors are kept: nothing is embedded again
        assert items(client, "mia", query) == first[query], query
    assert embedded(client) == start
    assert any("Lisbon" in text for _, _, text in first["where does my sister live?"])
    assert any("杭州" in text for _, _, text in first["我妹妹的咖啡店开在哪里？"])


def test_a_search_of_an_unknown_agent_is_not_found(client: Client) -> None:
    with pytest.raises(NotFound):
        client.memory_search("nobody", "where does my sister live?", ts=T0)
    with pytest.raises(NotFound):  # the kept vector of the same words changes nothing
        client.memory_search("nobody", "where does my sister live?", ts=T0)


def test_words_the_model_cannot_read_are_not_embedded_and_found_by_keywords(
    tmp_path: Path,
) -> None:
    """The English-only MiniLM: a mostly Chinese query's vector would be dropped by the search, so
    it is not embedded at all; its words still find the line."""
    with (
        InProcessDaemon(tmp_path / "d", {"XAID_MEMORY_EMBEDDER": "minilm"}) as daemon,
        daemon.client() as c,
    ):
        c.agent_create("mia")
        remember(c, "mia", LINES)
        for _ in range(400):  # the model loaded (memory.search would wait for it otherwise)
            if c.stats()["memory"].get("meaning") == "ready":
                break
            time.sleep(0.05)
        start = embedded(c)
        found = items(c, "mia", "我妹妹的咖啡店开在哪里？")
        assert embedded(c) == start
        assert any("杭州" in text for _, _, text in found)
        items(c, "mia", "where does my sister live?")
        assert embedded(c) == start + 1
