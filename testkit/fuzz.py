"""Hypothesis strategies for fuzzing every method's params, for tests/xaid/test_fuzz_params.py and
perf/faults.py.

hypothesis is a dev-only dependency: only the tests and perf import this module, never the daemon
(nor ``testkit`` itself, which must import without it).

``params_for(method)`` makes param maps for one method: its own params with plausible values (so
that the checks past the first are reached), the same with any value in any param, with an extra
key, or all random; values include ``null`` and CBOR types xaiclient would never send. ``LIVE``
stands for the fuzz agent's open session: ``substitute`` puts the real id in before sending.
"""

from __future__ import annotations

import datetime as dt
import decimal
import json
import math
from collections.abc import Callable, Iterator
from typing import Any

import cbor2
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from xaiclient.wire import ErrorCode

DOCUMENTED = {str(code) for code in ErrorCode}  # docs/protocol.md section 11
I64 = 2**63
Y10K_MS = 253_402_300_800_000  # 10000-01-01T00:00Z: Python's datetime ends the day before

# Params per method, from docs/protocol.md section 10 and xaid/methods (stats' 'format' is in the
# code only). A method that hello lists and this table does not know is fuzzed with every name.
PARAMS: dict[str, tuple[str, ...]] = {
    "hello": ("client", "protocol"),
    "ping": (),
    "status": (),
    "stats": ("agent_id", "format"),
    "cancel": ("id",),
    "admin.backup": (),
    "agent.create": ("agent_id", "name", "persona_init", "config"),
    "agent.get": ("agent_id",),
    "agent.list": (),
    "agent.update": ("agent_id", "name", "persona_init", "config"),
    "agent.delete": ("agent_id",),
    "session.open": ("agent_id", "ts"),
    "session.send": ("session_id", "text", "ts", "ref", "speaker", "explain"),
    "session.tool_result": ("session_id", "call_id", "result"),
    "session.ingest": ("session_id", "messages"),
    "session.close": ("session_id", "ts", "wait"),
    "session.list": ("agent_id", "open_only"),
    "session.history": ("session_id", "limit"),
    "mood.get": ("agent_id", "ts"),
    "mood.history": ("agent_id", "limit", "since"),
    "mood.reset": ("agent_id", "ts"),
    "memory.search": ("agent_id", "query", "k", "budget_tokens", "ts", "kinds", "touch"),
    "memory.list": ("agent_id", "kind", "status", "limit"),
    "memory.get": ("agent_id", "id"),
    "memory.forget": ("agent_id", "id", "query", "all"),
    "memory.export": ("agent_id",),
    "memory.import": ("agent_id", "files", "facts"),
    "memory.persona": ("agent_id",),
    "memory.maintain": ("ts",),
    "scheduler.list": ("agent_id", "states"),
    "scheduler.arm": ("agent_id", "topic", "ts", "not_before", "not_after", "priority", "keywords"),
    "scheduler.cancel": ("agent_id", "item_id"),
    "scheduler.check_in": ("agent_id", "ts", "peek"),
    "scheduler.config": ("agent_id", "enabled", "quiet", "min_gap_hours", "allow"),
    "scheduler.feedback": ("agent_id", "item_id", "feedback"),
}
REQUIRED: dict[str, tuple[str, ...]] = {
    "cancel": ("id",),
    "agent.create": ("agent_id",),
    "agent.get": ("agent_id",),
    "agent.update": ("agent_id",),
    "agent.delete": ("agent_id",),
    "session.open": ("agent_id",),
    "session.send": ("session_id", "text"),
    "session.tool_result": ("session_id", "call_id", "result"),
    "session.ingest": ("session_id", "messages"),
    "session.close": ("session_id",),
    "session.list": ("agent_id",),
    "session.history": ("session_id",),
    "mood.get": ("agent_id",),
    "mood.history": ("agent_id",),
    "mood.reset": ("agent_id",),
    "memory.search": ("agent_id", "query"),
    "memory.list": ("agent_id",),
    "memory.get": ("agent_id", "id"),
    "memory.forget": ("agent_id",),
    "memory.export": ("agent_id",),
    "memory.import": ("agent_id",),
    "memory.persona": ("agent_id",),
    "scheduler.list": ("agent_id",),
    "scheduler.arm": ("agent_id", "topic"),
    "scheduler.cancel": ("agent_id", "item_id"),
    "scheduler.check_in": ("agent_id",),
    "scheduler.config": ("agent_id",),
    "scheduler.feedback": ("agent_id", "item_id", "feedback"),
}
NAMES = tuple(sorted({n for names in PARAMS.values() for n in names}))
LIVE = "\x00live-session"  # replaced by the fuzz agent's open session id when sent: see substitute
FUZZ_AGENTS = ("fz", "fz2")

