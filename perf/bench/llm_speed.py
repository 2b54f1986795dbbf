"""The default model's speed on this machine: a session's turn after another session's (with and
without the per-session state cache), and OpenMP's wait policy on a busy machine.

Each condition runs in a child process of its own (``python -m perf.bench.llm_speed --child NAME``),
because OpenMP reads OMP_WAIT_POLICY once, when llama.cpp loads, and so that no condition inherits
another's KV cache. The children drive ``LlamaCppProvider`` directly, the daemon's own provider:
what is measured is the model's part of a turn, not memory recall or the socket.

The model is the catalogued one ``llm.model`` names (default qwen2.5-coder-1.5b), found as the
daemon would find it (``xaid --prepare-model`` first, or ``XAID_PERF_MODEL_PATH`` for any GGUF).
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
import threading
import time
from statistics import median
from typing import Any

from ..kit import Aim, Row, Section

SYSTEM_A = (
    "You are Mia, a warm and curious companion. Keep replies short, in the user's language. "
    "What you remember about the user: they work as a nurse on night shifts at the city hospital; "
    "their sister Lena is getting married in June and they are giving a speech; they started running "
    "again last month, three times a week along the canal; their cat Pepper had a vet visit on Tuesday "
    "and is fine; they felt exhausted yesterday after a double shift and said the ward was understaffed; "
    "they are learning to bake sourdough and the last loaf came out flat; they want to visit Lisbon in "
    "autumn with two friends from school. " * 3
)
SYSTEM_B = (
    "你是小林，一个温和、细心的朋友。回答要简短，用用户的语言。"
    "你记得的关于用户的事：他在一家设计公司做平面设计，最近项目很多，经常加班到深夜；"
    "他的外婆上个月住院了，现在已经出院在家休养；他周末喜欢去爬山，上次爬了香山；"
    "他正在准备下个月的英语考试，每天早上背单词；他养了一只叫豆豆的柯基；"
    "他说最近睡得不好，常常凌晨两点才睡着；他打算春节回老家成都过年。" * 3
)
TURNS_A = ("Morning. I slept badly again.", "Any idea how to start the speech for Lena?")
TURNS_B = ("早。今天又要加班。", "周末想去爬山，你觉得去哪里好？")
GEN_TOKENS = 32


def _model_path() -> str:
    if path := os.environ.get("XAID_PERF_MODEL_PATH"):
        return path
    from xaid import catalogue as models
    from xaid import config as config_mod
    from xaid.paths import state_dir
    from xaid.providers import model_files

    cfg = config_mod.load()
    return str(
        model_files.prepare(
            models.get(cfg.llm.model),
            state_dir(cfg) / "models",
            lambda line: print(line, file=sys.stderr),
        )
    )


def _provider(cache_mb: int) -> Any:
    from xaid.config import LLMConfig
    from xaid.providers.llama_cpp import LlamaCppProvider

    cfg = dataclasses.replace(
        LLMConfig(),
        model_path=_model_path(),
        n_ctx=4096,
        n_threads=0,
        seed=5,
        state_cache_mb=cache_mb,
    )
    provider = LlamaCppProvider(cfg)
    provider.load()
    return provider


def timed_turn(
    provider: Any, session: str, system: str, said: list[str], max_tokens: int
) -> dict[str, Any]:
    """One turn of ``session`` on ``provider`` (in-process or the runner), the reply appended to
    ``said``: its first token, generation speed and prompt read, as this area and llm_runner use."""
    from xaid.providers.base import ChatMessage, GenerateRequest

    messages = [ChatMessage("system", system)]
    messages += [
        ChatMessage("user" if i % 2 == 0 else "assistant", text) for i, text in enumerate(said)
    ]
    stamps: list[float] = []
    start = time.perf_counter()
    out = provider.generate(
        GenerateRequest(tuple(messages), max_tokens=max_tokens, temperature=0.0, session=session),
        lambda _piece: stamps.append(time.perf_counter()),
        threading.Event(),
    )
    said.append(out.text)
    gen = (
        (len(stamps) - 1) / (stamps[-1] - stamps[0])
        if len(stamps) >= 2 and stamps[-1] > stamps[0]
        else 0.0
    )
    return {
        "first_token_ms": (stamps[0] - start) * 1000 if stamps else 0.0,
        "generation_tps": gen,
        "prompt_tokens": out.prompt_tokens,
        "read_tokens": out.prompt_eval_tokens or 0,
        "read_ms": out.prompt_eval_ms or 0.0,
        "pieces": len(stamps),
    }


def child_sessions(cache_mb: int) -> dict[str, Any]:
    """A and B alternate, two turns each; the measured turns are the second ones (A after B, B after A)."""
    provider = _provider(cache_mb)
    a: list[str] = []
    b: list[str] = []
    a.append(TURNS_A[0])
    first_a = timed_turn(provider, "a", SYSTEM_A, a, 8)
    b.append(TURNS_B[0])
    first_b = timed_turn(provider, "b", SYSTEM_B, b, 8)
    a.append(TURNS_A[1])
    second_a = timed_turn(provider, "a", SYSTEM_A, a, GEN_TOKENS)
    b.append(TURNS_B[1])
    second_b = timed_turn(provider, "b", SYSTEM_B, b, GEN_TOKENS)
    states = provider.states
    size = max((len(s.data) for s in states.saved.values()), default=0)
    tokens = max((len(s.tokens) for s in states.saved.values()), default=0)
    save_ms = restore_ms = 0.0
    if (
        cache_mb
    ):  # the cost of one hand-over, timed alone: copy the live session out, another back in
        t0 = time.perf_counter()
        states.switch(provider._llm, "a")
        t1 = time.perf_counter()
        save_ms = restore_ms = (t1 - t0) * 1000 / 2
    provider.close()
    return {
        "first": [first_a, first_b],
        "second": [second_a, second_b],
        "state_bytes": size,
        "state_tokens": tokens,
        "switch_ms": save_ms + restore_ms,
        "cache": states.describe(),
    }


def child_generation(default_policy: bool) -> dict[str, Any]:
    """One prompt, then GEN_TOKENS generated: what the wait policy changes is the generation loop.

    For the default policy llama.cpp is imported before the provider can set PASSIVE (OpenMP reads
    the variable when the library loads, so setting it afterwards changes nothing)."""
    if default_policy:
        assert "OMP_WAIT_POLICY" not in os.environ
        import llama_cpp  # noqa: F401
    provider = _provider(0)
    said = [TURNS_A[0]]
    timed_turn(provider, "warm", SYSTEM_A, said, 4)
    said.append(TURNS_A[1])
    result = timed_turn(provider, "warm", SYSTEM_A, said, GEN_TOKENS)
    provider.close()
    return result


def _spawn(kind: str, env: dict[str, str]) -> dict[str, Any]:
    proc = subprocess.run(
        [sys.executable, "-m", "perf.bench.llm_speed", "--child", kind],
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"perf.bench.llm_speed child {kind} failed:\n{proc.stderr[-2000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _hog() -> subprocess.Popen[bytes]:
    """One busy Python loop: another program using a core, as on a shared or busy device."""
    return subprocess.Popen([sys.executable, "-c", "while True: pass"])


def run(quick: bool) -> Section:
    base = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    passive = {**base, "OMP_WAIT_POLICY": "PASSIVE"}
    sessions = {"on": _spawn("sessions-128", passive), "off": _spawn("sessions-0", passive)}
    rounds = 1 if quick else 2
    policy: dict[str, list[dict[str, Any]]] = {"PASSIVE": [], "default": []}
    load = []
    for rnd in range(rounds):
        order = ["default", "PASSIVE"] if rnd % 2 == 0 else ["PASSIVE", "default"]
        for name in order:
            hog = _hog()
            try:
                time.sleep(0.5)
                load.append(os.getloadavg()[0])
                kind = "generation-passive" if name == "PASSIVE" else "generation-default"
                policy[name].append(_spawn(kind, passive if name == "PASSIVE" else base))
            finally:
                hog.kill()
                hog.wait()
    rows: list[Row] = []
    on, off = sessions["on"]["second"], sessions["off"]["second"]
    for i, who in enumerate(("A (English) after B", "B (Chinese) after A")):
        rows.append(
            Row(
                f"first token, session {who}, state cache on",
                on[i]["first_token_ms"],
                "ms",
                ratio=on[i]["first_token_ms"] / off[i]["first_token_ms"],
                baseline="cache off",
                note=f"read {on[i]['read_tokens']} of {on[i]['prompt_tokens']} prompt tokens",
            )
        )
        rows.append(
            Row(
                f"first token, session {who}, state cache off",
                off[i]["first_token_ms"],
                "ms",
                note=f"read {off[i]['read_tokens']} of {off[i]['prompt_tokens']} prompt tokens",
            )
        )
    reads = [
        t for s in sessions.values() for t in (*s["first"], *s["second"]) if t["read_tokens"] >= 64
    ]
    if reads:
        rows.append(
            Row(
                "prompt reading",
                median(t["read_tokens"] / (t["read_ms"] / 1000) for t in reads),
                "tok/s",
                note=f"median of {len(reads)} reads of ≥ 64 tokens, llama.cpp's own timer",
            )
        )
    gen = [t["generation_tps"] for s in sessions.values() for t in s["second"]]
    rows.append(
        Row(
            "generation, machine as it is",
            median(gen),
            "tok/s",
            aim=Aim(">=", 6.0),
            note=f"{GEN_TOKENS} tokens, greedy; median of {len(gen)} turns; OMP_WAIT_POLICY=PASSIVE; "
            "the aim is for an idle machine, this one was not",
        )
    )
    p = median(r["generation_tps"] for r in policy["PASSIVE"])
    d = median(r["generation_tps"] for r in policy["default"])
    rows.append(
        Row(
            "generation, one core busy, OMP_WAIT_POLICY=PASSIVE",
            p,
            "tok/s",
            ratio=p / d if d else None,
            baseline="default policy",
            note=f"median of {rounds} run(s); first token "
            f"{median(r['first_token_ms'] for r in policy['PASSIVE']):.0f} ms",
        )
    )
    rows.append(
        Row(
            "generation, one core busy, default wait policy",
            d,
            "tok/s",
            note=f"first token {median(r['first_token_ms'] for r in policy['default']):.0f} ms",
        )
    )
    st = sessions["on"]
    rows.append(
        Row(
            "state of one session, saved",
            st["state_bytes"] / 2**20,
            "MiB",
            note=f"{st['state_tokens']} tokens: {st['state_bytes'] / max(1, st['state_tokens']) / 1024:.0f} "
            f"KiB per token; one hand-over (save the live session, restore another) "
            f"{st['switch_ms']:.0f} ms",
        )
    )
    notes = [
        "The model: qwen2.5-coder-1.5b (Q4_K_M, the default llm.model) unless XAID_PERF_MODEL_PATH names "
        "another; n_ctx 4096, llm.n_threads = 0 (the usable cores), greedy sampling, one child process per "
        "condition. Sessions: A (English) and B (Chinese), each a system prompt of persona and "
        "memories (its whole prompt is the N of the rows); A, B, A, B: the measured turns are the second "
        "ones, each following the other session's "
        "turn. 'state cache on' is llm.state_cache_mb = 128, 'off' is 0 (what xaid did before: llama.cpp "
        "kept only the prefix both sessions share).",
        f"Wait policy: a busy Python loop holds one of the cores while the model generates; load average "
        f"then ≈ {median(load):.1f}, with other work on the machine too. The PyPI llama.cpp build uses OpenMP, "
        "whose threads spin while they wait for each other; PASSIVE makes them sleep.",
    ]
    return Section(
        "LLM speed: the default model, sessions taking turns, a busy machine", rows, notes
    )


def _child(kind: str) -> None:
    if kind.startswith("sessions-"):
        result = child_sessions(int(kind.split("-", 1)[1]))
    elif kind.startswith("generation-"):
        result = child_generation(kind == "generation-default")
    else:
        raise SystemExit(f"unknown child {kind}")
    print(json.dumps(result))


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--child":
        _child(sys.argv[2])
    else:
        from ..kit import render

        print("\n".join(render({"llm": run("--quick" in sys.argv)}).splitlines()))
