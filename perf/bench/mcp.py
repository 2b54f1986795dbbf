"""What ``xaictl mcp`` adds to a tool call: the MCP round trip over stdio against the same daemon
request made directly, in the same run.

One fresh daemon (scripted provider, real embedder) holds an agent with a few remembered lines in
English and Chinese. Then, interleaved call by call so both see the same machine:

- ``recall`` through the official MCP client over stdio (JSON-RPC, pydantic validation, the bridge's
  own connection and ``hello`` per call, the text answer) against ``memory.search`` with the same
  query from an ``AsyncClient`` that stays connected (what an app on the CBOR socket pays);
- ``remember`` through MCP against the same three requests made directly (``session.open``,
  ``session.ingest``, ``session.close`` with ``wait``), where consolidation dominates.

Ratios are MCP / direct, p50 against p50. Start-up (spawning ``xaictl mcp`` and the MCP
``initialize``) is measured once per run and reported apart: an app pays it once.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Awaitable, Callable

import anyio
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from xaiclient import AsyncClient

from ..kit import Row, Section, median, percentile, progress, ratio, scratch_daemon

AGENT = "mia"
LINES = (
    "My sister Anna moved to Kyoto last week.",
    "我下周五有驾照考试，好紧张。",
    "I started pottery classes on Tuesdays.",
    "我最喜欢的菜是麻婆豆腐。",
)
QUERIES = (
    "Where does Anna live?",
    "驾照考试什么时候？",
    "What classes do I take?",
    "我喜欢吃什么？",
)


async def _timed(step: Callable[[], Awaitable[object]]) -> float:
    start = time.perf_counter()
    await step()
    return (time.perf_counter() - start) * 1000


async def _measure(socket: str, calls: int, remembers: int) -> dict[str, list[float]]:
    env = {k: v for k, v in os.environ.items() if k != "XAID_SOCKET"}
    server = StdioServerParameters(
        command=sys.executable,
        args=["-m", "xaiclient.cli", "--socket", socket, "mcp", "--agent", AGENT],
        env=env,
    )
    out: dict[str, list[float]] = {
        k: [] for k in ("start", "mcp_recall", "direct_recall", "mcp_remember", "direct_remember")
    }
    start = time.perf_counter()
    async with (
        AsyncClient(socket, client_name="perf-mcp") as direct,
        stdio_client(server) as (read, write),
        ClientSession(read, write) as mcp,
    ):
        await mcp.initialize()
        out["start"].append((time.perf_counter() - start) * 1000)
        for line in LINES:
            await mcp.call_tool("remember", {"text": line})
        for i in range(calls):
            query = QUERIES[i % len(QUERIES)]

            async def via_mcp(q: str = query) -> object:
                result = await mcp.call_tool("recall", {"query": q})
                assert not result.is_error, result
                return result

            async def via_socket(q: str = query) -> object:
                return await direct.memory_search(AGENT, q, k=5, touch=True)

            first, second = (via_mcp, via_socket) if i % 2 else (via_socket, via_mcp)
            for step in (first, second):
                key = "mcp_recall" if step is via_mcp else "direct_recall"
                out[key].append(await _timed(step))
        for i in range(remembers):
            line = f"{LINES[i % len(LINES)]} ({i})"

            async def mcp_remember(text: str = line) -> object:
                return await mcp.call_tool("remember", {"text": text})

            async def direct_remember(text: str = line) -> object:
                sid = (await direct.session_open(AGENT))["session_id"]
                await direct.session_ingest(sid, [{"role": "user", "text": text}])
                return await direct.session_close(sid, wait=True)

            out["mcp_remember"].append(await _timed(mcp_remember))
            out["direct_remember"].append(await _timed(direct_remember))
    return out


def run(quick: bool) -> Section:
    calls, remembers = (20, 4) if quick else (200, 20)
    with scratch_daemon() as daemon:
        with daemon.client() as c:
            c.agent_create(AGENT)
        progress(f"mcp: {calls} recalls and {remembers} remembers each way")
        got = anyio.run(_measure, str(daemon.socket), calls, remembers)
    p50 = {k: median(v) for k, v in got.items()}
    p95 = {k: percentile(v, 0.95) for k, v in got.items()}
    mcp_note = "official MCP client over stdio to `xaictl mcp`; interleaved with the direct call"
    return Section(
        title="MCP bridge: what `xaictl mcp` adds to a tool call",
        rows=[
            Row(
                "recall through MCP, p50",
                p50["mcp_recall"],
                "ms",
                ratio=ratio(p50["mcp_recall"], p50["direct_recall"]),
                baseline="memory.search direct",
                note=f"{calls} calls, {mcp_note}",
            ),
            Row(
                "recall through MCP, p95",
                p95["mcp_recall"],
                "ms",
                ratio=ratio(p95["mcp_recall"], p95["direct_recall"]),
                baseline="memory.search direct",
            ),
            Row("memory.search direct, p50", p50["direct_recall"], "ms", note="one AsyncClient"),
            Row("memory.search direct, p95", p95["direct_recall"], "ms"),
            Row(
                "added by MCP to recall, p50",
                p50["mcp_recall"] - p50["direct_recall"],
                "ms",
                note="stdio JSON-RPC, argument validation, a connection and hello per call",
            ),
            Row(
                "remember through MCP, p50",
                p50["mcp_remember"],
                "ms",
                ratio=ratio(p50["mcp_remember"], p50["direct_remember"]),
                baseline="open+ingest+close(wait) direct",
                note=f"{remembers} calls; consolidation of each line is most of it",
            ),
            Row("open+ingest+close(wait) direct, p50", p50["direct_remember"], "ms"),
            Row(
                "start: spawn `xaictl mcp` and initialize",
                p50["start"],
                "ms",
                note="once per app start; imports the SDK",
            ),
        ],
        notes=[
            "Both paths reach the same daemon on the same Unix socket; the MCP path adds a process "
            "hop over pipes and JSON, which is what an MCP app pays per tool call."
        ],
    )
