"""The server-side cases of issue 22 for ``python -m perf hardening``: the event loop during a long
consolidation (item 6), peers that stop reading (item 2), fairness between agents (item 7) and
hand-made paging cursors (item 10). Each runs a real daemon process (scripted provider) over its
socket; perf.campaigns.hardening lists them among its scenarios.

Latency figures are ratios against a baseline measured in the same run on the same daemon: ping
p99 on the idle daemon before the consolidation starts.
"""

from __future__ import annotations

import base64
import collections
import json
import socket
import threading
import time
from typing import Any

from xaiclient import Client, XaiError
from xaiclient.wire import encode_frame

from testkit import DaemonProcess

from ..kit import DAY, MINUTE, Aim, Outcome, Row, fmt_counts, running, scratch

EN = (
    "My sister Anna lives in Kyoto and works as a nurse at the city hospital.",
    "Tomorrow at 3pm I have my piano exam, and I am nervous about the Chopin piece.",
    "I like green tea much more than coffee, especially in the morning.",
    "We hiked up the hill with Tom on Saturday even though it rained.",
    "The cat knocked my basil plant off the window sill again.",
)
ZH = (
    "我妹妹住在杭州，在市医院当护士。",
    "明天下午三点我有钢琴考试，肖邦那首曲子让我很紧张。",
    "比起咖啡我更喜欢绿茶，尤其是早上。",
    "周六我们和小明一起去爬山，虽然下雨了。",
    "猫又把窗台上的罗勒盆栽打翻了。",
)
PING_AIM_MS = 50.0


def _now() -> int:
    return int(time.time() * 1000)


def _p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))] if ordered else 0.0


def _pings(c: Client, n: int | None = None, until: threading.Event | None = None) -> list[float]:
    out: list[float] = []
    while (n is not None and len(out) < n) or (until is not None and not until.is_set()):
        start = time.perf_counter()
        c.ping()
        out.append((time.perf_counter() - start) * 1000)
        time.sleep(0.005)
    return out


# --- item 6: ping while a 1,000-message session consolidates -----------------------------------------


def loop_during_consolidation(messages: int) -> Outcome:
    out = Outcome()
    with (
        scratch("loop") as root,
        running(DaemonProcess(root / "d").start()) as d,
        d.client() as c,
        d.client() as p,
    ):
        c.agent_create("mia")
        t0 = _now() - messages * 1000 - 60_000
        sid = c.session_open("mia", ts=t0)["session_id"]
        lines = [*EN, *ZH]
        batch = [
            {
                "role": ("user", "assistant")[i % 2],
                "text": f"{lines[i % len(lines)]} ({i})",
                "ts": t0 + i * 1000,
            }
            for i in range(messages)
        ]
        for i in range(0, messages, 500):
            c.session_ingest(sid, batch[i : i + 500])
        # Idle until the loop's recent window (2048 samples of 20 ms) no longer holds the start-up
        # (loading the embedder's native code holds the interpreter lock for a moment): then
        # stats.loop.recent_worst_ms at the end of the close covers only idle time and the close.
        start_samples = p.stats()["loop"]["samples"]
        idle: list[float] = []
        while p.stats()["loop"]["samples"] < start_samples + 2100:
            idle += _pings(p, 100)
        before = p.stats()["loop"]
        done = threading.Event()
        busy: list[float] = []
        pinger = threading.Thread(target=lambda: busy.extend(_pings(p, until=done)))
        pinger.start()
        start = time.perf_counter()
        try:
            c.session_close(sid, wait=True)
        finally:
            done.set()
            pinger.join()
        close_s = time.perf_counter() - start
        loop = c.stats()["loop"]
    idle_p99, busy_p99 = _p99(idle), _p99(busy)
    out.rows.append(
        Row(
            f"ping p99 while a {messages:,}-message session consolidates",
            round(busy_p99, 1),
            "ms",
            aim=Aim("<=", PING_AIM_MS),
            ratio=round(busy_p99 / idle_p99, 1) if idle_p99 else None,
            baseline=f"idle daemon, same run: p99 {idle_p99:.1f} ms over {len(idle)} pings",
            note=f"{len(busy)} pings during a close {{wait}} of {close_s:.1f} s, worst "
            f"{max(busy):.1f} ms; before the fix a ping waited 4.0-4.3 s",
        )
    )
    out.rows.append(
        Row(
            "worst event-loop lag over that close and the ~40 s idle before it",
            round(loop["recent_worst_ms"], 1),
            "ms",
            aim=Aim("<=", PING_AIM_MS),
            note=f"stats.loop.recent_worst_ms at the end of the close (its window of 2048 samples: the "
            f"close and the idle time before it); {loop['samples'] - before['samples']:,} samples of a 20 ms sleep "
            f"during the close, {loop['late'] - before['late']} later than 50 ms; since the daemon's "
            f"start, start-up included: {loop['worst_ms']:.1f} ms",
        )
    )
    return out


