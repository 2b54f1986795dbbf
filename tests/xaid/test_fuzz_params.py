"""Every method's param checks under hypothesis, over a real connection to a real daemon.

For each method that ``hello`` lists, random maps of random CBOR values (shaped like the method's
own params often enough to get past the first check) are sent as raw frames, so ``null`` and types
xaiclient would never send get through. Every reply must be ``ok`` or a code of
docs/protocol.md section 11 and never ``internal`` (a bug, by that section); no request may hang;
the daemon answers ``ping`` afterwards and an agent that no request can name keeps everything it
had stored.

The defects this fuzzing once found are kept at the end of the file, one reproduction each.
perf/faults.py runs the same fuzzing with many more examples.
"""

from __future__ import annotations

import datetime as dt
import decimal
import json
import math
import socket
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cbor2
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from xaiclient import Client, XaiError
from xaiclient.wire import ErrorCode, FrameDecoder, decode_payload, encode_frame

from xaid.testing import DaemonProcess

EXAMPLES = 200  # in all, spread evenly over the methods
DOCUMENTED = {str(code) for code in ErrorCode}
I64 = 2**63
Y10K_MS = 253_402_300_800_000  # 10000-01-01T00:00Z, one day past what Python's datetime can show
T0 = 1_764_536_400_000

PARAMS: dict[str, tuple[str, ...]] = {  # docs/protocol.md section 10, the scheduler's from xaid/methods
    "hello": ("client", "protocol"), "ping": (), "status": (), "stats": ("agent_id", "format"), "cancel": ("id",),
    "admin.backup": (), "agent.create": ("agent_id", "name", "persona_init", "config"), "agent.get": ("agent_id",),
    "agent.list": (), "agent.update": ("agent_id", "name", "persona_init", "config"), "agent.delete": ("agent_id",),
    "session.open": ("agent_id", "ts"), "session.send": ("session_id", "text", "ts", "ref", "speaker", "explain"),
    "session.tool_result": ("session_id", "call_id", "result"), "session.ingest": ("session_id", "messages"),
    "session.close": ("session_id", "ts", "wait"), "session.list": ("agent_id", "open_only"),
    "session.history": ("session_id", "limit"), "mood.get": ("agent_id", "ts"),
    "mood.history": ("agent_id", "limit", "since"), "mood.reset": ("agent_id", "ts"),
    "memory.search": ("agent_id", "query", "k", "budget_tokens", "ts", "kinds", "touch"),
    "memory.list": ("agent_id", "kind", "status", "limit"), "memory.get": ("agent_id", "id"),
    "memory.forget": ("agent_id", "id", "query", "all"), "memory.export": ("agent_id",),
    "memory.import": ("agent_id", "files", "facts"), "memory.persona": ("agent_id",), "memory.maintain": ("ts",),
    "scheduler.list": ("agent_id", "states"),
    "scheduler.arm": ("agent_id", "topic", "ts", "not_before", "not_after", "priority", "keywords"),
    "scheduler.cancel": ("agent_id", "item_id"),
    "scheduler.config": ("agent_id", "enabled", "quiet", "min_gap_hours", "allow"),
    "scheduler.feedback": ("agent_id", "item_id", "feedback"),
}
NAMES = tuple(sorted({n for names in PARAMS.values() for n in names}))
LIVE = "\x00live-session"  # replaced by the fuzz agent's open session when sent

text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)  # CBOR text is UTF-8
ints = st.one_of(st.integers(1, 300), st.integers(0, 2**62), st.integers(-(2**70), 2**70),
                 st.sampled_from([0, -1, I64 - 1, I64, 2**64, Y10K_MS - 1, Y10K_MS]))
times = st.one_of(st.integers(1_500_000_000_000, 2_000_000_000_000), ints)
floats = st.floats(allow_nan=True, allow_infinity=True)
odd = st.sampled_from([dt.datetime(2020, 1, 1, tzinfo=dt.UTC), decimal.Decimal("1.5"), cbor2.CBORTag(4242, "x"),
                       cbor2.undefined, b"\x00bytes"])
