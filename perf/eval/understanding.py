"""Understanding on wordings nobody wrote for the rules: area ``understanding`` of ``python -m perf``.

Issue 24 item 7. The own suites (suites_weeks.py) are written by the people who write the rules, so
they pass by construction; these three sets (perf/scenarios/heldout_*.json, formats in
perf/scenarios/README.md) were written apart from the rules and are kept out of any tuning:

1. updates (heldout_updates.json): a lasting fact, then weeks later a change said the way people say
   it (an aside, a reason, a typo, mixed zh/en), ingested at their real times and consolidated; a
   week later ``memory.search`` asks the probe. A change passes when the current value is in a
   returned item that is current and ranks above the first current item from before the change
   that holds the old value (or the old value is gone or marked history). About 15 % are controls (an addition, a past
   story, a hypothetical, someone else's change): they pass when the original value is still there.
   Played with the rules alone (scripted provider) and, with ``XAID_PERF_UNDERSTANDING_MODEL`` set
   to a GGUF (the default 1.5B), with that model deciding what the memory asks it: one daemon per
   language, one agent per case, within ``XAID_PERF_UNDERSTANDING_BUDGET_S`` seconds per language.
   History goes in through ``session.ingest`` in both runs, so the model run spends its time on
   the memory's own calls and not on replies nobody reads.
2. forgets (heldout_forgets.json): a request to forget said as a chat turn (``session.send``, the
   in-chat path of docs/protocol.md) days after the history it refers to (by paraphrase, person,
   time, or "that" in the same session); it passes when the turn reports ``context.forgotten`` and a
   week later ``memory.search`` for the history finds none of the words. Negatives (forget-words
   that ask nothing) count a mis-fire when their turn reports ``context.forgotten``. Every agent also
   has an unrelated older session whose words must survive (collateral loss is counted). A request
   the companion asked back about is played once more on a fresh agent by a user who answers as a
   person who reads the question (``reading_user``: yes when it offers a line of the history, else
   "no, the one about <a gone word>"), and counted in a row of its own beside the unanswered one.
3. feelings (heldout_feelings.json): a message in a session, closed and consolidated; the next
   morning ``mood.get``: a pass when the valence sign (and the fatigue band, where labelled) agree.
   Losses (a death, a break-up, a diagnosis) also pass only when consolidation armed no "how it
   went" item (scene ``plan``/``worry``) for them; a gentle check-in or nothing is right. With
   ``XAID_PERF_UNDERSTANDING_MODEL`` set they are played a second time on a daemon with that model,
   which consolidation asks once per session where the embedder reads a feeling (``mood.ask_model``);
   the scripted provider's echo names no feeling, so the first run measures the embedder alone.

Also what it costs: the memory's model calls per consolidated session and the fast-path share of
the consistency check (``stats`` ``memory`` counters, before and after each set).

``--quick`` plays every fifth case of each set and never the model.

Which held-out sets: ``XAID_PERF_UNDERSTANDING_SETS`` names them (``HELD_OUT``): ``heldout`` (the
default, the first set, area ``understanding``) ``heldout2`` (heldout2_*.json, written later by
another author, same formats; its section is area ``understanding2``, so both sets' figures stand
side by side in perf/RESULTS.md), ``heldout3`` (heldout3_*.json, a third author; area
``understanding3``), ``heldout4`` (heldout4_*.json, a fourth author; area ``understanding4``: its
forget items each have an older session of their own sharing a person, a place or words with the
matter, and its feelings a calm label, ``"0"``, judged by the next morning's bands) ``heldout5``
(heldout5_*.json, a fifth author, same formats as the fourth; area ``understanding5``) or ``heldout6``
(heldout6_*.json, a sixth author, session 45, same formats; area ``understanding6``). Every file is
checked as it loads (``heldout_files``: a malformed one is refused naming the case). For the later
held-out sets (``private``) which cases failed is written only to
/tmp/xaid-perf-understanding-<set>.json, never to RESULTS.md or stdout: the engineers changing the
rules read the pass rates, not the cases, so they cannot tune on them.

``python -m perf.eval.understanding --freeze-before LABEL`` keeps the latest run of this area (of the
sets ``XAID_PERF_UNDERSTANDING_SETS`` names) in perf/results.json as a section of its own,
``understanding_before`` (``understanding2_before``), titled with LABEL (e.g. the
commit measured): a later ``python -m perf understanding`` replaces the area's section but not that
copy, so perf/RESULTS.md shows the numbers before and after the rules change side by side (item 8).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from xaiclient import Client

from ..kit import (
    AGENT_NAME,
    HERE,
    MINUTE,
    Aim,
    CaseTally,
    Row,
    Section,
    at,
    contains,
    day0,
    load_results,
    misses,
    progress,
    render,
    save_results,
    scratch_daemon,
    wait_model,
)
from . import heldout_files
from .forget_honoured import reader

UPDATE_AIM = Aim(">=", 90.0)
CONTROL_AIM = Aim(">=", 100.0)
FORGET_AIM = Aim(">=", 100.0)
MISFIRE_AIM = Aim("<=", 0.0)
FEELING_AIM = Aim(">=", 90.0)
LOSS_AIM = Aim(">=", 100.0)
LANGS = ("en", "zh")
# A valence this close to 0 is no reading: the sign of a residue is not what a friend carries over.
VALENCE_EPS = 0.02
TIRED_BANDS = ("tired", "exhausted")
# A calm session ("0"): the next morning's bands neutral and not tired. The turn's own mood has no
# bands; there the band edges of docs/mood.md stand in (low <= -0.25, good >= 0.3, tired >= 0.25).
CALM_VALENCE = (-0.25, 0.3)
CALM_FATIGUE = 0.25
ASKING_SCENES = ("plan", "worry")  # items that ask how a matter went (docs/scheduler.md)
SEARCH_K = 20  # the forget probe looks wider than a turn does: any trace left counts
SEARCH_BUDGET = 4000
MODEL_ENV = "XAID_PERF_UNDERSTANDING_MODEL"
BUDGET_ENV = "XAID_PERF_UNDERSTANDING_BUDGET_S"
AREA = "understanding"
BEFORE_AREA = "understanding_before"
SETS_ENV = "XAID_PERF_UNDERSTANDING_SETS"
DEFAULT_BUDGET_S = 1800.0
COST_KEYS = (
    "llm_calls",
    "fact_fast",
    "fact_llm",
    "fact_rules",
    "fact_unsure_asked",
    "fact_unsure_calls",
)


@dataclass(frozen=True)
class HeldOut:
    """One held-out set of the three kinds: its files (perf/scenarios/) and the section it fills.
    Each set is written by a different author and measured, never tuned on; a later set does not
    replace an earlier one, it is read beside it."""

    name: str
    updates: str
    forgets: str
    feelings: str
    area: str
    title: str
    # Held out from the engineers changing the rules: which cases fail goes only to a file in /tmp,
    # never to perf/RESULTS.md or stdout, so nobody tunes on a case by reading its miss.
    private: bool = False


HELD_OUT = {
    "heldout": HeldOut(
        "heldout",
        "heldout_updates.json",
        "heldout_forgets.json",
        "heldout_feelings.json",
        AREA,
        "Understanding on held-out wordings (issue 24 item 7)",
    ),
    "heldout2": HeldOut(
        "heldout2",
        "heldout2_updates.json",
        "heldout2_forgets.json",
        "heldout2_feelings.json",
        "understanding2",
        "Understanding on the second held-out set (issue 24 item 7, another author)",
        private=True,
    ),
    "heldout3": HeldOut(
        "heldout3",
        "heldout3_updates.json",
        "heldout3_forgets.json",
        "heldout3_feelings.json",
        "understanding3",
        "Understanding on the third held-out set (issue 24 item 7, a third author)",
        private=True,
    ),
    "heldout4": HeldOut(
        "heldout4",
        "heldout4_updates.json",
        "heldout4_forgets.json",
        "heldout4_feelings.json",
        "understanding4",
        "Understanding on the fourth held-out set (issue 24 item 7, a fourth author)",
        private=True,
    ),
    "heldout5": HeldOut(
        "heldout5",
        "heldout5_updates.json",
        "heldout5_forgets.json",
        "heldout5_feelings.json",
        "understanding5",
        "Understanding on the fifth held-out set (issue 24 item 7, a fifth author)",
        private=True,
    ),
    "heldout6": HeldOut(
        "heldout6",
        "heldout6_updates.json",
        "heldout6_forgets.json",
        "heldout6_feelings.json",
        "understanding6",
        "Understanding on the sixth held-out set (issue 24 item 7, a sixth author)",
        private=True,
    ),
}
CASES_FILE = "/tmp/xaid-perf-understanding-{name}.json"  # per-case lines of a private set


def chosen_sets() -> HeldOut:
    """The sets ``XAID_PERF_UNDERSTANDING_SETS`` names (default the first)."""
    name = os.environ.get(SETS_ENV, "heldout") or "heldout"
    if name not in HELD_OUT:
        raise ValueError(f"{SETS_ENV}={name!r}: one of {', '.join(HELD_OUT)}")
    return HELD_OUT[name]


# --- what each set measures ---------------------------------------------------------------------


@dataclass
class ByKey:
    """Tallies by a label (language, language/kind), in the order first seen."""

    tallies: dict[str, CaseTally] = field(default_factory=dict)

    def add(self, key: str, ok: bool, case_id: str, why: str = "") -> None:
        self.tallies.setdefault(key, CaseTally()).add(ok, case_id, why)

    def get(self, key: str) -> CaseTally:
        return self.tallies.get(key, CaseTally())

    def summary(self) -> str:
        return ", ".join(f"{k} {t.hits}/{t.total}" for k, t in sorted(self.tallies.items()))


@dataclass
class Cost:
    """The memory's own work over a set: sessions consolidated and the ``stats`` counters spent."""

    sessions: int = 0
    counters: dict[str, int] = field(default_factory=dict)

    @property
    def calls_per_session(self) -> float:
        return round(self.counters.get("llm_calls", 0) / self.sessions, 3) if self.sessions else 0.0

    @property
    def fast_share(self) -> float | None:
        decided = sum(self.counters.get(k, 0) for k in ("fact_fast", "fact_llm", "fact_rules"))
        return round(100.0 * self.counters.get("fact_fast", 0) / decided, 1) if decided else None

    def describe(self) -> str:
        counts = ", ".join(f"{k} {self.counters.get(k, 0)}" for k in COST_KEYS)
        fast = "n/a" if self.fast_share is None else f"{self.fast_share:.1f} %"
        return f"{self.sessions} sessions consolidated; {counts}; fast-path share {fast}"


