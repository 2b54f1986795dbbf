"""hello, ping, status, stats: what a client asks before and besides a conversation."""

from __future__ import annotations

import os
import time
from typing import Any

from xaiclient.wire import PROTOCOL_VERSION, SUPPORTED_PROTOCOLS, UnsupportedProtocol

from ... import heap
from ...conversation import banks
from ...stats import prometheus, rss_kib
from ...store import recall
from ..dispatch import MAX_INT, METHODS, Call, bad_params, method


@method("hello")
async def hello(call: Call) -> dict[str, Any]:
    p = call.params
    p.str("client", "", max_len=200)
    offered = p.any("protocol", [PROTOCOL_VERSION])
    p.done()
    if isinstance(offered, int) and not isinstance(offered, bool):
        offered = [offered]
    if (
        not isinstance(offered, list)
        or len(offered) > 16
        or not all(
            isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= MAX_INT for v in offered
        )
    ):
        raise bad_params(
            f"param 'protocol' must be an integer or a list of at most 16 integers from 0 to {MAX_INT}"
        )
    common = sorted(set(offered) & set(SUPPORTED_PROTOCOLS))
    if not common:
        raise UnsupportedProtocol(
            f"no common protocol version: client offers {offered}, server speaks {list(SUPPORTED_PROTOCOLS)}",
            {"supported": list(SUPPORTED_PROTOCOLS)},
        )
    return {
        "server": "xaid",
        "version": call.app.version,
        "protocol": common[-1],
        "methods": sorted([*METHODS, "cancel"]),
        "max_frame_bytes": call.app.config.server.max_frame_bytes,
    }


@method("ping")
async def ping(call: Call) -> dict[str, Any]:
    call.params.done()
    return {}


@method("status")
async def status(call: Call) -> dict[str, Any]:
    call.params.done()
    app = call.app
    queue = app.queue
    return {
        "version": app.version,
        "pid": os.getpid(),
        "uptime_s": round(time.monotonic() - app.started, 3),
        "model": {
            "state": str(queue.state),
            "error": queue.load_error or None,
            "load_seconds": round(queue.load_seconds, 3),
            **queue.provider.describe(),
        },
        "queue": {
            "waiting": queue.waiting,
            "running": queue.running is not None,
            "generated": queue.generated,
            "restarts": queue.restarts,
        },
        "llm_speed": queue.speed.to_wire(),
        "connections": app.connections,
        "active_turns": len(app.live.active),
        "rss_kib": rss_kib(),
        "heap": heap.to_wire(),
        "database": str(app.db.path),
        "config": app.config.source,
    }


def _runner(described: dict[str, Any]) -> dict[str, Any] | None:
    """The model runner's life in ``stats`` (and so in the metrics); None for in-process providers."""
    runner = described.get("runner")
    if runner is None:
        return None
    return {k: runner[k] for k in ("starts", "restarts", "crashes", "crash_streak")} | {
        "rss_kib": runner["rss_kib"],
        "available": not runner["unavailable"],
    }


@method("stats")
async def stats(call: Call) -> dict[str, Any]:
    agent_id = call.params.id("agent_id", None)
    fmt = call.params.str("format", "json", max_len=20)
    call.params.done()
    if fmt not in {"json", "prometheus"}:
        raise bad_params("param 'format' must be 'json' or 'prometheus'")
    mem, embeddings = call.app.memory, call.app.embeddings
    pushes = await call.app.db.run(recall.outcome_counts, agent_id)
    rated = pushes["welcome"] + pushes["annoying"]
    worker = embeddings.worker
    result = {
        **call.app.stats.to_wire(),
        "memory": {
            **dict(sorted(mem.counters.items())),
            "embed_batches": worker.stats.batches if worker else 0,
            "embed_texts": worker.stats.texts if worker else 0,
            "embedder": "ready" if worker else (embeddings.load_error or "loading"),
            "meaning": "ready" if banks.ready(embeddings) else "loading",
        },
        "llm_generated": call.app.queue.generated,
        "llm_runner": _runner(call.app.queue.provider.describe()),
        "llm_speed": call.app.queue.speed.to_wire(),
        "scheduler": {
            **pushes,
            "engagement_rate": round(pushes["engaged"] / pushes["pushes"], 4)
            if pushes["pushes"]
            else None,
            "annoyance_rate": round(pushes["annoying"] / rated, 4) if rated else None,
        },
    }
    return {"text": prometheus(result)} if fmt == "prometheus" else result
