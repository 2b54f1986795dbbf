"""session.*: conversations. Every message is stored before anything else happens to it."""

from __future__ import annotations

import json
import secrets
from typing import Any

import apsw
from xaiclient.wire import Busy, Conflict, Overloaded, XaiError

from ... import shares
from ...app import App
from ...clock import at
from ...conversation import agent_config, words
from ...conversation.turns import UserTurn
from ...store import sessions as sql
from ...store.agents import Agent
from ...store.errors import StorageFailed
from ...store.sessions import Message, Session
from .. import paging
from ..dispatch import Call, Params, bad_params, method, not_found
from .agents import load_agent

MAX_TEXT = 100_000  # characters in one message; the frame limit bounds it too
MAX_INGEST = 1_000  # messages in one session.ingest call
INGEST_ROLES = ("user", "assistant", "system")


async def load_session(call: Call, session_id: str, *, open_only: bool = False) -> Session:
    session = await call.app.db.run(sql.get_session, session_id)
    if session is None:
        raise not_found("session", session_id)
    if open_only and session.closed_ms is not None:
        raise Conflict(f"session {session_id!r} is closed; open a new one")
    return session


async def load_session_and_agent(call: Call, session_id: str) -> tuple[Session, Agent]:
    """An open session and its agent, in one read (a turn's first round trip)."""
    found = await call.app.db.run(sql.with_agent, session_id)
    if found is None:
        raise not_found("session", session_id)
    session, agent = found
    if session.closed_ms is not None:
        raise Conflict(f"session {session_id!r} is closed; open a new one")
    if agent is None:
        raise not_found("agent", session.agent_id)
    return session, agent


@method("session.open")
async def open_session(call: Call) -> dict[str, Any]:
    p = call.params
    agent_id = p.id("agent_id")
    ts = p.ts()
    p.done()
    await load_agent(call, agent_id)
    session = await open_new(call.app, agent_id, at(call.app.clock, ts))
    return {"session_id": session.session_id, "agent_id": agent_id, "opened_ms": session.opened_ms}


async def open_new(app: App, agent_id: str, ts_ms: int) -> Session:
    """A new session of an existing agent, within its share of ``server.max_open_sessions``:
    session.open's work, shared with the HTTP surface, which opens sessions for its clients."""
    limit = app.config.server.max_open_sessions
    session_id = "s_" + secrets.token_hex(8)

    def open_if_room(conn: apsw.Connection) -> shares.Share:
        """Counted and inserted in one transaction, so two opens cannot both take the last place."""
        share = shares.of(limit, sql.open_per_agent(conn), agent_id)
        if share.admitted:
            sql.insert_session(conn, session_id, agent_id, ts_ms)
        return share

    try:
        share = await app.db.run(open_if_room)
    except StorageFailed as exc:
        if isinstance(exc.__cause__, apsw.ConstraintError):  # the agent was deleted meanwhile
            raise not_found("agent", agent_id) from None
        raise
    if not share.admitted:
        raise Overloaded(share.why_not("open sessions", "server.max_open_sessions", "close some"))
    return Session(session_id, agent_id, ts_ms, ts_ms, None)


@method("session.send")
async def send(call: Call) -> dict[str, Any]:
    p = call.params
    session_id = p.id("session_id")
    turn = UserTurn(
        text=p.str("text", max_len=MAX_TEXT),
        ts_ms=at(call.app.clock, p.ts()),
        ref=p.str("ref", None, max_len=200),
        speaker=p.str("speaker", None, max_len=200),
        explain=p.bool("explain", False),
    )
    p.done()
    if not turn.text.strip():
        raise bad_params("param 'text' is empty")
    session, agent = await load_session_and_agent(call, session_id)
    return (await call.app.turns.run(agent, session, turn, call.emit)).to_wire()


@method("session.tool_result")
async def tool_result(call: Call) -> dict[str, Any]:
    p = call.params
    session_id = p.id("session_id")
    call_id = p.str("call_id", max_len=200)
    result = p.any("result")
    p.done()
    if not isinstance(result, str):
        try:  # checked here, where the client can hear it, not when the turn stores it
            encoded = json.dumps(result, ensure_ascii=False, default=str)
        except (ValueError, TypeError, RecursionError) as exc:
            raise bad_params(
                f"param 'result' cannot be stored as JSON ({type(exc).__name__})"
            ) from None
        if len(encoded) > MAX_TEXT:
            raise bad_params(f"param 'result' is longer than {MAX_TEXT} characters as JSON")
    elif len(result) > MAX_TEXT:
        raise bad_params(f"param 'result' is longer than {MAX_TEXT} characters")
    call.app.turns.tool_result(session_id, call_id, result)
    return {"accepted": True}