# --- item 2: peers that ask for exports and never read ------------------------------------------------


def _fill_for_export(c: Client, agent: str, episodes: int) -> None:
    summary = (
        "We walked by the river and talked about moving to Lyon. 我们聊了搬去杭州的事。"
    ) * 60
    lines = [
        {
            "session_id": f"s_old{i}",
            "started_ms": _now() - (i + 2) * DAY,
            "ended_ms": _now() - (i + 2) * DAY + MINUTE,
            "summary": summary,
        }
        for i in range(episodes)
    ]
    for i in range(0, episodes, 10):
        c.memory_import(
            agent, files={"x.jsonl": "\n".join(json.dumps(x) for x in lines[i : i + 10]) + "\n"}
        )


def stalled_readers(connections: int, exports: int) -> Outcome:
    out = Outcome()
    with (
        scratch("stalled") as root,
        running(DaemonProcess(root / "d").start()) as d,
        d.client() as c,
    ):
        c.agent_create("mia")
        _fill_for_export(c, "mia", 160)  # an export of ~0.9 MB, as the issue's
        size = len(encode_frame({"id": 1, "ok": True, "result": c.memory_export("mia")}))
        c.memory_export("mia")
        rss_before = c.status()["rss_kib"]
        socks = []
        for _ in range(connections):
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.connect(str(d.socket))
            for rid in range(exports):
                frame = {
                    "v": 1,
                    "id": rid,
                    "method": "memory.export",
                    "params": {"agent_id": "mia"},
                }
                s.sendall(encode_frame(frame))
            socks.append(s)
        time.sleep(5)  # let every export that will run, run
        for s in socks:
            s.sendall(encode_frame({"v": 1, "id": 10_000, "method": "ping", "params": {}}))
        time.sleep(1)
        held = c.stats()["backpressure"]
        rss_held = c.status()["rss_kib"]
        pong = c.ping() == {}
        for s in socks:
            s.close()
        time.sleep(1)
        after = c.stats()["backpressure"]
        rss_after = c.status()["rss_kib"]
    out.rows.append(
        Row(
            f"RSS growth, {connections} connections × {exports} exports of {size / 1024:.0f} KiB never read",
            round((rss_held - rss_before) / 1024, 1),
            "MiB",
            aim=Aim("<", 100),
            note=f"status rss_kib {rss_before / 1024:.0f} → {rss_held / 1024:.0f} MiB while held, "
            f"{rss_after / 1024:.0f} MiB after they left; before the fix 8 × 32 exports of ~1 MB "
            "took 180 → 676 MiB",
        )
    )
    bound = (
        1 << 20
    ) + 65_536  # one frame at the default server.max_frame_bytes, and the high-water mark
    out.rows.append(
        Row(
            "most reply bytes one stalled connection held",
            round(held["worst_queued_bytes"] / 1024, 1),
            "KiB",
            aim=Aim("<=", bound / 1024),
            note=f"stats.backpressure while held: {held['queued_bytes'] / 1024:.0f} KiB over all "
            f"{connections}, {held['pauses']} pauses of reading; after they left "
            f"{after['queued_bytes']} bytes; another client's ping answered: {pong}",
        )
    )
    return out


# --- item 7: one agent fills its share, another still gets in ----------------------------------------