text = st.text(
    st.characters(exclude_categories=["Cs"]), max_size=40
)  # CBOR text is UTF-8: no surrogates
ints = st.one_of(
    st.integers(1, 400),
    st.integers(1, 400),
    st.integers(0, 2**62),
    st.integers(-(2**80), 2**80),
    st.sampled_from([0, -1, 2**31, 2**53, I64 - 1, I64, 2**64, -I64, Y10K_MS - 1, Y10K_MS]),
)
times = st.one_of(
    st.integers(1_500_000_000_000, 2_000_000_000_000),
    st.integers(1_500_000_000_000, 2_000_000_000_000),
    ints,
)
floats = st.floats(allow_nan=True, allow_infinity=True)
odd = st.sampled_from(
    [
        dt.datetime(2020, 1, 1, tzinfo=dt.UTC),
        decimal.Decimal("1.5"),
        cbor2.CBORTag(4242, "x"),
        cbor2.undefined,
        frozenset({1}),
        -0.0,
    ]
)
scalar = st.one_of(st.none(), st.booleans(), ints, floats, text, st.binary(max_size=16), odd)
anything = st.recursive(
    scalar,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.one_of(text, st.sampled_from(NAMES)), inner, max_size=4),
    ),
    max_leaves=12,
)
live_ids = st.sampled_from([*FUZZ_AGENTS, LIVE])
bad_ids = st.sampled_from(
    ["nobody", "s_0000000000000000", "", " ", "a/b", "a\\b", "x" * 128, "x" * 129, "\x00"]
)
ids = st.one_of(live_ids, live_ids, bad_ids, text)
memory_ids = st.one_of(
    st.sampled_from(
        [
            "fact:1",
            "episode:1",
            "highlight:1",
            "fact:0",
            "fact:-1",
            "fact:",
            "x:1",
            "fact:1:2",
            "fact:99999999999999999999999",
        ]
    ),
    st.builds("{}:{}".format, st.sampled_from(["fact", "episode", "highlight"]), ints),
)
message = st.fixed_dictionaries(
    {"role": st.sampled_from(["user", "assistant", "system", "tool", "bot"]), "text": text},
    optional={"ts": times, "ref": text, "speaker": text, "mood": anything},
)


def json_line(value: dict[str, Any]) -> str:
    try:
        return json.dumps(value, default=str)
    except (TypeError, ValueError):
        return "{}"


episode_line = st.fixed_dictionaries(
    {"summary": text, "started_ms": times, "ended_ms": times},
    optional={
        "session_id": ids,
        "highlights": anything,
        "closing_mood": anything,
        "tension": anything,
        "refs": anything,
    },
).map(json_line)
files = st.dictionaries(
    text,
    st.one_of(episode_line, text, st.lists(episode_line, max_size=3).map("\n".join)),
    max_size=2,
)
fact = st.fixed_dictionaries(
    {"text": text},
    optional={
        "subject": anything,
        "kind": anything,
        "value": anything,
        "signals": anything,
        "valid_from": anything,
        "valid_to": anything,
        "created_ms": times,
        "refs": anything,
        "status": st.sampled_from(["current", "deleted", 3]),
    },
)
config = st.fixed_dictionaries(
    {},
    optional={
        "tools": st.lists(
            st.fixed_dictionaries(
                {"name": st.sampled_from(["weather", "x y", ""])},
                optional={"description": anything, "parameters": anything},
            ),
            max_size=2,
        ),
        "max_tokens": ints,
        "temperature": st.one_of(floats, ints),
        "system_prompt": text,
        "mood": st.booleans(),
        "memory": st.booleans(),
        "other": anything,
    },
)
words = st.lists(text, max_size=3)
PLAUSIBLE: dict[str, st.SearchStrategy[Any]] = {
    "agent_id": ids,
    "session_id": ids,
    "id": st.one_of(memory_ids, ints),
    "ts": times,
    "not_before": times,
    "not_after": times,
    "since": times,
    "limit": ints,
    "k": ints,
    "budget_tokens": ints,
    "item_id": ints,
    "text": text,
    "query": text,
    "name": text,
    "persona_init": text,
    "topic": text,
    "ref": text,
    "speaker": text,
    "call_id": text,
    "client": text,
    "format": st.sampled_from(["json", "prometheus", "xml"]),
    "kind": st.sampled_from(["fact", "episode", "highlight", "x"]),
    "status": st.sampled_from(["current", "superseded", "deleted", "all", "x"]),
    "feedback": st.sampled_from(["welcome", "annoying", "x"]),
    "explain": st.booleans(),
    "wait": st.booleans(),
    "touch": st.booleans(),
    "peek": st.booleans(),
    "open_only": st.booleans(),
    "all": st.booleans(),
    "enabled": st.booleans(),
    "quiet": st.booleans(),
    "protocol": st.one_of(ints, st.lists(ints, max_size=3)),
    "priority": st.one_of(floats, ints),
    "min_gap_hours": st.one_of(floats, ints),
    "kinds": st.lists(st.sampled_from(["episode", "highlight", "fact", "x"]), max_size=3),
    "states": st.lists(
        st.one_of(st.sampled_from(["pending", "pushed", "expired", "x"]), anything), max_size=3
    ),
    "keywords": words,
    "allow": words,
    "messages": st.lists(message, max_size=3),
    "config": config,
    "files": files,
    "facts": st.lists(fact, max_size=3),
    "result": anything,
}