def memory_counters(c: Client) -> dict[str, int]:
    memory = c.stats()["memory"]
    return {k: int(memory.get(k, 0)) for k in COST_KEYS}


@dataclass
class Updates:
    by_lang: ByKey = field(default_factory=ByKey)  # changes only
    controls: ByKey = field(default_factory=ByKey)
    by_kind: ByKey = field(default_factory=ByKey)  # lang/subject kind
    strict: ByKey = field(default_factory=ByKey)  # changes: no item holds the old value alone
    cost: Cost = field(default_factory=Cost)
    skipped: int = 0  # cases left unplayed when the time box ran out


@dataclass
class Forgets:
    honoured: ByKey = field(default_factory=ByKey)
    by_ref: ByKey = field(default_factory=ByKey)
    recognised: ByKey = field(default_factory=ByKey)
    asked: ByKey = field(default_factory=ByKey)  # recognised, but asked back instead of forgetting
    misfired: ByKey = field(default_factory=ByKey)  # a hit is bad
    collateral: ByKey = field(default_factory=ByKey)  # unrelated words lost: a hit is bad
    # The same requests played again by a user who answers the question back as a person who
    # reads it (``reading_user``): honoured, and an unrelated older session lost
    answered: ByKey = field(default_factory=ByKey)
    answered_lost: ByKey = field(default_factory=ByKey)


