"""The Morning scene (issue 25): does the first reply of a new session name what the user left with?

The ``replies`` area counts "how are you" and "怎么样" as picking up; a friend's check-in names the
matter. This area replays perf/scenarios/morning_heldout.json (or, with
XAID_PERF_MORNING_SCENES=dev, morning_dev.json, the set prompts are tuned on; with
XAID_PERF_MORNING_SCENES=heldout2, morning_heldout2.json, a second held-out set by another author,
in a section of its own, ``morning2``; heldout3, morning_heldout3.json, a third author, ``morning3``;
heldout4, morning_heldout4.json, a fourth author, ``morning4``;
heldout5, morning_heldout5.json, a fifth author, ``morning5``;
dev2, morning_dev2.json, a second dev set whose scenes carry a ``half`` (train: tuned on; test: not),
reported per half, ``morning_dev2``; dev3, morning_dev3.json, a third (asides, undated plans,
fights, decisions, a first message with its own question), per half, ``morning_dev3``; dev4,
morning_dev4.json, a fourth (a pet at the vet, a toothache, a row at work, loneliness), ``morning_dev4``;
dev9, morning_dev9.json, a ninth (openers of many kinds: presence checks, waking up, a sleepy word,
an interjection, an emoji; and first messages with content of their own, ``probe_kind`` "content",
which must get no lead), ``morning_dev9``; dev10, morning_dev10.json, a tenth (plans for today or
tomorrow said in passing, firsts, grave-sounding worries that are no loss, first messages with
content of their own after which the matter fits, and controls: a loss, a held-back matter, a
routine evening, a grave first message), ``morning_dev10``; dev11, morning_dev11.json, an eleventh
(a gym session, a first day at a job, a worry whose first clause reads like a death; Chinese matters
led by a person, a place, a number, a long clause; controls), ``morning_dev11``; dev12,
morning_dev12.json, a twelfth (plans said without a subject, arrivals as openers, a pet gone
missing, feelings only; controls), ``morning_dev12``; dev13, morning_dev13.json, a thirteenth (an
evening after a morning or afternoon event, arrivals said as content, names easy to cut or fuse,
English matters of many kinds; controls), ``morning_dev13``; dev14, morning_dev14.json, a
fourteenth (matters still ahead, evenings after the event, arrivals in new words, asked-not-to-ask
controls with a pronoun or without a verb of raising), ``morning_dev14``; dev15,
morning_dev15.json, a fifteenth (English scene kinds of many sorts, asked-not-to-ask said in a later
session than the one that armed the matter, and later do-not-asks about another thing after which the
matter is still asked about; names next to a date, an hour or a verb), ``morning_dev15``; dev16,
morning_dev16.json, a sixteenth (what arming misreads: an operation or illness that is no death, a
decision with a date, a feeling with no event, results awaited, a plan someone else made; controls),
``morning_dev16``; dev18, morning_dev18.json, an eighteenth (everyday matters in new words: a work
disaster and its exhaustion opened with a plain "Morning."/"早。", a named client, interviews,
fights, money, sleep, a friend's operation, dated decisions with a place, feelings; do-not-ask and
routine controls), ``morning_dev18``; dev20, morning_dev20.json, a twentieth (dated matters ahead or
just past that no event word of the scheduler names: a mortgage signing, a birth due, wisdom teeth,
movers, a cast off; 签房贷合同, 拔智齿, 拆石膏), ``morning_dev20``; dev25, morning_dev25.json, a
twenty-fifth (a Chinese matter said after an opening clause, 跟你说个事，…; dated events in their own words;
a child's fever, a mother in hospital, sleeplessness in a long clause; English twins; controls),
``morning_dev25``; dev30, morning_dev30.json, a thirtieth (arming on matters in new words: a friend's or a
child's matter, a speech, a first date, a wait on a visa or results, an offer to answer; 相亲, 科目二, 复查,
money lent, 装修拖期, a friend's interview; controls), ``morning_dev30``; dev31, morning_dev31.json, a
thirty-first (the later held-out sets' shape: one line said and one answer, probed the next morning
or later the same day), ``morning_dev31``; dev32, morning_dev32.json, a thirty-second (a first
message of its own the day after a matter; grave matters that are no loss; losses), ``morning_dev32``;
dev33, morning_dev33.json, a thirty-third (the matter not in the history's first line: small
talk first, a long message with the matter in its middle, the matter three days back; a return
after nine days; a content probe), ``morning_dev33``;
accept35, morning_accept35.json, issue 25 item 1's acceptance scenes (written by a writer who never
read the rules or the earlier sets, never tuned on, private like the held-out sets; played with ten
runs per scene its section counts the scenes picked up in at least 9 of their 10),
``morning_accept35``; dev35, morning_dev35.json, a thirty-fifth (Chinese first, 24 matters and 4
do-not-ask controls as people type them, 8 English; halves train and test; written for the next
change to issue 25 item 1 in Chinese), ``morning_dev35``; dev36, morning_dev36.json, a thirty-sixth
(Chinese first: 30 matters, many told in an earlier session with small talk since, 4 controls, 6
English; halves train and test), ``morning_dev36``; dev37, morning_dev37.json, a thirty-seventh
(heavy evenings: the matter told with loud feelings, 20 Chinese and 6 English, 6 controls; halves
train and test), ``morning_dev37``; dev38, morning_dev38.json, a thirty-eighth (holding back: a
do-not-ask, a loss, a worry settled and told, beside ordinary matters; 26 Chinese and 10 English;
halves train and test), ``morning_dev38``; dev39, morning_dev39.json, a thirty-ninth (the matter
told beside loud feelings, or told once and only the feeling after; 20 Chinese and 20 English, 8
controls; halves train and test), ``morning_dev39``; dev42, morning_dev42.json, a forty-second
(Chinese typed as chat: a reaction line before the matter, the matter as a reason or an aside, small
talk since; subjects no list was written for; 28 Chinese and 12 English, 11 controls; halves train
and test), ``morning_dev42``; dev44, morning_dev44.json, a forty-fourth (small talk before the
matter, someone named once and then a pronoun, a next step said of "him" whom only the companion
named, fragments without a subject, sign-offs; 18 English and 18 Chinese, 8 controls; halves train
and test), ``morning_dev44``;
a scene file is checked as it loads and a malformed one refused, see heldout_files.py)
through a real daemon on a real socket with a real llama.cpp
model: every scene's history is ingested at its real times into sessions closed with wait=True
(episodes, mood, the scheduler's items: the daemon's clock is the messages' ``ts``), then the opener
("早。", "Hey, I'm back.") goes into a new session at its own time, once for an agent with memory on
and once for a twin with ``{"memory": false}``, in the same daemon.

The strict judge, one verdict per rule and reply:
- picks_up (scenes that may raise their matter): one of the scene's own keywords appears (the
  matter, the feeling, the person); a generic "how are you" / "怎么样" is not one of them;
- holds_back (scenes where the scheduler holds the matter back: the user asked not to bring it up,
  or a loss came since): none of the held-back matter's words appears;
- role: the reply does not speak as the user (echoes the opener's first person, "我回来了", "I'm
  back", or its news as a statement of its own, "到家了！" to "到家了"; quotes the user's earlier words
  as what it said itself, "我说资历太浅"; says the user's feeling in the first person, "我好累",
  "I'm exhausted", or as a sentence of its own without 我, "累得要死！"; claims the user's matter,
  "my interview", "我的面试") and does not address the companion by its own name;
- tense (scenes that list ``too_early``, morning_dev13 on): after the event's time the reply asks
  how it went, not whether they are ready: none of the scene's before-question words ("ready",
  "good luck", "准备", "加油") appears;
- names: every name from memory that the reply uses is copied exactly: not cut ("Alvar"), not
  fused with a neighbouring word of the history ("林晓五" from 林晓 and 五月);
- lang, no_detection, length: as in perf/eval/replies.py (its rules are reused).

``python -m perf morning`` runs every model file present; XAID_PERF_MORNING_MODELS narrows it
(comma-separated names of MODELS), XAID_PERF_MORNING_SEEDS sets the daemons' llm.seed (default 1,2;
quick 1) and XAID_PERF_MORNING_RUNS the probes per scene and seed (each a fresh agent: a suggestion
is given once; default 1); XAID_PERF_MORNING_OFF=0 skips the memory-off twins;
XAID_PERF_MORNING_CANDIDATES sets the daemons' scheduler.candidates (check-in candidates);
XAID_PERF_MORNING_FROM_RAW (raw files, comma-separated) judges earlier runs again as one section
instead of playing, XAID_PERF_MORNING_NOTES (" || " between notes) puts notes before its own and
XAID_PERF_MORNING_AREA=NAME writes the section as the set's area + "_NAME", beside the set's own;
XAID_PERF_MORNING_NIGHT=1 gives each probe the night a real daemon has had since the history
(perf/eval/night.py: the head and the opening its refresh builds at the probe's time, read by the
model before the turn, each scene's agent deleted after its probe as in a one-user daemon): without
it the probe comes at once and reads the whole prompt, which no user opening the app the next
morning would wait for. Every reply goes to
/tmp/xaid-perf-morning-<set>.json (or XAID_PERF_MORNING_RAW); for the later held-out sets (``PRIVATE``)
only there: the section and the progress lines keep the counts, not which scene failed or what it said.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections import Counter, defaultdict
from contextlib import ExitStack
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from testkit.scratch import ScratchDaemon
from xaid.clock import ManualClock
from xaid.text.lang import cjk_share

from ..kit import (
    DEFAULT_MODEL,
    MODELS,
    SCENARIOS,
    Aim,
    Row,
    Section,
    median,
    progress,
    scratch_daemon,
    wait_model,
)
from . import heldout_files, night
from .replies import (
    DETECTION,
    MAX_CHARS,
    MAX_WORDS,
    addresses,
    at,
    base_ms,
    history_end,
    looped,
    mentions,
    scene_agent,
)
from .role_judge import speaks_as_user

SCENE_SETS = {
    "heldout": SCENARIOS / "morning_heldout.json",
    "heldout2": SCENARIOS / "morning_heldout2.json",  # a second held-out set, another author
    "heldout3": SCENARIOS / "morning_heldout3.json",  # a third held-out set, a third author
    "heldout4": SCENARIOS / "morning_heldout4.json",  # a fourth held-out set, a fourth author
    "heldout5": SCENARIOS / "morning_heldout5.json",  # a fifth held-out set, a fifth author
    "dev": SCENARIOS / "morning_dev.json",
    "dev2": SCENARIOS
    / "morning_dev2.json",  # second dev set: dated matters ahead, feelings only, ...
    "dev3": SCENARIOS / "morning_dev3.json",  # third dev set: asides, undated plans, fights, ...
    "dev4": SCENARIOS / "morning_dev4.json",  # fourth dev set: check-in candidates (morning7)
    "dev9": SCENARIOS / "morning_dev9.json",  # ninth dev set: openers of many kinds (morning9)
    "dev10": SCENARIOS / "morning_dev10.json",  # tenth dev set: plans in passing, firsts (arm10)
    "dev11": SCENARIOS / "morning_dev11.json",  # eleventh: arming kinds, zh lead shapes (morning11)
    "dev12": SCENARIOS / "morning_dev12.json",  # twelfth: subjectless plans, arrivals (morning12)
    "dev13": SCENARIOS / "morning_dev13.json",  # thirteenth: after the event, names (morning13)
    "dev14": SCENARIOS / "morning_dev14.json",  # fourteenth: arrivals, do-not-ask (morning14)
    "dev15": SCENARIOS / "morning_dev15.json",  # fifteenth: later do-not-ask (morning15)
    "dev16": SCENARIOS / "morning_dev16.json",  # sixteenth: arming kinds (morning16)
    "dev18": SCENARIOS
    / "morning_dev18.json",  # eighteenth: everyday matters, new words (morning18)
    "arm19": SCENARIOS / "arm_dev19.json",  # arm19: strong tiredness, others' operations, routine
    "dev20": SCENARIOS / "morning_dev20.json",  # twentieth: matters no event word names
    "arm22": SCENARIOS / "arm_dev22.json",  # arm22: everyday matters, the day after and the evening
    "arm23": SCENARIOS / "arm_dev23.json",  # arm23: someone ill or in hospital, against losses
    "dev25": SCENARIOS / "morning_dev25.json",  # twenty-fifth: a matter after an opening clause
    "dev30": SCENARIOS / "morning_dev30.json",  # thirtieth: arming on matters in new words
    "dev31": SCENARIOS / "morning_dev31.json",  # thirty-first: one line said, one answer
    "dev32": SCENARIOS / "morning_dev32.json",  # thirty-second: news of their own; grave, no loss
    "dev33": SCENARIOS / "morning_dev33.json",  # thirty-third: the matter not in the first line
    "accept35": SCENARIOS / "morning_accept35.json",  # issue 25 item 1's test: never tuned on
    "dev35": SCENARIOS / "morning_dev35.json",  # thirty-fifth: Chinese first, as people type
    "dev36": SCENARIOS / "morning_dev36.json",  # thirty-sixth: Chinese first, small talk since
    "dev37": SCENARIOS / "morning_dev37.json",  # thirty-seventh: heavy evenings, loud feelings
    "dev38": SCENARIOS / "morning_dev38.json",  # thirty-eighth: holding back
    "dev39": SCENARIOS / "morning_dev39.json",  # thirty-ninth: the matter beside the feeling
    "dev42": SCENARIOS / "morning_dev42.json",  # forty-second: chat-typed Chinese, asides
    "dev44": SCENARIOS / "morning_dev44.json",  # forty-fourth: small talk first, pronouns
}
# The title and section of each set: the second held-out set stands beside the first (area
# ``morning2``) instead of replacing it; the dev set keeps the area's section as before.
SET_TITLES = {
    "heldout": "",
    "heldout2": " (second held-out scenes)",
    "heldout3": " (third held-out scenes)",
    "heldout4": " (fourth held-out scenes)",
    "heldout5": " (fifth held-out scenes)",
    "dev": " (dev scenes)",
    "dev2": " (second dev scenes)",
    "dev3": " (third dev scenes)",
    "dev4": " (fourth dev scenes)",
    "dev9": " (ninth dev scenes)",
    "dev10": " (tenth dev scenes)",
    "dev11": " (eleventh dev scenes)",
    "dev12": " (twelfth dev scenes)",
    "dev13": " (thirteenth dev scenes)",
    "dev14": " (fourteenth dev scenes)",
    "dev15": " (fifteenth dev scenes)",
    "dev16": " (sixteenth dev scenes)",
    "dev18": " (eighteenth dev scenes)",
    "arm19": " (arm19 dev scenes)",
    "dev20": " (twentieth dev scenes)",
    "arm22": " (arm22 dev scenes)",
    "arm23": " (arm23 dev scenes)",
    "dev25": " (twenty-fifth dev scenes)",
    "dev30": " (thirtieth dev scenes)",
    "dev31": " (thirty-first dev scenes)",
    "dev32": " (thirty-second dev scenes)",
    "dev33": " (thirty-third dev scenes)",
    "accept35": " (acceptance scenes, session 35)",
    "dev35": " (thirty-fifth dev scenes)",
    "dev36": " (thirty-sixth dev scenes)",
    "dev37": " (thirty-seventh dev scenes)",
    "dev38": " (thirty-eighth dev scenes)",
    "dev39": " (thirty-ninth dev scenes)",
    "dev42": " (forty-second dev scenes)",
    "dev44": " (forty-fourth dev scenes)",
}
SET_AREAS = {
    "heldout2": "morning2",
    "heldout3": "morning3",
    "heldout4": "morning4",
    "heldout5": "morning5",
    "dev2": "morning_dev2",
    "dev3": "morning_dev3",
    "dev4": "morning_dev4",
    "dev9": "morning_dev9",
    "dev10": "morning_dev10",
    "dev11": "morning_dev11",
    "dev12": "morning_dev12",
    "dev13": "morning_dev13",
    "dev14": "morning_dev14",
    "dev15": "morning_dev15",
    "dev16": "morning_dev16",
    "dev18": "morning_dev18",
    "arm19": "morning_arm19",
    "dev20": "morning_dev20",
    "arm22": "morning_arm22",
    "arm23": "morning_arm23",
    "dev25": "morning_dev25",
    "dev30": "morning_dev30",
    "dev31": "morning_dev31",
    "dev32": "morning_dev32",
    "dev33": "morning_dev33",
    "accept35": "morning_accept35",
    "dev35": "morning_dev35",
    "dev36": "morning_dev36",
    "dev37": "morning_dev37",
    "dev38": "morning_dev38",
    "dev39": "morning_dev39",
    "dev42": "morning_dev42",
    "dev44": "morning_dev44",
}
# Held out from the engineers tuning prompts and leads: which scene failed (and its reply) goes only
# to the raw file in /tmp, never to RESULTS.md, stdout or the progress lines; the rows stay.
PRIVATE = frozenset({"heldout", "heldout2", "heldout3", "heldout4", "heldout5", "accept35"})
CHECKS = ("picks_up", "holds_back", "role", "tense", "names", "lang", "no_detection", "length")
PICK_AIM = Aim(">=", 90.0)
SCENE_SHARE = 0.9  # issue 25 item 1: a scene passes when at least 9 of its 10 runs pick up
ROLE_AIM = Aim("<=", 0.0)
FIRST_AIM = Aim("<=", 1.5)
# Where the models also live on this machine (kit.MODELS names the catalogue's file names).
FALLBACK = {"qwen2.5-0.5b": "/work/models/qwen05.gguf", "qwen2.5-1.5b": "/work/models/qwen15.gguf"}


@dataclass(frozen=True)
class Plan:
    seeds: tuple[int, ...]
    runs: int


FULL = Plan((1, 2), 1)
QUICK = Plan((1,), 1)


@dataclass
class Judged:
    model: str
    scene: str
    lang: str
    memory: bool
    seed: int
    run: int
    may_raise: bool
    text: str
    checks: dict[str, bool]
    suggestion: bool
    first_token_ms: float
    prompt_tokens: int
    directive: str = ""
    lead: str = ""
    first_text_ms: float = 0.0  # the first text the client read (the lead, when there is one)
    own_token_ms: float = 0.0  # the first text the model wrote itself
    half: str = ""  # the scene's half in a dev set that keeps one ("train", "test")
    candidates: int = 0  # check-in candidates the daemon sampled for this reply (stats' counter)
    probe_kind: str = (
        ""  # "opener" or "content" where the set says (morning_dev9): content gets no lead
    )
    read_tokens: int = -1  # prompt tokens the model read before its first token (-1: not told)
    night: bool = False  # played after the night (``nights``): the head and opening read ahead


# --- the judge ------------------------------------------------------------------------------------

_HAN = re.compile(r"[\u3400-\u9fff]")


def name_breaks(text: str, name: str, history: str) -> bool:
    """A memory name cut or fused: "Alvar" for Alvarez, "林晓五" from 林晓 + 五月 in the history."""
    if _HAN.search(name):
        if len(name) >= 3:
            cut = name[:-1]
            for m in re.finditer(re.escape(cut), text):
                if not text.startswith(name, m.start()):
                    return True
        neighbours = {
            history[m.end() : m.end() + 2]
            for m in re.finditer(re.escape(name), history)
            if len(history[m.end() : m.end() + 2]) == 2 and _HAN.fullmatch(history[m.end()])
        }
        for m in re.finditer(re.escape(name), text):
            after = text[m.end() : m.end() + 2]
            for word in neighbours:
                if after[:1] == word[0] and after != word:
                    return True
        return False
    # a name may end in its own "'s" ("St. Mary's"): the letters after the cut run through it
    for m in re.finditer(rf"(?i)\b{re.escape(name[: max(3, len(name) - 2)])}[a-z'’]*", text):
        if m.group(0).lower() not in (name.lower(), name.lower() + "s", name.lower() + "'s"):
            return True
    return False


def _user_lines(scene: dict[str, Any]) -> list[str]:
    """The user's own lines of a scene's history (what a reply must not quote as its own words)."""
    return [t for part in scene.get("history", []) for role, t in part["lines"] if role == "user"]


def judge(
    scene: dict[str, Any], agent_name: str, text: str, finish: str, history: str
) -> dict[str, bool]:
    lang = scene["lang"]
    share = cjk_share(text)
    words = len(re.findall(r"[A-Za-z']+", text)) + len(_HAN.findall(text)) // 2
    matter = list(scene["picks_up"]) + list(scene.get("held_back", []))
    return {
        "picks_up": not scene["may_raise"] or any(mentions(text, w) for w in scene["picks_up"]),
        "holds_back": not any(mentions(text, w) for w in scene.get("held_back", [])),
        "role": not speaks_as_user(text, scene["probe"]["text"], matter, _user_lines(scene))
        and not addresses(text, agent_name),
        "tense": not any(mentions(text, w) for w in scene.get("too_early", [])),
        "names": not any(name_breaks(text, n, history) for n in scene.get("names", [])),
        "lang": share >= 0.5 if lang == "zh" else share <= 0.1,
        "no_detection": DETECTION.search(text) is None,
        "length": bool(text.strip())
        and finish != "length"
        and words <= MAX_WORDS
        and len(_HAN.findall(text)) <= MAX_CHARS
        and not looped(text),
    }


# --- replaying the scenes -------------------------------------------------------------------------


def model_path(model: str) -> str | None:
    """The model's file ("" is the embedded SmolLM2), or None when it is not on this machine."""
    for path in (MODELS[model], FALLBACK.get(model, "")):
        if not path or Path(path).is_file():
            return path
    return None


