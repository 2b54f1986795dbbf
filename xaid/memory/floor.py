"""The floor under the ranking: what a plain hybrid over the raw turns would show is never lost.

A developer without xaid stores every turn and ranks it by BM25 and by embedding, fused by reciprocal
rank (hybrid RRF). xaid ranks the same candidates with more signals (value, whose words the query asks
about, the days it names, the answer after a matched question, the present over the past, episodes and
facts), and each of them is right on the sets it was tuned on; but on outside authors' associative
sets the plain hybrid found B where xaid's mix of scores put look-alikes, neighbours and summaries
above it (issue 28: held out 48.1 % vs hybrid 61.6 % at a turn's 400 tokens). A signal that helps
on average may still push out the one line both plain rankings agree on.

So the two orders are interleaved: xaid's own order keeps the first place and most of the block, and
every ``EVERY``-th place goes to the best turn of the plain hybrid order not placed yet. What both
find costs nothing (it is placed once); what only the plain order finds is shown within twice its
plain rank; what only xaid's signals bring (a day's turns, a recent episode, a neighbour) keeps its
place among the rest. The plain order is computed from the same candidates (the keyword and vector
rankings the search read, no query of its own) over the turns the search may show, so a superseded
turn joins it only where the search allows history.

Its own module, called from retrieve.search between the scoring and the repeat collapse.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence

EVERY = 2  # every second place of the block is the plain hybrid's; 0 turns the floor off
RESERVE = 0  # the plain order's best turns that take the place of xaid's weakest picks; 0: none
TOP = 99  # how many of the plain order's best turns are floored; past them xaid's order alone
RRF_K = 60  # reciprocal rank fusion's constant, as the baselines use it (Cormack et al.)


def plain_order(
    sims: Mapping[int, float],
    keywords: Mapping[int, float],
    turns: Collection[int],
    newer: Mapping[int, int],
) -> list[int]:
    """``turns`` that either ranking holds, best first by reciprocal rank fusion of the two rankings
    among those turns (1/(60 + rank) from each), the newer first on ties (``newer``: item → ts)."""
    fused: dict[int, float] = {}
    for scores in (sims, keywords):
        ranked = sorted((i for i in scores if i in turns), key=lambda i: -scores[i])
        for rank, item_id in enumerate(ranked, 1):
            fused[item_id] = fused.get(item_id, 0.0) + 1.0 / (RRF_K + rank)
    return sorted(fused, key=lambda i: (-fused[i], -newer.get(i, 0)))


def interleave(ranked: Sequence[int], plain: Iterable[int], every: int, top: int) -> list[int]:
    """``ranked`` (xaid's order) with every ``every``-th place given to the best of ``plain`` not yet
    placed, until ``top`` of them are; each item once. ``every`` below 2: ``ranked`` as it is."""
    if every < 2:
        return list(ranked)
    out: list[int] = []
    placed: set[int] = set()
    own, other = iter(ranked), iter(plain)

    def take(source: Iterable[int]) -> bool:
        for item_id in source:
            if item_id not in placed:
                placed.add(item_id)
                out.append(item_id)
                return True
        return False

    other_left, floored = True, 0
    while True:
        if (len(out) + 1) % every == 0 and other_left and floored < top:
            other_left = take(other)
            if other_left:
                floored += 1
                continue
        if not take(own):
            break
    return out


def make_room(
    ranked: Sequence[int], wanted: Sequence[int], shown: Collection[int]
) -> list[int] | None:
    """``ranked`` with those of ``wanted`` that a first packing left out (not in ``shown``) placed just
    before the last as many shown items, so that packing again swaps xaid's weakest picks for them;
    None when nothing is missing. Only items of ``ranked`` move (a collapsed repeat stays out)."""
    placed = set(ranked)
    missing = [i for i in wanted if i in placed and i not in shown]
    if not missing:
        return None
    moved = set(missing)
    rest = [i for i in ranked if i not in moved]
    kept = [i for i in rest if i in shown]
    at = rest.index(kept[-len(missing)]) if len(kept) >= len(missing) else 0
    return rest[:at] + missing + rest[at:]
