"""memory.*: what an agent remembers, how to find it, and the user's rights over it."""

from __future__ import annotations

from typing import Any

import apsw
from xaiclient.wire import BadParams, Busy

from ... import cpu
from ...app import App
from ...clock import at
from ...memory import forget, imported, portable, retrieve
from ...memory.pack import Hit
from ...store import memory as sql
from ...store import utterances as utterance_sql
from ..dispatch import Call, bad_params, method, not_found
from .agents import load_agent

KINDS = frozenset({"episode", "highlight", "fact", "utterance"})


def parse_item_id(raw: str) -> tuple[str, int]:
    kind, _, number = raw.partition(":")
    if kind not in KINDS or not number.isdigit() or len(number) > 15:
        raise bad_params(
            "param 'id' must look like 'fact:12', 'episode:3', 'highlight:7' or 'utterance:40'"
        )
    return kind, int(number)


@method("memory.search", bulky=True)
async def search(call: Call) -> dict[str, Any]:
    p = call.params
    agent_id = p.id("agent_id")
    query = p.str("query", max_len=10_000)
    k = p.int("k", 8, min=1)
    budget = p.int("budget_tokens", call.app.config.memory.budget_tokens, min=1)
    ts = p.ts()
    kinds = p.list("kinds", None)
    touch = p.bool("touch", False)
    p.done()
    if kinds is not None and not (all(isinstance(k, str) for k in kinds) and set(kinds) <= KINDS):
        raise bad_params(f"param 'kinds' may hold only {', '.join(sorted(KINDS))}")
    await load_agent(call, agent_id)
    hits, tokens = await find(
        call.app,
        agent_id,
        query,
        at(call.app.clock, ts),
        k=k,
        budget_tokens=budget,
        kinds=frozenset(kinds) if kinds else None,
        touch=touch,
    )
    return {"items": [h.to_wire() for h in hits], "tokens": tokens}


async def find(
    app: App,
    agent_id: str,
    query: str,
    now_ms: int,
    *,
    k: int = 8,
    budget_tokens: int | None = None,
    kinds: frozenset[str] | None = None,
    touch: bool = False,
) -> tuple[list[Hit], int]:
    """The search of ``memory.search``, for the methods and the web page alike: one ranking."""
    asked = await app.db.run(retrieve.read_cues, agent_id, query, now_ms)
    # One text, embedded straight away (not through the batch queue) and kept for a repeat.
    vector = (
        await app.embeddings.embed_query(agent_id, asked.topic) if asked.topic.strip() else None
    )
    cfg = app.config.memory
    return await app.db.run(
        lambda conn: retrieve.search(
            conn,
            agent_id,
            query,
            vector,
            now_ms,
            k=min(k, 200),
            budget_tokens=budget_tokens or cfg.budget_tokens,
            recent_days=cfg.recent_days,
            kinds=kinds,
            touch=touch,
            profile=app.embeddings.profile,
            fusion=cfg.fusion,
            asked=asked,
        )
    )


@method("memory.list", bulky=True)
async def list_memory(call: Call) -> dict[str, Any]:
    p = call.params
    agent_id = p.id("agent_id")
    kind = p.str("kind", "fact", max_len=20)
    status = p.str("status", "current", max_len=20)
    limit = p.int("limit", 100, min=1)
    p.done()
    await load_agent(call, agent_id)
    if kind == "episode":
        found = await call.app.db.run(lambda conn: sql.episodes(conn, agent_id, limit=limit))
        return {"items": [e.to_wire() for e in found]}
    if kind == "utterance":
        turns = await call.app.db.run(
            lambda conn: utterance_sql.listed(conn, agent_id, limit=limit)
        )
        return {"items": [u.to_wire() for u in turns]}
    if kind != "fact":
        raise bad_params("param 'kind' must be 'episode', 'fact' or 'utterance'")
    if status not in {"current", "superseded", "deleted", "all"}:
        raise bad_params("param 'status' must be current, superseded, deleted or all")
    facts = await call.app.db.run(
        lambda conn: sql.facts(
            conn, agent_id, status=None if status == "all" else status, limit=limit
        )
    )
    return {"items": [f.to_wire() for f in facts]}


@method("memory.get")
async def get(call: Call) -> dict[str, Any]:
    """One memory with its provenance: "where did you get that?" always has an answer."""
    p = call.params
    agent_id = p.id("agent_id")
    kind, number = parse_item_id(p.str("id", max_len=40))
    p.done()
    await load_agent(call, agent_id)

    def read(conn: apsw.Connection) -> dict[str, Any] | None:
        if kind == "fact":
            fact = sql.get_fact(conn, agent_id, number)
            return (
                None
                if fact is None
                else {**fact.to_wire(), "history": sql.fact_history(conn, number)}
            )
        if kind == "episode":
            ep = sql.get_episode(conn, agent_id, number)
            return None if ep is None else ep.to_wire()
        if kind == "utterance":
            turn = utterance_sql.get(conn, agent_id, number)
            return None if turn is None else turn.to_wire()
        highlight = sql.get_highlight(conn, agent_id, number)
        return None if highlight is None else highlight.to_wire()

    found = await call.app.db.run(read)
    if found is None:
        raise not_found("memory", f"{kind}:{number}")
    return found


