"""Holding back what a "forget that" probably meant while the companion asks which matter it was.

A friend asked to forget something, and not sure which thing was meant, asks back; meanwhile they
stop bringing up the likeliest one. Before this, a question back left the best match fully
recallable, and a harness that never answers (like a user who moves on) found every word of it a
week later (issue 24 item 2). Nothing is erased on a weak match: the turns the question is about,
their replies and every memory that holds them (the selection ``forget.forget_messages`` deletes on
a yes: what was made of them alone, and what restates them, ``forget_topic.holding``) are fenced
off from recall (``retrieve.search``: the turn's memories and ``memory.search``; the standing
block of the prompt's head, ``standing.compose``), reversibly:

- the user's yes forgets them (conversation.forgetting), and the rows go with what they name;
- a no, or a request naming another matter, lifts them (``lift``): that was not what they meant;
- silence keeps them hidden: the user asked for something to go, and showing its likeliest
  candidate again would be the worse mistake. ``explain`` names what was hidden;
  ``memory.forget`` and the export still see everything.

A turn of a conversation still open has no memories yet: its message is recorded, and
consolidation hides what it makes of it (``renew``).

Two things drawn from the matter are not memory items, and are held back where they are read
(``holds``): the profile's lines (L3, in the prompt's head: ``standing.session_head``) and the
scheduler's check-ins (``fire``): a question back that kept "The user's stepmom has a lump" in the
profile, or asked the next morning how the biopsy went, brought up the very thing the user had
just asked to let go. Both are chosen as a yes would delete them (``forget.forget_messages``: the
profile's sentences and the recall topics that hold the turns' words).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import apsw

from ..store import hidden as hidden_sql
from . import forget, forget_topic


def hide(
    conn: apsw.Connection,
    agent_id: str,
    message_ids: Sequence[int],
    request_id: int,
    now_ms: int,
) -> tuple[int, ...]:
    """Hide the user turns ``message_ids``, the replies to them and the memories that hold them,
    for the question back of message ``request_id``; the memory items hidden."""
    said = [m for m in message_ids if forget.message_text(conn, agent_id, m) is not None]
    turns = sorted({*said, *(r for m in said for r in forget.replies_to(conn, m))})
    items = _holding(conn, agent_id, said, turns)
    hidden_sql.add(conn, agent_id, request_id, now_ms, message_ids=turns, item_ids=items)
    return items


def renew(conn: apsw.Connection, agent_id: str, session_id: str, now_ms: int) -> None:
    """After the consolidation of ``session_id``: what it made of its hidden turns is hidden
    with them."""
    by_request: dict[int, list[int]] = {}
    for message_id, request_id in hidden_sql.messages(conn, agent_id, session_id).items():
        by_request.setdefault(request_id, []).append(message_id)
    for request_id, turns in by_request.items():
        users = [m for m in turns if _is_user(conn, m)]
        items = _holding(conn, agent_id, users, turns)
        hidden_sql.add(conn, agent_id, request_id, now_ms, item_ids=items)


def lift(conn: apsw.Connection, agent_id: str, request_id: int) -> int:
    """Show again what the question back of ``request_id`` hid (the user said no)."""
    return hidden_sql.lift(conn, agent_id, request_id)


def items(conn: apsw.Connection, agent_id: str) -> frozenset[int]:
    """The agent's memory items held back from recall."""
    return hidden_sql.items(conn, agent_id)


def episodes(conn: apsw.Connection, agent_id: str) -> frozenset[int]:
    """The agent's episodes held back (by episode id): the standing block leaves them out too."""
    return hidden_sql.sources(conn, agent_id, "episode")


def holds(conn: apsw.Connection, agent_id: str) -> Callable[[str | None], bool] | None:
    """Whether a text (a profile line, a check-in's topic or keywords) holds what the agent's
    questions back hid: a hidden turn, or a fact hidden with it (``forget_topic.holding``, the
    selection a yes deletes). None when nothing is hidden: most agents, most turns."""
    texts = hidden_sql.said(conn, agent_id)
    return forget_topic.holding(texts) if texts else None


def _is_user(conn: apsw.Connection, message_id: int) -> bool:
    row = conn.execute("SELECT role FROM messages WHERE message_id = ?", (message_id,)).fetchone()
    return row is not None and row[0] == "user"


def _holding(
    conn: apsw.Connection, agent_id: str, said: Sequence[int], turns: Sequence[int]
) -> tuple[int, ...]:
    """The memory items of the agent that hold the user turns ``said`` (``turns``: with their
    replies): the turns copying them, the facts and highlights made of them alone, and whatever
    else holds their words (an episode's sentence, a fact restating one)."""
    if not turns:
        return ()
    found = {
        r[0]
        for kind, source_id in forget.derived(conn, agent_id, turns)
        for r in conn.execute(
            "SELECT item_id FROM memory_items WHERE kind = ? AND source_id = ?", (kind, source_id)
        )
    }
    texts = [t for m in said if (t := forget.message_text(conn, agent_id, m)) is not None]
    holds = forget_topic.holding(texts)
    found.update(
        item_id
        for item_id, text in conn.execute(
            "SELECT item_id, text FROM memory_items WHERE agent_id = ?", (agent_id,)
        )
        if holds(text)
    )
    return tuple(sorted(found))
