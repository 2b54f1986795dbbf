"""scheduler.*: what the agent means to ask about, and the user's say over it."""

from __future__ import annotations

import math
from typing import Any

import apsw

from ...clock import HOUR_MS, MAX_TS, at
from ...conversation import agent_config
from ...mood import tracker
from ...scheduler import arm, fire
from ...store import recall as sql
from ...store.recall import Settings
from .. import paging
from ..dispatch import Call, bad_params, method, not_found
from .agents import load_agent

MAX_GAP_HOURS = 24 * 366 * 10  # ten years: longer means "never", which `enabled: false` says better
STATES = ("pending", "pushed", "expired", "resolved", "cancelled")


def _gap(call: Call) -> int:
    return int(call.app.config.scheduler.min_gap_hours * HOUR_MS)


@method("scheduler.list", bulky=True)
async def list_items(call: Call) -> dict[str, Any]:
    p = call.params
    agent_id = p.id("agent_id")
    states = p.list("states", ["pending"])
    page = paging.request(p, f"scheduler.list\0{agent_id}")
    p.done()
    if not states or not all(isinstance(s, str) for s in states) or not set(states) <= set(STATES):
        raise bad_params(f"param 'states' may hold only {', '.join(STATES)}")
    # the cursor's tag proves the key is one fill() wrote, from an item id
    after = None if page.after is None else (page.after[0], int(page.after[1]))
    await load_agent(call, agent_id)
    found = await call.app.db.run(sql.items, agent_id, tuple(states), after, page.limit + 1)
    out = paging.fill(
        found,
        page,
        lambda i: (i.not_before, str(i.item_id)),
        lambda i: i.to_wire(),
        call.app.config.server.max_frame_bytes // 2,
    )
    return {"items": out.items, "next_cursor": out.next_cursor}


@method("scheduler.arm")
async def arm_item(call: Call) -> dict[str, Any]:
    """A client arms a matter itself (e.g. the app knows of an appointment)."""
    p = call.params
    agent_id = p.id("agent_id")
    topic = p.str("topic", max_len=500)
    now = at(call.app.clock, p.ts())
    not_before = p.ts("not_before", now)
    not_after = p.ts("not_after", min(not_before + 7 * 24 * HOUR_MS, MAX_TS))
    priority = p.any("priority", 0.5)
    words = p.list("keywords", None)
    p.done()
    if not topic.strip():
        raise bad_params("param 'topic' is empty")
    if (
        not isinstance(priority, int | float)
        or isinstance(priority, bool)
        or not 0 <= priority <= 1
    ):
        raise bad_params("param 'priority' must be a number from 0 to 1")
    if not_after <= not_before:
        raise bad_params("'not_after' must be later than 'not_before'")
    if words is not None and (
        len(words) > 50 or not all(isinstance(w, str) and 0 < len(w) <= 100 for w in words)
    ):
        raise bad_params(
            "param 'keywords' must be a list of at most 50 non-empty strings of at most 100 characters"
        )
    await load_agent(call, agent_id)
    keywords = [w.lower() for w in words] if words else list(arm.keywords(topic))
    item_id = await call.app.db.run(
        sql.insert,
        agent_id,
        None,
        topic,
        keywords,
        "manual",
        not_before,
        not_after,
        float(priority),
        now,
    )
    item = await call.app.db.run(sql.get, agent_id, item_id)
    assert item is not None
    return item.to_wire()


@method("scheduler.cancel")
async def cancel(call: Call) -> dict[str, Any]:
    p = call.params
    agent_id = p.id("agent_id")
    item_id = p.int("item_id", min=1)
    p.done()
    await load_agent(call, agent_id)

    def run(conn: apsw.Connection) -> bool | None:
        item = sql.get(conn, agent_id, item_id)
        if item is None:
            return None
        if item.state != "pending":
            return False  # already pushed, resolved or expired: nothing left to cancel
        sql.close(conn, item_id, "cancelled", "cancelled by the client")
        return True

    cancelled = await call.app.db.run(run)
    if cancelled is None:
        raise not_found("scheduler item", str(item_id))
    return {"item_id": item_id, "cancelled": cancelled}


