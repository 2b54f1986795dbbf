"""A message dated years ahead does not expire the scheduler's items or block its pushes: the
scheduler takes a time at most clock.FUTURE_MARGIN_MS (two days) past the daemon's clock. Real daemon."""

from __future__ import annotations

import time

import pytest
from xaiclient import Client

HOUR = 3_600_000


@pytest.mark.parametrize("text", ["Good morning!", "早上好！"])
def test_a_first_turn_dated_ten_years_ahead_leaves_the_items_due(client: Client, text: str) -> None:
    now = int(time.time() * 1000)
    client.agent_create("mia")
    item = client.scheduler_arm(
        "mia", "how the piano exam went", not_before=now - HOUR, not_after=now + 72 * HOUR
    )
    sid = client.session_open("mia")["session_id"]
    client.session_send(sid, text, ts=now + 3650 * 24 * HOUR).finish()
    states = {
        i["item_id"]: i
        for i in client.scheduler_list(
            "mia", states=["pending", "pushed", "expired", "resolved", "cancelled"]
        )["items"]
    }
    got = states[item["item_id"]]
    assert got["state"] in ("pending", "pushed"), got
    assert got["pushed_ms"] is None or got["pushed_ms"] <= now + 48 * HOUR + 10 * 60_000