def models_to_run() -> list[str]:
    wanted = [
        m.strip() for m in os.environ.get("XAID_PERF_MORNING_MODELS", "").split(",") if m.strip()
    ]
    return [m for m in wanted or list(MODELS) if m in MODELS and model_path(m) is not None]


def twins() -> bool:
    """Whether each probe also runs for a memory-off twin (XAID_PERF_MORNING_OFF=0 skips it: a dev
    run comparing leads, which only memory-on agents get, spends its time on those)."""
    return os.environ.get("XAID_PERF_MORNING_OFF", "1") != "0"


def nights() -> bool:
    """Whether each probe comes after the night a real daemon would have had since the history
    (XAID_PERF_MORNING_NIGHT=1, perf/eval/night.py): its head and opening read ahead as of five
    minutes before the probe. Off: the probe follows the history at once, as it always did."""
    return os.environ.get("XAID_PERF_MORNING_NIGHT", "0") == "1"


def run_model(
    model: str,
    seed: int,
    runs: int,
    scenes: list[dict[str, Any]],
    names: dict[str, str],
    base: int,
    private: bool = False,
) -> list[Judged]:
    env = {
        "XAID_LLM_PROVIDER": os.environ.get("XAID_PERF_MORNING_PROVIDER", "llama_cpp"),
        "XAID_LLM_MODEL_PATH": model_path(model) or "",
        "XAID_LLM_MODEL": "smollm2-135m",  # what an empty model_path means here (model_path wins)
        "XAID_LLM_SEED": str(seed),
        "XAID_MEMORY_TIMEZONE": "UTC",
        "OMP_WAIT_POLICY": os.environ.get("OMP_WAIT_POLICY", "PASSIVE"),
    }
    if candidates := os.environ.get("XAID_PERF_MORNING_CANDIDATES", ""):
        env["XAID_SCHEDULER_CANDIDATES"] = candidates  # check-in candidates (docs/scheduler.md)
    # more daemon settings, "XAID_X=v,XAID_Y=w": e.g. the memory slot the 1.5B on 2 cores gets from
    # memory.first_word_ms, for the scripted provider, which tells no read rate
    for pair in filter(None, os.environ.get("XAID_PERF_MORNING_ENV", "").split(",")):
        key, _, value = pair.partition("=")
        env[key.strip()] = value.strip()
    out: list[Judged] = []
    with ExitStack() as stack:
        daemon: ScratchDaemon
        clock: ManualClock | None = None
        if nights():
            daemon, clock = stack.enter_context(night.night_daemon(env))
        else:
            daemon = stack.enter_context(scratch_daemon(env))
        client = stack.enter_context(daemon.client(timeout=1800.0))
        wait_model(client, 600, 0.05)
        for scene in scenes:
            name = names[scene["lang"]]
            history = "\n".join(t for part in scene["history"] for _, t in part["lines"])
            for run in range(runs):
                for memory in (True, False) if twins() else (True,):
                    agent_id = f"{scene['id']}-{run}-{'on' if memory else 'off'}"
                    ts = at(base, scene["probe"])
                    if clock is not None:
                        clock.set(history_end(scene, base))
                    scene_agent(client, scene, agent_id, name, memory, base)
                    slept = clock is not None and night.pass_night(
                        daemon, client, clock, agent_id, ts
                    )
                    sid = client.session_open(agent_id, ts=ts)["session_id"]
                    sampled = _sampled(client)
                    started = time.perf_counter()
                    stream = client.session_send(sid, scene["probe"]["text"], ts=ts, explain=True)
                    seen: list[tuple[int, float]] = []  # (characters so far, seconds)
                    for ev in stream:
                        if ev.event == "text":
                            chars = (seen[-1][0] if seen else 0) + len(ev.data["delta"])
                            seen.append((chars, time.perf_counter() - started))
                    result = stream.result
                    wall = time.perf_counter() - started
                    lead = str(result["context"].get("lead", ""))
                    own = next((t for n, t in seen if n > len(lead)), wall)
                    timings = result["timings"]
                    text = result["text"]
                    j = Judged(
                        model,
                        scene["id"],
                        scene["lang"],
                        memory,
                        seed,
                        run,
                        scene["may_raise"],
                        text,
                        judge(scene, name, text, result["finish_reason"], history),
                        bool(result["context"]["suggestion"]),
                        float(timings["first_token_ms"] or timings["total_ms"]),
                        int(result["usage"]["prompt_tokens"]),
                        result["context"]["directive"],
                        lead,
                        seen[0][1] * 1000 if seen else wall * 1000,
                        own * 1000,
                        str(scene.get("half", "")),
                        _sampled(client) - sampled,
                        str(scene.get("probe_kind", "")),
                        int(result["usage"].get("prompt_read_tokens") or -1),
                        slept,
                    )
                    out.append(j)
                    # one user's daemon: tonight's read-ahead is for the next scene's agent alone
                    if clock is not None:
                        client.agent_delete(agent_id)
                    failed = [k for k, ok in j.checks.items() if not ok]
                    verdict = (
                        ""
                        if private
                        else f", suggestion {j.suggestion}, failed {failed or '-'}: {text[:100]!r}"
                    )
                    progress(
                        f"morning {model} seed {seed} {scene['id'] if not private else len(out)} "
                        f"run {run} memory {'on' if memory else 'off'}: {wall:.1f} s, own first "
                        f"token {own:.1f} s, read {j.read_tokens}{verdict}"
                    )
    return out