@dataclass
class Feelings:
    carried: ByKey = field(default_factory=ByKey)
    by_kind: ByKey = field(default_factory=ByKey)
    losses: ByKey = field(default_factory=ByKey)  # a hit: no "how it went" for the loss
    read_now: ByKey = field(default_factory=ByKey)  # the same judgement on the turn's own reading
    cost: Cost = field(default_factory=Cost)


# --- shared steps ---------------------------------------------------------------------------------


def ingested_session(c: Client, agent: str, lines: Sequence[str], ts: int) -> None:
    """History said elsewhere: the user's lines a minute apart, closed and consolidated."""
    sid = c.session_open(agent, ts=ts)["session_id"]
    c.session_ingest(
        sid, [{"role": "user", "text": line, "ts": ts + i * MINUTE} for i, line in enumerate(lines)]
    )
    c.session_close(sid, ts=ts + len(lines) * MINUTE, wait=True)


def chat_session(
    c: Client,
    agent: str,
    lines: Sequence[str],
    ts: int,
    answer: Callable[[dict[str, Any]], str] | None = None,
) -> list[dict[str, Any]]:
    """A session lived through ``session.send`` with ``explain``, a minute a line, closed and
    consolidated a minute after the last; each turn's ``context`` (what was forgotten, the mood).
    With ``answer``, a question back about a forget is answered in the next turn (its context
    follows the question's)."""
    sid = c.session_open(agent, ts=ts)["session_id"]
    contexts = []
    t = ts
    for line in lines:
        ctx = c.session_send(sid, line, ts=t, explain=True).finish()["context"]
        contexts.append(ctx)
        t += MINUTE
        if answer is not None and (ctx.get("forgotten") or {}).get("decision") == "ask":
            said = answer(ctx["forgotten"])
            contexts.append(c.session_send(sid, said, ts=t, explain=True).finish()["context"])
            t += MINUTE
    c.session_close(sid, ts=t, wait=True)
    return contexts