def params_for(method: str) -> st.SearchStrategy[dict[Any, Any]]:
    """Maps for one method: its own params with plausible values (so that the checks past the
    first are reached), the same with any value in any param, with an extra key, or all random."""
    names = PARAMS.get(method, NAMES)
    required = [n for n in REQUIRED.get(method, ()) if n in names]
    optional = [n for n in names if n not in required]

    def shaped(value: Callable[[str], st.SearchStrategy[Any]]) -> st.SearchStrategy[dict[Any, Any]]:
        return st.fixed_dictionaries(
            {n: value(n) for n in required}, optional={n: value(n) for n in optional}
        )

    plausible = shaped(lambda n: PLAUSIBLE.get(n, anything))
    mutated = shaped(lambda n: st.one_of(*[PLAUSIBLE.get(n, anything)] * 3, anything))
    extra = st.dictionaries(
        st.one_of(st.sampled_from(NAMES), text, ints), anything, min_size=1, max_size=2
    )
    random_map = st.dictionaries(st.one_of(st.sampled_from(NAMES), text), anything, max_size=5)
    return st.one_of(
        plausible,
        plausible,
        plausible,
        mutated,
        mutated,
        mutated,
        st.tuples(plausible, extra).map(lambda kv: {**kv[0], **kv[1]}),
        random_map,
    )


def fuzz_method(
    method: str,
    examples: int,
    check: Callable[[str, dict[Any, Any]], None],
    seed: int | None = None,
) -> None:
    """``check(method, params)`` for ``examples`` maps of ``params_for(method)``; no shrinking, no
    example database, no deadline; the same examples every run when ``seed`` is given."""

    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        derandomize=seed is not None,
        suppress_health_check=list(HealthCheck),
        phases=[Phase.generate],
    )
    @given(params=params_for(method))
    def one(params: dict[Any, Any]) -> None:
        check(method, params)

    one()


def substitute(value: Any, session_id: str) -> Any:
    """``value`` with every LIVE replaced by ``session_id``."""
    if value == LIVE:
        return session_id
    if isinstance(value, dict):
        return {k: substitute(v, session_id) for k, v in value.items()}
    if isinstance(value, list):
        return [substitute(v, session_id) for v in value]
    return value


def numbers(value: Any) -> Iterator[int | float]:
    """Every number in ``value``: ints and floats, and digit runs in strings (bools are no numbers)."""
    if isinstance(value, bool):
        return
    if isinstance(value, int | float):
        yield value
    elif isinstance(value, str):
        digits = "".join(ch if ch.isdigit() else " " for ch in value).split()
        yield from (int(d) for d in digits if len(d) < 400)
    elif isinstance(value, dict):
        for v in value.values():
            yield from numbers(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from numbers(v)


def past_i64(n: int | float, scale: int = 1, slack: int = 0) -> bool:
    """Whether ``n`` (hours, ms, ...) times ``scale`` leaves SQLite's 64-bit integers (or is no number)."""
    if isinstance(n, float) and not math.isfinite(n):
        return True
    return abs(n) * scale >= I64 - slack
