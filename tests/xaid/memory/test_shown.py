"""The lines searches remember (xaid/memory/shown.py): the same results as working every line out
afresh, never a line of what changed, and nothing left in memory once it is erased.

A real daemon in process (real socket, real SQLite, real embeddings): the remembered lines live in
this process, so the test reads them through ``shown.holding``. No model is involved.
"""

from __future__ import annotations

import datetime as dt
import sys
import uuid
from typing import Any

import apsw
import pytest
from xaiclient import Client

from testkit.inproc import InProcessDaemon
from xaid.memory import fence, shown
from xaid.store.db import connect

from .warmed import searches_alone  # noqa: F401 - autouse: no warm after a job here

DAY = 86_400_000
START = int(dt.datetime(2026, 3, 2, 19, 0, tzinfo=dt.UTC).timestamp() * 1000)
# Each test's own agent: ``shown.holding`` counts every connection of the process, and an earlier
# test's daemon connection may not have been collected yet.
AGENT = f"mia-{uuid.uuid4().hex[:8]}"

# Two weeks of both languages: relative times to resolve, and long turns that are cut by the query.
LONG_EN = (
    "My sister Alba finally moved to Lisbon last week. She found a flat near the river. "
    "The rent is high but the view is worth it. Her cat Pimento hated the flight. "
    "She starts at the bakery on Monday. I think I will visit her in May. "
    "We talked for two hours about our grandmother's recipes and the old house in Girona."
)
LONG_ZH = (
    "我姐姐阿芳上周终于搬到杭州了。她在西湖边找了一套小公寓。房租很贵，但是风景很好。"
    "她的猫咪小胡椒很讨厌坐飞机。她下周一开始在面包店上班。我打算五月去看她。"
    "我们聊了两个小时奶奶的菜谱和老房子。"
)
DAYS = [
    ("user", "Yesterday I went climbing with Dario and hurt my wrist."),
    ("assistant", "Oh no! Did you get the wrist checked at the clinic?"),
    ("user", LONG_EN),
    ("assistant", "Lisbon sounds lovely. Tell Alba good luck at the bakery!"),
    ("user", "昨天和建国去爬山了，手腕扭伤了。"),
    ("assistant", "啊，要不要去医院看看手腕？"),
    ("user", LONG_ZH),
    ("assistant", "杭州很美！祝阿芳在面包店一切顺利。"),
]
QUERIES = [
    "What happened to my wrist?",
    "Where did Alba move and where does she work?",
    "What is the cat called?",
    "我的手腕怎么了？",
    "阿芳搬到哪里了？她在哪里上班？",
    "猫咪叫什么名字？",
]


def _history(c: Client, agent: str, days: int = 14) -> None:
    c.agent_create(agent)
    for day in range(days):
        ts = START + day * DAY
        sid = c.session_open(agent, ts=ts)["session_id"]
        c.session_ingest(
            sid,
            [
                {"role": role, "text": f"{text} ({day})", "ts": ts + i * 60_000}
                for i, (role, text) in enumerate(DAYS[(day * 2) % 8 :] + DAYS[: (day * 2) % 8])
            ],
        )
        c.session_close(sid, ts=ts + 3_600_000, wait=True)


def _search(c: Client, agent: str, query: str, budget: int) -> list[dict[str, Any]]:
    found = c.memory_search(
        agent, query, k=200, budget_tokens=budget, ts=START + 15 * DAY, touch=False
    )
    return list(found["items"])


@pytest.fixture(autouse=True)
def _own_agent(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys.modules[__name__], "AGENT", f"mia-{uuid.uuid4().hex[:8]}")


@pytest.fixture
def history(client: Client) -> Client:
    _history(client, AGENT)
    return client


def test_remembered_lines_give_the_same_results_as_fresh_ones(
    history: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every query at two budgets, with nothing remembered, then filling the memo, then reading it."""
    asked = [(q, b) for q in QUERIES for b in (1000, 150)]
    with monkeypatch.context() as patch:
        patch.setattr(shown, "memo", lambda conn, agent_id: shown.Memo(0))
        fresh = [_search(history, AGENT, q, b) for q, b in asked]
    assert shown.holding(AGENT) == 0
    filling = [_search(history, AGENT, q, b) for q, b in asked]
    assert shown.holding(AGENT) > 0
    remembered = [_search(history, AGENT, q, b) for q, b in asked]
    assert fresh == filling == remembered
    texts = " ".join(i["text"] for items in fresh for i in items)
    assert "…" in texts  # long turns were cut to the query's sentences
    assert "(" in texts and "（" in texts  # and times resolved, in both languages


@pytest.mark.parametrize("word", ["Pimento", "小胡椒"])
def test_an_erase_leaves_no_remembered_line(
    daemon: InProcessDaemon, history: Client, word: str
) -> None:
    """A forget by topic drops the agent's lines at once; another agent's stay (its own words)."""
    kai = f"kai-{uuid.uuid4().hex[:8]}"
    _history(history, kai, 2)
    for agent in (AGENT, kai):
        for query in QUERIES:
            _search(history, agent, query, 1000)
    assert shown.holding(AGENT) > 0 and shown.holding(kai) > 0
    history.memory_forget(AGENT, query=word)
    assert shown.holding(AGENT) == 0
    assert shown.holding(kai) > 0
    assert all(word not in i["text"] for q in QUERIES for i in _search(history, AGENT, q, 1000))


def test_agent_delete_leaves_no_remembered_line(history: Client) -> None:
    for query in QUERIES:
        _search(history, AGENT, query, 1000)
    assert shown.holding(AGENT) > 0
    history.agent_delete(AGENT)
    assert shown.holding(AGENT) == 0


def test_a_changed_memory_is_shown_as_it_is_now(daemon: InProcessDaemon, history: Client) -> None:
    """A line is remembered with the words it was made from: a memory whose words changed since
    (written on another connection here) is shown with its new words."""
    before = _search(history, AGENT, QUERIES[0], 1000)
    assert any("wrist" in i["text"] for i in before)
    conn = connect(daemon.db_path)
    try:
        conn.execute(
            "UPDATE memory_items SET text = replace(text, 'wrist', 'ankle') WHERE agent_id = ?",
            (AGENT,),
        )
    finally:
        conn.close()
    after = _search(history, AGENT, "What happened to my ankle?", 1000)
    assert any("ankle" in i["text"] for i in after)
    assert all("wrist" not in i["text"] for i in after if i["kind"] == "utterance")


def test_a_forget_on_another_connection_starts_the_agent_over(tmp_path: Any) -> None:
    """The memo is made under the agent's forget epoch; once a forget elsewhere moved it, the
    remembered lines are not used, and are let go."""
    conn = connect(tmp_path / "x.db")
    other = apsw.Connection(str(tmp_path / "x.db"))
    memo = shown.memo(conn, AGENT)
    memo.put(1, shown.Line("key", "the user's friend Zorblax", 5))
    assert shown.memo(conn, AGENT) is memo and shown.holding(AGENT) == 1
    with other:
        fence.bump(other, AGENT)
    again = shown.memo(conn, AGENT)
    assert again is not memo and again.get(1, "key") is None
    assert shown.holding(AGENT) == 0
    conn.close()
    other.close()