def _sampled(client: Any) -> int:
    """The daemon's count of check-in candidates so far (docs/protocol.md, ``stats``)."""
    return int(client.stats()["memory"].get("checkin_candidates", 0))


# --- the figures ----------------------------------------------------------------------------------


def _share(judged: list[Judged], check: str) -> tuple[int, int]:
    return sum(j.checks[check] for j in judged), len(judged)


def section(judged: list[Judged], chosen: str, seeds: tuple[int, ...], runs: int) -> Section:
    rows: list[Row] = []
    by: dict[tuple[str, str, bool], list[Judged]] = defaultdict(list)
    for j in judged:
        by[(j.model, j.lang, j.memory)].append(j)
    models = list(dict.fromkeys(j.model for j in judged))
    for model in models:
        for lang in ("en", "zh"):
            on, off = by.get((model, lang, True), []), by.get((model, lang, False), [])
            if not on:
                continue
            raise_on = [j for j in on if j.may_raise]
            raise_off = [j for j in off if j.may_raise]
            p_on, n_on = _share(raise_on, "picks_up")
            p_off, n_off = _share(raise_off, "picks_up")
            rate_on = 100 * p_on / n_on if n_on else 0.0
            rate_off = 100 * p_off / n_off if n_off else 0.0
            rows.append(
                Row(
                    f"picks up the matter, {model}, {lang}, memory on",
                    rate_on,
                    "%",
                    PICK_AIM if model == DEFAULT_MODEL else None,
                    note=f"{p_on}/{n_on} replies; memory off {p_off}/{n_off} ({rate_off:.0f} %), "
                    f"{rate_on - rate_off:+.0f} points",
                )
            )
            rows.append(Row(f"picks up, {model}, {lang}, memory off", rate_off, "%"))
            if row := _scene_row(raise_on, model, lang):
                rows.append(row)
            role_breaks = sum(not j.checks["role"] for j in on)
            rows.append(
                Row(
                    f"role breaks, {model}, {lang}, memory on",
                    float(role_breaks),
                    "replies",
                    ROLE_AIM if model == DEFAULT_MODEL else None,
                    note=f"of {len(on)}; memory off {sum(not j.checks['role'] for j in off)} of {len(off)}",
                )
            )
            held = [j for j in on if not j.may_raise]
            other = Counter(k for j in on for k, ok in j.checks.items() if not ok and k != "role")
            rows.append(
                Row(
                    f"held-back matter raised, {model}, {lang}, memory on",
                    float(sum(not j.checks["holds_back"] for j in held)),
                    "replies",
                    note=f"of {len(held)}; other failures (memory on): "
                    + (", ".join(f"{k} {n}" for k, n in other.most_common()) or "none"),
                )
            )
        mine = [j for j in judged if j.model == model and j.memory and j.own_token_ms]
        if not mine:
            continue
        led = [j for j in mine if j.lead]
        rows.append(
            Row(
                f"first text the user reads, session's first turn, {model}, memory on",
                median([j.first_text_ms / 1000 for j in mine]),
                "s",
                FIRST_AIM if model == DEFAULT_MODEL else None,
                note=f"median of {len(mine)}, at the client; the lead when there is one ({len(led)} replies); "
                f"prompt median {median([j.prompt_tokens for j in mine]):.0f} tokens",
            )
        )
        rows.append(
            Row(
                f"first token the model wrote itself, session's first turn, {model}, memory on",
                median([j.own_token_ms / 1000 for j in mine]),
                "s",
                FIRST_AIM if model == DEFAULT_MODEL else None,
                note=f"median of {len(mine)}, at the client: recall, reading what the context does not "
                "hold and the first token after the lead; "
                + (
                    "after the night (perf/eval/night.py: head and opening read ahead as of 5 min before)"
                    if all(j.night for j in mine)
                    else "the probe right after the history (no head read ahead)"
                )
                + (
                    f"; prompt tokens read, median {median([j.read_tokens for j in mine]):.0f}"
                    if all(j.read_tokens >= 0 for j in mine)
                    else ""
                ),
            )
        )
    scenes = sorted({j.scene for j in judged})
    notes = [
        f"Scenes: perf/scenarios/{SCENE_SETS[chosen].name} ({len(scenes)} scenes, English and Chinese), "
        f"seeds {', '.join(map(str, seeds))}, {runs} run(s) per scene and seed, each a fresh agent with memory on "
        f'and a twin with {{"memory": false}} in the same daemon. Judge: {", ".join(CHECKS)} '
        "(perf/eval/morning.py docstring). 'picks up' counts the scenes that may raise their matter; "
        "'held-back matter raised' the scenes where the scheduler holds it back.",
    ]
    for model in models:
        mine = [j for j in judged if j.model == model and j.memory and j.may_raise]
        notes.append(
            f"{model}: suggestion given in {sum(j.suggestion for j in mine)}/{len(mine)} memory-on probes "
            f"of the scenes that may raise their matter, begun with the daemon's lead in "
            f"{sum(bool(j.lead) for j in mine)}; "
            + "; ".join(
                _given_note([j for j in mine if j.lang == lang], lang) for lang in ("en", "zh")
            )
        )
        if sampled := [j for j in mine if j.candidates]:
            counts = Counter(j.candidates for j in sampled)
            one = median([j.own_token_ms / 1000 for j in sampled if j.candidates == 1])
            more = median([j.own_token_ms / 1000 for j in sampled if j.candidates > 1])
            notes.append(
                f"{model}: check-in candidates sampled for {len(sampled)} probes "
                f"({', '.join(f'{n} candidate(s): {c}' for n, c in sorted(counts.items()))}); "
                f"model's own first token, median: {one:.1f} s with one, {more:.1f} s with more"
            )
        for half in sorted({j.half for j in mine if j.half}):
            notes.append(
                f"{model}, {half} half: "
                + _half_note([j for j in judged if j.model == model and j.half == half])
            )
    for j in judged:
        if chosen not in PRIVATE and j.memory and not all(j.checks.values()):
            failed = ", ".join(k for k, ok in j.checks.items() if not ok)
            notes.append(
                f"{j.model} {j.scene} seed {j.seed} failed {failed}: {json.dumps(j.text[:140], ensure_ascii=False)}"
            )
    title = "Morning: the first reply of a session names the matter" + SET_TITLES[chosen]
    # A run that compares a way of its own keeps its section beside the set's (the lead merges by area).
    if own := os.environ.get("XAID_PERF_MORNING_AREA", ""):
        return Section(
            f"{title}: {own}", rows, notes, area=f"{SET_AREAS.get(chosen, 'morning')}_{own}"
        )
    return Section(title, rows, notes, area=SET_AREAS.get(chosen, ""))


