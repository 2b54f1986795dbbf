"""Every method's param checks under hypothesis, over a real connection to a real daemon.

For each method that ``hello`` lists, random maps of random CBOR values (shaped like the method's
own params often enough to get past the first check) are sent as raw frames, so ``null`` and types
xaiclient would never send get through. Every reply must be ``ok`` or a code of
docs/protocol.md section 11 and never ``internal`` (a bug, by that section); no request may hang;
the daemon answers ``ping`` afterwards and an agent that no request can name keeps everything it
had stored.

The defects this fuzzing once found are kept at the end of the file, one reproduction each.
perf/campaigns/faults.py runs the same fuzzing with many more examples.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from xaiclient import Client, XaiError

from testkit import DaemonProcess
from testkit.faults import Raw
from testkit.fuzz import DOCUMENTED, I64, LIVE, Y10K_MS, fuzz_method, substitute

EXAMPLES = 200  # in all, spread evenly over the methods
T0 = 1_764_536_400_000


def keeper_state(c: Client, sid: str) -> dict[str, Any]:
    export = c.call("memory.export", agent_id="keeper")
    for fact in export["facts"]:
        fact.pop("ref_count", None)
    history = c.session_history(sid)
    return {
        "agent": c.agent_get("keeper"),
        "history": history["messages"],
        "pruned": history["transcript_pruned"],
        "export": export,
    }


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DaemonProcess]:
    with DaemonProcess(
        tmp_path_factory.mktemp("fuzz") / "d", env={"XAID_LLM_TOOL_TIMEOUT": "2"}
    ) as proc:
        yield proc


def test_every_method_answers_random_params_with_a_documented_code(fuzzed: DaemonProcess) -> None:
    with fuzzed.client() as c:
        c.agent_create("keeper")
        keeper_sid = c.session_open("keeper", ts=T0)["session_id"]
        for i, line in enumerate(("My sister Anna lives in Kyoto.", "I work at Globex.")):
            c.session_send(keeper_sid, line, ts=T0 + i * 60_000).finish()
        c.session_close(keeper_sid, wait=True)
        c.memory_search(
            "keeper", "Anna Globex", touch=True
        )  # referenced: memory.maintain spares it
        before = keeper_state(c, keeper_sid)
    raw = Raw(fuzzed.socket)
    methods = raw.call("hello", {})["result"]["methods"]
    live = {"sid": ""}
    codes: Counter[str] = Counter()

    def ensure() -> str:
        for agent in ("fz", "fz2"):
            if not raw.call("agent.get", {"agent_id": agent})["ok"]:
                raw.call("agent.create", {"agent_id": agent})
        now = (
            raw.call("session.history", {"session_id": live["sid"], "limit": 1})
            if live["sid"]
            else None
        )
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
        assert code != "internal", (
            f"{method} {sent!r}: {message}"
        )  # a bug, by docs/protocol.md section 11

    try:
        for method in methods:
            fuzz_method(method, math.ceil(EXAMPLES / len(methods)), check)
    finally:
        raw.close()
    with fuzzed.client() as c:
        assert c.ping() == {}
        after = keeper_state(c, keeper_sid)
    if after[
        "pruned"
    ]:  # memory.maintain at a ts past memory.keep_transcripts_days: retention, not loss
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
        raw.close()


@pytest.mark.parametrize(
    ("method", "params"),
    [
        ("session.history", {"session_id": LIVE, "limit": I64}),
        ("memory.list", {"agent_id": "fz", "limit": I64}),
        ("session.open", {"agent_id": "fz", "ts": I64}),
        ("memory.maintain", {"ts": 2**64}),
        ("memory.get", {"agent_id": "fz", "id": "fact:99999999999999999999999"}),
        ("scheduler.arm", {"agent_id": "fz", "topic": "dentist", "not_before": I64 - 1}),
    ],
)
def test_d1_integers_past_64_bits_are_bad_params(
    fuzzed: DaemonProcess, method: str, params: dict[str, Any]
) -> None:
    assert reply_to(fuzzed, method, **params)["error"]["code"] in ("bad_params", "not_found")


def test_d2_a_message_dated_after_9999_still_consolidates(fuzzed: DaemonProcess) -> None:
    with fuzzed.client() as c:
        c.agent_create("far")
        sid = c.session_open("far")["session_id"]
        try:
            c.session_ingest(
                sid, [{"role": "user", "text": "My sister Anna lives in Kyoto.", "ts": Y10K_MS}]
            )
        except XaiError as exc:
            assert exc.code == "bad_params"  # refusing the date is a fix too
            return
        assert (
            c.session_close(sid, wait=True)["episode_id"] is not None
        )  # now: internal, job 'failed'


def test_d2_an_imported_far_future_episode_keeps_export_working(fuzzed: DaemonProcess) -> None:
    line = json.dumps(
        {"summary": "from the far future", "started_ms": Y10K_MS, "ended_ms": Y10K_MS}
    )
    with fuzzed.client() as c:
        c.agent_create("importer")
        try:
            c.call("memory.import", agent_id="importer", files={"x.jsonl": line})
        except XaiError as exc:
            assert exc.code == "bad_params"
            return
        assert c.call("memory.export", agent_id="importer")["files"]  # now: internal (ValueError)


def test_d3_scheduler_list_states_of_the_wrong_type(fuzzed: DaemonProcess) -> None:
    assert (
        reply_to(fuzzed, "scheduler.list", agent_id="fz", states=[[]])["error"]["code"]
        == "bad_params"
    )


@pytest.mark.parametrize("gap", [1e300, 2**53])
def test_d4_scheduler_min_gap_hours_out_of_range(fuzzed: DaemonProcess, gap: float) -> None:
    assert (
        reply_to(fuzzed, "scheduler.config", agent_id="fz", min_gap_hours=gap)["error"]["code"]
        == "bad_params"
    )


def test_d5_memory_import_with_malformed_highlights(fuzzed: DaemonProcess) -> None:
    line = json.dumps({"summary": "x", "started_ms": T0, "ended_ms": T0, "highlights": None})
    reply = reply_to(fuzzed, "memory.import", agent_id="fz", files={"x.jsonl": line})
    assert reply["ok"] or reply["error"]["code"] == "bad_params"