@method("memory.forget")
async def forget_memory(call: Call) -> dict[str, Any]:
    p = call.params
    agent_id = p.id("agent_id")
    item = p.str("id", None, max_len=40)
    query = p.str("query", None, max_len=1000)
    everything = p.bool("all", False)
    p.done()
    if sum(x is not None and x is not False for x in (item, query, everything or None)) != 1:
        raise bad_params("give exactly one of 'id', 'query' or 'all': true")
    await load_agent(call, agent_id)
    if item is not None:
        if not await forget_item(call.app, agent_id, item):
            raise not_found("memory", item)
        return {"deleted": 1}
    if everything:
        return {"deleted": await forget_everything(call.app, agent_id)}
    assert query is not None
    return {"deleted": await forget_topic(call.app, agent_id, query)}


# The three forgets, for the methods and the web page alike: each through the one erase path.


async def forget_item(app: App, agent_id: str, item: str) -> bool:
    """One memory ("fact:12"); False when there is none by that id."""
    kind, number = parse_item_id(item)
    return bool(
        await app.eraser.erase(
            agent_id, lambda conn: forget.delete_item(conn, agent_id, kind, number)
        )
    )


async def forget_everything(app: App, agent_id: str) -> int:
    # A live turn of the agent would lose its session under it; as agent.delete, wait for it.
    if await app.eraser.replying(agent_id):
        raise Busy(f"agent {agent_id!r} is replying right now; cancel the turn first")
    return await app.eraser.erase(agent_id, lambda c: forget.forget_all(c, agent_id))


async def forget_topic(app: App, agent_id: str, query: str) -> int:
    """Every memory whose words hold ``query`` (case folded), the turns shown in chats included."""
    needle = query.strip()
    if len(needle) < 2:
        raise bad_params("param 'query' is too short to forget by")
    folded = needle.casefold()
    return await app.eraser.erase(
        agent_id,
        lambda conn: forget.forget_text(conn, agent_id, needle),
        lambda text: folded in text.casefold(),
    )


@method("memory.export", bulky=True)
async def export(call: Call) -> dict[str, Any]:
    agent_id = call.params.id("agent_id")
    call.params.done()
    await load_agent(call, agent_id)
    return await call.app.db.run(portable.export, agent_id)


@method("memory.import")
async def import_memory(call: Call) -> dict[str, Any]:
    p = call.params
    agent_id = p.id("agent_id")
    files = p.map("files", {})
    facts = p.list("facts", [])
    mood = p.map("mood", None)
    scheduler = p.map("scheduler", None)
    p.done()
    await load_agent(call, agent_id)
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in files.items()):
        raise bad_params("param 'files' must map paths to JSONL text")

    def parse() -> tuple[list[imported.ImportedFact], list[dict[str, Any]], portable.State | None]:
        checked = [imported.fact(f, i) for i, f in enumerate(facts)]
        state = (
            portable.State(
                imported.mood(mood),
                tuple(
                    imported.follow_up(item, i)
                    for i, item in enumerate(_listed(scheduler, "items"))
                ),
                imported.follow_up_settings((scheduler or {}).get("settings")),
            )
            if mood is not None or scheduler is not None
            else None
        )
        return checked, portable.parse_files(files), state

    try:  # parsing a frame's worth of JSON lines computes: off the event loop (xaid.cpu)
        checked, episodes, state = await cpu.run(parse)
    except ValueError as exc:
        raise bad_params(str(exc)) from None
    try:
        texts = await cpu.run(portable.texts_to_embed, episodes, checked)
        vectors = await call.app.embeddings.embed_readable(texts) if texts else []
        return await call.app.db.run(
            portable.write, agent_id, episodes, checked, vectors, call.app.clock.now_ms(), state
        )
    except (
        TypeError,
        ValueError,
        KeyError,
        AttributeError,
    ) as exc:  # a field of the wrong shape; nothing written
        raise bad_params(f"import data is malformed: {type(exc).__name__}: {exc}") from None


def _listed(scheduler: dict[str, Any] | None, key: str) -> list[Any]:
    found = (scheduler or {}).get(key, [])
    if not isinstance(found, list):
        raise bad_params(f"param 'scheduler.{key}' must be a list")
    return found


@method("memory.persona")
async def persona(call: Call) -> dict[str, Any]:
    agent_id = call.params.id("agent_id")
    call.params.done()
    await load_agent(call, agent_id)
    current = await call.app.db.run(sql.persona, agent_id)
    if current is None:
        return {"text": None, "version": 0, "episodes_seen": 0}
    return {
        "text": current.text,
        "version": current.version,
        "episodes_seen": current.episodes_seen,
    }


@method("memory.maintain")
async def maintain(call: Call) -> dict[str, Any]:
    """Run the forgetting curve now, at ``ts`` (replays of weeks in tests and imports)."""
    ts = call.params.ts()
    call.params.done()
    if ts is not None and ts < 0:
        raise BadParams("ts must be positive")
    return await call.app.memory.maintenance(at(call.app.clock, ts))
