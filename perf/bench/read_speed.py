"""How fast the default model reads a prompt on this machine, under the llama.cpp parameters that
could change it (issue 28 item 4: a first token within a second means reading few tokens, or
reading them faster).

Each configuration runs in its own child process (OpenMP reads ``OMP_WAIT_POLICY`` once, when the
library loads), loads the model, warms it with one short prompt and then reads the same
~180-token English and Chinese prompt a few times from an empty cache; the figure is the median of
tokens over the wall time of one `Llama.eval` call. The configurations are interleaved
round by round so that a busy moment of the shared machine falls on all of them, and each is
reported as a ratio against the baseline of the same run (the daemon's parameters before this
measurement).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from ..kit import DEFAULT_MODEL, MODELS, Row, Section, median, progress, ratio

ROUNDS, QUICK_ROUNDS = int(os.environ.get("XAID_PERF_READ_ROUNDS", "4")), 1
READS = 2  # per round and configuration, in one process

PROMPT = (
    "You are Mia, the user's friend and companion, not an assistant: talk like a close friend "
    "texting back, warmly and briefly. Reply in the language the user writes in.\n\n"
    "What you remember: On 3 May the user said the project at work crashed the night before a "
    "demo, and they were exhausted. 5月4日：用户说他们睡得不好，最近压力很大，想周末去爬山放松一下。 "
    "The user's sister Lin is getting married in June; they are looking for a gift she would like. "
    "他们喜欢胶片相机，也喜欢给朋友做饭。The user has a client meeting on Thursday and is nervous "
    "about the budget slides. 他们说周末想去海边游泳，但是天气预报说会下雨。\n\n"
    "Morning. I slept badly again, and the client moved the meeting to tomorrow. 我有点紧张，"
    "你觉得我应该先准备什么？"
)

# name -> (Llama keyword arguments beyond the model and n_ctx, environment)
CONFIGS: dict[str, tuple[dict[str, Any], dict[str, str]]] = {
    "baseline (n_batch 512, n_ubatch 512, f16 KV, PASSIVE)": ({}, {}),
    "flash_attn": ({"flash_attn": True}, {}),
    "flash_attn + q8_0 KV": ({"flash_attn": True, "type_k": 8, "type_v": 8}, {}),
    "n_ubatch 128": ({"n_ubatch": 128}, {}),
    "n_batch 64, n_ubatch 64": ({"n_batch": 64, "n_ubatch": 64}, {}),
    "OMP_WAIT_POLICY=ACTIVE": ({}, {"OMP_WAIT_POLICY": "ACTIVE"}),
    "use_mlock": ({"use_mlock": True}, {}),
}

CHILD = """
import json, os, sys, time
import llama_cpp
from llama_cpp import Llama
path, kwargs, threads = sys.argv[1], json.loads(sys.argv[2]), int(sys.argv[3])
prompt, reads = sys.argv[4], int(sys.argv[5])
llm = Llama(
    model_path=path, n_ctx=2048, n_threads=threads, n_threads_batch=threads, verbose=False, **kwargs
)
tokens = llm.tokenize(prompt.encode())
llm.eval(llm.tokenize(b"Hello there, how are you?"))
rates = []
for _ in range(reads):
    llm.reset()
    llama_cpp.llama_memory_clear(llama_cpp.llama_get_memory(llm.ctx), True)
    start = time.perf_counter()
    llm.eval(tokens)
    rates.append(len(tokens) / (time.perf_counter() - start))
print(json.dumps({"n": len(tokens), "rates": rates, "load": os.getloadavg()[0]}))
"""


def _one(path: str, kwargs: dict[str, Any], env: dict[str, str], threads: int) -> dict[str, Any]:
    child_env = {**os.environ, "OMP_WAIT_POLICY": "PASSIVE", **env}
    out = subprocess.run(
        [sys.executable, "-c", CHILD, path, json.dumps(kwargs), str(threads), PROMPT, str(READS)],
        env=child_env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    if out.returncode != 0:
        raise RuntimeError(f"read speed child failed: {out.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def run(quick: bool) -> Section:
    model = os.environ.get("XAID_PERF_READ_MODEL", DEFAULT_MODEL)
    path = MODELS[model]
    if not path or not Path(path).is_file():
        raise RuntimeError(f"no model file for {model}: set XAID_PERF_GGUF_DIR")
    threads = int(os.environ.get("XAID_PERF_READ_THREADS", "0")) or len(os.sched_getaffinity(0))
    names = list(CONFIGS)
    if only := os.environ.get("XAID_PERF_READ_CONFIGS"):
        names = [n for n in names if any(part in n for part in only.split(","))]
    rates: dict[str, list[float]] = {n: [] for n in names}
    loads: list[float] = []
    n_tokens = 0
    for r in range(QUICK_ROUNDS if quick else ROUNDS):
        for name in names if r % 2 == 0 else names[::-1]:  # no configuration always goes first
            kwargs, env = CONFIGS[name]
            got = _one(path, kwargs, env, threads)
            n_tokens = int(got["n"])
            rates[name] += [float(x) for x in got["rates"]]
            loads.append(float(got["load"]))
            progress(f"read speed round {r + 1} {name}: {got['rates']} tokens/s")
    base = median(rates[names[0]])
    rows = [
        Row(
            f"{model}: prompt read speed, {name}",
            median(rates[name]),
            "tokens/s",
            None,
            ratio(median(rates[name]), base) if i else None,
            "baseline" if i else "",
            note=f"{len(rates[name])} reads of {n_tokens} tokens: "
            + ", ".join(f"{x:.0f}" for x in rates[name]),
        )
        for i, name in enumerate(names)
    ]
    notes = [
        f"llama-cpp-python, {model}, n_ctx 2048, n_threads = n_threads_batch = {threads}; each "
        f"configuration in its own process, {READS} reads of one {n_tokens}-token English/Chinese "
        f"prompt per round from an empty KV cache, configurations interleaved per round, the order "
        f"reversed every other round; "
        f"rate = tokens / wall time of `Llama.eval` (the whole prompt in one call, as a turn "
        f"reads it). Load average (1 min) during the reads ≈ "
        f"{median(loads):.1f} on 2 cores shared with other work: compare the ratios, not the rates."
    ]
    return Section("Prompt read speed of the default model under llama.cpp parameters", rows, notes)
