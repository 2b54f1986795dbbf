"""What a search reads about its candidates, remembered per agent between searches.

A search at 1,000 tokens reads ~270 candidates on an agent with two years of daily conversation:
each one's item (kind, words, time), a turn's own row (whose words, the turn before, value, status,
the message it copies), a fact's value and status, an episode's tension and the messages each
memory came from. Read by SQL and turned into records, that was a quarter of the search's CPU time
(perf/RESULTS.md, "Search latency on long histories"), and most candidates come back search after
search. So each agent's rows are kept here once read, and a search reads only the ones it has not
seen.

Coherence: triggers (migration 013) move the agent's generation (``meta``, ``search_rows:<agent>``)
in the same transaction as any change to those rows: an item added, deleted or rewritten; a turn's
link, value, status, speaker or ref; a fact's value or status; an episode's tension; a highlight's
intensity; a source added or removed; whichever module and connection wrote it. Every read compares
the generation first and starts over when it moved, so a changed memory is never shown as it was.
A memory merely referenced (its ``ref_count``) bumps nothing: referencing is not a change.

Privacy: the rows hold memories' words, so they are per agent and per connection (one agent's are
never consulted for another's search: every read is keyed by the agent and filtered by it in SQL),
they go when the words go (a forget or an erase deletes rows, which moves the generation, and
``index.remove_agent`` drops the agent's outright), and they are bounded (``MAX_ROWS``).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

import apsw

_T = TypeVar("_T")

MAX_ROWS = 50_000  # remembered rows of each kind per agent: past it the agent's start over
_KEY = "search_rows:"

# A memory that is not a turn: its value for ranking, whether it is current, whether it is history
# (superseded: shown only for a question about the past). A deleted fact is neither.
_VALUE_SQL = {
    "fact": "SELECT fact_id, value, status = 'current', status = 'superseded' FROM facts "
    "WHERE agent_id = ? AND fact_id IN ({})",
    "highlight": "SELECT highlight_id, 0.5 + 0.5 * intensity, 1, 0 FROM highlights "
    "WHERE agent_id = ? AND highlight_id IN ({})",
    "episode": "SELECT episode_id, 0.5 + 0.5 * tension, 1, 0 FROM episodes "
    "WHERE agent_id = ? AND episode_id IN ({})",
}
VALUE_KINDS = frozenset(_VALUE_SQL)  # the kinds ``values`` reads


@dataclass(frozen=True, slots=True)
class Value:
    value: float
    current: bool
    superseded: bool


@dataclass
class Rows:
    """One agent's remembered rows, valid while its generation is ``generation``."""

    generation: int
    items: dict[int, Any] = field(default_factory=dict)  # item id → what index.items_said made
    # index.turns_around's two halves: a turn by its utterance id (None: not the agent's), and the
    # turns that follow one
    turns: dict[int, Any] = field(default_factory=dict)
    nexts: dict[int, tuple[Any, ...]] = field(default_factory=dict)
    values: dict[tuple[str, int], Value] = field(default_factory=dict)
    refs: dict[tuple[str, int], tuple[str, ...]] = field(default_factory=dict)
    # item id → (the turn's row, the ranking's record made of it): see ``made``
    made: dict[int, tuple[Any, Any]] = field(default_factory=dict)

    def __len__(self) -> int:
        return (
            len(self.items)
            + len(self.turns)
            + len(self.nexts)
            + len(self.values)
            + len(self.refs)
            + len(self.made)
        )

    def missing_items(self, item_ids: Sequence[int]) -> list[int]:
        """The ids among ``item_ids`` not remembered; all of them when remembering them too would
        pass ``MAX_ROWS`` (the agent's items start over)."""
        missing = [i for i in item_ids if i not in self.items]
        if len(self.items) + len(missing) > MAX_ROWS:
            self.items.clear()
            return list(item_ids)
        return missing


def room(store: dict[Any, Any], wanted: Sequence[Any]) -> list[Any]:
    """The keys of ``wanted`` not in ``store``; all of them once remembering them too would pass
    ``MAX_ROWS`` (``store`` then starts over)."""
    missing = [k for k in wanted if k not in store]
    if len(store) + len(missing) > MAX_ROWS:
        store.clear()
        return list(wanted)
    return missing


