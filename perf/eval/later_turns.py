"""Later turns: the reply at a session's second turn, when the message calls up an older memory.

perf/eval/replies.py judges a session's first reply; most of a conversation is later turns, and a
later turn is where a message calls up memories new to the session: they and the turn's directive
stand together right before the message, and everything of them is read before the first word.
Where they stand (the directive before the memories, so that the directive read ahead after the
previous reply still holds: docs/memory.md "The prompt, in KV-cache order") changes what the model
reads and what the user waits for; this area measures both on the same scenes:

- the scenes of perf/scenarios/later_turns_dev14.json (10 per language): history on day 0; days
  later a new session opens with an unrelated line (``lead_in``), then ``probe``, three minutes
  later in the same session, whose reply a friend would make with the history's memory;
- a real daemon on a real socket with a real llama.cpp model (XAID_PERF_LATER_MODELS, default the
  1.5B; XAID_PERF_LATER_SEEDS, default 1), the history ingested at its real times and consolidated;
  ``XAID_PERF_LATER_PAUSE_S`` (8 s) between the two turns, the time a user reads and types, in
  which the runner reads the next turn's start ahead;
- the probe's reply judged by replies.py's rules (lang, picks_up, own_name, no_detection, no_loop,
  length) and the strict judge's role rule; what the turn read before its first word
  (``usage.prompt_read_tokens``) and how many memories were new to it.
"""

from __future__ import annotations

import json
import os
import time
from collections import defaultdict
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ..kit import SCENARIOS, Row, Section, median, progress, scratch_daemon, wait_model
from .replies import CHECKS, at, base_ms, daemon_env, judge, models_to_run, scene_agent
from .role_judge import speaks_as_user

SCENES = SCENARIOS / "later_turns_dev14.json"
PAUSE_S = float(os.environ.get("XAID_PERF_LATER_PAUSE_S", "8"))


@dataclass
class Probe:
    model: str
    scene: str
    lang: str
    seed: int
    lead_reply: str
    text: str
    checks: dict[str, bool]
    role: bool  # speaks as the user, by perf/eval/role_judge.py
    read_tokens: int  # read before the first word (the provider's count), of prompt_tokens
    prompt_tokens: int
    memories_new: int  # memories new to the session at the probe
    first_token_ms: float
    directive: str


def run_model(model: str, seed: int, data: dict[str, Any]) -> list[Probe]:
    base, out = base_ms(data), []
    with scratch_daemon(daemon_env(model, seed)) as daemon, daemon.client(timeout=1800.0) as client:
        wait_model(client, 600, 0.05)
        for scene in data["scenes"]:
            name, agent_id = data["names"][scene["lang"]], scene["id"]
            scene_agent(client, scene, agent_id, name, True, base)
            sid = client.session_open(agent_id, ts=at(base, scene["lead_in"]))["session_id"]
            lead = client.session_send(
                sid, scene["lead_in"]["text"], ts=at(base, scene["lead_in"])
            ).finish()
            time.sleep(PAUSE_S)
            result = client.session_send(
                sid, scene["probe"]["text"], ts=at(base, scene["probe"]), explain=True
            ).finish()
            text, usage = result["text"], result["usage"]
            probe = Probe(
                model,
                scene["id"],
                scene["lang"],
                seed,
                lead["text"],
                text,
                judge(text, scene["lang"], scene["picks_up"], name, result["finish_reason"]),
                speaks_as_user(text, scene["probe"]["text"], scene["picks_up"]),
                int(usage.get("prompt_read_tokens") or usage["prompt_tokens"]),
                int(usage["prompt_tokens"]),
                len(result["context"]["memories_new"]),
                float(result["timings"]["first_token_ms"] or result["timings"]["total_ms"]),
                result["context"]["directive"],
            )
            out.append(probe)
            failed = [k for k, ok in probe.checks.items() if not ok] + ["role"] * probe.role
            progress(
                f"later_turns {model} seed {seed} {scene['id']}: read {probe.read_tokens}/"
                f"{probe.prompt_tokens}, new memories {probe.memories_new}, failed {failed or '-'}: "
                f"{text[:100]!r}"
            )
    return out


def section(probes: list[Probe], seeds: tuple[int, ...], load: float) -> Section:
    rows: list[Row] = []
    by: dict[tuple[str, str], list[Probe]] = defaultdict(list)
    for p in probes:
        by[(p.model, p.lang)].append(p)
    for (model, lang), mine in by.items():
        n = len(mine)
        for check in ("picks_up", "lang", "length"):
            ok = sum(p.checks[check] for p in mine)
            rows.append(Row(f"{check}, {model}, {lang}", 100 * ok / n, "%", note=f"{ok}/{n}"))
        clean = sum(all(p.checks.values()) and not p.role for p in mine)
        rows.append(
            Row(f"every check, {model}, {lang}", 100 * clean / n, "%", note=f"{clean}/{n} replies")
        )
        rows.append(
            Row(f"role breaks, {model}, {lang}", float(sum(p.role for p in mine)), "replies")
        )
        with_new = [p for p in mine if p.memories_new]
        rows.append(
            Row(
                f"tokens read before the first word at the probe, {model}, {lang}",
                median([p.read_tokens for p in mine]),
                "tokens",
                note=f"median of {n}; {len(with_new)} probes recalled memories new to the session, "
                f"median read there {median([p.read_tokens for p in with_new]) if with_new else 0:.0f}; "
                f"first token median {median([p.first_token_ms for p in mine]) / 1000:.1f} s",
            )
        )
    notes = [
        f"Scenes: perf/scenarios/{SCENES.name} (perf/eval/later_turns.py docstring), seeds "
        f"{', '.join(map(str, seeds))}, one fresh daemon per model and seed (perf/eval/replies.py's "
        f"settings). Checks per reply: {', '.join(CHECKS)} and the role judge. {PAUSE_S:.0f} s between "
        f"the lead-in's reply and the probe. Load average (1 min) ≈ {load:.1f} on 2 cores shared with "
        f"other work: times move with it, tokens read much less (unless the pause did not cover the "
        f"read-ahead).",
    ]
    for p in probes:
        if not all(p.checks.values()) or p.role:
            failed = [k for k, ok in p.checks.items() if not ok] + ["role"] * p.role
            notes.append(
                f"{p.model} {p.scene} seed {p.seed} failed {', '.join(failed)}: "
                f"{json.dumps(p.text[:160], ensure_ascii=False)}"
            )
    return Section("Later turns: a session's second reply calling up an older memory", rows, notes)


def run(quick: bool) -> Section:
    data = json.loads(SCENES.read_text(encoding="utf-8"))
    if quick:
        data["scenes"] = data["scenes"][:2] + data["scenes"][10:12]
    seeds = tuple(
        int(s) for s in os.environ.get("XAID_PERF_LATER_SEEDS", "1").split(",") if s.strip()
    )
    probes: list[Probe] = []
    loads: list[float] = []
    for model in models_to_run("XAID_PERF_LATER_MODELS", ("qwen2.5-1.5b",)):
        for seed in seeds:
            progress(f"later_turns: {model}, seed {seed}, {len(data['scenes'])} scenes")
            probes += run_model(model, seed, data)
            loads.append(os.getloadavg()[0])
    raw = Path(os.environ.get("XAID_PERF_LATER_RAW", "/tmp/xaid-perf-later-turns.json"))
    raw.write_text(json.dumps([asdict(p) for p in probes], ensure_ascii=False, indent=1), "utf-8")
    return section(probes, seeds, median(loads) if loads else 0.0)