anything = st.recursive(
    st.one_of(st.none(), st.booleans(), ints, floats, text, odd),
    lambda inner: st.one_of(st.lists(inner, max_size=3),
                            st.dictionaries(st.one_of(text, st.sampled_from(NAMES)), inner, max_size=3)),
    max_leaves=8)
ids = st.one_of(st.sampled_from(["fz", "fz2", LIVE]), st.sampled_from(["nobody", "", "a/b", "x" * 129]), text)
episode_line = st.fixed_dictionaries(
    {"summary": text, "started_ms": times, "ended_ms": times},
    optional={"session_id": ids, "highlights": anything, "closing_mood": anything, "tension": anything},
).map(lambda e: json.dumps(e, default=str))
PLAUSIBLE: dict[str, Any] = {
    "agent_id": ids, "session_id": ids, "ts": times, "not_before": times, "not_after": times, "since": times,
    "limit": ints, "k": ints, "budget_tokens": ints, "item_id": ints, "text": text, "query": text, "topic": text,
    "id": st.one_of(st.builds("{}:{}".format, st.sampled_from(["fact", "episode", "highlight", "x"]), ints), ints),
    "kind": st.sampled_from(["fact", "episode", "x"]), "status": st.sampled_from(["current", "all", "x"]),
    "feedback": st.sampled_from(["welcome", "annoying", "x"]), "format": st.sampled_from(["json", "prometheus"]),
    "kinds": st.lists(st.sampled_from(["episode", "highlight", "fact", "x"]), max_size=3),
    "states": st.lists(st.one_of(st.sampled_from(["pending", "pushed"]), anything), max_size=2),
    "messages": st.lists(st.fixed_dictionaries({"role": st.sampled_from(["user", "assistant", "tool"]), "text": text},
                                               optional={"ts": times, "ref": text, "x": anything}), max_size=3),
    "config": st.fixed_dictionaries({}, optional={"max_tokens": ints, "temperature": floats, "mood": anything,
                                                  "tools": anything, "other": anything}),
    "files": st.dictionaries(text, st.one_of(episode_line, text), max_size=2),
    "facts": st.lists(st.fixed_dictionaries({"text": text}, optional={"value": anything, "signals": anything,
                                                                      "refs": anything, "created_ms": times}),
                      max_size=2),
    "protocol": st.one_of(ints, st.lists(ints, max_size=2)), "priority": st.one_of(floats, ints),
    "min_gap_hours": st.one_of(floats, ints), "keywords": st.lists(text, max_size=2),
    "allow": st.lists(text, max_size=2),
}


def params_for(method: str) -> st.SearchStrategy[dict[Any, Any]]:
    names = PARAMS.get(method, NAMES)  # a method hello lists and this table does not know: every name
    own = st.fixed_dictionaries({}, optional={n: st.one_of(PLAUSIBLE.get(n, anything), PLAUSIBLE.get(n, anything),
                                                           anything) for n in names})
    extra = st.dictionaries(st.one_of(st.sampled_from(NAMES), text, ints), anything, min_size=1, max_size=2)
    return st.one_of(own, own, own, st.tuples(own, extra).map(lambda kv: {**kv[0], **kv[1]}),
                     st.dictionaries(st.one_of(st.sampled_from(NAMES), text), anything, max_size=4))


def numbers(value: Any) -> Iterator[int | float]:
    if isinstance(value, bool):
        return
    if isinstance(value, int | float):
        yield value
    elif isinstance(value, str):
        yield from (int(d) for d in "".join(c if c.isdigit() else " " for c in value).split() if len(d) < 400)
    elif isinstance(value, dict):
        for v in value.values():
            yield from numbers(v)
    elif isinstance(value, list):
        for v in value:
            yield from numbers(v)


def past_i64(n: int | float, scale: int = 1) -> bool:
    return (isinstance(n, float) and not math.isfinite(n)) or abs(n) * scale >= I64 - 8 * 86_400_000