def reading_user(case: dict[str, Any]) -> Callable[[dict[str, Any]], str]:
    """A user who reads the question back (forget_honoured.reader), the case's history the matter
    meant."""
    return reader(case["lang"], case["history"]["lines"], case["gone"][0])


def fired(contexts: Sequence[dict[str, Any]]) -> bool:
    """Whether any of these turns reported a forget (or a question back about one)."""
    return any(ctx.get("forgotten") is not None for ctx in contexts)


def asked_back(contexts: Sequence[dict[str, Any]]) -> bool:
    """Whether one of these turns asked "do you mean …?" instead of forgetting: the harness never
    answers, so such a request counts as not honoured; the row's note says how many there were."""
    return any((ctx.get("forgotten") or {}).get("decision") == "ask" for ctx in contexts)


def first_rank(
    items: Sequence[dict[str, Any]], words: Sequence[str], before: int | None = None
) -> int | None:
    """The rank of the first current item holding any of ``words`` (history items do not count);
    with ``before``, only items from before that time (ms)."""
    for i, item in enumerate(items):
        if before is not None and item["ts"] >= before:
            continue
        if item.get("current", True) and contains([item["text"]], words):
            return i
    return None


def costed(c: Client, cost: Cost, sessions: int, play: Callable[[], object]) -> None:
    """Run ``play`` and add what the memory spent on it to ``cost``."""
    before = memory_counters(c)
    play()
    after = memory_counters(c)
    cost.sessions += sessions
    for k in COST_KEYS:
        cost.counters[k] = cost.counters.get(k, 0) + after[k] - before[k]


# --- 1. updates -------------------------------------------------------------------------------------


def judge_update(
    case: dict[str, Any], items: Sequence[dict[str, Any]], changed_at: int
) -> tuple[bool, bool, str]:
    """(pass, strict pass, why not). The old value counts where an item from before the change
    (``changed_at``, ms) states it: the change itself often names the old value ("we left Lyon,
    we're in Porto"), and its turns, episode and facts are the new statement, not the old one.
    Strict also wants no such item in the block at all."""
    cur = first_rank(items, case["current"])
    if case["kind"] == "control":
        return cur is not None, cur is not None, "" if cur is not None else "original value lost"
    old = first_rank(items, case["old"], before=changed_at)
    ok = cur is not None and (old is None or cur < old)
    why = (
        "current value missing"
        if cur is None
        else ""
        if ok
        else f"old value ranks first ({old} < {cur})"
    )
    return ok, ok and old is None, why


def play_update(c: Client, case: dict[str, Any], base: int, out: Updates, prefix: str) -> None:
    agent = f"{prefix}-{case['id']}"
    c.agent_create(agent, name=AGENT_NAME)
    sessions = [*case["before"], case["after"]]

    def live() -> None:
        for s in sessions:
            ingested_session(c, agent, s["lines"], at(base, s["day"], s["hour"]))

    costed(c, out.cost, len(sessions), live)
    p = case["probe"]
    items = c.memory_search(agent, p["text"], ts=at(base, p["day"], p["hour"]))["items"]
    changed_at = at(base, case["after"]["day"], case["after"]["hour"])
    ok, strict, why = judge_update(case, items, changed_at)
    lang = case["lang"]
    if case["kind"] == "control":
        out.controls.add(lang, ok, case["id"], f"{case['control']}: {why}")
        return
    out.by_lang.add(lang, ok, case["id"], why)
    out.strict.add(lang, strict, case["id"])
    kind = "unusual subject" if case["unusual_subject"] else "common subject"
    out.by_kind.add(f"{lang}/{kind}", ok, case["id"])


def updates(
    c: Client, cases: Sequence[dict[str, Any]], base: int, prefix: str, budget_s: float
) -> Updates:
    out = Updates()
    deadline = time.monotonic() + budget_s
    for n, case in enumerate(cases):
        if time.monotonic() > deadline:
            out.skipped = len(cases) - n
            break
        play_update(c, case, base, out, prefix)
    return out


# --- 2. forgets -------------------------------------------------------------------------------------


def keep_session(c: Client, agent: str, keep: dict[str, Any], base: int) -> None:
    """The agent's older, unrelated session, whose words a forget must not take."""
    chat_session(c, agent, keep["lines"], at(base, keep["day"], keep["hour"]))


def keeps_of(item: dict[str, Any], keep: dict[str, Any]) -> list[dict[str, Any]]:
    """The older sessions an agent lives first: the language's, and the item's own when it has one
    (the fourth set on: a session sharing a person, a place or words with the matter)."""
    return [keep, *([item["keep"]] if "keep" in item else [])]


