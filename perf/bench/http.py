"""The OpenAI-compatible HTTP surface against the CBOR socket, for the same turn, in the same run.

Both doors lead to ``Turns.run``; what differs is the edge: h11 parsing, JSON, the session lookup
of ``chats``, SSE framing. Each round sends one turn through each door (alternating which goes
first) on a daemon of its own process with the scripted provider, so the model costs nothing and
what is left is the daemon's work plus the door. The agent's memory is off in the main rows, so the
embedder's few milliseconds (noise much larger than the door) do not hide the difference; one more
pair of rows has memory on.

Clients: xaiclient's blocking ``Client`` for CBOR; for HTTP a lean client of the same kind (h11 on
a kept-alive Unix socket), since httpx alone adds ~1.5 ms per request in Python (measured here:
GET /v1/models took 0.6 ms in the daemon and 1.4 ms at httpx) and the openai SDK more (its rows are
given beside, as what an app sees). Added latency = HTTP minus CBOR at the same percentile, measured
at the client and, apart from any client, by the daemon's own per-method timing (``stats``: from a
request's arrival to its last byte written). First token: from the request's write to the first
text delta (the CBOR ``text`` event; the SSE chunk with content).
"""

from __future__ import annotations

import json
import socket
import time
from typing import Any

import h11
import httpx2 as httpx  # the HTTP client the openai SDK (3.x) is built on

from ..kit import Aim, Row, Section, percentile, progress, ratio, scratch_daemon

ROUNDS, QUICK_ROUNDS = 300, 40
TEXTS = (
    "How was your day?",
    "今天过得怎么样？",
    "I finally fixed the bug.",
    "我终于把那个问题修好了。",
)
ADDED_AIM = Aim("<=", 1.0)  # ms added at p95 (issue 26)


def _cbor_turn(client: Any, sid: str, text: str) -> tuple[float, float]:
    start = time.perf_counter()
    first = None
    stream = client.session_send(sid, text)
    for event in stream:
        if first is None and event.event == "text":
            first = time.perf_counter()
    end = time.perf_counter()
    return (end - start) * 1000, ((first or end) - start) * 1000


class LeanHttp:
    """One kept-alive HTTP/1.1 connection over the Unix socket, driven by h11: the HTTP analogue
    of xaiclient's blocking ``Client``."""

    def __init__(self, path: str):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.conn = h11.Connection(h11.CLIENT)

    def _next(self) -> Any:
        while True:
            event = self.conn.next_event()
            if event is not h11.NEED_DATA:
                return event
            self.conn.receive_data(self.sock.recv(65536))

    def post(self, body: bytes, headers: list[tuple[str, str]], on_data: Any = None) -> int:
        head = [("host", "localhost"), ("content-type", "application/json"),
                ("content-length", str(len(body))), *headers]  # fmt: skip
        self.sock.sendall(
            self.conn.send(h11.Request(method="POST", target="/v1/chat/completions", headers=head))
            + self.conn.send(h11.Data(data=body))
            + self.conn.send(h11.EndOfMessage())
        )
        status = self._next().status_code
        while not isinstance(event := self._next(), h11.EndOfMessage):
            if on_data is not None and isinstance(event, h11.Data):
                on_data(bytes(event.data))
        self.conn.start_next_cycle()
        return int(status)


def _http_turn(
    http: LeanHttp, agent: str, key: str, text: str, stream: bool
) -> tuple[float, float]:
    body = json.dumps(
        {"model": agent, "messages": [{"role": "user", "content": text}], "stream": stream}
    ).encode()
    first: list[float] = []

    def seen(data: bytes) -> None:
        if not first and b'"content":"' in data and b'"content":""' not in data:
            first.append(time.perf_counter())

    start = time.perf_counter()
    status = http.post(body, [("x-xaid-session", key)], seen if stream else None)
    end = time.perf_counter()
    assert status == 200, status
    return (end - start) * 1000, ((first[0] if first else end) - start) * 1000


def _sdk_turn(sdk: Any, agent: str, key: str, text: str) -> float:
    start = time.perf_counter()
    sdk.chat.completions.create(
        model=agent,
        messages=[{"role": "user", "content": text}],
        extra_headers={"X-Xaid-Session": key},
    )
    return (time.perf_counter() - start) * 1000