def _wait_queue(c: Client, waiting: int) -> bool:
    for _ in range(800):
        queue = c.status()["queue"]
        if queue["running"] and queue["waiting"] >= waiting:
            return True
        time.sleep(0.02)
    return False


def fairness(rounds: int) -> Outcome:
    out, codes = Outcome(), collections.Counter[str]()
    denied = 0
    env = {
        "XAID_LLM_MAX_QUEUE": "4",
        "XAID_LLM_SCRIPTED_DELAY_MS": "40",
        "XAID_SERVER_MAX_OPEN_SESSIONS": "8",
    }
    with (
        scratch("fair") as root,
        running(DaemonProcess(root / "d", env=env).start()) as d,
        d.client() as c,
        d.client() as other,
    ):
        for r in range(rounds):
            greedy, late = f"greedy{r}", f"晚到{r}"
            c.agent_create(greedy)
            c.agent_create(late)
            mine = [c.session_open(greedy)["session_id"] for _ in range(8)]
            try:
                c.session_open(greedy)
                codes["greedy 9th open accepted"] += 1
            except XaiError as exc:
                codes[f"greedy 9th open {exc.code}"] += 1
            try:
                theirs = other.session_open(late)["session_id"]
            except XaiError as exc:
                codes[f"late open {exc.code}"] += 1
                denied += 1
                continue
            streams = []
            for i, sid in enumerate(mine[:6]):
                streams.append(c.stream("session.send", session_id=sid, text=(EN + ZH)[i]))
                if i == 0:
                    _wait_queue(other, 0)
            _wait_queue(other, 4)
            try:
                other.session_send(theirs, "今天有点累，想聊聊天。").finish()
            except XaiError as exc:
                codes[f"late turn {exc.code}"] += 1
                denied += 1
            for s in streams:
                try:
                    s.finish()
                except XaiError as exc:
                    codes[f"greedy turn {exc.code}"] += 1
            for sid in [*mine, theirs]:
                c.session_close(sid)
    out.tried(
        "one agent holds all 8 open sessions and fills the model queue (4) with 6 turns; another "
        "agent opens a session and sends a turn",
        rounds,
        "rounds",
        fmt_counts(codes),
    )
    out.lost(
        "fairness: the other agent's session.open or turn refused",
        denied,
        "rounds",
        "llm.max_queue 4 and server.max_open_sessions 8, shared by agent (xaid.shares)",
    )
    return out


# --- item 10: hand-made paging cursors ---------------------------------------------------------------


def _b64(text: str) -> str:
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def cursors(rounds: int) -> Outcome:
    out, codes = Outcome(), collections.Counter[str]()
    accepted = tried = 0
    with (
        scratch("cursor") as root,
        running(DaemonProcess(root / "d").start()) as d,
        d.client() as c,
    ):
        for r in range(rounds):
            a, b = f"a{r}", f"小雨{r}"
            for agent in (a, b):
                c.agent_create(agent)
                for i in range(3):
                    c.session_open(agent, ts=_now() - i)
            mine = c.call("session.list", agent_id=a, limit=1)["next_cursor"]
            forged: list[tuple[str, str | None, Any]] = [
                ("session.list", a, _b64("5\nzzzz")),
                ("session.list", a, _b64(f"-{r + 1}\ns_0")),
                ("session.list", a, _b64(f"{_now()}\n{b}")),
                ("session.list", b, mine),
                ("scheduler.list", a, mine),
                ("agent.list", None, mine),
                ("session.list", a, mine[:-3]),
            ]
            for method, owner, cursor in forged:
                tried += 1
                params: dict[str, Any] = {"cursor": cursor}
                if owner is not None:
                    params["agent_id"] = owner
                try:
                    c.call(method, **params)
                    accepted += 1
                except XaiError as exc:
                    codes[exc.code] += 1
    out.tried(
        "cursors written by hand (base64 of '5\\nzzzz', negative numbers), another agent's, another "
        "list's, cut short",
        tried,
        "cursors",
        fmt_counts(codes),
    )
    out.lost("paging: a forged cursor accepted", accepted, "cursors", "must all be bad_params")
    return out