def lost_any(c: Client, agent: str, keeps: Sequence[dict[str, Any]], ts: int) -> bool:
    """Whether a forget took any of these unrelated sessions' words."""
    return any(not still_there(c, agent, k["lines"], k["words"], ts) for k in keeps)


def still_there(
    c: Client, agent: str, queries: Sequence[str], words: Sequence[str], ts: int
) -> bool:
    """Whether any search among ``queries`` at ``ts`` returns an item holding one of ``words``."""
    for q in queries:
        items = c.memory_search(agent, q, k=SEARCH_K, budget_tokens=SEARCH_BUDGET, ts=ts)["items"]
        if contains([i["text"] for i in items], words):
            return True
    return False


def lived_request(
    c: Client,
    agent: str,
    case: dict[str, Any],
    keep: dict[str, Any],
    base: int,
    answer: Callable[[dict[str, Any]], str] | None = None,
) -> tuple[list[dict[str, Any]], bool, bool]:
    """One agent lives the case's older sessions, its history and its request (``answer``: how
    a question back is answered, if at all); (the request turns' contexts, whether the gone words
    are still found a week later, whether an unrelated older session lost its words)."""
    c.agent_create(agent, name=AGENT_NAME)
    keeps = keeps_of(case, keep)
    for k in keeps:
        keep_session(c, agent, k, base)
    h, r = case["history"], case["request"]
    h_ts = at(base, h["day"], h["hour"])
    if r.get("same_session"):
        lines = [*h["lines"], *r["lines"]]
        said = chat_session(c, agent, lines, h_ts, answer)[len(h["lines"]) :]
    else:
        chat_session(c, agent, h["lines"], h_ts)
        said = chat_session(c, agent, r["lines"], at(base, r["day"], r["hour"]), answer)
    probe_ts = at(base, case["probe"]["day"], case["probe"]["hour"])
    left = still_there(c, agent, [*h["lines"], " ".join(case["gone"])], case["gone"], probe_ts)
    return said, left, lost_any(c, agent, keeps, probe_ts)


def play_request(
    c: Client, case: dict[str, Any], keep: dict[str, Any], base: int, out: Forgets
) -> None:
    said, left, lost = lived_request(c, f"hf-{case['id']}", case, keep, base)
    forgot = fired(said)
    why = "; ".join(
        w for w, bad in (("not recognised", not forgot), ("words still found", left)) if bad
    )
    lang = case["lang"]
    out.honoured.add(lang, forgot and not left, case["id"], why)
    out.recognised.add(lang, forgot, case["id"])
    out.asked.add(lang, asked_back(said), case["id"])
    out.by_ref.add(f"{lang}/{case['refers_by']}", forgot and not left, case["id"])
    out.collateral.add(lang, lost, case["id"])
    if asked_back(said):  # the same case again, its question answered as a person would
        said, left, lost = lived_request(
            c, f"hfa-{case['id']}", case, keep, base, reading_user(case)
        )
    out.answered.add(lang, fired(said) and not left, case["id"])
    out.answered_lost.add(lang, lost, case["id"])


def play_negative(
    c: Client, neg: dict[str, Any], keep: dict[str, Any], base: int, out: Forgets
) -> None:
    agent = f"hfn-{neg['id']}"
    c.agent_create(agent, name=AGENT_NAME)
    keeps = keeps_of(neg, keep)
    for k in keeps:
        keep_session(c, agent, k, base)
    said = at(base, neg["said"]["day"], neg["said"]["hour"])
    forgot = fired(chat_session(c, agent, [neg["text"]], said))
    probe_ts = at(base, neg["probe"]["day"], neg["probe"]["hour"])
    lost = lost_any(c, agent, keeps, probe_ts)
    out.misfired.add(neg["lang"], forgot, neg["id"], neg["text"])
    out.collateral.add(neg["lang"], lost, neg["id"])


def forgets(c: Client, every: int, name: str = HELD_OUT["heldout"].forgets) -> Forgets:
    data = heldout_files.forgets(name)
    base = day0(data)
    out = Forgets()
    for case in data["requests"][::every]:
        play_request(c, case, data["keep"][case["lang"]], base, out)
    for neg in data["negatives"][::every]:
        play_negative(c, neg, data["keep"][neg["lang"]], base, out)
    return out


# --- 3. feelings ------------------------------------------------------------------------------------


def calm(mood: dict[str, Any]) -> bool:
    """Nothing strong carried: a neutral valence band and no tiredness band (or, for a reading
    without bands, values inside the band edges)."""
    bands = mood.get("bands")
    if bands:
        return bool(bands.get("valence") == "neutral" and bands.get("fatigue") not in TIRED_BANDS)
    low, good = CALM_VALENCE
    return low < float(mood["valence"]) < good and float(mood["fatigue"]) < CALM_FATIGUE