def _ingest_message(i: int, raw: Any, call: Call) -> tuple[str, str, int, str | None, str | None]:
    if not isinstance(raw, dict):
        raise bad_params(f"messages[{i}] must be a map")
    p = Params(raw)
    try:
        role = p.str("role")
        text = p.str("text", max_len=MAX_TEXT)
        ts = at(call.app.clock, p.ts())
        ref = p.str("ref", None, max_len=200)
        speaker = p.str("speaker", None, max_len=200)
        p.done()
    except XaiError as exc:
        raise bad_params(f"messages[{i}]: {exc.message}") from None
    if role not in INGEST_ROLES:
        raise bad_params(f"messages[{i}].role must be one of {', '.join(INGEST_ROLES)}")
    return role, text, ts, ref, speaker


@method("session.ingest")
async def ingest(call: Call) -> dict[str, Any]:
    p = call.params
    session_id = p.id("session_id")
    raw = p.list("messages")
    p.done()
    if len(raw) > MAX_INGEST:
        raise bad_params(f"at most {MAX_INGEST} messages per session.ingest call")
    parsed = [_ingest_message(i, m, call) for i, m in enumerate(raw)]
    session = await load_session(call, session_id, open_only=True)
    if session.session_id in call.app.live.active:
        raise Busy(f"session {session_id!r} is generating a reply")
    rows = [Message(session_id, session.agent_id, *fields) for fields in parsed]
    agent = await load_agent(call, session.agent_id)
    classify = call.app.classifier.classify if agent_config.mood_enabled(agent.config) else None
    readings = [classify(m.text) if classify and m.role == "user" else None for m in rows]
    mood_cfg, clock = call.app.config.mood, call.app.clock

    def write(conn: apsw.Connection) -> list[int]:
        sql.require_open(conn, session_id)
        # imported history moves the mood as if it had been lived: the turn's own store
        return [
            words.store(conn, msg, reading, mood_cfg, clock)[0].message_id or 0
            for msg, reading in zip(rows, readings, strict=True)
        ]

    ids = await call.app.db.run(write)
    call.app.live.touch(session_id)  # an import in progress is not an idle session
    return {"count": len(ids), "message_ids": ids}


@method("session.close")
async def close(call: Call) -> dict[str, Any]:
    p = call.params
    session_id = p.id("session_id")
    ts = p.ts()
    wait = p.bool("wait", False)
    p.done()
    session = await load_session(call, session_id)
    if session_id in call.app.live.active:
        raise Busy(f"session {session_id!r} is generating a reply; cancel it first")
    episode_id = await call.app.memory.close_and_consolidate(
        session_id, session.agent_id, at(call.app.clock, ts), wait
    )
    closed = await call.app.db.run(sql.get_session, session_id)
    assert closed is not None
    return {"session_id": session_id, "closed_ms": closed.closed_ms, "episode_id": episode_id}


@method("session.list", bulky=True)
async def list_sessions(call: Call) -> dict[str, Any]:
    p = call.params
    agent_id = p.id("agent_id")
    open_only = p.bool("open_only", False)
    page = paging.request(p, f"session.list\0{agent_id}")
    p.done()
    await load_agent(call, agent_id)
    found = await call.app.db.run(
        sql.list_sessions, agent_id, open_only, page.after, page.limit + 1
    )
    out = paging.fill(
        found,
        page,
        lambda s: (s.opened_ms, s.session_id),
        Session.to_wire,
        call.app.config.server.max_frame_bytes // 2,
    )
    return {"sessions": out.items, "next_cursor": out.next_cursor}


@method("session.history", bulky=True)
async def history(call: Call) -> dict[str, Any]:
    p = call.params
    session_id = p.id("session_id")
    limit = p.int("limit", None, min=1)
    p.done()

    def read(conn: apsw.Connection) -> tuple[Session, list[Message], bool] | None:
        """In one transaction, so the count, the messages and the flag agree when maintenance runs."""
        session = sql.get_session(conn, session_id)
        if session is None:
            return None
        return (
            session,
            sql.messages(conn, session_id, limit),
            sql.transcript_pruned_ms(conn, session_id) is not None,
        )

    found = await call.app.db.run(read)
    if found is None:
        raise not_found("session", session_id)
    session, messages, pruned = found
    # transcript_pruned: the messages were deleted by memory.keep_transcripts_days; what the session
    # left in memory (episode, facts, refs) stays
    return {
        "session": session.to_wire(),
        "messages": [m.to_wire() for m in messages],
        "transcript_pruned": pruned,
    }
