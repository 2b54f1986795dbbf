"""The vectors of recent queries (memory/embeddings.py ``embed_query``), through a real daemon with
the real embedder: a repeated query is not embedded again, another agent's same words are (nothing
is shared across agents), and an erase of the agent drops its copies (a forget, then the same
query is embedded afresh). ``stats.memory.embed_texts`` counts every text the model embedded."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from xaiclient import Client

from testkit.inproc import InProcessDaemon

T0 = 1_764_619_200_000  # 2025-12-01 20:00 UTC


def embedded(c: Client) -> int:
    return int(c.stats()["memory"]["embed_texts"])


def search(c: Client, agent: str, query: str) -> list[str]:
    return [i["text"] for i in c.memory_search(agent, query, ts=T0 + 60_000)["items"]]


def remember(c: Client, agent: str, line: str) -> None:
    sid = c.session_open(agent, ts=T0)["session_id"]
    c.session_ingest(sid, [{"role": "user", "text": line, "ts": T0}])
    c.session_close(sid, ts=T0 + 1000, wait=True)


@pytest.mark.parametrize(
    ("line", "query"),
    [
        ("My sister Ana lives in Lisbon.", "where does my sister live?"),
        ("我妹妹住在杭州。", "我妹妹住在哪里？"),
    ],
)
def test_a_repeated_query_is_embedded_once_per_agent_and_never_after_an_erase(
    client: Client, line: str, query: str
) -> None:
    for agent in ("mia", "leo"):
        client.agent_create(agent)
    remember(client, "mia", line)
    start = embedded(client)
    first = search(client, "mia", query)
    assert embedded(client) == start + 1
    assert search(client, "mia", query) == first  # the same answer from the kept vector
    assert embedded(client) == start + 1
    # Another agent asks the same words: its own vector, and none of mia's memories.
    assert search(client, "leo", query) == []
    assert embedded(client) == start + 2
    # A forget of mia's memories (any: the copies of that agent all go) drops her query vectors.
    assert client.memory_forget("mia", all=True)["deleted"] >= 1
    assert search(client, "mia", query) == []
    assert embedded(client) == start + 3
    # leo's copy was not touched by mia's erase.
    search(client, "leo", query)
    assert embedded(client) == start + 3


def test_a_turn_reuses_the_vector_of_its_words_asked_before(client: Client) -> None:
    meaning_ready(client)  # the banks embedded at start (conversation/banks.py) are not counted
    client.agent_create("mia")
    sid = client.session_open("mia", ts=T0)["session_id"]
    start = embedded(client)
    client.session_send(sid, "what was that café called again?", ts=T0).finish()
    after_one = embedded(client)
    assert after_one == start + 1
    client.session_send(sid, "what was that café called again?", ts=T0 + 60_000).finish()
    assert embedded(client) == after_one


def meaning_ready(c: Client) -> None:
    """Until the daemon's start-up warm-up of its meaning banks is done (a bound on the polls)."""
    for _ in range(1200):
        if c.stats()["memory"]["meaning"] == "ready":
            return
        time.sleep(0.05)
    raise AssertionError("the meaning banks were never embedded")


def test_the_banks_are_embedded_once_per_model_not_per_daemon(tmp_path: Path) -> None:
    """conversation/banks.py embeds the prototype banks at start through ``embed_fixed``: a first
    daemon on a model embeds them, a second daemon in this process on the same loaded model (testkit
    shares it) finds them kept and embeds none of them."""
    counts = []
    for name in ("first", "second"):
        with InProcessDaemon(tmp_path / name) as d, d.client() as c:
            meaning_ready(c)
            counts.append(embedded(c))
    # the first may have found them from an earlier test's daemon too: only "never more" is sure
    assert counts[1] == 0 and counts[0] >= counts[1]
