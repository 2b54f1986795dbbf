"""How often one turn goes to the database. Every round trip before the first token is latency
the user waits through, and a turn that reads the same thing twice pays twice: the turn reads its
session, its agent, the fold cut and the participants once each (issue 23).

The scripted provider stands in for the model: what is counted is what the daemon does around it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import pytest
from xaiclient import Client

from xaid.store.db import Database

T = TypeVar("T")


@pytest.fixture
def trips(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The names of the functions run on the database thread, in order, while the test runs."""
    seen: list[str] = []
    run, outside = Database.run, Database.run_outside_transaction

    async def counted_run(self: Database, fn: Callable[..., T], *args: Any) -> T:
        seen.append(getattr(fn, "__qualname__", repr(fn)))
        return await run(self, fn, *args)

    async def counted_outside(self: Database, fn: Callable[..., T], *args: Any) -> T:
        seen.append(getattr(fn, "__qualname__", repr(fn)))
        return await outside(self, fn, *args)

    monkeypatch.setattr(Database, "run", counted_run)
    monkeypatch.setattr(Database, "run_outside_transaction", counted_outside)
    yield seen


def turn_trips(client: Client, trips: list[str], text: str) -> list[str]:
    sid = str(client.session_open("mia")["session_id"])
    client.session_send(sid, "first words / 第一句话").finish()  # the session's first turn is done
    trips.clear()
    client.session_send(sid, text).finish()
    return list(trips)


@pytest.mark.parametrize(
    "text", ["What did I say about the trip last weekend?", "上周末我说旅行的事了吗？"]
)
def test_a_later_turn_takes_four_round_trips(client: Client, trips: list[str], text: str) -> None:
    client.agent_create("mia", persona_init="Warm and brief.")
    seen = turn_trips(client, trips, text)
    print(seen)
    assert len(seen) == 4, seen
