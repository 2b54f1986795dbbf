"""agent.*: the companions a device hosts. Deleting one deletes everything it remembers."""

from __future__ import annotations

from typing import Any

from xaiclient.wire import Busy, Conflict

from ...conversation import agent_config
from ...memory import forget
from ...store import agents as sql
from ...store.agents import Agent
from .. import paging
from ..dispatch import Call, method, not_found


async def load_agent(call: Call, agent_id: str) -> Agent:
    agent = await call.app.db.run(sql.get, agent_id)
    if agent is None:
        raise not_found("agent", agent_id)
    return agent


@method("agent.create")
async def create(call: Call) -> dict[str, Any]:
    p = call.params
    agent_id = p.new_id("agent_id")
    name = p.str("name", agent_id, max_len=200)
    persona = p.str("persona_init", "", max_len=20_000)
    config = agent_config.validate(p.map("config", {}))
    p.done()
    now = call.app.clock.now_ms()
    agent = Agent(agent_id, name, persona, config, now, now)
    if not await call.app.db.run(sql.insert, agent):
        raise Conflict(f"agent {agent_id!r} already exists")
    return agent.to_wire()


@method("agent.get")
async def get(call: Call) -> dict[str, Any]:
    agent_id = call.params.id("agent_id")
    call.params.done()
    return (await load_agent(call, agent_id)).to_wire()


@method("agent.list", bulky=True)
async def list_agents(call: Call) -> dict[str, Any]:
    page = paging.request(call.params, "agent.list")
    call.params.done()
    found = await call.app.db.run(sql.list_all, page.after, page.limit + 1)
    out = paging.fill(
        found,
        page,
        lambda a: (a.created_ms, a.agent_id),
        Agent.to_wire,
        call.app.config.server.max_frame_bytes // 2,
    )
    return {"agents": out.items, "next_cursor": out.next_cursor}


@method("agent.update")
async def update(call: Call) -> dict[str, Any]:
    p = call.params
    agent_id = p.id("agent_id")
    name = p.str("name", None, max_len=200)
    persona = p.str("persona_init", None, max_len=20_000)
    config = p.map("config", None)
    p.done()
    if config is not None:
        agent_config.validate(config)

    def apply(conn: Any) -> Agent | None:
        agent = sql.get(conn, agent_id)
        if agent is None:
            return None
        changed = Agent(
            agent_id,
            name if name is not None else agent.name,
            persona if persona is not None else agent.persona_init,
            config if config is not None else agent.config,
            agent.created_ms,
            call.app.clock.now_ms(),
        )
        sql.update(conn, changed)
        return changed

    agent = await call.app.db.run(apply)
    if agent is None:
        raise not_found("agent", agent_id)
    return agent.to_wire()


@method("agent.delete")
async def delete(call: Call) -> dict[str, Any]:
    """The agent and everything it remembers, by the same path as a forget (memory.erase): the
    fence, the delete (every row of the agent cascades from its own; the vectors live in a virtual
    table that no cascade reaches), the indexes, the checkpoint (the words leave the -wal file:
    issue 22 item 8) and every copy held in memory."""
    agent_id = call.params.id("agent_id")
    call.params.done()
    if await call.app.eraser.replying(agent_id):
        raise Busy(f"agent {agent_id!r} is replying right now; cancel the turn first")

    if not await call.app.eraser.erase(agent_id, lambda c: forget.delete_agent(c, agent_id)):
        raise not_found("agent", agent_id)
    return {"deleted": agent_id}