class Raw:
    def __init__(self, path: Path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(20)  # a hang is a TimeoutError
        self.sock.connect(str(path))
        self.dec = FrameDecoder(1 << 26)
        self.rid = 0

    def call(self, method: str, params: Any) -> dict[str, Any]:
        self.rid += 1
        rid = self.rid
        self.sock.sendall(encode_frame({"v": 1, "id": rid, "method": method, "params": params}))
        while True:
            payload = self.dec.next_payload()
            if payload is None:
                data = self.sock.recv(1 << 16)
                assert data, f"the daemon closed the connection during {method}"
                self.dec.feed(data)
                continue
            msg = decode_payload(payload)
            if msg.get("id") != rid:
                continue
            if "event" not in msg:
                return msg
            if msg["event"] == "tool_call":  # nobody answers tools here: stop the turn
                self.rid += 1
                self.sock.sendall(encode_frame({"v": 1, "id": self.rid, "method": "cancel", "params": {"id": rid}}))


def substitute(value: Any, session_id: str) -> Any:
    if value == LIVE:
        return session_id
    if isinstance(value, dict):
        return {k: substitute(v, session_id) for k, v in value.items()}
    if isinstance(value, list):
        return [substitute(v, session_id) for v in value]
    return value


def keeper_state(c: Client, sid: str) -> dict[str, Any]:
    export = c.call("memory.export", agent_id="keeper")
    for fact in export["facts"]:
        fact.pop("ref_count", None)
    history = c.session_history(sid)
    return {"agent": c.agent_get("keeper"), "history": history["messages"], "pruned": history["transcript_pruned"],
            "export": export}


def fuzz_method(method: str, examples: int, check: Any) -> None:
    @settings(max_examples=examples, deadline=None, database=None, suppress_health_check=list(HealthCheck),
              phases=[Phase.generate])
    @given(params=params_for(method))
    def one(params: dict[Any, Any]) -> None:
        check(method, params)

    one()


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DaemonProcess]:
    with DaemonProcess(tmp_path_factory.mktemp("fuzz") / "d", env={"XAID_LLM_TOOL_TIMEOUT": "2"}) as proc:
        yield proc


def test_every_method_answers_random_params_with_a_documented_code(fuzzed: DaemonProcess) -> None:
    with fuzzed.client() as c:
        c.agent_create("keeper")
        keeper_sid = c.session_open("keeper", ts=T0)["session_id"]
        for i, line in enumerate(("My sister Anna lives in Kyoto.", "I work at Globex.")):
            c.session_send(keeper_sid, line, ts=T0 + i * 60_000).finish()
        c.session_close(keeper_sid, wait=True)
        c.memory_search("keeper", "Anna Globex", touch=True)  # referenced: memory.maintain spares it
        before = keeper_state(c, keeper_sid)
    raw = Raw(fuzzed.socket)
    methods = raw.call("hello", {})["result"]["methods"]
    live = {"sid": ""}
    codes: Counter[str] = Counter()

    def ensure() -> str:
        for agent in ("fz", "fz2"):
            if not raw.call("agent.get", {"agent_id": agent})["ok"]:
                raw.call("agent.create", {"agent_id": agent})
        now = raw.call("session.history", {"session_id": live["sid"], "limit": 1}) if live["sid"] else None
        if not now or not now["ok"] or not now["result"]["session"]["open"]:
            live["sid"] = raw.call("session.open", {"agent_id": "fz"})["result"]["session_id"]
        return live["sid"]

    def check(method: str, params: dict[Any, Any]) -> None:
        sent = substitute(params, ensure())
        reply = raw.call(method, sent)
        if reply["ok"]:
            codes["ok"] += 1
            return
        code, message = reply["error"]["code"], reply["error"]["message"]
        codes[code] += 1
        assert code in DOCUMENTED, f"{method} {sent!r}: undocumented code {code!r}"
        assert code != "internal", f"{method} {sent!r}: {message}"  # a bug, by docs/protocol.md section 11

    for method in methods:
        fuzz_method(method, math.ceil(EXAMPLES / len(methods)), check)
    with fuzzed.client() as c:
        assert c.ping() == {}
        after = keeper_state(c, keeper_sid)
    if after["pruned"]:  # memory.maintain at a ts past memory.keep_transcripts_days: retention, not loss
        assert after["history"] == []
        after = {**after, "history": before["history"], "pruned": False}
    assert after == before
    assert fuzzed.proc is not None and fuzzed.proc.poll() is None
    assert sum(codes.values()) >= EXAMPLES and codes["ok"] > 0, codes


