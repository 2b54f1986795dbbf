"""What the perf areas share, in one place: results, measuring, daemons, scenario helpers.

Results: every area module exposes ``run(quick: bool) -> Section`` (a ``Section`` of ``Row``s).
``__main__`` stamps the section with the command, date, duration and machine, merges it into
``results.json`` (one entry per area, so running one area keeps the others) and renders
``RESULTS.md`` from that file.

The rest are the helpers that more than one area uses (percentiles, fresh daemons, waiting for a
model, time units, the fault campaigns' table parts, the labelled suites' tallies and scenario
steps). A helper used by one module stays in that module; one used by two moves here, so the areas
import only this module and never each other's private names.
"""

from __future__ import annotations

import collections
import contextlib
import datetime as dt
import json
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal, TypeVar

from xaiclient import Client

from testkit import DaemonProcess
from xaid.memory import retrieve
from xaid.text import tokens

HERE = Path(__file__).resolve().parent
SCENARIOS = HERE / "scenarios"

# Times on the wire are milliseconds since the epoch.
MINUTE = 60_000
HOUR = 60 * MINUTE
DAY = 24 * HOUR

# --- results ----------------------------------------------------------------------------------------

Op = Literal["<=", ">=", "<", ">"]
_OP_TEXT: dict[str, str] = {"<=": "≤", ">=": "≥", "<": "<", ">": ">"}


@dataclass(frozen=True)
class Aim:
    """A target from the issue, in the unit of the row it belongs to."""

    op: Op
    bound: float

    def met(self, value: float) -> bool:
        return {
            "<=": value <= self.bound,
            ">=": value >= self.bound,
            "<": value < self.bound,
            ">": value > self.bound,
        }[self.op]


@dataclass
class Row:
    figure: str
    value: float
    unit: str
    aim: Aim | None = None
    ratio: float | None = None  # this value / the baseline's value, measured in the same run
    baseline: str = ""  # what the ratio compares against, e.g. "asyncio"
    note: str = ""

    @property
    def met(self) -> bool | None:
        return None if self.aim is None else self.aim.met(self.value)


@dataclass
class Section:
    title: str
    rows: list[Row] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    # Stamped by __main__ after run():
    area: str = ""
    command: str = ""
    date: str = ""
    duration_s: float = 0.0
    quick: bool = False
    machine: dict[str, Any] = field(default_factory=dict)


def machine() -> dict[str, Any]:
    """CPU model, cores, RAM, OS and Python of this machine."""
    cpu = platform.processor() or platform.machine()
    info: dict[str, str] = {}
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            key, _, value = line.partition(":")
            info.setdefault(key.strip(), value.strip())
    except OSError:
        pass
    cpu = info.get("model name") or info.get("Model") or info.get("Hardware") or cpu
    ram_kib = 0
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                ram_kib = int(line.split()[1])
    except OSError:
        pass
    return {
        "cpu": cpu,
        "arch": platform.machine(),
        "cores": os.cpu_count() or 0,
        "usable_cores": len(os.sched_getaffinity(0))
        if hasattr(os, "sched_getaffinity")
        else os.cpu_count() or 0,
        "ram_gib": round(ram_kib / 1024 / 1024, 1),
        "os": f"{platform.system()} {platform.release()}",
        "python": f"{platform.python_implementation()} {platform.python_version()}",
    }


def now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")


# --- results.json -------------------------------------------------------------------------------


def section_to_json(section: Section) -> dict[str, Any]:
    data = asdict(section)
    for row, raw in zip(section.rows, data["rows"], strict=True):
        raw["met"] = row.met
    return data


def section_from_json(data: dict[str, Any]) -> Section:
    rows = []
    for raw in data.get("rows", []):
        raw = {k: v for k, v in raw.items() if k != "met"}
        aim = raw.pop("aim", None)
        rows.append(Row(**raw, aim=Aim(**aim) if aim else None))
    return Section(**{**{k: v for k, v in data.items() if k != "rows"}, "rows": rows})


def load_results(path: Path) -> dict[str, Section]:
    if not path.exists():
        return {}
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        return {area: section_from_json(s) for area, s in raw.get("sections", {}).items()}
    except (ValueError, TypeError, KeyError):
        return {}  # an older or hand-edited file: start over rather than fail the run