@method("scheduler.config")
async def config(call: Call) -> dict[str, Any]:
    """Read (no other params) or change the agent's controls: on/off, quiet, min gap, allow-list,
    and the topics never to bring up (``avoid``)."""
    p = call.params
    agent_id = p.id("agent_id")
    enabled = p.bool("enabled", None)
    quiet = p.bool("quiet", None)
    gap_hours = p.any("min_gap_hours", None)
    allow = p.list("allow", None)
    avoid = p.list("avoid", None)
    p.done()
    if gap_hours is not None and (
        not isinstance(gap_hours, int | float)
        or isinstance(gap_hours, bool)
        or not 0 <= gap_hours <= MAX_GAP_HOURS
        or not math.isfinite(gap_hours)
    ):
        raise bad_params(f"param 'min_gap_hours' must be a number from 0 to {MAX_GAP_HOURS}")
    if allow is not None and (
        len(allow) > 100 or not all(isinstance(a, str) and 0 < len(a) <= 200 for a in allow)
    ):
        raise bad_params(
            "param 'allow' must be a list of at most 100 non-empty strings of at most 200 characters "
            "(scenes or topic words)"
        )
    if avoid is not None and (
        len(avoid) > 100 or not all(isinstance(a, str) and 0 < len(a) <= 200 for a in avoid)
    ):
        raise bad_params(
            "param 'avoid' must be a list of at most 100 non-empty strings of at most 200 characters "
            "(topics never to bring up)"
        )
    await load_agent(call, agent_id)

    def run(conn: apsw.Connection) -> Settings:
        s = sql.settings(conn, agent_id, _gap(call))
        new = Settings(
            s.enabled if enabled is None else enabled,
            s.quiet if quiet is None else quiet,
            s.min_gap_ms if gap_hours is None else int(gap_hours * HOUR_MS),
            s.allow if allow is None else tuple(allow),
            s.avoid if avoid is None else tuple(avoid),
        )
        if new != s:
            sql.save_settings(conn, agent_id, new)
        return new

    return (await call.app.db.run(run)).to_wire()


@method("scheduler.feedback")
async def feedback(call: Call) -> dict[str, Any]:
    p = call.params
    agent_id = p.id("agent_id")
    item_id = p.int("item_id", min=1)
    verdict = p.str("feedback", max_len=20)
    p.done()
    if verdict not in {"welcome", "annoying"}:
        raise bad_params("param 'feedback' must be 'welcome' or 'annoying'")
    await load_agent(call, agent_id)

    def run(conn: apsw.Connection) -> bool:
        item = sql.get(conn, agent_id, item_id)
        if item is None or item.pushed_ms is None:
            return False
        sql.set_feedback(conn, item_id, verdict)
        return True

    if not await call.app.db.run(run):
        raise not_found("pushed scheduler item", str(item_id))
    return {"item_id": item_id, "feedback": verdict}


@method("scheduler.check_in")
async def check_in(call: Call) -> dict[str, Any]:
    """A conversation is opening in an app that talks to the daemon through a bridge (MCP), not
    through ``session.send``: the suggestion a first turn would get, decided by the same rules."""
    p = call.params
    agent_id = p.id("agent_id")
    now = at(call.app.clock, p.ts())
    peek = p.bool("peek", False)
    p.done()
    agent = await load_agent(call, agent_id)
    cfg = call.app.config
    if not cfg.scheduler.enabled or not agent_config.memory_enabled(agent.config):
        return {"suggestion": None, "item": None, "reason": "the scheduler is off"}
    with_mood = agent_config.mood_enabled(agent.config)

    def run(conn: apsw.Connection) -> tuple[fire.Verdict, dict[str, Any] | None]:
        carried = tracker.current(conn, agent_id, now, cfg.mood).valence if with_mood else None
        verdict = fire.opening(conn, agent_id, now, carried, _gap(call), record=not peek)
        if verdict.item is None:
            return verdict, None
        stored = sql.get(conn, agent_id, verdict.item.item_id)  # as recorded: pushed, unless peeked
        return verdict, (stored or verdict.item).to_wire()

    verdict, item = await call.app.db.run(run)
    return {"suggestion": verdict.line, "item": item, "reason": verdict.reason}
