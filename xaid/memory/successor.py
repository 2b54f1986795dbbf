"""A question that matches a replaced statement is answered by what replaced it.

Consolidation makes an earlier statement history when a later one changes it (memory.supersede),
and a question about now sees the current statements only (retrieve.search). But a question is
often worded the way the subject was first named: "how do I keep in shape?" is near "I do spin
classes at PulseGym" (0.18) and far from "cancelled the PulseGym thing, I just run along the canal
now" (0.05); "我现在每天怎么去公司？" is near "我每天坐地铁2号线上班" (0.46), far from "上个月入了辆电动
车" (0.16). With the earlier line hidden and the later one below every cut, the search returned
nothing at all, where a person asked would answer from the two lines: the question is about the
thing the old line spoke of, and the current word on that thing is the line that replaced it.

So a replaced user turn the question matches hands its relevance (``SHARE`` of it) to its
successor: of the agent's later, current user turns, the one nearest to it in meaning, when it is
at least as near as consolidation's own least pairing cosine (supersede.FLOOR). The link is read
by meaning at search time, not stored: the pairing decision is consolidation's, and a replacement
is by construction close to what it replaced. A change is often told over a few lines, the new value
last ("康复师说脚踝赶不上了，厦马只能放弃。" then "报了五月的一个十公里"), so the user's next turns of the same
telling (``FOLLOWING``, said within recency.APART_MS) take the same share (packing shows such
consecutive turns as one memory). The share is below a direct match of the same strength
(``SHARE``), so what the question itself finds keeps its place. Nothing is added when no replaced
turn matched, so a question with no answer gets no more than before.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import apsw

from . import index, recency, supersede
from .vectors import AgentVectors

# The successor's relevance, as a share of the replaced turn's: half, as a weak vector match ranks
# (retrieve.WEAK_SHARE), below what the question matches itself. At 0.9 a line of the telling
# outranked the episode holding the new value (updates_dev3's train case d3-zh-40).
SHARE = 0.5
NEIGHBOURS = 8  # the nearest memories of a replaced turn read for its successor
MOST = 4  # replaced turns followed per search, the best matched first
FOLLOWING = 2  # the user's next turns of the same telling that share the successor's relevance


@dataclass(frozen=True, slots=True)
class Successor:
    """A current turn that replaced a statement the question matched, and the relevance it takes."""

    item: index.Item
    turn: index.Said
    relevance: float


def of(
    conn: apsw.Connection,
    agent_id: str,
    replaced: Mapping[int, float],
    found: Mapping[int, index.Item],
    near: AgentVectors | None,
    now_ms: int,
) -> dict[int, Successor]:
    """The successors of the replaced turns in ``replaced`` (item id → the question's relevance to
    it), by item id; a successor reached from two replaced turns keeps the larger relevance."""
    out: dict[int, Successor] = {}
    if near is None:
        return out
    for item_id in sorted(replaced, key=lambda i: -replaced[i])[:MOST]:
        vector = near.vector(item_id)
        if vector is None:
            continue
        close = [
            (i, c)
            for i, c in near.nearest(vector, NEIGHBOURS + 1)
            if i != item_id and c >= supersede.FLOOR
        ]
        rows = index.items_said(conn, agent_id, [i for i, _ in close], now_ms)
        for i, _c in close:  # nearest first
            item, turn = rows.get(i, (None, None))
            if (
                item is None
                or turn is None
                or turn.role != "user"
                or turn.status != "current"
                or item.ts_ms <= found[item_id].ts_ms
            ):
                continue
            share = SHARE * replaced[item_id]
            for s in [Successor(item, turn, share), *_telling(conn, agent_id, item, turn, now_ms)]:
                if s.item.item_id not in out or out[s.item.item_id].relevance < share:
                    out[s.item.item_id] = Successor(s.item, s.turn, share)
            break
    return out


def _telling(
    conn: apsw.Connection, agent_id: str, item: index.Item, turn: index.Said, now_ms: int
) -> list[Successor]:
    """The user's current turns after ``turn`` in the same telling (up to ``FOLLOWING`` of them,
    the companion's replies between them skipped, each within recency.APART_MS of the first)."""
    out: list[Successor] = []
    last = turn.utterance_id
    for _ in range(2 * FOLLOWING):  # a reply between two of the user's turns is a step too
        after = index.turns_around(conn, agent_id, [], [last], now_ms)
        nxt = next(((i, t) for i, t in after if t.prev_id == last), None)
        if nxt is None or nxt[0].ts_ms - item.ts_ms > recency.APART_MS:
            break
        last = nxt[1].utterance_id
        if nxt[1].role == "user" and nxt[1].status == "current":
            out.append(Successor(nxt[0], nxt[1], 0.0))
            if len(out) == FOLLOWING:
                break
    return out
