"""``python -m perf voice_live``: the voice check on a real model's replies, through a real daemon.

`make demo`'s 1.5B answered "只想睡觉。明天还得跟经理讲清楚修复方案。" with "只想睡觉，明天还得跟领导说清
楚修复方案，真是辛苦了！" (issue 25). This area sends the user messages of perf/scenarios/voice_dev.json
(21 per language, many kinds: tired, proud, worried, mixed language, typos) and the demo's evening
(two turns, the second judged) to a fresh agent each, persona and reply length as `make demo` sets
them, on a llama.cpp model, and counts what the daemon's voice check did (``stats``: sentences
dropped, of them parrots, retries, replies kept after a second break) and what the user read.

What the user read is also judged by a rule of its own, independent of the check: **verbatim**, a
run of at least ``RUN_ZH`` Han characters (``RUN_EN`` words) of the user's message in one sentence
of the reply that does not say "你说"/"you said". It misses a parrot that swapped every third word
and counts a friend's long quote; it is there so that the check is not judged by itself. The
replies are written to ``XAID_PERF_VOICE_RAW`` (default /tmp/xaid-perf-voice-live.json) to be read.

XAID_PERF_VOICE_MODELS (default the 1.5B) narrows the models; XAID_PERF_VOICE_CHECK=off runs the
daemon without the check (the model's own words, for labelling); XAID_PERF_VOICE_SEEDS (default 1).
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from dataclasses import asdict, dataclass
from difflib import SequenceMatcher
from pathlib import Path

from xaiclient import Client

from ..kit import (
    DEFAULT_MODEL,
    MODELS,
    Row,
    Section,
    load_scenario,
    progress,
    scratch_daemon,
    wait_model,
)

PERSONA = {
    "en": ("Mia", "Warm, curious, and brief. Speaks English."),
    "zh": ("小梅", "温暖、好奇、说话简短。用中文回答。"),
}
DEMO = {  # client/xaiclient/cli_demo.py's evening lines
    "en": (
        "Home at last. I'm exhausted: the release slipped again and I was on calls until nine.",
        "I just want to sleep. Tomorrow I have to walk my manager through the fix.",
    ),
    "zh": (
        "终于到家了。我筋疲力尽：版本又延期了，电话会一直开到九点。",
        "只想睡觉。明天还得跟经理讲清楚修复方案。",
    ),
}
COUNTERS = ("voice_dropped", "voice_parrot", "voice_retries", "voice_failed")
RUN_ZH, RUN_EN = 8, 5
_ATTRIBUTED = re.compile(r"你(?:刚才|之前|上次)?(?:说|提到)|you (?:just )?(?:said|mentioned)", re.I)


@dataclass(frozen=True)
class Reply:
    model: str
    seed: int
    lang: str
    scene: str
    said: str
    text: str
    counters: dict[str, int]
    verbatim: bool


def verbatim(reply: str, said: str) -> bool:
    """A sentence of ``reply`` holds a long run of ``said`` and does not say whose words they are."""
    for sentence in re.split(r"(?<=[。！？!?…\n])|(?<=\.)\s", reply):
        if _ATTRIBUTED.search(sentence):
            continue
        zh = re.search(r"[\u3400-\u9fff]", said) is not None
        a = (
            re.findall(r"[\u3400-\u9fff]", sentence)
            if zh
            else re.findall(r"[a-z0-9']+", sentence.lower())
        )
        b = re.findall(r"[\u3400-\u9fff]", said) if zh else re.findall(r"[a-z0-9']+", said.lower())
        m = SequenceMatcher(None, a, b, autojunk=False).find_longest_match(0, len(a), 0, len(b))
        if m.size >= (RUN_ZH if zh else RUN_EN):
            return True
    return False


def scenes() -> list[tuple[str, str, tuple[str, ...]]]:
    """(lang, id, turns): the dev set's distinct messages, then the demo's evening."""
    seen: dict[tuple[str, str], str] = {}
    for c in load_scenario("voice_dev.json")["cases"]:
        seen.setdefault((c["lang"], c["said"]), c["id"].rsplit("-", 1)[-1])
    out = [(lang, key, (said,)) for (lang, said), key in seen.items()]
    return out + [(lang, "demo-evening", turns) for lang, turns in DEMO.items()]


def run_model(model: str, seed: int, check: str) -> list[Reply]:
    env = {
        "XAID_LLM_PROVIDER": "llama_cpp",
        "XAID_LLM_MODEL_PATH": MODELS[model],
        "XAID_LLM_SEED": str(seed),
        "XAID_LLM_VOICE_CHECK": check,
        "XAID_MEMORY_TIMEZONE": "UTC",
        "OMP_WAIT_POLICY": os.environ.get("OMP_WAIT_POLICY", "PASSIVE"),
    }
    out: list[Reply] = []
    with scratch_daemon(env) as daemon, daemon.client(timeout=1800.0) as client:
        wait_model(client, 600, 0.05)
        for i, (lang, key, turns) in enumerate(scenes()):
            out.append(probe(client, model, seed, lang, f"{lang}-{i}-{key}", turns))
            progress(
                f"voice_live {model} seed {seed} {out[-1].scene}: {out[-1].counters} {out[-1].text[:80]!r}"
            )
    return out


def probe(
    client: Client, model: str, seed: int, lang: str, scene: str, turns: tuple[str, ...]
) -> Reply:
    name, persona = PERSONA[lang]
    agent = scene.replace("_", "-")
    client.agent_create(agent, name=name, persona_init=persona, config={"max_tokens": 96})
    sid = client.session_open(agent)["session_id"]
    before = client.stats()["memory"]
    text = ""
    for turn in turns:
        before = client.stats()["memory"]
        text = client.session_send(sid, turn).finish()["text"]
    after = client.stats()["memory"]
    counters = {k: int(after.get(k, 0)) - int(before.get(k, 0)) for k in COUNTERS}
    return Reply(model, seed, lang, scene, turns[-1], text, counters, verbatim(text, turns[-1]))


def run(quick: bool) -> Section:
    check = os.environ.get("XAID_PERF_VOICE_CHECK", "on")
    wanted = [
        m for m in os.environ.get("XAID_PERF_VOICE_MODELS", DEFAULT_MODEL).split(",") if m.strip()
    ]
    seeds = [int(s) for s in os.environ.get("XAID_PERF_VOICE_SEEDS", "1").split(",") if s.strip()]
    replies: list[Reply] = []
    for model in wanted:
        if MODELS[model] and not Path(MODELS[model]).is_file():
            continue
        for seed in seeds:
            replies += run_model(model, seed, check)
    raw = Path(os.environ.get("XAID_PERF_VOICE_RAW", "/tmp/xaid-perf-voice-live.json"))
    raw.write_text(
        json.dumps([asdict(r) for r in replies], ensure_ascii=False, indent=1), encoding="utf-8"
    )
    section = Section(f"Voice check on live replies (voice_check {check})")
    for model in dict.fromkeys(r.model for r in replies):
        for lang in ("en", "zh"):
            mine = [r for r in replies if r.model == model and r.lang == lang]
            total: Counter[str] = Counter()
            for r in mine:
                total.update(r.counters)
            section.rows.append(
                Row(
                    f"{model} {lang}: replies with a long verbatim run of the user's words",
                    sum(r.verbatim for r in mine),
                    "replies",
                    note=f"of {len(mine)}; the independent rule (module docstring)",
                )
            )
            section.rows.append(
                Row(
                    f"{model} {lang}: sentences the check dropped",
                    total["voice_dropped"],
                    "sentences",
                    note=f"parrot {total['voice_parrot']}, retries {total['voice_retries']}, "
                    f"kept after a second break {total['voice_failed']}; "
                    f"replies touched {sum(bool(r.counters['voice_dropped']) for r in mine)}/{len(mine)}",
                )
            )
            demo = [r.text for r in mine if r.scene.endswith("demo-evening")]
            section.notes.append(
                f"{model} {lang} demo evening, second line answered: {json.dumps(demo, ensure_ascii=False)}"
            )
    section.notes.append(
        f"Seeds {', '.join(map(str, seeds))}; one fresh agent per message (persona and max_tokens 96 as "
        f"`make demo`); raw replies in {raw}."
    )
    return section
