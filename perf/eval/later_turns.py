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
  length), the strict judge's role rule and the gate's assistant rule on the reply as sent
  (xaid/conversation/assistant.py: "As an AI language model, …"), with the gate's counters at the
  probe (sentences it dropped, retries); what the turn read before its first word
  (``usage.prompt_read_tokens``) and how many memories were new to it.

``XAID_PERF_LATER_SCENES=dev15`` replays perf/scenarios/later_turns_dev15.json instead (session 15:
probes at a session's 2nd-4th turn after one to three ``lead_ins``, matters told twice in other
words, and ``control`` scenes whose message calls up nothing worth raising, judged by
``dragged_in``: the reply names one of the history's ``memory_words``, which a friend would not drag
in). ``XAID_PERF_LATER_SPLIT`` (train, test; default both) replays one half: dev15's ``split``
field; dev14, which has none, by order within each language, the first five train, the last five
test. ``XAID_PERF_LATER_IDS`` (comma-separated scene ids) replays only those, to try a change on a
few train scenes. ``XAID_PERF_LATER_RAW`` names the file every reply is written to.
"""

from __future__ import annotations

import json
import os
import time
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from xaid.conversation.assistant import speaks_as_assistant
from xaid.conversation.voice import SENTENCE_END

from ..kit import SCENARIOS, Row, Section, median, progress, scratch_daemon, wait_model
from .replies import (
    CHECKS,
    at,
    base_ms,
    daemon_env,
    judge,
    mentions,
    models_to_run,
    scene_agent,
)
from .role_judge import speaks_as_user

SCENES = SCENARIOS / "later_turns_dev14.json"
SETS = {"dev14": SCENES, "dev15": SCENARIOS / "later_turns_dev15.json"}
DEV14_TRAIN = 5  # dev14 has no split field: its first five scenes per language are the train half
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
    kind: str = "later"  # "control": the message calls up nothing worth raising
    split: str = ""
    dragged_in: bool = False  # a control's reply names one of the history's memory_words
    lead: str = ""  # the daemon's first words of the probe's reply (explain's "lead"), if any
    recalled: list[str] = field(default_factory=list)  # the probe's hits: "score kind: content"
    assistant: bool = False  # a sentence of the reply speaks as a generic assistant (assistant.py)
    voice: dict[str, int] = field(default_factory=dict)  # the gate's stats counters at the probe


def lead_ins(scene: dict[str, Any]) -> list[dict[str, Any]]:
    """The turns before the probe: dev15's ``lead_ins``, dev14's one ``lead_in``."""
    return list(scene.get("lead_ins") or [scene["lead_in"]])


def split_of(scene: dict[str, Any], index_in_lang: int) -> str:
    return str(scene.get("split") or ("train" if index_in_lang < DEV14_TRAIN else "test"))


def halves(scenes: list[dict[str, Any]], wanted: str) -> list[dict[str, Any]]:
    """The scenes of one half (``wanted`` train or test), each with its ``split`` set; all for ""."""
    seen: Counter[str] = Counter()
    out = []
    for scene in scenes:
        half = split_of(scene, seen[scene["lang"]])
        seen[scene["lang"]] += 1
        if not wanted or half == wanted:
            out.append({**scene, "split": half})
    return out


def run_model(model: str, seed: int, data: dict[str, Any]) -> list[Probe]:
    base, out = base_ms(data), []
    with scratch_daemon(daemon_env(model, seed)) as daemon, daemon.client(timeout=1800.0) as client:
        wait_model(client, 600, 0.05)
        for scene in data["scenes"]:
            name, agent_id = data["names"][scene["lang"]], scene["id"]
            scene_agent(client, scene, agent_id, name, True, base)
            before = lead_ins(scene)
            sid = client.session_open(agent_id, ts=at(base, before[0]))["session_id"]
            lead = {"text": ""}
            for line in before:
                lead = client.session_send(sid, line["text"], ts=at(base, line)).finish()
                time.sleep(PAUSE_S)
            counted = client.stats()["memory"]
            result = client.session_send(
                sid, scene["probe"]["text"], ts=at(base, scene["probe"]), explain=True
            ).finish()
            now = client.stats()["memory"]
            voice = {
                k: int(now[k]) - int(counted.get(k, 0))
                for k in now
                if k.startswith("voice_") and now[k] != counted.get(k, 0)
            }
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
                scene.get("kind", "later"),
                scene.get("split", ""),
                any(mentions(text, w) for w in scene.get("memory_words", ())),
                str(result["context"].get("lead") or ""),
                [
                    f"{h['score']:.3f} {h['kind']}: {h['content'][:80]}"
                    for h in result["context"]["memories"]
                ],
                as_assistant(text, scene["probe"]["text"]),
                voice,
            )
            out.append(probe)
            failed = failures(probe)
            progress(
                f"later_turns {model} seed {seed} {scene['id']} ({probe.kind}, {probe.split}): "
                f"read {probe.read_tokens}/"
                f"{probe.prompt_tokens}, new memories {probe.memories_new}, failed {failed or '-'}: "
                f"{text[:100]!r}"
            )
    return out


def failures(p: Probe) -> list[str]:
    """The checks a probe failed; a control has no matter to pick up, it must not drag one in."""
    failed = [
        k for k, ok in p.checks.items() if not ok and not (k == "picks_up" and p.kind == "control")
    ]
    return failed + ["role"] * p.role + ["dragged_in"] * p.dragged_in + ["assistant"] * p.assistant


def as_assistant(text: str, said: str) -> bool:
    """A sentence of ``text`` speaks as a generic assistant (the gate's own rule, assistant.py)."""
    ends = [m.end() for m in SENTENCE_END.finditer(text)]
    sentences = [text[a:b] for a, b in zip([0, *ends], [*ends, len(text)], strict=True)]
    return any(speaks_as_assistant(s, said) is not None for s in sentences if s.strip())


def section(
    probes: list[Probe], seeds: tuple[int, ...], load: float, scenes_name: str = SCENES.name
) -> Section:
    rows: list[Row] = []
    by: dict[tuple[str, str, str], list[Probe]] = defaultdict(list)
    for p in probes:
        by[(p.model, p.lang, p.split)].append(p)
    for (model, lang, half), everyone in sorted(by.items()):
        tag = f"{model}, {lang}{f', {half}' if half else ''}"
        mine = [p for p in everyone if p.kind != "control"]
        controls = [p for p in everyone if p.kind == "control"]
        n = len(mine)
        if mine:
            ok = sum(p.checks["picks_up"] for p in mine)
            led = sum(bool(p.lead) for p in mine)
            rows.append(
                Row(
                    f"picks_up, {tag}",
                    100 * ok / n,
                    "%",
                    note=f"{ok}/{n}; a daemon's lead in {led}",
                )
            )
        if controls:
            dragged = sum(p.dragged_in for p in controls)
            led = sum(bool(p.lead) for p in controls)
            rows.append(
                Row(
                    f"dragged_in on controls, {tag}",
                    float(dragged),
                    "replies",
                    note=f"of {len(controls)}; a daemon's lead in {led}",
                )
            )
        n = len(everyone)
        for check in ("lang", "length"):
            ok = sum(p.checks[check] for p in everyone)
            rows.append(Row(f"{check}, {tag}", 100 * ok / n, "%", note=f"{ok}/{n}"))
        clean = sum(not failures(p) for p in everyone)
        rows.append(Row(f"every check, {tag}", 100 * clean / n, "%", note=f"{clean}/{n} replies"))
        rows.append(
            Row(
                f"reply length, {tag}",
                median(
                    [float(len(p.text.split()) if lang == "en" else len(p.text)) for p in everyone]
                ),
                "words" if lang == "en" else "chars",
                note="median",
            )
        )
        mine = everyone
        rows.append(Row(f"role breaks, {tag}", float(sum(p.role for p in mine)), "replies"))
        dropped = sum(p.voice.get("voice_assistant", 0) for p in mine)
        rows.append(
            Row(
                f"assistant voice, {tag}",
                float(sum(p.assistant for p in mine)),
                "replies",
                note=f"the reply as sent; sentences the gate dropped as assistant talk: {dropped}, "
                f"retries {sum(p.voice.get('voice_retries', 0) for p in mine)}",
            )
        )
        with_new = [p for p in mine if p.memories_new]
        rows.append(
            Row(
                f"tokens read before the first word at the probe, {tag}",
                median([p.read_tokens for p in mine]),
                "tokens",
                note=f"median of {n}; {len(with_new)} probes recalled memories new to the session, "
                f"median read there {median([p.read_tokens for p in with_new]) if with_new else 0:.0f}; "
                f"first token median {median([p.first_token_ms for p in mine]) / 1000:.1f} s",
            )
        )
    notes = [
        f"Scenes: perf/scenarios/{scenes_name} (perf/eval/later_turns.py docstring), seeds "
        f"{', '.join(map(str, seeds))}, one fresh daemon per model and seed (perf/eval/replies.py's "
        f"settings). Checks per reply: {', '.join(CHECKS)} and the role judge (controls: dragged_in "
        f"instead of picks_up). {PAUSE_S:.0f} s after each lead-in's reply. Load average (1 min) ≈ "
        f"{load:.1f} on 2 cores shared with "
        f"other work: times move with it, tokens read much less (unless the pause did not cover the "
        f"read-ahead).",
    ]
    for p in probes:
        if failed := failures(p):
            notes.append(
                f"{p.model} {p.scene} seed {p.seed} failed {', '.join(failed)}: "
                f"{json.dumps(p.text[:160], ensure_ascii=False)}"
            )
    return Section("Later turns: a session's second reply calling up an older memory", rows, notes)


def run(quick: bool) -> Section:
    chosen = os.environ.get("XAID_PERF_LATER_SCENES", "dev14")
    if chosen not in SETS:
        raise ValueError(f"XAID_PERF_LATER_SCENES={chosen!r}: one of {', '.join(SETS)}")
    data = json.loads(SETS[chosen].read_text(encoding="utf-8"))
    data["scenes"] = halves(data["scenes"], os.environ.get("XAID_PERF_LATER_SPLIT", ""))
    if ids := {
        i.strip() for i in os.environ.get("XAID_PERF_LATER_IDS", "").split(",") if i.strip()
    }:
        data["scenes"] = [
            s for s in data["scenes"] if s["id"] in ids
        ]  # a few scenes, to try a change
    if quick:  # the first two scenes of each language
        data["scenes"] = [
            s for lang in ("en", "zh") for s in [s for s in data["scenes"] if s["lang"] == lang][:2]
        ]
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
    return section(probes, seeds, median(loads) if loads else 0.0, SETS[chosen].name)
