"""mood.*: what the agent senses of the user's mood, how it got there, and starting afresh."""

from __future__ import annotations

from typing import Any

from ...clock import at, for_state
from ...conversation import agent_config
from ...mood import tone, tracker
from ...store import mood as sql
from ..dispatch import Call, method
from .agents import load_agent


@method("mood.get")
async def get(call: Call) -> dict[str, Any]:
    p = call.params
    agent_id = p.id("agent_id")
    ts = p.ts()
    p.done()
    agent = await load_agent(call, agent_id)
    state = await call.app.db.run(
        tracker.current, agent_id, at(call.app.clock, ts), call.app.config.mood
    )
    b = tone.bands(state)
    return {
        **state.to_wire(),
        "enabled": agent_config.mood_enabled(agent.config),
        "bands": {"fatigue": b.fatigue, "valence": b.valence, "tension": b.tension},
        "guidance": tone.guidance(state),
    }


@method("mood.history")
async def history(call: Call) -> dict[str, Any]:
    p = call.params
    agent_id = p.id("agent_id")
    limit = p.int("limit", 50, min=1)
    since = p.int("since", None, min=0)
    p.done()
    await load_agent(call, agent_id)
    changes = await call.app.db.run(sql.history, agent_id, min(limit, 10_000), since)
    return {"items": [c.to_wire() for c in changes]}


@method("mood.reset")
async def reset(call: Call) -> dict[str, Any]:
    p = call.params
    agent_id = p.id("agent_id")
    ts = p.ts()
    p.done()
    await load_agent(call, agent_id)
    state = await call.app.db.run(
        tracker.reset,
        agent_id,
        for_state(at(call.app.clock, ts), call.app.clock),
        call.app.config.mood,
    )
    return state.to_wire()
