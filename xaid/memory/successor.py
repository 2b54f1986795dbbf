"""A question that matches a replaced statement is answered by what replaced it.

Consolidation makes an earlier statement history when a later one changes it (xaid.memory.supersede),
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
is by construction close to what it replaced. Nothing is added when no replaced turn matched, so
a question with no answer gets no more than before.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import apsw

from . import index, supersede
from .vectors import AgentVectors

SHARE = 0.9  # the successor's relevance, as a share of the replaced turn's
NEIGHBOURS = 8  # the nearest memories of a replaced turn read for its successor
MOST = 4  # replaced turns followed per search, the best matched first


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
            if i not in out or out[i].relevance < share:
                out[i] = Successor(item, turn, share)
            break
    return out