def _scene_row(raise_on: list[Judged], model: str, lang: str) -> Row | None:
    """Issue 25 item 1 counts scenes, not replies: a scene passes when at least 9 of its 10 runs
    (seeds × runs) pick up its matter. Only where every scene had 10 runs or more: with two seeds a
    scene's share says little. Counts only, so a private set's row says it too."""
    by_scene: dict[str, list[bool]] = defaultdict(list)
    for j in raise_on:
        by_scene[j.scene].append(j.checks["picks_up"])
    if not by_scene or min(len(v) for v in by_scene.values()) < 10:
        return None
    passed = sum(sum(v) >= SCENE_SHARE * len(v) for v in by_scene.values())
    worst = min(sum(v) / len(v) for v in by_scene.values())
    return Row(
        f"scenes picked up in at least 9 of 10 runs, {model}, {lang}, memory on",
        100 * passed / len(by_scene),
        "%",
        Aim(">=", 100.0) if model == DEFAULT_MODEL else None,
        note=f"{passed}/{len(by_scene)} scenes, {min(len(v) for v in by_scene.values())}+ runs each; "
        f"the weakest scene picked up in {100 * worst:.0f} % of its runs",
    )


def _given_note(mine: list[Judged], lang: str) -> str:
    """Where one language's pick-ups are lost (counts only, so a held-out set's notes say it too):
    no suggestion given (the scheduler armed nothing, or held it back) or a suggestion the reply
    did not pick up (the model)."""
    given = [j for j in mine if j.suggestion]
    return (
        f"{lang}: suggestion {len(given)}/{len(mine)}, picked up with one "
        f"{_share(given, 'picks_up')[0]}/{len(given)}, without "
        f"{_share([j for j in mine if not j.suggestion], 'picks_up')[0]}/{len(mine) - len(given)}"
    )