def _measure(rounds: int, memory: bool) -> dict[str, list[float]]:
    import openai

    out: dict[str, list[float]] = {
        k: [] for k in ("cbor", "http", "sdk", "cbor_first", "sse_first", "sse")
    }
    with scratch_daemon({"XAID_HTTP_LISTEN": "unix:"}) as daemon, daemon.client() as client:
        agent = "bench"
        client.agent_create(agent, name="Mia", config={"memory": memory})
        sock = str(daemon.socket.parent / "xaid-http.sock")
        http = LeanHttp(sock)
        sdk = openai.OpenAI(
            base_url="http://localhost/v1",
            api_key="-",
            http_client=httpx.Client(transport=httpx.HTTPTransport(uds=sock)),
        )
        sessions: dict[str, str] = {}
        for warm in range(5):  # open the sessions, load the embedder, warm both paths
            sid = sessions.setdefault("cbor", client.session_open(agent)["session_id"])
            _cbor_turn(client, sid, TEXTS[warm % len(TEXTS)])
            _http_turn(http, agent, "plain", TEXTS[warm % len(TEXTS)], False)
            _http_turn(http, agent, "sse", TEXTS[warm % len(TEXTS)], True)
            _sdk_turn(sdk, agent, "sdk", TEXTS[warm % len(TEXTS)])
        for i in range(rounds):
            text = TEXTS[i % len(TEXTS)]
            order = (0, 1) if i % 2 == 0 else (1, 0)
            for which in order:
                if which == 0:
                    total, first = _cbor_turn(client, sessions["cbor"], text)
                    out["cbor"].append(total)
                    out["cbor_first"].append(first)
                else:
                    out["http"].append(_http_turn(http, agent, "plain", text, False)[0])
                    total, first = _http_turn(http, agent, "sse", text, True)
                    out["sse"].append(total)
                    out["sse_first"].append(first)
            out["sdk"].append(_sdk_turn(sdk, agent, "sdk", text))
            if i % 50 == 0:
                progress(f"http vs cbor, memory {'on' if memory else 'off'}: round {i}/{rounds}")
        http.sock.close()
        methods = client.stats()["methods"]
        for name, key in (
            ("session.send", "daemon_cbor"),
            ("http POST /v1/chat/completions", "daemon_http"),
        ):
            out[key] = [methods[name]["p50_ms"], methods[name]["p95_ms"]]
    return out


def run(quick: bool) -> Section:
    rounds = QUICK_ROUNDS if quick else ROUNDS
    off = _measure(rounds, memory=False)
    on = _measure(rounds // 3, memory=True)
    rows: list[Row] = []

    def pair(
        label: str,
        data: dict[str, list[float]],
        door: str,
        base: str,
        q: float,
        aim: Aim | None,
        note: str,
    ) -> None:
        value, baseline = percentile(data[door], q), percentile(data[base], q)
        rows.append(
            Row(
                f"{label}: added over session.send, p{round(q * 100)}",
                round(value - baseline, 3),
                "ms",
                aim,
                None,
                "",
                note,
            )
        )
        rows.append(
            Row(
                f"{label}, p{round(q * 100)}",
                round(value, 3),
                "ms",
                None,
                ratio(value, baseline),
                base,
                f"session.send p{round(q * 100)} {baseline:.3f} ms",
            )
        )

    n = f"{rounds} turns per door, alternating, memory off, scripted provider"
    pair("HTTP chat.completion (h11 client, Unix socket)", off, "http", "cbor", 0.5, None, n)
    pair("HTTP chat.completion (h11 client, Unix socket)", off, "http", "cbor", 0.95, ADDED_AIM, n)
    pair("HTTP stream (SSE) whole reply", off, "sse", "cbor", 0.5, None, n)
    pair("HTTP stream (SSE) whole reply", off, "sse", "cbor", 0.95, None, n)
    pair("first token, SSE vs CBOR text event", off, "sse_first", "cbor_first", 0.5, None, n)
    pair("first token, SSE vs CBOR text event", off, "sse_first", "cbor_first", 0.95, None, n)
    for q, i in ((0.5, 0), (0.95, 1)):
        value, baseline = off["daemon_http"][i], off["daemon_cbor"][i]
        rows.append(
            Row(
                f"inside the daemon: /v1/chat/completions, p{round(q * 100)}",
                round(value, 3),
                "ms",
                None,
                ratio(value, baseline),
                "session.send",
                f"the daemon's own timing (stats), plain, SSE and SDK requests together; "
                f"session.send p{round(q * 100)} {baseline:.3f} ms",
            )
        )
    pair(
        "openai SDK chat.completion",
        off,
        "sdk",
        "cbor",
        0.5,
        None,
        n + "; the SDK's own parsing included",
    )
    m = f"{rounds // 3} turns per door, memory on (recall and embedding each turn)"
    pair("HTTP chat.completion, memory on", on, "http", "cbor", 0.5, None, m)
    pair("HTTP chat.completion, memory on", on, "http", "cbor", 0.95, ADDED_AIM, m)
    return Section(
        "HTTP surface: added latency over session.send, first token through SSE",
        rows,
        [
            "Same daemon, same agent, the same texts (English and Chinese) through both doors in one run; "
            "a row's ratio is against session.send over CBOR at the same percentile.",
            "Added latency is the difference of the two percentiles, so on a shared 2-core machine it "
            "carries the noise of both; the ratios are the comparable figures.",
        ],
    )
