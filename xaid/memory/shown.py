"""How each memory is shown and what it costs, remembered between one agent's searches.

Packing a search's candidates into its budget (``pack.fill``, ~150 of them at 1,000 tokens) needs
each one's line as the model reads it, a turn dated and attributed with its relative times pinned
to days, and that line's token count. Working them out was most of a search's time on a LoCoMo
agent (docs/memory.md, "Search latency"), and the same turns come back search after search. What is
remembered depends on the item alone (its words, its time, whose words and the user's time zone),
and each entry is checked against the row the search has just read, so a memory whose words
changed is never shown as it was.

Privacy: the entries hold memories' words, so they go when the words go. Every erase drops the
agent's entries in the transaction that forgets (erase.py), ``index.remove`` and
``index.remove_agent`` drop the entries of what they delete (the forgetting curve, a consolidation
that replaces a memory), and an agent whose forget epoch moved since its entries were made (a forget
on another connection) starts over. Bounded: past ``MAX_ENTRIES`` an agent's entries start over.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar, cast

import apsw

from . import fence

_T = TypeVar("_T")

MAX_ENTRIES = 50_000  # per agent: ~10 MB of remembered lines at most


@dataclass(frozen=True, slots=True)
class Line:
    """One item as a search shows it: valid while ``key`` (what it was made from) still holds."""

    key: Hashable
    text: str  # a turn's words with their times resolved; a fact's or episode's as stored
    cost: int  # tokens of the line shown alone (a one-turn snippet, or the item's text)
    # A turn's one-turn snippet, dated and attributed ("[7 May 2023] the user: …"): what a hit of
    # it alone shows, made once with its cost; None for a fact or an episode.
    alone: str | None = None


@dataclass(frozen=True, slots=True)
class Long:
    """A turn long enough to be cut: how it is cut depends on the query only through which of its
    sentences hold the query's words, so its sentences and their words are remembered, and the
    line for each set of matched sentences seen so far."""

    key: Hashable
    parts: tuple[str, ...]  # its sentences
    terms: tuple[frozenset[str], ...]  # the words of each, as a keyword search matches them
    # matched sentences → (line text, cost alone, the one-turn snippet: see ``Line.alone``)
    cuts: dict[tuple[int, ...], tuple[str, int, str | None]]

    def remember(self, matched: tuple[int, ...], text: str, cost: int, alone: str | None) -> None:
        if len(self.cuts) >= MAX_CUTS:
            self.cuts.clear()
        self.cuts[matched] = (text, cost, alone)


MAX_CUTS = 16  # lines remembered per long turn


class Memo:
    """One agent's remembered lines, by item id, made while its forget epoch was ``epoch``."""

    def __init__(self, epoch: int) -> None:
        self.epoch = epoch
        self._lines: dict[int, Line | Long] = {}
        # What the rules read of an item's words, by what was read ("asks": whether a turn asks, for
        # the neighbours of a hit; recency's subject words, fact slots and change cue), then by item
        # id, with the words it was read from: the clause split behind "asks" was a millisecond a
        # search, the fact rules behind the slots up to two at a present question's p95.
        self._judged: dict[str, dict[int, tuple[str, Any]]] = {}

    def __len__(self) -> int:
        return len(self._lines) + sum(len(d) for d in self._judged.values())

    def lines(self) -> int:
        """How many items' lines are remembered (tests: what start-up worked out)."""
        return len(self._lines)

    def readings(self, what: str) -> dict[int, str]:
        """The items whose ``what`` reading is remembered, with the words it was read from (tests)."""
        return {item_id: text for item_id, (text, _) in self._judged.get(what, {}).items()}

    def get(self, item_id: int, key: Hashable) -> Line | Long | None:
        """The remembered entry when it was made from ``key``; None otherwise (a changed memory)."""
        line = self._lines.get(item_id)
        return line if line is not None and line.key == key else None

    def put(self, item_id: int, line: Line | Long) -> None:
        if len(self._lines) >= MAX_ENTRIES:
            self._lines.clear()
        self._lines[item_id] = line

    def judged(self, what: str, item_id: int, text: str, judge: Callable[[str], _T]) -> _T:
        """``judge(text)``, remembered for the item under ``what`` while its words stay ``text``;
        ``judge`` must depend on the words alone (and callers must not change what it returns)."""
        return self.judging(what, judge)(item_id, text)

    def judging(self, what: str, judge: Callable[[str], _T]) -> Callable[[int, str], _T]:
        """``judged`` for many items: the store of ``what`` looked up once, not once per item (a
        search reads the same-words key of ~270 candidates)."""
        store = self._judged.setdefault(what, {})

        def read(item_id: int, text: str) -> _T:
            known = store.get(item_id)
            if known is not None and known[0] == text:
                return cast(_T, known[1])
            if len(store) >= MAX_ENTRIES:
                store.clear()
            answer = judge(text)
            store[item_id] = (text, answer)
            return answer

        return read

    def asks(self, item_id: int, text: str, judge: Callable[[str], bool]) -> bool:
        """Whether the turn asks, by ``judge`` (the rules' ``is_question``), remembered."""
        return self.judged("asks", item_id, text, judge)

    def discard(self, item_ids: Iterable[int]) -> None:
        for item_id in item_ids:
            self._lines.pop(item_id, None)
            for store in self._judged.values():
                store.pop(item_id, None)


_MEMOS: weakref.WeakKeyDictionary[apsw.Connection, dict[str, Memo]] = weakref.WeakKeyDictionary()


def memo(conn: apsw.Connection, agent_id: str) -> Memo:
    """The agent's memo on this connection; a fresh one when a forget came since it was made."""
    held = _MEMOS.setdefault(conn, {})
    now = fence.epoch(conn, agent_id)
    found = held.get(agent_id)
    if found is None or found.epoch != now:
        found = held[agent_id] = Memo(now)
    return found


def drop_agent(conn: apsw.Connection, agent_id: str) -> None:
    """Forget every line of the agent (an erase, the agent deleted)."""
    _MEMOS.get(conn, {}).pop(agent_id, None)


def drop_items(conn: apsw.Connection, agent_id: str, item_ids: Iterable[int]) -> None:
    """Forget the lines of these items (they were deleted)."""
    found = _MEMOS.get(conn, {}).get(agent_id)
    if found is not None:
        found.discard(item_ids)


def holding(agent_id: str) -> int:
    """How many lines are remembered for the agent, on every connection (tests, stats)."""
    return sum(len(m[agent_id]) for m in list(_MEMOS.values()) if agent_id in m)