_HELD: weakref.WeakKeyDictionary[apsw.Connection, dict[str, Rows]] = weakref.WeakKeyDictionary()


def generation(conn: apsw.Connection, agent_id: str) -> int:
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (_KEY + agent_id,)).fetchone()
    return int(row[0]) if row else 0


def of(conn: apsw.Connection, agent_id: str) -> Rows:
    """The agent's remembered rows on this connection; empty ones when its generation moved."""
    held = _HELD.setdefault(conn, {})
    now = generation(conn, agent_id)
    found = held.get(agent_id)
    if found is None or found.generation != now:
        found = held[agent_id] = Rows(now)
    return found


def values(
    conn: apsw.Connection, agent_id: str, kind: str, source_ids: Sequence[int]
) -> list[tuple[int, Value]]:
    """(source id, value) of the agent's memories of ``kind`` (fact, highlight, episode) among
    ``source_ids`` that still exist, in ascending id order (as SQL gave them)."""
    rows = of(conn, agent_id)
    missing = [s for s in source_ids if (kind, s) not in rows.values]
    if len(rows.values) + len(missing) > MAX_ROWS:
        rows.values.clear()
        missing = list(source_ids)
    if missing:
        marks = ",".join("?" * len(missing))
        for source_id, value, current, superseded in conn.execute(
            _VALUE_SQL[kind].format(marks), (agent_id, *missing)
        ):
            rows.values[(kind, source_id)] = Value(float(value), bool(current), bool(superseded))
    out = [(s, v) for s in source_ids if (v := rows.values.get((kind, s))) is not None]
    return sorted(out, key=lambda sv: sv[0])


def refs(
    conn: apsw.Connection, agent_id: str, keys: Iterable[tuple[str, int]]
) -> dict[tuple[str, int], tuple[str, ...]]:
    """The message refs each of the agent's memories (kind, source id) came from; () for none."""
    rows = of(conn, agent_id)
    wanted = list(dict.fromkeys(keys))
    missing = [k for k in wanted if k not in rows.refs]
    if len(rows.refs) + len(missing) > MAX_ROWS:
        rows.refs.clear()
        missing = wanted
    if missing:
        marks = ",".join("(?, ?)" for _ in missing)
        read: dict[tuple[str, int], list[str]] = {}
        for kind, item_id, ref in conn.execute(
            f"SELECT kind, item_id, ref FROM sources WHERE agent_id = ? AND (kind, item_id) IN "
            f"(VALUES {marks}) ORDER BY kind, item_id, message_id, ref",
            (agent_id, *(v for key in missing for v in key)),
        ):
            read.setdefault((kind, item_id), []).append(ref)
        for key in missing:
            rows.refs[key] = tuple(read.get(key, ()))
    return {k: rows.refs[k] for k in wanted if k in rows.refs}


def made(rows: Rows, item_id: int, row: Any, make: Callable[[Any], _T]) -> _T:
    """``make(row)`` for the item, remembered while the item's row is this very object: a row read
    again (its generation moved, or it was read anew after ``MAX_ROWS``) is a new object, so what
    was made of the old one is never returned for it. A search makes a record per candidate turn
    (retrieve's ``About``: ~250 at 1,000 tokens, a few microseconds each) from rows that mostly
    come back search after search."""
    found = rows.made.get(item_id)
    if found is not None and found[0] is row:
        return cast(_T, found[1])
    if len(rows.made) >= MAX_ROWS:
        rows.made.clear()
    out = make(row)
    rows.made[item_id] = (row, out)
    return out


def drop_agent(conn: apsw.Connection, agent_id: str) -> None:
    """Forget every remembered row of the agent on this connection (it is being deleted)."""
    _HELD.get(conn, {}).pop(agent_id, None)


def holding(agent_id: str) -> int:
    """How many rows are remembered for the agent, on every connection (tests)."""
    return sum(len(m[agent_id]) for m in list(_HELD.values()) if agent_id in m)