def save_results(path: Path, sections: dict[str, Section]) -> None:
    payload = {
        "generated": now(),
        "machine": machine(),
        "sections": {area: section_to_json(s) for area, s in sections.items()},
    }
    path.write_text(json.dumps(payload, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


# --- RESULTS.md ---------------------------------------------------------------------------------


def fmt_value(value: float, unit: str) -> str:
    if unit in ("req/s", "µs", "KiB"):
        text = f"{value:,.0f}"
    elif unit == "s":
        text = f"{value:.3f}"
    elif abs(value) >= 100:
        text = f"{value:,.0f}"
    elif abs(value) >= 10:
        text = f"{value:.1f}"
    else:
        text = f"{value:.2f}"
    return f"{text} {unit}".strip()


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def fmt_machine(m: dict[str, Any]) -> str:
    return (
        f"{m.get('cpu', '?')} ({m.get('arch', '?')}), {m.get('cores', '?')} cores "
        f"({m.get('usable_cores', '?')} usable), {m.get('ram_gib', '?')} GiB RAM, {m.get('os', '?')}, "
        f"{m.get('python', '?')}"
    )


def render_section(section: Section, host: dict[str, Any]) -> list[str]:
    out = [f"## {section.title}", ""]
    quick = " — **quick run: counts shrunk, figures are rough**" if section.quick else ""
    out.append(
        f"Measured {section.date} with `{section.command}` in {section.duration_s:.0f} s{quick}."
    )
    if section.machine and section.machine != host:
        out.append(f"On another machine: {fmt_machine(section.machine)}.")
    out += ["", "| figure | value | aim | ratio | note |", "|---|---:|---|---:|---|"]
    for row in section.rows:
        aim = ""
        if row.aim is not None:
            mark = "met" if row.met else "**not met**"
            aim = f"{_OP_TEXT[row.aim.op]} {fmt_value(row.aim.bound, row.unit)}: {mark}"
        ratio = "" if row.ratio is None else f"×{row.ratio:.2f} vs {row.baseline}"
        cells = (row.figure, fmt_value(row.value, row.unit), aim, ratio, row.note)
        out.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    if section.notes:
        out.append("")
        out += [f"- {note}" for note in section.notes]
    out.append("")
    return out


def render(sections: dict[str, Section]) -> str:
    host = machine()
    lines = [
        "# xaid benchmark results",
        "",
        "Generated by `python -m perf` (see perf/README.md); do not edit by hand.",
        "",
        f"- Machine: {fmt_machine(host)}",
        f"- Rendered: {now()}",
        "",
        "Absolute figures vary on a shared machine; ratios measured within one run are the comparable ones.",
        "",
    ]
    for section in sections.values():
        lines += render_section(section, host)
    return "\n".join(lines).rstrip() + "\n"


# --- measuring --------------------------------------------------------------------------------------

# Event loops of the daemon, as environment overrides of DaemonProcess.
LOOPS: dict[str, dict[str, str]] = {
    "uvloop": {"XAID_SERVER_UVLOOP": "true"},
    "asyncio": {"XAID_SERVER_UVLOOP": "false"},
}


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile, q in [0, 1]."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else 0.0


def ratio(value: float, baseline: float) -> float | None:
    return value / baseline if baseline else None


def progress(message: str) -> None:
    print(f"[perf {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


# --- daemons ----------------------------------------------------------------------------------------


_T = TypeVar("_T")
_R = TypeVar("_R")


@contextlib.contextmanager
def scratch_daemon(
    env: Mapping[str, str] | None = None, config: str | None = None, start: bool = True
) -> Iterator[DaemonProcess]:
    """A daemon in a fresh temp dir (fresh database), stopped and removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="xaid-perf-") as tmp:
        daemon = DaemonProcess(Path(tmp), env, config)
        try:
            if start:
                daemon.start()
            yield daemon
        finally:
            try:
                daemon.stop()
            finally:
                daemon.kill()


def played_on_one_daemon(
    items: Sequence[_T],
    play: Callable[[Client, _T], _R],
    label: str,
    env: Mapping[str, str] | None = None,
) -> tuple[list[_R], dict[str, int]]:
    """Each item played by ``play`` on ONE scratch daemon (a progress line every 20 items), and the
    daemon's memory counters afterwards (``stats``): what the consolidations cost. ``env`` starts
    the daemon with a real model (``model_env``): its model is waited for before the first item."""
    out: list[_R] = []
    with scratch_daemon(env) as daemon, daemon.client(timeout=1800.0) as client:
        if env is not None:
            wait_model(client, 900, 0.1, daemon)
        for n, item in enumerate(items, 1):
            out.append(play(client, item))
            if n % 20 == 0 or n == len(items):
                progress(f"{label}: {n}/{len(items)} sessions")
        memory = client.stats()["memory"]
    return out, {k: int(v) for k, v in memory.items() if isinstance(v, int)}


@contextlib.contextmanager
def scratch(prefix: str) -> Iterator[Path]:
    """A temp dir for a campaign that starts, kills and restarts its own daemons in it."""
    root = Path(tempfile.mkdtemp(prefix=f"xaid-faults-{prefix}-"))
    try:
        yield root
    finally:
        shutil.rmtree(root, ignore_errors=True)


@contextlib.contextmanager
def running(daemon: DaemonProcess) -> Iterator[DaemonProcess]:
    """The daemon, stopped (or killed, if stopping fails) however the block ends."""
    try:
        yield daemon
    finally:
        try:
            daemon.stop()
        except RuntimeError:
            pass
        finally:
            daemon.kill()


def wait_model(
    client: Client, timeout_s: float, poll_s: float, daemon: DaemonProcess | None = None
) -> None:
    """Wait until ``status`` no longer says the model is loading; a model that did not become
    ready is an error (with the daemon's log when given), since every figure after it would be
    of a daemon without its model."""
    deadline = time.monotonic() + timeout_s
    while (status := client.status())["model"][
        "state"
    ] == "loading" and time.monotonic() < deadline:
        time.sleep(poll_s)
    if status["model"]["state"] != "ready":
        log = f"\n{daemon.log()}" if daemon is not None else ""
        raise RuntimeError(f"model not ready: {status['model']}{log}")


# --- reply models -----------------------------------------------------------------------------------

GGUF = Path(os.environ.get("XAID_PERF_GGUF_DIR", "/work/models/gguf"))
MODELS: dict[str, str] = {  # name -> llm.model_path ("" is the embedded SmolLM2)
    "smollm2-135m": "",
    "qwen2.5-0.5b": str(GGUF / "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf"),
    "qwen2.5-1.5b": str(GGUF / "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"),
}
DEFAULT_MODEL = "qwen2.5-1.5b"


def model_env(model: str, seed: int = 5) -> dict[str, str]:
    """A daemon's environment with ``model`` (a ``MODELS`` name) loaded by llama.cpp, in UTC."""
    return {
        "XAID_LLM_PROVIDER": "llama_cpp",
        "XAID_LLM_MODEL_PATH": MODELS[model],
        "XAID_LLM_MODEL": "smollm2-135m",  # what an empty model_path means (model_path wins)
        "XAID_LLM_SEED": str(seed),
        "XAID_MEMORY_TIMEZONE": "UTC",
        "OMP_WAIT_POLICY": os.environ.get("OMP_WAIT_POLICY", "PASSIVE"),
    }


# --- fault campaigns: a scenario's part of the table ---------------------------------------------------

ZERO = Aim("<=", 0)


@dataclass
class Outcome:
    """One fault scenario's part of the table, and what it found."""

    rows: list[Row] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def tried(self, figure: str, times: float, unit: str, errors: str) -> None:
        self.rows.append(Row(figure, times, unit, note=f"errors seen: {errors}"))

    def lost(self, figure: str, lost: int, unit: str, how: str) -> None:
        self.rows.append(Row(figure, lost, unit, aim=ZERO, note=how))


def fmt_counts(counts: collections.Counter[str] | dict[str, int]) -> str:
    items = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    return ", ".join(f"{k} ×{v:,}" for k, v in items if v) or "none"


# --- labelled suites: tallies and scenario steps ------------------------------------------------------

AGENT_NAME = (
    "Kai"  # episode summaries name the agent; an id like "scene-morning-en" would match "Morning"
)


@dataclass
class CaseTally:
    """One suite's result: how many of how many, and the ids that missed (with a word on why)."""

    hits: int = 0
    total: int = 0
    misses: list[str] = field(default_factory=list)
    hit_ids: list[str] = field(default_factory=list)

    def add(self, ok: bool, case_id: str, why: str = "") -> None:
        self.total += 1
        if ok:
            self.hits += 1
            self.hit_ids.append(case_id)
        else:
            self.misses.append(f"{case_id} ({why})" if why else case_id)

    @property
    def percent(self) -> float:
        return round(100.0 * self.hits / self.total, 1) if self.total else 0.0


def misses(label: str, tally: CaseTally, limit: int = 60) -> str:
    """A note naming the cases a suite missed, at most ``limit`` of them."""
    shown = tally.misses[:limit]
    more = f" … and {len(tally.misses) - limit} more" if len(tally.misses) > limit else ""
    return f"{label} misses ({len(tally.misses)}): " + (
        "; ".join(shown) + more if shown else "none"
    )


def slot_tokens(texts: Iterable[str], lang: str) -> int:
    """The tokens a turn's memory slot of these lines adds to the prompt, counted as the daemon
    counts it (its short header, each line and its dating); 0 for no line."""
    texts = list(texts)
    if not texts:
        return 0
    return retrieve.header_tokens(lang, True) + sum(
        tokens.count(t) + retrieve.LINE_TOKENS for t in texts
    )


def named_conditions(env: str, default: dict[str, dict[str, str]]) -> dict[str, dict[str, str]]:
    """Daemon conditions to compare, from ``env`` ("NAME=VAR:value,VAR:value;NAME=…"), else
    ``default``."""
    spec = os.environ.get(env, "")
    if not spec:
        return default
    out: dict[str, dict[str, str]] = {}
    for part in spec.split(";"):
        name, _, pairs = part.partition("=")
        out[name.strip()] = dict(p.split(":", 1) for p in pairs.split(",") if p.strip())
    return out


def set_named(env: str, names: Collection[str], default: str) -> str:
    """The scenario set the variable ``env`` names, one of ``names`` (``default`` when unset): an
    area that plays more than one set keeps each in its own section."""
    name = os.environ.get(env, default) or default
    if name not in names:
        raise ValueError(f"{env}={name!r}: one of {', '.join(names)}")
    return name


def load_scenario(name: str) -> dict[str, Any]:
    return json.loads((SCENARIOS / name).read_text(encoding="utf-8"))


def day0(data: dict[str, Any]) -> int:
    start = dt.date.fromisoformat(data.get("start", "2025-12-01"))
    return int(dt.datetime(start.year, start.month, start.day, tzinfo=dt.UTC).timestamp() * 1000)


def at(base: int, day: float, hour: float) -> int:
    return base + int(day * DAY + hour * HOUR)


def contains(texts: Iterable[str], keys: Sequence[str]) -> bool:
    """Whether any key occurs in any text, ignoring case."""
    low = [t.casefold() for t in texts]
    return any(k.casefold() in t for k in keys for t in low)


def live_session(c: Client, agent: str, lines: Sequence[str], ts: int) -> str:
    """A session lived through ``session.send`` (a minute per line), closed and consolidated."""
    sid = c.session_open(agent, ts=ts)["session_id"]
    for i, line in enumerate(lines):
        c.session_send(sid, line, ts=ts + i * MINUTE).finish()
    c.session_close(sid, ts=ts + len(lines) * MINUTE, wait=True)
    return sid


def first_turn(c: Client, agent: str, text: str, ts: int) -> dict[str, Any]:
    """Open a new session and send its first turn with ``explain``: the context the model read."""
    sid = c.session_open(agent, ts=ts)["session_id"]
    return c.session_send(sid, text, ts=ts, explain=True).finish()["context"]


def memory_texts(context: dict[str, Any]) -> list[str]:
    return [m["text"] for m in context.get("memories") or []]


# --- token counts -------------------------------------------------------------------------------------


def gguf_counter(path: Path) -> Callable[[str], int]:
    """The real tokenizer of a GGUF: its vocabulary only, no weights (eval/locomo and
    eval/token_counter both count with it)."""
    import llama_cpp  # perf only: the daemon itself never tokenizes with llama.cpp

    model = llama_cpp.Llama(str(path), vocab_only=True, verbose=False)
    return lambda text: len(model.tokenize(text.encode(), add_bos=False, special=False))
