"""Replies: what the user actually reads, judged by rules, per model, language and memory on/off.

Every other area looks at what xaid puts into the prompt; this one looks at what comes out. The
scenes of perf/scenarios/replies.json (English and Chinese: the Morning scene, a follow-up after an
event, a wedding, "what's your name", grief) are replayed through a real daemon on a real socket
with a real llama.cpp model: the history is ingested at its real times and closed with wait=True
(episodes, mood, the scheduler's items), then one probe turn goes in at its own time, in a new
session, once for an agent with memory on and once for its twin with memory off.

A reply is judged by six rules, each a check that passes or fails:
- lang: in the user's language (CJK share of the reply, xaid.text.lang.cjk_share, ≥ 0.5 for Chinese
  scenes, ≤ 0.1 for English ones);
- picks_up: names something a friend would pick up (the scene's keywords; "name" scenes: the
  agent's own name);
- own_name: never calls itself by another name (the names small models were trained with);
- no_detection: does not announce a detected mood ("I sense you're sad", "检测到你情绪低落");
- no_loop: no repeated line and no word 4-gram (Chinese: character 6-gram) three times;
- length: not empty and at most 60 words / 120 characters, and not cut by max_tokens.

``python -m perf replies`` runs every model file present; XAID_PERF_REPLY_MODELS (comma-separated
names of MODELS) narrows it, XAID_PERF_REPLY_SEEDS sets the seeds (default 2, quick 1).

``python -m perf replies_heldout`` (or XAID_PERF_REPLY_SCENES=heldout) replays
perf/scenarios/replies_heldout.json instead: other topics and people, never looked at while the
prompts were tuned on replies.json, so a change that only fits the tuned scenes' wording shows as a
gap between the two sets.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import time
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from xaiclient import Client

from xaid.text.lang import cjk_share

from ..kit import (
    DAY,
    DEFAULT_MODEL,
    HOUR,
    MODELS,
    SCENARIOS,
    Aim,
    Row,
    Section,
    median,
    model_env,
    progress,
    scratch_daemon,
    wait_model,
)
from .role_judge import speaks_as_user

SCENE_SETS = {"tuned": SCENARIOS / "replies.json", "heldout": SCENARIOS / "replies_heldout.json"}
CHECKS = ("lang", "picks_up", "own_name", "no_detection", "no_loop", "length")
PASS_AIM = Aim(">=", 90.0)
OTHER_NAMES = re.compile(
    r"\b(?:qwen|smollm|chatgpt|openai|alibaba|anthropic|claude|llama|hugging ?face|max)\b"
    r"|通义|千问|阿里|助手小|智能助手",
    re.I,
)
DETECTION = re.compile(
    r"\bI (?:can )?(?:sense|detect|notice|can tell|perceive)\b|\bdetect(?:ed|ing)?\b|\byour (?:mood|emotional state)\b"
    r"|\byou (?:seem|sound|appear) (?:to be )?(?:a bit |so |very |really )?"
    r"(?:sad|down|low|upset|stressed|tired|exhausted|anxious|tense|depressed)\b"
    r"|检测到|察觉到|感觉到你|看得出你|看出你|你的情绪|情绪(?:低落|不高|不好)|你(?:似乎|好像)(?:很|有点)?(?:难过|累|低落|紧张|不开心)"
)
MAX_WORDS, MAX_CHARS = 60, 120
VOICE_COUNTERS = ("voice_dropped", "voice_parrot", "voice_retries", "voice_failed")


@dataclass(frozen=True)
class Plan:
    seeds: tuple[int, ...]
    max_scenes: int  # per language


FULL = Plan((1, 2), 5)
QUICK = Plan((1,), 2)


@dataclass
class Judged:
    model: str
    scene: str
    lang: str
    memory: bool
    seed: int
    text: str
    checks: dict[str, bool]
    first_token_ms: float
    tokens_per_s: float
    prompt_tokens: int
    completion_tokens: int
    suggestion: bool = False
    kind: str = ""
    directive: str = ""  # what the model read last, for reading the raw file
    memories: str = ""
    role: bool = (
        False  # speaks as the user, by perf/eval/morning.py's judge (not the daemon's check)
    )
    voice: dict[str, int] = field(default_factory=dict)  # the daemon's voice counters for this turn

    def checks_picks(self) -> bool:
        """Whether picks_up asks for what a friend remembers (not the agent's own name)."""
        return self.kind != "name"


@dataclass
class Tally:
    passed: int = 0
    total: int = 0
    failed: Counter[str] = field(default_factory=Counter)

    def add(self, j: Judged) -> None:
        for name, ok in j.checks.items():
            self.total += 1
            self.passed += ok
            if not ok:
                self.failed[name] += 1

    @property
    def rate(self) -> float:
        return 100 * self.passed / self.total if self.total else 0.0


def scene_set(default: str = "tuned") -> str:
    chosen = os.environ.get("XAID_PERF_REPLY_SCENES", default)
    if chosen not in SCENE_SETS:
        raise ValueError(f"XAID_PERF_REPLY_SCENES={chosen!r}: one of {', '.join(SCENE_SETS)}")
    return chosen


def raw_path(chosen: str) -> Path:
    """Every reply of a run, for reading (the held-out set's file is not meant to be read while tuning)."""
    return Path(os.environ.get("XAID_PERF_REPLY_RAW", f"/tmp/xaid-perf-replies-{chosen}.json"))


def load(chosen: str = "tuned") -> dict[str, Any]:
    return json.loads(SCENE_SETS[chosen].read_text(encoding="utf-8"))


def base_ms(data: dict[str, Any]) -> int:
    d = dt.date.fromisoformat(data["start"])
    return int(dt.datetime(d.year, d.month, d.day, tzinfo=dt.UTC).timestamp() * 1000)


def at(base: int, spec: dict[str, Any]) -> int:
    return base + spec["day"] * DAY + spec["hour"] * HOUR + spec.get("minute", 0) * 60_000


# --- the rules ------------------------------------------------------------------------------------


def mentions(text: str, word: str) -> bool:
    """Chinese words as substrings; Latin words at a word start, case-blind ("exam" in "exams")."""
    if re.search(r"[\u3400-\u9fff]", word):
        return word in text
    return re.search(rf"(?<![a-z]){re.escape(word.lower())}", text.lower()) is not None


def looped(text: str) -> bool:
    lines = [" ".join(line.split()).lower() for line in text.splitlines() if line.strip()]
    if len(lines) != len(set(lines)):
        return True
    words = re.findall(r"[\w']+", text.lower())
    grams = Counter(tuple(words[i : i + 4]) for i in range(len(words) - 3))
    chars = re.sub(r"[^\u3400-\u9fff]", "", text)
    grams_zh = Counter(chars[i : i + 6] for i in range(len(chars) - 5))
    return any(n >= 3 for n in grams.values()) or any(n >= 3 for n in grams_zh.values())


def addresses(text: str, name: str) -> bool:
    """Calls the user by the agent's own name ("Good morning, Mia!", "小雅，你好！"): it lost who is who."""
    greeting = r"(?:hi|hey|hello|good morning|morning|dear|嗨|哈喽|你好|早上好|早安|早)"
    head = text.strip().lower()
    low = re.escape(name.lower())
    return (
        re.match(rf"^\W*(?:{greeting}[\s,，!！~]*{low}(?![a-z])|{low}[\s]*[,，!！])", head)
        is not None
    )


def judge(text: str, lang: str, picks_up: list[str], name: str, finish: str) -> dict[str, bool]:
    share = cjk_share(text)
    words = len(re.findall(r"[A-Za-z']+", text)) + len(re.findall(r"[\u3400-\u9fff]", text)) // 2
    return {
        "lang": share >= 0.5 if lang == "zh" else share <= 0.1,
        "picks_up": mentions(text, name)
        if not picks_up
        else any(mentions(text, w) for w in picks_up),
        "own_name": OTHER_NAMES.search(text) is None and not addresses(text, name),
        "no_detection": DETECTION.search(text) is None,
        "no_loop": not looped(text),
        "length": bool(text.strip())
        and finish != "length"
        and words <= MAX_WORDS
        and len(text) <= MAX_CHARS * 3
        and (lang != "zh" or len(re.findall(r"[\u3400-\u9fff]", text)) <= MAX_CHARS),
    }


# --- replaying the scenes -------------------------------------------------------------------------


def scene_agent(
    client: Client, scene: dict[str, Any], agent_id: str, name: str, memory: bool, base: int
) -> None:
    client.agent_create(agent_id, name=name, config={} if memory else {"memory": False})
    for part in scene["history"]:
        ts = at(base, part)
        sid = client.session_open(agent_id, ts=ts)["session_id"]
        client.session_ingest(
            sid,
            [
                {"role": role, "text": text, "ts": ts + i * 60_000}
                for i, (role, text) in enumerate(part["lines"])
            ],
        )
        client.session_close(sid, ts=_closed(part, base), wait=True)


def _closed(part: dict[str, Any], base: int) -> int:
    """When ``scene_agent`` closes the session of one part of a history: a minute after its last line."""
    return at(base, part) + len(part["lines"]) * 60_000 + 60_000


def history_end(scene: dict[str, Any], base: int) -> int:
    """When ``scene_agent``'s last session closed: the end of the scene's history."""
    return _closed(scene["history"][-1], base)


def daemon_env(model: str, seed: int) -> dict[str, str]:
    """kit.model_env with the sampling XAID_PERF_REPLY_LLM asks for: what every reply-judging area runs."""
    return {**model_env(model, seed), **sampling()}


def run_model(
    model: str, seed: int, scenes: list[dict[str, Any]], names: dict[str, str], base: int
) -> list[Judged]:
    out: list[Judged] = []
    with scratch_daemon(daemon_env(model, seed)) as daemon, daemon.client(timeout=1800.0) as client:
        wait_model(client, 600, 0.05)
        for scene in scenes:
            name = names[scene["lang"]]
            for memory in (True, False) if (seed + len(out)) % 2 == 0 else (False, True):
                agent_id = f"{scene['id']}-{'on' if memory else 'off'}".replace("_", "-")
                scene_agent(client, scene, agent_id, name, memory, base)
                ts = at(base, scene["probe"])
                sid = client.session_open(agent_id, ts=ts)["session_id"]
                counted = client.stats()["memory"]
                started = time.perf_counter()
                result = client.session_send(
                    sid, scene["probe"]["text"], ts=ts, explain=True
                ).finish()
                wall = (time.perf_counter() - started) * 1000
                timings, usage = result["timings"], result["usage"]
                first = float(timings["first_token_ms"] or timings["total_ms"])
                gen_s = max(1e-3, (float(timings["total_ms"]) - first) / 1000)
                tokens = int(usage["completion_tokens"])
                text = result["text"]
                j = Judged(
                    model,
                    scene["id"],
                    scene["lang"],
                    memory,
                    seed,
                    text,
                    judge(text, scene["lang"], scene["picks_up"], name, result["finish_reason"]),
                    first,
                    (tokens - 1) / gen_s if tokens > 1 else 0.0,
                    int(usage["prompt_tokens"]),
                    tokens,
                    bool(result["context"]["suggestion"]),
                    scene.get("kind", ""),
                    result["context"]["directive"],
                    "\n".join(m["text"] for m in result["context"]["memories_new"]),
                    speaks_as_user(text, scene["probe"]["text"], scene["picks_up"]),
                    voice_counted(counted, client.stats()["memory"]),
                )
                out.append(j)
                failed = [k for k, ok in j.checks.items() if not ok]
                progress(
                    f"replies {model} seed {seed} {scene['id']} memory {'on' if memory else 'off'}: "
                    f"{wall / 1000:.1f} s, first token {first / 1000:.1f} s, {j.tokens_per_s:.1f} tok/s, "
                    f"failed {failed or '-'}: {text[:100]!r}"
                )
    return out


def voice_counted(before: dict[str, Any], after: dict[str, Any]) -> dict[str, int]:
    """What the daemon's voice check (xaid/conversation/voice.py) did during one turn."""
    return {k: int(after.get(k, 0)) - int(before.get(k, 0)) for k in VOICE_COUNTERS}


def sampling() -> dict[str, str]:
    """XAID_PERF_REPLY_LLM="repeat_penalty=1.0,temperature=0.5": llm.* keys for the daemons, to compare
    sampling settings on the same scenes."""
    pairs = (
        kv.split("=", 1) for kv in os.environ.get("XAID_PERF_REPLY_LLM", "").split(",") if "=" in kv
    )
    return {f"XAID_LLM_{key.strip().upper()}": value.strip() for key, value in pairs}


def _pick(scenes: list[dict[str, Any]], per_lang: int) -> list[dict[str, Any]]:
    counts: Counter[str] = Counter()
    picked = []
    for s in scenes:
        if counts[s["lang"]] < per_lang:
            picked.append(s)
            counts[s["lang"]] += 1
    return picked


def models_to_run(var: str = "XAID_PERF_REPLY_MODELS", default: tuple[str, ...] = ()) -> list[str]:
    """The MODELS names ``var`` lists (comma-separated), else ``default``, else every one; those
    whose file is here ("" is the embedded SmolLM2)."""
    wanted = [m.strip() for m in os.environ.get(var, "").split(",") if m.strip()]
    names = wanted or list(default) or list(MODELS)
    return [m for m in names if m in MODELS and (not MODELS[m] or Path(MODELS[m]).is_file())]


def section(
    judged: list[Judged], plan: Plan, seeds: tuple[int, ...], load: float, chosen: str = "tuned"
) -> Section:
    rows: list[Row] = []
    by: dict[tuple[str, str, bool], Tally] = defaultdict(Tally)
    for j in judged:
        by[(j.model, j.lang, j.memory)].add(j)
    models = list(dict.fromkeys(j.model for j in judged))
    for model in models:
        for lang in ("en", "zh"):
            on, off = by.get((model, lang, True)), by.get((model, lang, False))
            if on is None:
                continue
            failed = ", ".join(f"{k} {n}" for k, n in on.failed.most_common()) or "none"
            rows.append(
                Row(
                    f"reply checks passed, {model}, {lang}, memory on",
                    on.rate,
                    "%",
                    PASS_AIM if model == DEFAULT_MODEL else None,
                    ratio=on.rate / off.rate if off and off.rate else None,
                    baseline="memory off",
                    note=f"{on.passed}/{on.total}; failed: {failed}",
                )
            )
            whole = [j for j in judged if (j.model, j.lang, j.memory) == (model, lang, True)]
            clean = sum(all(j.checks.values()) for j in whole)
            rows.append(
                Row(
                    f"replies passing every check, {model}, {lang}, memory on",
                    100 * clean / len(whole),
                    "%",
                    note=f"{clean}/{len(whole)} replies",
                )
            )
            dropped: Counter[str] = Counter()
            for j in whole:
                dropped.update(j.voice)
            rows.append(
                Row(
                    f"role breaks read, {model}, {lang}, memory on",
                    float(sum(j.role for j in whole)),
                    "replies",
                    note=f"of {len(whole)} (perf/eval/morning.py's judge); the daemon's voice check "
                    f"dropped {dropped['voice_dropped']} sentences (parrot {dropped['voice_parrot']}), "
                    f"retried {dropped['voice_retries']}, kept after a second break "
                    f"{dropped['voice_failed']}",
                )
            )
            if off is not None:
                failed = ", ".join(f"{k} {n}" for k, n in off.failed.most_common()) or "none"
                rows.append(
                    Row(
                        f"reply checks passed, {model}, {lang}, memory off",
                        off.rate,
                        "%",
                        note=f"{off.passed}/{off.total}; failed: {failed}",
                    )
                )
        for memory in (True, False):
            mine = [j for j in judged if j.model == model and j.memory == memory]
            if not mine:
                continue
            tag = "on" if memory else "off"
            ttft = median([j.first_token_ms / 1000 for j in mine])
            rows.append(
                Row(
                    f"first token, {model}, memory {tag}",
                    ttft,
                    "s",
                    note=f"median of {len(mine)} probes; prompt median "
                    f"{median([j.prompt_tokens for j in mine]):.0f} tokens",
                )
            )
            rows.append(
                Row(
                    f"generation, {model}, memory {tag}",
                    median([j.tokens_per_s for j in mine]),
                    "tok/s",
                    note=f"median; reply median {median([j.completion_tokens for j in mine]):.0f} tokens",
                )
            )
    notes = [
        f"Scenes: perf/scenarios/{SCENE_SETS[chosen].name} ({len({j.scene for j in judged})} scenes, English and "
        f"Chinese), each replayed for an agent with memory on and a twin with agent config "
        f'{{"memory": false}}, seeds '
        f"{', '.join(map(str, seeds))} (llm.seed; temperature and max_tokens at their defaults), one fresh daemon "
        f"per model and seed, llama_cpp with OMP_WAIT_POLICY=PASSIVE and llm.n_threads at its default. History "
        f"ingested at its real times and closed with wait=True; the probe goes into a new session at its own time. "
        f"Checks per reply: {', '.join(CHECKS)} (perf/eval/replies.py docstring). "
        f"A row's figure is the share of checks "
        f"passed over all its replies; the ratio compares memory on with memory off. 'first token' is "
        f"timings.first_token_ms, which includes recall and reading the whole prompt (a new session's head is not "
        f"in the KV cache); tok/s is (completion tokens − 1) / (total − first token). Load average (1 min) during "
        f"the run ≈ {load:.1f} on a machine shared with other work.",
    ]
    for model in models:
        mine = [j for j in judged if j.model == model and j.memory and j.checks_picks()]
        with_s = [j for j in mine if j.suggestion]
        without = [j for j in mine if not j.suggestion]
        notes.append(
            f"{model}, memory on, picks_up: {sum(j.checks['picks_up'] for j in with_s)}/{len(with_s)} "
            f"replies with a suggestion in the directive, {sum(j.checks['picks_up'] for j in without)}/"
            f"{len(without)} with memories alone (the name scenes left out)"
        )
    for j in judged:
        # Which held-out scene failed (and its reply) stays out of RESULTS.md, as in morning.py.
        if chosen != "heldout" and not all(j.checks.values()) and j.memory:
            failed = ", ".join(k for k, ok in j.checks.items() if not ok)
            notes.append(
                f"{j.model} {j.scene} seed {j.seed} (memory on, suggestion {'yes' if j.suggestion else 'no'})"
                f" failed {failed}: {json.dumps(j.text[:160], ensure_ascii=False)}"
            )
    title = "Replies: what the user reads, judged by rules"
    return Section(title if chosen == "tuned" else f"{title} (held-out scenes)", rows, notes)


def run(quick: bool, default_set: str = "tuned") -> Section:
    plan = QUICK if quick else FULL
    seeds = (
        tuple(int(s) for s in os.environ.get("XAID_PERF_REPLY_SEEDS", "").split(",") if s.strip())
        or plan.seeds
    )
    chosen = scene_set(default_set)
    data = load(chosen)
    scenes = _pick(data["scenes"], plan.max_scenes)
    base = base_ms(data)
    judged: list[Judged] = []
    loads: list[float] = []
    for model in models_to_run():
        for seed in seeds:
            progress(f"replies: {model}, seed {seed}, {len(scenes)} scenes × memory on/off")
            judged += run_model(model, seed, scenes, data["names"], base)
            loads.append(os.getloadavg()[0])
    raw_path(chosen).write_text(
        json.dumps([asdict(j) for j in judged], ensure_ascii=False, indent=1), encoding="utf-8"
    )
    return section(judged, plan, seeds, median(loads), chosen)
