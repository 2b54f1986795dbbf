"""The standing block: what a session's first turn shows whatever the user says, kept in the head.

A session's first turn used to read its whole memory block before the first word: on a long history
that was ~450 tokens, 6 s for the 1.5B on two cores (issue 28). Part of what a friend brings to a
conversation does not depend on the first words at all: how the last talks went. That part is
the same for every query until the agent's memory changes, so it can sit in the prompt's head,
after the profile, and be read ahead of time (the runner's prewarm, xaid/providers/llama_cpp.py) and
restored from the head cache. What the turn then reads is only the query-specific slot and the
message.

It holds a note on how to read the turn's memories (said here once, so that the turn's own block
needs only a two-word header: ``retrieve.SHORT_HEADERS``) and the latest episodes' summaries,
newest first, each with its absolute date (never "two days ago": the head must not change with the
clock), within ``memory.standing_tokens``. The episodes it shows are not shown again by the turn's
own memories (``keys``).
"""

from __future__ import annotations

from dataclasses import dataclass

import apsw

from .. import clock
from ..store import memory as sql
from ..text import tokens
from . import hide, persona, rewrite

MAX_EPISODES = 3
HEADER = "How your last talks with the user went (newest first):"
# Said once in the head, so that the turn's own memories need no long header of their own
# (every token after the head is read before the first word).
NOTE = (
    "Lines under 'You remember:' later on are things from earlier conversations: use them only if "
    "they fit, never recite them."
)


@dataclass(frozen=True, slots=True)
class Standing:
    text: str
    keys: frozenset[tuple[str, int]]  # the memories it shows: ("episode", id)


def _line(ts_ms: int, summary: str) -> str:
    day = clock.local(ts_ms).strftime("%d %b %Y").lstrip("0")
    return f"- [{day}] {' '.join(summary.split())}"


def compose(conn: apsw.Connection, agent_id: str, budget_tokens: int) -> Standing | None:
    """The agent's standing block within ``budget_tokens`` (None: no budget). Without episodes it is
    the note alone, which the short header of the turn's memories relies on."""
    if budget_tokens <= 0:
        return None
    used = tokens.count(HEADER) + tokens.count(NOTE) + 2
    lines: list[str] = []
    keys: set[tuple[str, int]] = set()
    held_back = hide.episodes(conn, agent_id)  # a question back about a forget holds them back
    for ep in sql.episodes(conn, agent_id, limit=MAX_EPISODES):
        if not ep.summary.strip() or ep.episode_id in held_back:
            continue
        line = _line(ep.ended_ms, ep.summary)
        cost = tokens.count(line) + 1
        if used + cost > budget_tokens:
            break
        lines.append(line)
        keys.add(("episode", ep.episode_id))
        used += cost
    return Standing("\n".join([NOTE, HEADER, *lines] if lines else [NOTE]), frozenset(keys))


def session_head(
    conn: apsw.Connection, agent_id: str, now_ms: int, standing_tokens: int
) -> tuple[str | None, Standing | None]:
    """What a session's head holds of the agent's memory as of ``now_ms``: the profile and the
    standing block. The one place both a turn and the prewarm read it, so the two heads are the same
    bytes (the head cache is keyed by them)."""
    profile = persona.current_text(conn, agent_id, now_ms)
    held = hide.holds(conn, agent_id) if profile else None
    if profile and held is not None:
        # A question back about a forget holds back the profile's lines drawn from its matter.
        profile = rewrite.without(profile, held, head=persona.HEADER)
    return profile, compose(conn, agent_id, standing_tokens)