# --- defects this fuzzing found once, one reproduction each: they must stay fixed ---


def reply_to(daemon: DaemonProcess, method: str, **params: Any) -> dict[str, Any]:
    """The reply, with agent 'fz' and an open session of it in place (for LIVE), so that a not_found
    can't stand in for the answer."""
    with daemon.client() as c:
        if not any(a["agent_id"] == "fz" for a in c.agent_list()["agents"]):
            c.agent_create("fz")
        sid = c.session_open("fz")["session_id"]
    raw = Raw(daemon.socket)
    try:
        return raw.call(method, substitute(params, sid))
    finally:
        raw.sock.close()


@pytest.mark.parametrize(("method", "params"), [
    ("session.history", {"session_id": LIVE, "limit": I64}),
    ("memory.list", {"agent_id": "fz", "limit": I64}),
    ("session.open", {"agent_id": "fz", "ts": I64}),
    ("memory.maintain", {"ts": 2**64}),
    ("memory.get", {"agent_id": "fz", "id": "fact:99999999999999999999999"}),
    ("scheduler.arm", {"agent_id": "fz", "topic": "dentist", "not_before": I64 - 1}),
])
def test_d1_integers_past_64_bits_are_bad_params(fuzzed: DaemonProcess, method: str, params: dict[str, Any]) -> None:
    assert reply_to(fuzzed, method, **params)["error"]["code"] in ("bad_params", "not_found")


def test_d2_a_message_dated_after_9999_still_consolidates(fuzzed: DaemonProcess) -> None:
    with fuzzed.client() as c:
        c.agent_create("far")
        sid = c.session_open("far")["session_id"]
        try:
            c.session_ingest(sid, [{"role": "user", "text": "My sister Anna lives in Kyoto.", "ts": Y10K_MS}])
        except XaiError as exc:
            assert exc.code == "bad_params"  # refusing the date is a fix too
            return
        assert c.session_close(sid, wait=True)["episode_id"] is not None  # now: internal, job 'failed'


def test_d2_an_imported_far_future_episode_keeps_export_working(fuzzed: DaemonProcess) -> None:
    line = json.dumps({"summary": "from the far future", "started_ms": Y10K_MS, "ended_ms": Y10K_MS})
    with fuzzed.client() as c:
        c.agent_create("importer")
        try:
            c.call("memory.import", agent_id="importer", files={"x.jsonl": line})
        except XaiError as exc:
            assert exc.code == "bad_params"
            return
        assert c.call("memory.export", agent_id="importer")["files"]  # now: internal (ValueError)


def test_d3_scheduler_list_states_of_the_wrong_type(fuzzed: DaemonProcess) -> None:
    assert reply_to(fuzzed, "scheduler.list", agent_id="fz", states=[[]])["error"]["code"] == "bad_params"


@pytest.mark.parametrize("gap", [1e300, 2**53])
def test_d4_scheduler_min_gap_hours_out_of_range(fuzzed: DaemonProcess, gap: float) -> None:
    assert reply_to(fuzzed, "scheduler.config", agent_id="fz", min_gap_hours=gap)["error"]["code"] == "bad_params"


def test_d5_memory_import_with_malformed_highlights(fuzzed: DaemonProcess) -> None:
    line = json.dumps({"summary": "x", "started_ms": T0, "ended_ms": T0, "highlights": None})
    reply = reply_to(fuzzed, "memory.import", agent_id="fz", files={"x.jsonl": line})
    assert reply["ok"] or reply["error"]["code"] == "bad_params"
