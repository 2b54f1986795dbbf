"""First token across one session's turns 1-20, memory on vs off, on a real model file.

perf.bench.memory measures the same on the embedded SmolLM2; this area runs the model a user gets
(default: the Qwen2.5-Coder-1.5B file, XAID_PERF_TTFT_MODEL to choose one of perf.kit.MODELS),
where every re-read of the whole prompt costs tens of seconds, so a turn whose prompt does not
extend the previous one shows at once. It reports, per condition, turn 1, turn 20, the median of
turns 2-20, and the turns at which the head (system prompt) or the Earlier chunks in the prompt
changed (with the layout of xaid.conversation.prompt: never, until the context is full).
"""

from __future__ import annotations

import os
import time
from typing import Any

from ..kit import (
    DAY,
    DEFAULT_MODEL,
    HOUR,
    MINUTE,
    MODELS,
    Aim,
    Row,
    Section,
    median,
    progress,
    ratio,
    scratch_daemon,
    wait_model,
)
from .memory import QUERY_TEMPLATES, Speaker, history

TURNS, QUICK_TURNS = 20, 5
HISTORY_SESSIONS = 6
TTFT_AIM = Aim("<=", 1500.0)  # ms at turn 20 with memory on (issue 13)
RATIO_AIM = 1.2


def _run(model: str, config: dict[str, Any], turns: int, now: int) -> dict[str, list[Any]]:
    env = {
        "XAID_LLM_PROVIDER": "llama_cpp",
        "XAID_LLM_MODEL_PATH": MODELS[model],
        "XAID_LLM_MODEL": "smollm2-135m",  # what an empty model_path means here (model_path wins)
        "OMP_WAIT_POLICY": os.environ.get("OMP_WAIT_POLICY", "PASSIVE"),
    }
    with scratch_daemon(env) as daemon, daemon.client(timeout=1800.0) as client:
        wait_model(client, 600, 0.05)
        client.agent_create("ttft", name="Mia", config=config)
        history(client, "ttft", Speaker(61), HISTORY_SESSIONS, now - DAY, 7 * DAY, "mixed", 4)
        sid = client.session_open("ttft", ts=now)["session_id"]
        asker = Speaker(67)
        out: dict[str, list[Any]] = {
            "ttft": [],
            "prompt": [],
            "heads": [],
            "earlier": [],
            "load": [],
        }
        for i in range(turns):
            result = client.session_send(
                sid, asker.pick(QUERY_TEMPLATES), ts=now + i * MINUTE, explain=True
            ).finish()
            out["ttft"].append(
                float(result["timings"]["first_token_ms"] or result["timings"]["total_ms"])
            )
            out["prompt"].append(int(result["usage"]["prompt_tokens"]))
            out["heads"].append(result["context"]["system_prompt"])
            out["earlier"].append(len(result["context"]["earlier"]))
            out["load"].append(os.getloadavg()[0])
            progress(
                f"session ttft {model} memory {'off' if config.get('memory') is False else 'on'} turn {i + 1}: "
                f"{out['ttft'][-1]:.0f} ms, prompt {out['prompt'][-1]} tokens"
            )
        return out


def run(quick: bool) -> Section:
    model = os.environ.get("XAID_PERF_TTFT_MODEL", DEFAULT_MODEL)
    turns = QUICK_TURNS if quick else TURNS
    now = (int(time.time() * 1000) // DAY) * DAY + 9 * HOUR
    configs = {"on": {"max_tokens": 4}, "off": {"max_tokens": 4, "memory": False}}
    runs = {key: _run(model, cfg, turns, now) for key, cfg in configs.items()}
    rows: list[Row] = []
    for turn in (1, turns):
        on, off = runs["on"]["ttft"][turn - 1], runs["off"]["ttft"][turn - 1]
        rows.append(
            Row(
                f"first token at turn {turn}, {model}, memory on",
                on,
                "ms",
                TTFT_AIM if turn == turns and not quick else None,
                ratio(on, off),
                "memory off",
                note=f"prompt {runs['on']['prompt'][turn - 1]} tokens",
            )
        )
        rows.append(
            Row(
                f"first token at turn {turn}, {model}, memory off",
                off,
                "ms",
                note=f"prompt {runs['off']['prompt'][turn - 1]} tokens",
            )
        )
    mid_on, mid_off = median(runs["on"]["ttft"][1:]), median(runs["off"]["ttft"][1:])
    rows.append(
        Row(
            f"first token p50 over turns 2–{turns}, {model}, memory on",
            mid_on,
            "ms",
            Aim("<=", RATIO_AIM * mid_off) if mid_off else None,
            ratio(mid_on, mid_off),
            "memory off",
            note="aim: ×1.2 of memory off; per turn, on: "
            + ", ".join(f"{v:.0f}" for v in runs["on"]["ttft"])
            + "; off: "
            + ", ".join(f"{v:.0f}" for v in runs["off"]["ttft"]),
        )
    )
    changed = {
        k: [i + 1 for i in range(1, turns) if r["heads"][i] != r["heads"][i - 1]]
        for k, r in runs.items()
    }
    folded = {
        k: [i + 1 for i in range(1, turns) if r["earlier"][i] != r["earlier"][i - 1]]
        for k, r in runs.items()
    }
    load = median([x for r in runs.values() for x in r["load"]])
    notes = [
        f"One fresh daemon per condition (llama_cpp, llm.model_path = the {model} file, OMP_WAIT_POLICY=PASSIVE, "
        f'llm.n_threads at its default), agent config {{"max_tokens": 4}} or {{"max_tokens": 4, "memory": '
        f"false}}, {HISTORY_SESSIONS} earlier sessions ingested and closed with wait=True, then {turns} turns in one "
        f"session, one minute apart; `timings.first_token_ms` (recall + reading what the KV cache does not hold). "
        f"The head changed at turns {changed['on'] or 'none'} (memory on) and {changed['off'] or 'none'} (memory "
        f"off); the Earlier chunks in the prompt changed at turns {folded['on'] or 'none'} / "
        f"{folded['off'] or 'none'}. Load average (1 min) during the turns ≈ {load:.1f} on a machine shared with "
        f"other work, so absolute times move; the ratio is measured side by side.",
    ]
    return Section(f"First token across a session on {model}, memory on vs off", rows, notes)
