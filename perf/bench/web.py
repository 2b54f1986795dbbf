"""The memory page: how long its pages take for an agent with a long memory, and its search
against ``memory.search`` over the CBOR socket, the same queries in the same run.

The agent is imported (``memory.import``): episodes with their turns and highlights, in English and
Chinese, and facts, so the page has a realistic amount to show. Both doors run the same search
function (``methods.memory.find``, k 20); what the page adds is the HTML and the HTTP edge. Figures
at the client (httpx over the Unix socket, which alone costs ~1.5 ms a request in Python) and, apart
from any client, the daemon's own per-method timing (``stats``).
"""

from __future__ import annotations

import json
import time
from typing import Any

import httpx

from ..kit import Row, Section, percentile, progress, ratio, scratch_daemon

EPISODES, QUICK_EPISODES = 300, 60
ROUNDS, QUICK_ROUNDS = 60, 12
DAY_MS = 86_400_000
QUERIES = ("sister Kyoto", "job interview", "妹妹 杭州", "工作 压力", "the dentist", "周末 爬山")
TURNS = (
    ("My sister Anna lives in Kyoto and works at a bakery.", "That sounds lovely."),
    ("我妹妹住在杭州，她在一家面包店工作。", "听起来很不错。"),
    ("I have a job interview next week and I'm nervous.", "You'll do well."),
    ("最近工作压力很大，周末想去爬山。", "爬山是个好主意。"),
)


def _import(client: Any, agent: str, episodes: int, now: int) -> None:
    lines = []
    for i in range(episodes):
        ts = now - (episodes - i) * DAY_MS // 10
        said, answer = TURNS[i % len(TURNS)]
        lines.append(
            json.dumps(
                {
                    "session_id": f"s{i}",
                    "started_ms": ts,
                    "ended_ms": ts + 600_000,
                    "summary": f"They talked ({i}): {said}",
                    "highlights": [{"text": said, "ts": ts}],
                    "utterances": [
                        {"role": "user", "text": f"{said} ({i})", "ts": ts},
                        {"role": "assistant", "text": answer, "ts": ts + 1000},
                    ],
                },
                ensure_ascii=False,
            )
        )
    facts = [
        {"subject": f"user.thing{i}", "kind": "misc", "text": f"{TURNS[i % 4][0]} #{i}"}
        for i in range(episodes // 3)
    ]
    client.call(
        "memory.import", agent_id=agent, files={"a.jsonl": "\n".join(lines) + "\n"}, facts=facts
    )


def run(quick: bool) -> Section:
    episodes = QUICK_EPISODES if quick else EPISODES
    rounds = QUICK_ROUNDS if quick else ROUNDS
    out: dict[str, list[float]] = {"page": [], "search_page": [], "search_cbor": []}
    size = 0
    with scratch_daemon({"XAID_HTTP_LISTEN": "unix:"}) as daemon, daemon.client() as client:
        agent = "bench"
        client.agent_create(agent, name="Mia")
        _import(client, agent, episodes, int(time.time() * 1000))
        sock = str(daemon.socket.parent / "xaid-http.sock")
        with httpx.Client(
            transport=httpx.HTTPTransport(uds=sock), base_url="http://localhost"
        ) as web:
            for q in QUERIES:  # warm: the embedder, both paths
                web.get(f"/a/{agent}/search", params={"q": q})
                client.call("memory.search", agent_id=agent, query=q, k=20)
            for i in range(rounds):
                start = time.perf_counter()
                page = web.get(f"/a/{agent}")
                out["page"].append((time.perf_counter() - start) * 1000)
                assert page.status_code == 200, page.status_code
                size = len(page.content)
                q = QUERIES[i % len(QUERIES)]
                for which in ("page", "cbor") if i % 2 == 0 else ("cbor", "page"):
                    start = time.perf_counter()
                    if which == "page":
                        assert web.get(f"/a/{agent}/search", params={"q": q}).status_code == 200
                    else:
                        client.call("memory.search", agent_id=agent, query=q, k=20)
                    out[f"search_{which}"].append((time.perf_counter() - start) * 1000)
                if i % 20 == 0:
                    progress(f"web: round {i}/{rounds}")
        methods = client.stats()["methods"]
        inside = {
            k: methods[k]["p50_ms"] for k in ("http web search", "memory.search", "http web page")
        }
    n = f"{rounds} rounds; {episodes} imported episodes (2 turns, 1 highlight each), {episodes // 3} facts"
    rows = [
        Row("agent page, p50", round(percentile(out["page"], 0.5), 2), "ms", note=n),
        Row("agent page, p95", round(percentile(out["page"], 0.95), 2), "ms", note=n),
        Row("agent page size", round(size / 1024, 1), "KiB", note=n),
    ]
    for share in (0.5, 0.95):
        value, base = percentile(out["search_page"], share), percentile(out["search_cbor"], share)
        rows.append(
            Row(
                f"search page (k 20), p{round(share * 100)}",
                round(value, 2),
                "ms",
                ratio=ratio(value, base),
                baseline="memory.search over CBOR",
                note=f"memory.search p{round(share * 100)} {base:.2f} ms; same queries, alternating",
            )
        )
    rows.append(
        Row(
            "inside the daemon: search page, p50",
            round(inside["http web search"], 2),
            "ms",
            ratio=ratio(inside["http web search"], inside["memory.search"]),
            baseline="memory.search",
            note=f"stats; memory.search p50 {inside['memory.search']:.2f} ms, agent page p50 "
            f"{inside['http web page']:.2f} ms",
        )
    )
    return Section(
        "Memory page: page time and its search against memory.search",
        rows,
        [
            "One daemon process, scripted provider; queries in English and Chinese. The search page "
            "runs memory.search's own function and renders HTML; its ratio is against memory.search "
            "over CBOR at the same percentile in the same run.",
        ],
    )
