"""Reads remembered while the database is unchanged, so a search repeats no SQL it has done.

A query's keyword search (three FTS5 indexes and their terms' document counts: a fifth of a
search's CPU on two years of conversation, perf/RESULTS.md "Search CPU time by stage") gives the
same answer until something is written: bm25 reads the statistics of the whole table, every
agent's rows, so any write may change a score. Hence a remembered read is valid while the
connection's *stamp* holds: ``total_changes()`` (every row this connection inserted, updated or
deleted, by a statement or a trigger, committed or rolled back) and ``PRAGMA data_version`` (which
moves when another connection commits). Any write anywhere drops everything remembered at the next
read; nothing is ever answered from before a write, so a forgotten memory cannot come back from here.

Privacy: the keys are the agent's id and the query's words, the values item ids and scores. They
are per connection, bounded (``MAX_READS``), keyed by the agent (never answered for another), and
dropped with the agent's memories (``drop_agent``, called by the eraser in the same transaction).
"""

from __future__ import annotations

import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

import apsw

T = TypeVar("T")

MAX_READS = 128  # remembered answers per connection, all agents together: the latest kept
MAX_SHARED = 50_000  # entries of one ``shared`` table: past it the table starts over


@dataclass
class _Memo:
    stamp: tuple[int, int]
    found: OrderedDict[tuple[str, Hashable], Any] = field(default_factory=OrderedDict)
    tables: dict[Hashable, dict[Any, Any]] = field(default_factory=dict)


_HELD: weakref.WeakKeyDictionary[apsw.Connection, _Memo] = weakref.WeakKeyDictionary()


def stamp(conn: apsw.Connection) -> tuple[int, int]:
    """What moves with any write to the database: this connection's and any other's."""
    version = conn.execute("PRAGMA data_version").fetchone()
    return conn.total_changes(), int(version[0]) if version else 0


def read(conn: apsw.Connection, agent_id: str, key: Hashable, fetch: Callable[[], T]) -> T:
    """``fetch()``'s answer for ``(agent_id, key)``, remembered while the database is unchanged.
    ``fetch`` must only read (a write would move the stamp after the answer was stamped), and its
    answer is shared between callers: it must be immutable (a tuple of tuples)."""
    memo = _current(conn)
    full = (agent_id, key)
    if full in memo.found:
        memo.found.move_to_end(full)
        return cast(T, memo.found[full])
    answer = memo.found[full] = fetch()
    while len(memo.found) > MAX_READS:
        memo.found.popitem(last=False)
    return answer


def _current(conn: apsw.Connection) -> _Memo:
    """What this connection remembers, emptied first if the database changed since."""
    now = stamp(conn)
    memo = _HELD.get(conn)
    if memo is None or memo.stamp != now:
        memo = _HELD[conn] = _Memo(now)
    return memo


def shared(conn: apsw.Connection, name: Hashable) -> dict[Any, Any]:
    """A table of answers that belong to no agent (the keyword indexes' document count of a term,
    which bm25 reads over every agent's rows), kept entry by entry while the database is unchanged,
    like ``read``'s: a query's words are looked up once, then found by the next query that says
    them. Callers put in only what they read from the database since this call; values must be
    immutable. Empty again after any write; bounded (``MAX_SHARED``)."""
    table = _current(conn).tables.setdefault(name, {})
    if len(table) >= MAX_SHARED:
        table.clear()
    return table


def drop_agent(conn: apsw.Connection, agent_id: str) -> None:
    """Forget every answer remembered for the agent on this connection (its memories are erased)."""
    memo = _HELD.get(conn)
    if memo is not None:
        for full in [k for k in memo.found if k[0] == agent_id]:
            del memo.found[full]


def held(agent_id: str) -> int:
    """How many answers are remembered for the agent, on every connection (tests)."""
    return sum(1 for m in list(_HELD.values()) for k in m.found if k[0] == agent_id)


__all__ = ["MAX_READS", "MAX_SHARED", "drop_agent", "held", "read", "shared", "stamp"]
