"""Forget-words that ask nothing take nothing (issue 24 item 2: no mis-fire), through a real daemon in
both languages: a removal told as done by an app, a question about what the companion remembers, a
request taken back in the same message and one only supposed. Each message names what an older
session told, so a request read in it would find something to delete; the older session must be
whole afterwards and the turn must report no forget. perf/scenarios/forgets_dev46.json (area
``forget_dev46``) measures the same shapes on 72 look-alikes.

Real socket, real SQLite, the real default embedder (USE-multilingual-v3); the scripted provider
stands in for the model (its replies are never read here).
"""

from __future__ import annotations

import pytest
from xaiclient import Client

from testkit.forgetting import ask, found

DAY = 86_400_000
D0 = 1_764_547_200_000  # Monday 2025-12-01 00:00 UTC

CASES = [
    (
        ["最近在用一个记账软件叫钱迹", "坚持记了半年了，挺有成就感"],
        "钱迹一更新把我半年的记录全删了！！客服说找不回来",
        "钱迹",
    ),
    (
        ["跟你说个糗事，我小时候被大白鹅追了半个村", "到现在看见鹅都绕着走"],
        "你不会已经把我说的大白鹅那事忘了吧？就是追了我半个村那只😂",
        "大白鹅",
    ),
    (
        ["had a huge row with my brother Cian about the will", "said things I regret"],
        "pretend I never told you about the row with Cian. actually no, don't, I need someone to remember it",
        "Cian",
    ),
    (
        ["vented about my landlord Mr Okoro for an hour", "the heating is STILL broken"],
        "hypothetically if I asked you to delete something, could you? like the Okoro rant. just curious",
        "Okoro",
    ),
]


@pytest.mark.parametrize(("told", "said", "word"), CASES)
def test_forget_words_that_ask_nothing_take_nothing(
    client: Client, told: list[str], said: str, word: str
) -> None:
    client.agent_create("mia", name="Kai")
    sid = client.session_open("mia", ts=D0 + 20 * 3_600_000)["session_id"]
    for i, line in enumerate(told):
        client.session_send(sid, line, ts=D0 + 20 * 3_600_000 + i * 60_000).finish()
    client.session_close(sid, ts=D0 + 21 * 3_600_000, wait=True)
    _, forgotten = ask(client, "mia", said, D0 + 5 * DAY)
    assert forgotten == {}, forgotten
    assert word in found(client, "mia", told[0], D0 + 12 * DAY)