def _half_note(judged: list[Judged]) -> str:
    """Pick-up per language (memory on, memory off), suggestions and role breaks of one half."""
    parts = []
    for lang in ("en", "zh"):
        on = [j for j in judged if j.lang == lang and j.memory]
        raise_on = [j for j in on if j.may_raise]
        raise_off = [j for j in judged if j.lang == lang and not j.memory and j.may_raise]
        parts.append(
            f"{lang} pick-up {_share(raise_on, 'picks_up')[0]}/{len(raise_on)} "
            f"(off {_share(raise_off, 'picks_up')[0]}/{len(raise_off)}), suggestion "
            f"{sum(j.suggestion for j in raise_on)}/{len(raise_on)}, role breaks "
            f"{sum(not j.checks['role'] for j in on)}, too early "
            f"{sum(not j.checks.get('tense', True) for j in on)}, held back raised "
            f"{sum(not j.checks['holds_back'] for j in on if not j.may_raise)}" + _kind_note(on)
        )
    return "; ".join(parts)


def _kind_note(on: list[Judged]) -> str:
    """Suggestions and leads by the probe's kind, where the set says it: an opener that may raise
    its matter should get both, a first message with content of its own never a lead."""
    if not any(j.probe_kind for j in on):
        return ""
    openers = [j for j in on if j.probe_kind == "opener" and j.may_raise]
    content = [j for j in on if j.probe_kind == "content"]
    return (
        f", openers: suggestion {sum(j.suggestion for j in openers)}/{len(openers)}, lead "
        f"{sum(bool(j.lead) for j in openers)}/{len(openers)}, content: lead "
        f"{sum(bool(j.lead) for j in content)}/{len(content)}"
    )