def judge_feeling(case: dict[str, Any], mood: dict[str, Any]) -> tuple[bool, str]:
    valence = float(mood["valence"])
    want = case["valence"]
    seen = f"valence {valence:+.3f}, fatigue {float(mood['fatigue']):.2f}"
    if want == "0":
        ok = calm(mood)
        return ok, "" if ok else f"want calm: {seen}"
    sign_ok = (
        want is None
        or (want == "+" and valence > VALENCE_EPS)
        or (want == "-" and valence < -VALENCE_EPS)
    )
    tired = (mood.get("bands") or {}).get("fatigue") in TIRED_BANDS
    fatigue_ok = not case["fatigue"] or tired
    return sign_ok and fatigue_ok, "" if sign_ok and fatigue_ok else f"want {want}: {seen}"


def asks_how_it_went(items: Sequence[dict[str, Any]]) -> bool:
    return any(
        i["scene"] in ASKING_SCENES or str(i["topic"]).startswith("how it went") for i in items
    )


def play_feeling(c: Client, case: dict[str, Any], base: int, out: Feelings) -> None:
    agent = f"hm-{case['id']}"
    c.agent_create(agent, name=AGENT_NAME)
    said = at(base, case["said"]["day"], case["said"]["hour"])
    turns: list[dict[str, Any]] = []
    lines = [case["opener"], case["text"]]
    costed(c, out.cost, 1, lambda: turns.extend(chat_session(c, agent, lines, said)))
    mood = c.mood_get(agent, ts=at(base, case["read"]["day"], case["read"]["hour"]))
    ok, why = judge_feeling(case, mood)
    lang = case["lang"]
    out.carried.add(lang, ok, case["id"], why)
    if (now := turns[-1].get("mood")) is not None:
        out.read_now.add(lang, judge_feeling(case, now)[0], case["id"])
    out.by_kind.add(f"{lang}/{case['kind']}", ok, case["id"])
    if case["loss"]:
        items = c.scheduler_list(agent, states=["pending"])["items"]
        asked = asks_how_it_went(items)
        topics = "; ".join(str(i["topic"])[:60] for i in items if i["scene"] in ASKING_SCENES)
        out.losses.add(lang, not asked, case["id"], topics)


def feelings(c: Client, every: int, name: str = HELD_OUT["heldout"].feelings) -> Feelings:
    data = heldout_files.feelings(name)
    base = day0(data)
    out = Feelings()
    for case in data["cases"][::every]:
        play_feeling(c, case, base, out)
    return out


# --- the area ---------------------------------------------------------------------------------------


def per_lang_rows(
    figure: str, by: ByKey, aim: Aim, extra: Callable[[str], str] | None = None
) -> Iterator[Row]:
    for lang in LANGS:
        t = by.get(lang)
        if not t.total:
            continue
        note = f"{t.hits}/{t.total}" + (f"; {extra(lang)}" if extra else "")
        yield Row(f"{figure}, {lang}", t.percent, "%", aim, note=note)


# Each ``*_rows`` returns (rows, aggregate notes, per-case lines); ``run`` decides where the
# per-case lines go (the section for the first set, a file in /tmp for a private one).
Parts = tuple[list[Row], list[str], list[str]]


def relabelled(rows: Sequence[Row], prefix: str) -> list[Row]:
    """``rows`` with their figure said as a dev set's half ("dev45 train: forget: …"): the dev sets in
    the held-out format (forget_dev45, understanding_dev46) report with this harness's rows."""
    return [
        dataclasses.replace(r, figure=f"{prefix}: {r.figure.removeprefix('held-out ')}")
        for r in rows
    ]


def update_rows(label: str, u: Updates) -> Parts:
    rows = [
        *per_lang_rows(
            f"held-out updates ({label}): current value ranks above the old a week later",
            u.by_lang,
            UPDATE_AIM,
            lambda lang: (
                f"strict (no item from before the change holds the old value) {u.strict.get(lang).hits}/"
                f"{u.strict.get(lang).total}"
            ),
        ),
        *per_lang_rows(
            f"held-out update controls ({label}): the original value still current",
            u.controls,
            CONTROL_AIM,
        ),
        Row(
            f"updates ({label}): memory model calls per consolidated session",
            u.cost.calls_per_session,
            "",
            note=u.cost.describe(),
        ),
    ]
    if u.cost.fast_share is not None:
        rows.append(
            Row(
                f"updates ({label}): fast-path share of the consistency check",
                u.cost.fast_share,
                "%",
            )
        )
    notes = [f"updates ({label}) by subject: {u.by_kind.summary()}"]
    cases = []
    for lang in LANGS:
        cases.append(misses(f"updates ({label}) {lang}", u.by_lang.get(lang)))
        cases.append(misses(f"update controls ({label}) {lang}", u.controls.get(lang)))
    if u.skipped:
        notes.append(f"updates ({label}): {u.skipped} cases not played, the time box ran out")
    return rows, notes, cases


