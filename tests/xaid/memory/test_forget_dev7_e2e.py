"""Forget requests of dev set 7's kind (perf/scenarios/forget_requests_dev7.json, issue 24 item 2)
through a real daemon: a request that names its topic by a person's matter without a frame's
wording, one by a time ("今天早上"), and one in mixed language are carried out at once, and the
look-alikes said between them (one's own forgetting in mixed language, a friend who deleted you)
forget nothing.

The sentences are of the set's train half, which main's recognition already carries out (the
test half stays unread by tests). Real socket, real SQLite, real embedder (USE-multilingual-v3);
the scripted provider stands in for the model, since what is tested is what the daemon does with
the user's words, not how a model phrases its reply.
"""

from __future__ import annotations

from xaiclient import Client

from testkit.forgetting import everything, talk

DAY = 86_400_000
HOUR = 3_600_000
T0 = 1_764_536_400_000  # Sunday 2025-11-30 21:00 UTC


def test_requests_said_the_way_people_talk_forget_at_once_and_lookalikes_nothing(
    client: Client,
) -> None:
    client.agent_create("mei")
    kept = talk(client, "mei", ["Made a sourdough starter, named it Clint."], T0)
    told_en = talk(
        client,
        "mei",
        ["Grandma's will leaves the lake house to my cousin Brett and nothing to my mum."],
        T0 + 2 * DAY,
    )
    morning = T0 + 4 * DAY + 11 * HOUR  # Thursday 08:00 UTC
    told_zh = talk(client, "mei", ["银行说我的房贷申请被拒了，信用记录有问题。"], morning)
    sid = client.session_open("mei", ts=morning + 12 * HOUR)["session_id"]
    turns = [
        ("I forgot 带钥匙 again lol, locked out", False),
        ("The thing about grandma's will, please don't store that anywhere.", True),
        ("他把我拉黑了，还删了好友", False),
        ("今天早上跟你说的银行那些事，能删就删了吧", True),
    ]
    ts = morning + 12 * HOUR
    for text, is_request in turns:
        ts += 60_000
        forgotten = (
            client.session_send(sid, text, ts=ts, explain=True).finish()["context"].get("forgotten")
        )
        if not is_request:
            assert forgotten is None, text
            continue
        assert forgotten is not None and forgotten["sure"], (text, forgotten)
        assert forgotten["decision"] == "forget" and forgotten["deleted"] > 0, forgotten
    later = T0 + 12 * DAY
    assert "lake house" not in everything(client, "mei", [told_en, sid], "grandma will", later)
    assert "房贷" not in everything(client, "mei", [told_zh, sid], "银行 房贷", later)
    history = repr(client.session_history(sid)["messages"])
    assert "locked out" in history and "拉黑" in history
    assert "sourdough" in everything(client, "mei", [kept], "sourdough starter", later)