def from_raw(path: Path) -> list[Judged]:
    """The replies of an earlier run (its raw file), to put several runs into one section."""
    return [Judged(**row) for row in json.loads(path.read_text(encoding="utf-8"))]


def run(quick: bool) -> Section:
    plan = QUICK if quick else FULL
    seeds = (
        tuple(int(s) for s in os.environ.get("XAID_PERF_MORNING_SEEDS", "").split(",") if s.strip())
        or plan.seeds
    )
    runs = int(os.environ.get("XAID_PERF_MORNING_RUNS", "0") or 0) or plan.runs
    chosen = os.environ.get("XAID_PERF_MORNING_SCENES", "heldout")
    if chosen not in SCENE_SETS:
        raise ValueError(f"XAID_PERF_MORNING_SCENES={chosen!r}: one of {', '.join(SCENE_SETS)}")
    data = heldout_files.scenes(SCENE_SETS[chosen])
    wanted = {s for s in os.environ.get("XAID_PERF_MORNING_ONLY", "").split(",") if s}
    scenes = [s for s in data["scenes"] if not wanted or s["id"] in wanted]
    base = base_ms(data)
    judged: list[Judged] = []
    earlier = [Path(p) for p in os.environ.get("XAID_PERF_MORNING_FROM_RAW", "").split(",") if p]
    for path in earlier:  # runs played before (each its own seeds), judged again as one section
        judged += [j for j in from_raw(path) if j.scene in {s["id"] for s in scenes}]
    seeds = tuple(dict.fromkeys(j.seed for j in judged)) if earlier else seeds
    for model in models_to_run() if not earlier else []:
        for seed in seeds:
            progress(
                f"morning: {model}, seed {seed}, {len(scenes)} scenes × {runs} × memory on/off"
            )
            judged += run_model(model, seed, runs, scenes, data["names"], base, chosen in PRIVATE)
    raw = os.environ.get("XAID_PERF_MORNING_RAW") or f"/tmp/xaid-perf-morning-{chosen}.json"
    Path(raw).write_text(
        json.dumps([asdict(j) for j in judged], ensure_ascii=False, indent=1), encoding="utf-8"
    )
    out = section(judged, chosen, seeds, runs)
    notes = [
        n.strip() for n in os.environ.get("XAID_PERF_MORNING_NOTES", "").split(" || ") if n.strip()
    ]
    return replace(out, notes=[*notes, *out.notes]) if notes else out