def forget_rows(f: Forgets) -> Parts:
    rows = [
        *per_lang_rows(
            "held-out forget: request recognised and the words gone a week later",
            f.honoured,
            FORGET_AIM,
            lambda lang: (
                f"recognised {f.recognised.get(lang).hits}/{f.recognised.get(lang).total}"
                f", of which asked back (not answered here) {f.asked.get(lang).hits}"
            ),
        ),
        *per_lang_rows(
            "held-out forget, questions back answered as a person who reads them: the words gone"
            " a week later",
            f.answered,
            FORGET_AIM,
            lambda lang: f"an unrelated older session lost {f.answered_lost.get(lang).hits}",
        ),
        *per_lang_rows(
            "held-out forget: mis-fires on forget-words that ask nothing", f.misfired, MISFIRE_AIM
        ),
        *per_lang_rows(
            "held-out forget: an unrelated older session lost", f.collateral, Aim("<=", 0.0)
        ),
    ]
    notes = [f"forget by how the request refers: {f.by_ref.summary()}"]
    cases = [
        *(misses(f"forget {lang}", f.honoured.get(lang)) for lang in LANGS),
        "forget mis-fires: "
        + ("; ".join(m for lang in LANGS for m in f.misfired.get(lang).hit_ids) or "none"),
        "collateral losses: "
        + ("; ".join(m for lang in LANGS for m in f.collateral.get(lang).hit_ids) or "none"),
    ]
    return rows, notes, cases


def feeling_rows(f: Feelings, label: str = "") -> Parts:
    """The feelings rows; ``label`` ("with qwen…gguf") names a run where the daemon had the real model,
    which consolidation asks once per session where the embedder reads a feeling (``mood.ask_model``)."""
    with_ = f" ({label})" if label else ""
    rows = [
        *per_lang_rows(
            f"held-out feelings{with_}: next morning's valence sign (and fatigue) as a friend reads it",
            f.carried,
            FEELING_AIM,
        ),
        *per_lang_rows(
            f'held-out losses{with_}: no "how it went" follow-up armed', f.losses, LOSS_AIM
        ),
        Row(
            f"feelings{with_}: memory model calls per consolidated session",
            f.cost.calls_per_session,
            "",
            note=f.cost.describe(),
        ),
    ]
    notes = [
        "feelings read right after the message (the turn's own mood, same judgement; it tells a "
        f"feeling never read from one faded by morning): {f.read_now.summary()}",
        f"feelings by kind: {f.by_kind.summary()}",
    ]
    cases = [
        *(misses(f"feelings {lang}", f.carried.get(lang)) for lang in LANGS),
        *(misses(f"losses asked about {lang}", f.losses.get(lang)) for lang in LANGS),
    ]
    return rows, notes, cases


def model_env(path: str) -> dict[str, str]:
    return {
        "XAID_LLM_PROVIDER": "llama_cpp",
        "XAID_LLM_MODEL_PATH": path,
        "XAID_LLM_MODEL": "smollm2-135m",  # what an empty model_path means; model_path wins
    }


def with_model(
    path: str, every: int, budget_s: float, name: str = HELD_OUT["heldout"].updates
) -> Updates:
    """The updates with the model deciding: one daemon per language, each time-boxed."""
    data = heldout_files.updates(name)
    base = day0(data)
    total = Updates()
    for lang in LANGS:
        cases = [c for c in data["cases"][::every] if c["lang"] == lang]
        progress(f"understanding: updates with {Path(path).name}, {lang} ({len(cases)} cases)")
        with scratch_daemon(model_env(path)) as daemon, daemon.client(timeout=1800.0) as c:
            wait_model(c, 600, 0.1, daemon)
            part = updates(c, cases, base, "hum", budget_s)
        merge(total, part)
    return total


def merge(into: Updates, part: Updates) -> None:
    for name in ("by_lang", "controls", "by_kind", "strict"):
        getattr(into, name).tallies.update(getattr(part, name).tallies)
    into.cost.sessions += part.cost.sessions
    for k, v in part.cost.counters.items():
        into.cost.counters[k] = into.cost.counters.get(k, 0) + v
    into.skipped += part.skipped


def measured_commit() -> str:
    """The commit the daemon ran from (and whether the tree had changes): a BEFORE section has to
    say which code it measured."""

    def git(*args: str) -> str:
        return subprocess.run(
            ["git", *args], cwd=HERE, capture_output=True, text=True, check=False
        ).stdout.strip()

    head = git("rev-parse", "--short", "HEAD")
    if not head:
        return "unknown (not a git checkout)"
    dirty = git("status", "--porcelain", "--", "../xaid")
    return f"{head}{' with uncommitted changes in xaid/' if dirty else ''}"


