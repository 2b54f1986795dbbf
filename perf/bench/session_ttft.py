"""First token at a session's turns 1, 2 and 20, on real model files, on a fresh agent and on a
LoCoMo-size history, with the prompt-head cache on and off (issue 28 items 3 and 4).

What a turn costs before its first token is mostly what llama.cpp reads: everything after the
longest prefix the model already holds. Two mechanisms keep that small:

- within a session, the prompt only grows (xaid.conversation.prompt: the memories shown at a
  turn stay where they were shown, a later turn's new memories go in a small slot near the end),
  so turn N reads the previous exchange, its new memories, the directive and the new message;
- at a session's first turn, the agent's head (persona, rules, profile) comes from the runner's
  disk cache (xaid/providers/head_cache.py), even after a restart.

For each model (XAID_PERF_TTFT_MODELS, default the 1.5B and SmolLM2) and history, the agent is
written once by a daemon with the scripted provider (the LoCoMo sample's ~600 turns ingested and
consolidated: consolidation's model calls are not what is measured), then copied:

1. a new daemon (so a new runner, nothing in RAM), head cache on: its runner reads the agent's
   head ahead at start (prewarm; waited for), then one session of N turns;
2. a new daemon on a copy, head cache off (llm.head_cache_mb = 0): turns 1 and 2 of a session;
3. main's way: as 1 with ``memory.first_word_ms`` 0 (main before the first-word slot, fe0c86c).

``usage.prompt_read_tokens`` says per turn how much the model read; the head is the
``system_prompt`` of ``explain``. English LoCoMo questions alternate with Chinese lines.

Between two turns the bench waits ``XAID_PERF_TTFT_PAUSE_S`` (8 s) in every condition: the user
reads the reply and types. The new condition reads the next turn's start then (the exchange and
the memories held back from the turn's slot: ``Provider.read_ahead``); main's way does nothing with
it. Without the pause the read-ahead would be measured against a user who answers instantly.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from testkit import DaemonProcess
from xaid.providers.head_cache import agent_dir_name
from xaid.text import tokens

from ..eval import locomo
from ..kit import (
    MINUTE,
    MODELS,
    Aim,
    Row,
    Section,
    median,
    progress,
    ratio,
    running,
    slot_tokens,
    wait_model,
)

TURNS, QUICK_TURNS = int(os.environ.get("XAID_PERF_TTFT_TURNS", "20")), 3
PAUSE_S = float(os.environ.get("XAID_PERF_TTFT_PAUSE_S", "8"))
OFF = os.environ.get("XAID_PERF_TTFT_CACHE_OFF", "1") != "0"  # 0: no head-cache-off condition
DEFAULT_MODELS = "qwen2.5-1.5b,smollm2-135m"
FIRST_AIM = Aim("<=", 1000.0)  # ms, turn 1 (issue 28)
LATER_AIM = Aim("<=", 1500.0)  # ms, every later turn on a long history
AGENT = "ttft"
# One turn of another agent first in every daemon: what a session's first turn costs in a daemon that
# has been running (the model's pages read, the embedder and the vector copy loaded), not at its start.
OTHER = "other"
PERSONA = (
    "Mia is playful and curious, loves hiking, film cameras and cooking for friends; she grew up by "
    "the sea and still swims every weekend. 她会说中文，也喜欢用中文聊天。"
)
ZH_LINES = (
    "你最近过得怎么样？",
    "这个周末我想去爬山，你觉得呢？",
    "我今天工作好累，老板又加了任务。",
    "你还记得我上次说的那本书吗？",
    "晚上吃什么好呢？",
    "我妹妹下个月要结婚了。",
    "最近睡得不太好。",
    "明天要去面试，有点紧张。",
    "我想学做饭，从哪里开始？",
    "今天天气真好。",
)
EN_FRESH = (
    "Morning! I slept badly again.",
    "What should I cook tonight?",
    "Work was exhausting today.",
    "My sister is getting married next month.",
    "Any ideas for the weekend?",
)


@dataclass(frozen=True, slots=True)
class TurnFigure:
    ttft_ms: float
    memory_ms: float
    prompt: int
    read: int | None
    head: str
    # the sizes of two parts of the turn's prompt (xaid.text.tokens), not what the turn read: the
    # slot is read before its first word (with the line on using it that closes the block: 19-21
    # tokens), the directive may have been read ahead (a first turn's opening, a later turn's steady
    # part): LoCoMo's turn 1 read 76 = slot 38, that line 19, the message 7 and the chat template's
    # tokens around them; its directive (18) was the opening read ahead with the head
    slot: int  # tokens of the turn's memory block's header and lines
    directive: int  # tokens of the turn's directive


@dataclass(frozen=True, slots=True)
class SessionRun:
    turns: list[TurnFigure]
    head_cache: dict[str, Any]
    load: float
    after_other: dict[str, Any]  # the head cache after the other agent's turn, before the session


# XAID_PERF_TTFT_LANGS: "both" (the default: English and Chinese lines alternate, so every turn
# changes the reply's language), "en" or "zh" (a session in one language, as most are: a turn's
# directive then reads as the previous turn's did, and is read ahead with the exchange)
LANGS = os.environ.get("XAID_PERF_TTFT_LANGS", "both")


def _queries(history: str, sample: locomo.Sample | None, n: int) -> list[str]:
    english = [str(q["question"]) for q in sample.qa] if sample is not None else list(EN_FRESH)
    out: list[str] = [OPENER] if OPENER else []
    n -= len(out)
    for i in range(n):
        if LANGS in ("en", "zh"):
            pool = english if LANGS == "en" else list(ZH_LINES)
            out.append(pool[i % len(pool)])
            continue
        pool = english if i % 2 == 0 else list(ZH_LINES)
        out.append(pool[(i // 2) % len(pool)])
    return out


def _prepare(root: Path, sample: locomo.Sample | None) -> None:
    """The agent, and its LoCoMo history, written by a daemon with the scripted provider."""
    with running(DaemonProcess(root).start()) as d, d.client(timeout=1800) as c:
        c.agent_create(AGENT, name="Mia", persona_init=PERSONA, config={"max_tokens": 4})
        c.agent_create(OTHER, name="Bo", config={"max_tokens": 4})
        if sample is not None:
            seconds, episodes = locomo.ingest(c, AGENT, sample)
            progress(
                f"session ttft: LoCoMo sample {sample.sample_id} ingested, {len(sample.turns)} turns, "
                f"{episodes} episodes, {seconds:.0f} s"
            )


# main before this branch (fe0c86c): the same daemon with no slot from the first-word time, so a
# session's first turn reads its whole memory block (the head read ahead, as in "new")
MAIN = {"XAID_MEMORY_FIRST_WORD_MS": "0"}
PREWARM_WAIT_S = 900
# the "new" condition's turn caps (memory.first_turn_tokens = later_turn_tokens): XAID_PERF_TTFT_CAPS=64
# measures another setting; unset, the defaults
CAPS = os.environ.get("XAID_PERF_TTFT_CAPS", "")
SLOT = f"slot capped at {CAPS}" if CAPS else "slot at its default cap"
# the first-word slot is off by default (docs/memory.md): "new" turns it on at a second
NEW = {"XAID_MEMORY_FIRST_WORD_MS": "1000"} | (
    {"XAID_MEMORY_FIRST_TURN_TOKENS": CAPS, "XAID_MEMORY_LATER_TURN_TOKENS": CAPS} if CAPS else {}
)


# XAID_PERF_TTFT_OPENER (e.g. "Morning!"): every session opens with that greeting (the questions
# follow it), the morning after the history's last turn, when the latest episodes are recent; with
# XAID_PERF_TTFT_NEW / XAID_PERF_TTFT_MAIN ("VAR:value,VAR:value", "-" for none) the two conditions'
# settings instead of the first-word slot on and off (issue 28 item 4: memory.hold_for_openers).
OPENER = os.environ.get("XAID_PERF_TTFT_OPENER", "")
MORNING_AFTER = 10 * 60 * MINUTE


def _spec(name: str, default: dict[str, str]) -> dict[str, str]:
    spec = os.environ.get(name)
    if spec is None:
        return default
    return dict(p.split(":", 1) for p in spec.split(",") if p.strip() and p.strip() != "-")


NEW = _spec("XAID_PERF_TTFT_NEW", NEW)
MAIN = _spec("XAID_PERF_TTFT_MAIN", MAIN)


def _caps() -> str:
    return f"memory.first_turn_tokens = later_turn_tokens = {CAPS}" if CAPS else "at their defaults"


def _env(model: str, cache_mb: int, extra: dict[str, str] | None = None) -> dict[str, str]:
    return {
        "XAID_LLM_PROVIDER": "llama_cpp",
        "XAID_LLM_MODEL_PATH": MODELS[model],
        "XAID_LLM_MODEL": "smollm2-135m",  # what an empty model_path means here (model_path wins)
        "XAID_LLM_HEAD_CACHE_MB": str(cache_mb),
        "OMP_WAIT_POLICY": os.environ.get("OMP_WAIT_POLICY", "PASSIVE"),
        **(extra or {}),
    }


def _wait_prewarmed(d: DaemonProcess, agent: str) -> float:
    """Seconds until the runner has written the agent's head, read ahead at the daemon's start."""
    start = time.monotonic()
    folder = d.state_dir / "head_cache" / agent_dir_name(agent)
    while not list(folder.glob("*.kv")):
        if time.monotonic() - start > PREWARM_WAIT_S:
            raise RuntimeError(f"no prewarmed head of {agent} after {PREWARM_WAIT_S} s")
        time.sleep(0.2)
    return time.monotonic() - start


def _session(
    root: Path,
    env: dict[str, str],
    queries: list[str],
    ts: int,
    label: str,
    prewarmed: bool = False,
) -> SessionRun:
    figures: list[TurnFigure] = []
    loads: list[float] = []
    with running(DaemonProcess(root, env).start()) as d, d.client(timeout=1800) as c:
        wait_model(c, 600, 0.05, d)
        if prewarmed:
            took = _wait_prewarmed(d, AGENT)
            progress(f"session ttft {label}: the head was read ahead in {took:.0f} s")
        other = c.session_open(OTHER, ts=ts - MINUTE)["session_id"]
        c.session_send(other, "Hi Bo, long day. 今天好累。", ts=ts - MINUTE).finish()
        after_other = dict(c.status()["model"].get("head_cache") or {})
        sid = c.session_open(AGENT, ts=ts)["session_id"]
        for i, text in enumerate(queries):
            result = c.session_send(sid, text, ts=ts + i * MINUTE, explain=True).finish()
            usage = result["usage"]
            context = result["context"]
            block = [m["text"] for m in context["memories_new"]]
            figures.append(
                TurnFigure(
                    float(result["timings"]["first_token_ms"] or result["timings"]["total_ms"]),
                    float(result["timings"]["memory_ms"]),
                    int(usage["prompt_tokens"]),
                    usage.get("prompt_read_tokens"),
                    context["system_prompt"],
                    slot_tokens(block, context["lang"]),
                    tokens.count(context["directive"]),
                )
            )
            loads.append(os.getloadavg()[0])
            if i + 1 < len(queries):
                time.sleep(PAUSE_S)  # the user reads the reply and types the next line
            progress(
                f"session ttft {label} turn {i + 1}: {figures[-1].ttft_ms:.0f} ms, read "
                f"{figures[-1].read} of {figures[-1].prompt} tokens"
            )
        cache = dict(c.status()["model"].get("head_cache") or {})
    return SessionRun(figures, cache, median(loads) if loads else 0.0, after_other)


def _copy(src: Path, dst: Path, heads: bool = True) -> None:
    ignore = shutil.ignore_patterns("*.sock", *(() if heads else ("head_cache",)))
    shutil.copytree(src, dst, ignore=ignore)


def _measure(
    model: str, history: str, base: Path, queries: list[str], now: int, work: Path
) -> tuple[SessionRun, SessionRun, SessionRun]:
    """(the new mechanism with the head cache, without it, main's way with the head cache).

    New and main: no turn before the session: the daemon's start reads the agent's head ahead
    (prewarm), as after a consolidation."""
    new_root, off_root, main_root = (
        work / f"{model}-{history}-{c}" for c in ("new", "off", "main")
    )
    later = now + 5 * MINUTE
    _copy(base, new_root)
    _copy(base, off_root, heads=False)
    new = _session(
        new_root, _env(model, 512, NEW), queries, later, f"{model} {history} new", prewarmed=True
    )
    off = (
        _session(
            off_root, _env(model, 0, NEW), queries[:2], later, f"{model} {history} new, cache off"
        )
        if OFF
        else new
    )
    _copy(base, main_root)
    main = _session(
        main_root, _env(model, 512, MAIN), queries, later, f"{model} {history} main", prewarmed=True
    )
    return new, off, main


def _reads(run: SessionRun) -> str:
    return ", ".join(f"{t.read}/{t.prompt}" for t in run.turns)


def _parts(run: SessionRun) -> str:
    return ", ".join(f"{t.slot}+{t.directive}" for t in run.turns)


def run(quick: bool) -> Section:
    models = [m.strip() for m in os.environ.get("XAID_PERF_TTFT_MODELS", DEFAULT_MODELS).split(",")]
    turns = QUICK_TURNS if quick else TURNS
    locomo_path = Path(os.environ.get("XAID_PERF_LOCOMO", str(locomo.TINY)))
    sample = locomo.load(locomo_path)[0]
    now = int(time.time() * 1000)
    rows: list[Row] = []
    notes: list[str] = []
    loads: list[float] = []
    with tempfile.TemporaryDirectory(prefix="xaid-perf-ttft-") as tmp:
        work = Path(tmp)
        wanted = os.environ.get("XAID_PERF_TTFT_HISTORIES", "fresh,LoCoMo").split(",")
        bases = {h: work / f"base-{h.lower()}" for h in ("fresh", "LoCoMo") if h in wanted}
        for history, base in bases.items():
            _prepare(base, sample if history == "LoCoMo" else None)
        for model in models:
            for history, base in bases.items():
                queries = _queries(history, sample if history == "LoCoMo" else None, turns)
                # with an opener, the morning after the history (its latest episodes are recent)
                at = sample.end_ms + MORNING_AFTER if OPENER and history == "LoCoMo" else now
                new, off, main = _measure(model, history, base, queries, at, work)
                loads += [new.load, off.load, main.load]
                label = f"{model}, {history}"
                first, cold, before = new.turns[0], off.turns[0], main.turns[0]
                rows.append(
                    Row(
                        f"{label}: first token at turn 1 (standing head read ahead, {SLOT})",
                        first.ttft_ms,
                        "ms",
                        None if quick else FIRST_AIM,
                        ratio(first.ttft_ms, before.ttft_ms),
                        "main's way, same run",
                        note=f"read {first.read} of {first.prompt} prompt tokens; main read "
                        f"{before.read} of {before.prompt} in {before.ttft_ms:.0f} ms",
                    )
                )
                if OFF:
                    rows.append(
                        Row(
                            f"{label}: first token at turn 1, head cache off",
                            cold.ttft_ms,
                            "ms",
                            note=f"read {cold.read} of {cold.prompt} prompt tokens",
                        )
                    )
                if len(new.turns) > 2:
                    worst = max(range(1, len(new.turns)), key=lambda i: new.turns[i].ttft_ms)
                    turn, was = new.turns[worst], main.turns[worst]
                    rows.append(
                        Row(
                            f"{label}: first token at the slowest later turn (turn {worst + 1})",
                            turn.ttft_ms,
                            "ms",
                            None if quick else LATER_AIM,
                            ratio(turn.ttft_ms, max(t.ttft_ms for t in main.turns[1:])),
                            "main's slowest later turn, same run",
                            note=f"read {turn.read} of {turn.prompt} prompt tokens; main's turn "
                            f"{worst + 1} read {was.read} in {was.ttft_ms:.0f} ms",
                        )
                    )
                for n in sorted({2, len(new.turns)} - {1}):
                    turn, was = new.turns[n - 1], main.turns[n - 1]
                    rows.append(
                        Row(
                            f"{label}: first token at turn {n}",
                            turn.ttft_ms,
                            "ms",
                            None if quick else LATER_AIM,
                            ratio(turn.ttft_ms, was.ttft_ms),
                            "main's way, same run",
                            note=f"read {turn.read} of {turn.prompt} prompt tokens; main read "
                            f"{was.read} of {was.prompt} in {was.ttft_ms:.0f} ms",
                        )
                    )
                for tag, run_ in (("new", new), ("main's way", main)):
                    later = [t.ttft_ms for t in run_.turns[1:]]
                    notes.append(
                        f"{label}, {tag}: per turn first token "
                        + ", ".join(f"{t.ttft_ms:.0f}" for t in run_.turns)
                        + " ms (recall, timings.memory_ms: "
                        + ", ".join(f"{t.memory_ms:.0f}" for t in run_.turns)
                        + f"), p50 of turns 2-{turns} {median(later) if later else 0:.0f} ms; "
                        f"tokens read/prompt {_reads(run_)}; in the prompt, read at the turn or "
                        f"found read ahead: memory slot (header and lines) + directive "
                        f"{_parts(run_)}; runner's head cache after the other agent's turn: "
                        f"{run_.after_other}, after the session: {run_.head_cache}."
                    )
                if OFF:
                    notes.append(f"{label}, new, head cache off: tokens read/prompt {_reads(off)}.")
    load = median(loads) if loads else 0.0
    notes.insert(
        0,
        f"Each condition in its own daemon (llama_cpp, llm.model_path = the model file, n_ctx 4096, "
        f'OMP_WAIT_POLICY=PASSIVE, llm.n_threads at its default), agent config {{"max_tokens": 4}}, memory on; '
        f"one turn of another agent first in each daemon (so no figure is a daemon's cold start); "
        f"history: none ('fresh') or LoCoMo sample {sample.sample_id} of {locomo_path.name} "
        f"({len(sample.turns)} turns in {len(sample.sessions)} sessions, ingested and consolidated with the "
        f"scripted provider standing in for the model). Per model and history, three conditions in the same "
        f"run: new (the standing block in the head, flash attention, turn caps "
        f"{_caps()}): a daemon starts on the written agent, its runner reads the "
        f"head ahead (prewarm; waited for), then {turns} turns of a new session; new with "
        f"llm.head_cache_mb = 0: turns 1-2; main's way ({', '.join(f'{k}={v}' for k, v in MAIN.items())}): "
        f"as new otherwise (main fe0c86c's defaults: the whole memory block at turn 1). "
        + (
            f"Every session opens with {OPENER!r} (the questions after it), on LoCoMo the morning "
            f"after the history's last turn; new = {NEW or 'the defaults'}. "
            if OPENER
            else ""
        )
        + f"{PAUSE_S:.0f} s between turns in every condition (the user reads the reply and types; new reads the "
        f"next turn's start then). "
        + (
            "English questions (LoCoMo's own, or everyday lines) alternate with Chinese lines"
            if LANGS not in ("en", "zh")
            else f"Every line in {'English' if LANGS == 'en' else 'Chinese'} (XAID_PERF_TTFT_LANGS={LANGS})"
        )
        + ", one minute apart. "
        f"`timings.first_token_ms` (recall + reading what the KV cache does not hold); read/prompt is "
        f"`usage.prompt_read_tokens` / `usage.prompt_tokens`. Load average (1 min) during the turns ≈ "
        f"{load:.1f} on 2 cores shared with other work: absolute times move, ratios are side by side.",
    )
    return Section(
        "First token at a session's turns: fresh agent and LoCoMo history, new vs main's way, head cache off",
        rows,
        notes,
    )