def run(quick: bool) -> Section:
    every = 5 if quick else 1
    sets = chosen_sets()
    section = Section(sets.title, area=sets.area)
    timings: list[str] = []
    with scratch_daemon() as daemon, daemon.client(timeout=120.0) as c:
        started = time.perf_counter()
        progress("understanding: updates, rules alone")
        data = heldout_files.updates(sets.updates)
        rules = updates(c, data["cases"][::every], day0(data), "hur", float("inf"))
        timings.append(f"updates {time.perf_counter() - started:.0f} s")
        started = time.perf_counter()
        progress("understanding: forgets")
        fg = forgets(c, every, sets.forgets)
        timings.append(f"forgets {time.perf_counter() - started:.0f} s")
        started = time.perf_counter()
        progress("understanding: feelings")
        fe = feelings(c, every, sets.feelings)
        timings.append(f"feelings {time.perf_counter() - started:.0f} s")
    parts = [update_rows("rules alone", rules), forget_rows(fg), feeling_rows(fe)]
    model = os.environ.get(MODEL_ENV, "")
    if model and not quick:
        started = time.perf_counter()
        budget = float(os.environ.get(BUDGET_ENV, DEFAULT_BUDGET_S))
        by_model = with_model(model, every, budget, sets.updates)
        parts.insert(1, update_rows(f"with {Path(model).name}", by_model))
        timings.append(f"updates with the model {time.perf_counter() - started:.0f} s")
        started = time.perf_counter()
        progress(f"understanding: feelings with {Path(model).name}")
        with scratch_daemon(model_env(model)) as daemon, daemon.client(timeout=1800.0) as c:
            wait_model(c, 600, 0.1, daemon)
            parts.append(
                feeling_rows(feelings(c, every, sets.feelings), f"with {Path(model).name}")
            )
        timings.append(f"feelings with the model {time.perf_counter() - started:.0f} s")
    else:
        timings.append(f"the model run is off (set {MODEL_ENV}=/work/models/qwen15.gguf)")
    case_lines: list[str] = []
    for rows, notes, cases in parts:
        section.rows += rows
        section.notes += notes
        case_lines += cases
    section.notes += place_case_lines(sets, case_lines)
    section.notes.append(
        f"sets: {sets.updates}, {sets.forgets}, {sets.feelings} ({SETS_ENV}={sets.name})"
    )
    section.notes.append(f"code measured: {measured_commit()}; time: " + ", ".join(timings))
    return section


def place_case_lines(sets: HeldOut, lines: list[str]) -> list[str]:
    """The notes the section keeps of the per-case lines: all of them for the first set; for a
    private set none, only where they went (a file in /tmp that the person measuring may read)."""
    if not sets.private:
        return lines
    path = Path(CASES_FILE.format(name=sets.name))
    path.write_text(json.dumps(lines, ensure_ascii=False, indent=1), encoding="utf-8")
    return [f"per-case lines of this held-out set: {path} (kept out of RESULTS.md and stdout)"]


# --- before and after ---------------------------------------------------------------------------------


def freeze_before(label: str, results: Path = HERE / "results.json", area: str = AREA) -> None:
    """Copy the area's latest section to ``<area>_before`` (``understanding_before`` for the first
    set; titled with ``label``) and render RESULTS.md next to ``results`` again; the copy is what
    the next run is compared with."""
    sections = load_results(results)
    if area not in sections:
        sets = [f"{SETS_ENV}={h.name} " for h in HELD_OUT.values() if h.area == area != AREA]
        command = f"{''.join(sets)}python -m perf {AREA}"
        raise SystemExit(f"{results} has no {area!r} section: run `{command}` first")
    latest = sections[area]
    before = BEFORE_AREA if area == AREA else f"{area}_before"
    sections[before] = dataclasses.replace(
        latest, title=f"{latest.title}: BEFORE ({label})", area=before
    )
    save_results(results, sections)
    markdown = results.with_name(
        "RESULTS.md" if results.name == "results.json" else results.stem + ".md"
    )
    markdown.write_text(render(sections), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m perf.eval.understanding")
    parser.add_argument(
        "--freeze-before",
        metavar="LABEL",
        required=True,
        help="keep the latest run as the BEFORE section, titled with LABEL (e.g. the commit measured)",
    )
    parser.add_argument("--results", type=Path, default=HERE / "results.json")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    freeze_before(args.freeze_before, args.results, chosen_sets().area)
    return 0


if __name__ == "__main__":
    sys.exit(main())
