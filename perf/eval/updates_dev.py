"""Updates by meaning on the DEV sets (issue 24 items 1, 3, 8): area ``updates_dev``.

perf/scenarios/updates_dev.json holds 48 changes (24 en, 24 zh: commute, drink, pet, team, bedtime,
GP, bank, shift, hair, …, said as people say them) and 16 controls that must not supersede (an
addition, past narration, a hypothetical, someone else's change, a plan, an unrelated present
statement). It is the set the change cues and thresholds were tuned on; the held-out set is
written and run apart. perf/scenarios/updates_dev2.json (60 changes and 15 controls per language
on subjects no fact rule lists, written before the updates3 change) is split by case: ``train`` is
tuned on, ``test`` only measured, and the notes name the missed cases of the train split only.
perf/scenarios/updates_dev3.json (44 controls and 44 changes per language, written before the
updates4 change: precision first) is split the same way, and so is perf/scenarios/updates_dev4.json
(48 controls and 36 changes, two thirds Chinese, written before the updates5 change), and so is
perf/scenarios/updates_dev7.json (30 changes and 20 controls of eight kinds per language, written
before the updates7 change: no false change first), and so is perf/scenarios/updates_dev10.json (20
changes and 21 controls of seven kinds per language: someone else's change, tried once, a quote, a
hypothetical, a past narrative, an addition, a refusal; written before the update10 change), and so
is perf/scenarios/supersede_dev13.json (16 changes and 16 controls per language, the controls mostly
news of the thing itself, not the user's change; written before the supersede13 change), and so
is perf/scenarios/supersede_dev14.json (16 changes said indirectly, of times and places, with a
reason, and 16 controls, among them a habit with a one-off exception, per language; written before
the update14 change), and so is perf/scenarios/updates_dev15.json (20 changes, 8 of them with no
change word and the old value far in meaning, and 28 controls that restate, add a detail, add a
second value, tell the past, weigh a change not made or suppose one, per language; written before
the update15 change), and so is perf/scenarios/updates_dev33.json (12 controls, half of them someone
else's change said with a change word, and 6 of the user's own changes told beside another person,
per language; written before session 33's change).
``XAID_PERF_UPDATES_SETS=updates_dev2`` plays one set.

Each case gets its own agent: the earlier statement is ingested in a session on day 0, the later
one in a session on day 6 (or ``after_day``; or ten minutes later in the same session with
``same_session``) (``session.ingest``: no replies, so a real model is spent on memory's
own decisions only), both consolidated; a week after the later one ``memory.search`` asks the
probe. A change
passes when a ``new`` key is in the first item and no ``old`` key in any; a control passes when the
earlier statement (its ``keep`` key) is still a current turn (the turns' own ``status`` from
``memory.list``: its ``status`` param is for facts only, and before updates4 this runner listed
history too, so no control could fail), and by the held-out rule when the probe also finds it as a
current item.

The area runs the rules alone (the scripted provider, whose echo is never read as a verdict), then,
with ``XAID_PERF_UPDATES_GGUF=/work/models/qwen15.gguf``, again with that model deciding the unsure
pairs. The counters give the model calls per consolidated session.
"""

from __future__ import annotations

import os
import time
from typing import Any

from xaiclient import Client

from ..kit import (
    Aim,
    CaseTally,
    Row,
    Section,
    at,
    contains,
    day0,
    load_scenario,
    misses,
    progress,
    scratch_daemon,
)

MINUTE = 60_000
# The code before updates by meaning (commit d880c7a), measured with this runner on the same set
# (its xaid from `git archive d880c7a`, this perf): kept as a note, the old code is not in the tree.
BEFORE = (
    "before (d880c7a, same runner and set): rules alone en 2/24, zh 2/24, controls 16/16; with "
    "qwen15.gguf en 2/24, zh 2/24, controls 16/16; memory's model calls 5 over 128 consolidated "
    "sessions (0.039 per session, all fact confirmations; no call for changes, which did not exist)"
)
# main at 7a06120 (before branch updates3), this runner, rules alone: measured 2026-12-02 09:55 UTC.
BEFORE2 = (
    "before updates3 (main 7a06120, same runner and sets, rules alone): updates_dev en 21/24, zh "
    "23/24 (by the held-out rule 22/24, 24/24); updates_dev2 train en 14/40, zh 11/40, test en "
    "7/20, zh 9/20 (by the held-out rule train en 23/40, zh 17/40, test en 15/20, zh 12/20); "
    "controls 46/46; 16 model calls for changes over 420 consolidated sessions, 92 pairs by the "
    "rules, 16 asked (85.2 % fast path)"
)
# main b0e929f (before branch updates4, the runner with its controls fixed), rules alone, 2026-12-02 12:36 UTC.
BEFORE3 = (
    "before updates4 (b0e929f, this runner: controls read by each turn's own status, rules alone): "
    "controls kept updates_dev en 8/8, zh 8/8; updates_dev2 train en 10/10, zh 10/10, test en 5/5, "
    "zh 4/5; updates_dev3 train en 17/22, zh 18/22, test en 20/22, zh 20/22 (kept and found by the "
    "probe: updates_dev zh 7/8, updates_dev3 test zh 18/22, else as kept). Changes, new value first "
    "(by the held-out rule): updates_dev en 22/24 (23), zh 24/24 (24); updates_dev2 train en 29/40 "
    "(31), zh 25/40 (31), test en 15/20 (18), zh 14/20 (16); updates_dev3 train en 9/22 (15), zh "
    "12/22 (19), test en 10/22 (16), zh 11/22 (18); 17 model calls for changes over 772 "
    "consolidated sessions (181 pairs by the rules, 17 asked: 91.4 % fast path)"
)
# main d87e21a (before branch updates5), this runner, rules alone: 2026-12-02 15:27 UTC (15:30 for set 4).
BEFORE4 = (
    "before updates5 (d87e21a, this runner, rules alone): new value ranked above the old (held-out "
    "rule) updates_dev en 23/24, zh 24/24; updates_dev2 train en 31/40, zh 31/40, test en 18/20, zh "
    "15/20; updates_dev3 train en 15/22, zh 19/22, test en 16/22, zh 18/22; updates_dev4 train en "
    "5/6, zh 7/12, test en 1/6, zh 8/12. Strict (new first, old not returned): updates_dev 22/24, "
    "24/24; updates_dev2 train 29/40, 25/40, test 13/20, 14/20; updates_dev3 train 9/22, 12/22, test "
    "10/22, 11/22; updates_dev4 train 3/6, 4/12, test 0/6, 6/12. Controls kept: updates_dev 8/8, 8/8; "
    "updates_dev2 train 10/10, 10/10, test 5/5, 4/5; updates_dev3 train 22/22, 22/22, test 20/22, "
    "20/22; updates_dev4 train en 8/8, zh 14/16, test en 7/8, zh 13/16. 188 pairs by the rules, "
    "0 asked, 0 model calls for changes over 940 consolidated sessions"
)
# main 1b57503 (before branch updates7), this runner, rules alone: 2026-12-03 02:10 UTC.
BEFORE7 = (
    "before updates7 (1b57503, this runner, rules alone): updates_dev7 controls kept train en 8/10, "
    "zh 9/10, test en 7/10, zh 8/10; changes ranked above the old train en 13/15, zh 15/15, test en "
    "15/15, zh 15/15 (strict train 9/15, 12/15, test 11/15, 12/15). Sets 1-4 on that main, ranked: "
    "updates_dev en 23/24, zh 24/24; updates_dev2 train en 33/40, zh 32/40, test en 18/20, zh 16/20; "
    "updates_dev3 train en 16/22, zh 19/22, test en 16/22, zh 19/22; updates_dev4 train en 5/6, zh "
    "7/12, test en 1/6, zh 9/12; controls kept: all but updates_dev3 test en 20/22, zh 21/22 and "
    "updates_dev4 test zh 13/16. Diagnosis of updates_dev7's train controls that fired: a present "
    "word about the one the earlier statement named (豆豆现在胖…, 'Luna is now sleeping…') and a life "
    "stage in the past ('Back in college I switched…'); read as a change but not paired by the "
    "embedder this time: a wish (好想搬去…), progress (已经读到一半了)"
)
# main 31df8a1 with updates_dev15.json alone committed (713bfe2), this runner, rules alone:
# 2026-12-04 06:25-06:35 UTC.
BEFORE15 = (
    "before update15 (713bfe2, rules alone): updates_dev15 controls kept train en 14/14, zh 13/14, "
    "test en 11/14, zh 11/14 (kept and found by the probe: train 14/14, 12/14, test 10/14, 9/14); "
    "changes ranked above the old train en 6/10, zh 8/10, test en 5/10, zh 4/10 (strict 2/10, "
    "4/10, 2/10, 2/10). Train: the Chinese control made history was a hypothetical with an "
    "indefinite time (哪天地铁修到我家门口，我立马就不骑了); the changes missed carry no change word "
    "('three months sober on Sunday, the lime and soda life…' 0.23 from the Guinness; 联通光纤周二装"
    "好了 0.43). The default 1.5B asked about each of the 48 train pairs answered no to all"
)
# main ac6d5e1 (before branch update10) with updates_dev10.json alone committed, this runner, rules
# alone: 2026-12-03 11:22-11:25 UTC (per-case play through perf.eval.updates_dev.evaluate).
BEFORE10 = (
    "before update10 (ac6d5e1 + the dev set, rules alone): updates_dev10 changes ranked above the "
    "old train en 9/10, zh 10/10, test en 8/10, zh 8/10; strict train en 6/10, zh 9/10, test en "
    "7/10, zh 7/10; controls kept train en 11/11, zh 9/11, test en 9/10, zh 8/10 (kept and found "
    "by the probe: train en 9/11, zh 9/11, test en 9/10, zh 7/10). Train misses: a change's cue "
    "not read ('I'm back to paper books', 这几个月周六都去游泳了), a named change far from the "
    "earlier statement by the embedder ('left leeds last month…' 0.17, 'cancelled my gym "
    "membership…' 0.13 after 'I train at PureGym'), a 'still' of the time read as a restatement; "
    "controls made history: a relative's new car read by the fact rules as the user's (我爸把老朗逸"
    "卖了，换了台理想), an offer declined (4S店一直劝我置换新车，我没答应). Sets 1-8 on that main as "
    "in the rows of this section before update10"
)
TRIED10 = (
    "tried and not kept (update10): measuring the earlier statement also against the clause that "
    "names the change alone: the clause is no nearer by USE ('we finally packed up and left leeds "
    "last month' 0.12 from 'I live in Leeds', the whole message 0.17; 'cancelled my gym membership' "
    "0.16 vs 0.13). The object of the change paired from a Chinese clause's topic too (楼下面包房换"
    "老板了): on supersede_dev8 a test-half look-alike became history (controls test en 7 -> 6/10); "
    "only an object after a verb whose doer is the user then, and that is left off "
    "(supersede.OBJECT_PAIRING): it paired the two train examples it was built on (updates_dev10 "
    "train en strict 7 -> 9/10, ranked 9 -> 10/10) and nothing else in seven sets. A refusal read from 'said no' "
    "alone: an updates_dev2 test change ('said no to…' as a quit) stopped replacing (strict test "
    "en 13 -> 12/20), so a refusal needs an offer in the same statement. 这半个月/'the past few "
    "weeks' as a present cue made an updates_dev4 test control history (13 -> 12/16): only months "
    "and years count"
)
# What the train halves showed (updates5's diagnosis: train cases only, played through this runner
# and read offline with the default embedder; the test halves' cases were never read).
DIAGNOSIS = (
    "diagnosis of the train halves' misses before updates5 (35 changes by the held-out rule: 29 in "
    "sets 1-3, 6 in updates_dev4; 2 controls). Sets 1-3: (1) a change cue read but the earlier "
    "statement not paired, the two far apart by the embedder with no word agreeing (cosine "
    "0.13-0.23: 'Obsidian is my second brain now' after 'All my notes live in Evernote' 0.14, "
    "最近全搬到Notion了 after 印象笔记 0.14, 迷上了钩针 after 织毛衣 0.16; or 0.30-0.38 with only a "
    "'now', which needs 0.38): 18, the largest share; (2) nearly paired, 0.25-0.30 with the "
    "subject's words agreeing but under NEAR (0.3): 5 (one of them, 'before work', is a question "
    "read as the past by memory/cues.py's 'before': the old statement was history yet ranked "
    "first); (3) no change cue read, a present statement only (公司有食堂了…饭盒早就收起来了, 'ported "
    "my number over to Three'; 'my art goes on Bluesky now' read as someone else's clause): 4; (4) "
    "within one session: 2 (a correction replaced the session's nearest line, 冲段, instead of the "
    "opening statement, 中炮). updates_dev4: 5 present statements with no change word "
    "(买了个折叠床…, 兽医推荐了渴望…, 办了个和睦家的会员) and 1 far pair. Ranked below by the present "
    "question (recency.py): the probe paraphrases the old statement (cosine 0.3-0.8 to it) and is "
    "far from the new one (0.05-0.2), so recency's pairing (both answering the question at 0.2, or "
    "the pair near) does not hold for the pairs of (1). Cut by the sentence cutter: none in the dev "
    "sets (their turns are short); on a long turn written for the test, '现在在一所中学教数学，开心多了' "
    "was read as an addition (多了) and cut. Controls that fired (train, both updates_dev4 zh): "
    "another household not read as someone else (隔壁老李家改用净水器了), and a 'now' of remembering "
    "lifting the past block (小时候…现在想起来还难受); none in sets 1-3"
)
LEARNED = (
    "tried and not kept: a learned pair classifier (logistic regression over the new statement's "
    "USE vector, standardised, and 19 pair cues: cosine, words agreeing, the cues and each "
    "blocker, a setting, a correction, a question), fitted on 674 train pairs (190 changes, 104 "
    "control pairs, 380 unrelated: a change against another case's earlier statement), 5-fold CV "
    "grouped by case. Out of fold, on the pairs the rules leave unsure, at l2 0.3 and cue gain 10 (the "
    "best log-likelihood): probability >= 0.7 caught 20 of 62 changes with 11 of 102 control pairs; "
    ">= 0.8 caught 11 with 5; the threshold that keeps every control caught 4 of 190. The cues and "
    "the vector do not tell these changes from the look-alikes, so precision first keeps the rules"
)
CHANGE_AIM = Aim(">=", 90.0)
SETS = (
    "updates_dev",
    "updates_dev2",
    "updates_dev3",
    "updates_dev4",
    "updates_dev7",
    "supersede_dev8",
    "updates_dev10",
    "supersede_dev13",
    "supersede_dev14",
    "updates_dev15",
    "updates_dev33",
)
CONTROL_AIM = Aim(">=", 100.0)


def _lines(said: str | list[str]) -> list[str]:
    return [said] if isinstance(said, str) else list(said)


def _session(c: Client, agent: str, parts: list[tuple[list[str], int]]) -> None:
    """One session holding each part's lines, a minute apart from the part's time, consolidated."""
    sid = c.session_open(agent, ts=parts[0][1])["session_id"]
    last = parts[0][1]
    for lines, ts in parts:
        c.session_ingest(
            sid,
            [{"role": "user", "text": t, "ts": ts + i * MINUTE} for i, t in enumerate(lines)],
        )
        last = ts + (len(lines) - 1) * MINUTE
    c.session_close(sid, ts=last + MINUTE, wait=True)


def play(c: Client, case: dict[str, Any], base: int) -> tuple[bool, bool, str]:
    """(passed, passed by the held-out rule ``ranked``, why not)."""
    agent = f"dev-{case['id']}"
    c.agent_create(agent, name="Kai")
    before, after = _lines(case["before"]), _lines(case["after"])
    day = case.get("after_day", 6)
    if case.get("same_session"):
        start = at(base, 0, 20)
        after_ms = start + (len(before) + 10) * MINUTE
        _session(c, agent, [(before, start), (after, after_ms)])
        day = 0
    else:
        _session(c, agent, [(before, at(base, 0, 20))])
        after_ms = at(base, day, 20)
        _session(c, agent, [(after, after_ms)])
    items = c.memory_search(agent, case["probe"], ts=at(base, day + 7, 9))["items"]
    texts = [i["text"] for i in items]
    if case["kind"] == "control":
        # the earlier statement must still be current: memory.list's ``status`` is for facts only
        # (docs/protocol.md), so a turn's own status is read (before updates4 this check listed
        # every turn, history too, and no control could fail); by the held-out rule, the probe
        # must also find it as a current item
        turns = c.memory_list(agent, kind="utterance", limit=1000)["items"]
        current = [i["text"] for i in turns if i["status"] == "current"]
        kept = contains(current, case["keep"])
        found = any(i.get("current", True) and contains([i["text"]], case["keep"]) for i in items)
        why = "" if kept else "the earlier statement was made history"
        return kept, kept and found, why or ("" if found else "not found as current")
    first = contains(texts[:1], case["new"])
    old = contains(texts, case["old"])
    why = ("new value not first; " if not first else "") + ("old value returned" if old else "")
    return first and not old, ranked(items, case, after_ms), why.strip("; ")


def ranked(items: list[dict[str, Any]], case: dict[str, Any], after_ms: int) -> bool:
    """The held-out set's rule (perf/scenarios/README.md, heldout_updates.json): an item holding a
    new key ranks above the first item from before the change holding an old key."""
    new = next((n for n, i in enumerate(items) if contains([i["text"]], case["new"])), None)
    old = next(
        (
            n
            for n, i in enumerate(items)
            if i["ts"] < after_ms and contains([i["text"]], case["old"])
        ),
        len(items),
    )
    return new is not None and new < old


Tallies = dict[str, CaseTally]


def _group(case: dict[str, Any], scenario: str) -> str:
    """The row a case counts in: the set, its split (updates_dev2) and the case's language."""
    split = f" {case['split']}" if "split" in case else ""
    return f"{scenario}{split} {case['lang']}"


def evaluate(
    gguf: str = "", sets: tuple[str, ...] = SETS
) -> tuple[Tallies, Tallies, Tallies, Tallies, dict[str, int]]:
    """(changes by set/split/language, the same by the held-out rule, controls kept, controls kept
    and found current by the probe (the held-out rule), the memory counters), one daemon."""
    env = (
        {
            "XAID_LLM_PROVIDER": "llama_cpp",
            "XAID_LLM_MODEL_PATH": gguf,
            "XAID_MEMORY_ASK_CHANGES": "1",
        }
        if gguf
        else None
    )
    changes: Tallies = {}
    controls: Tallies = {}
    by_rank: Tallies = {}
    found: Tallies = {}
    with scratch_daemon(env) as daemon, daemon.client(timeout=600.0) as c:
        for name in sets:
            data = load_scenario(f"{name}.json")
            base = day0(data)
            for n, case in enumerate(data["cases"]):
                ok, rank_ok, why = play(c, case, base)
                tallies = changes if case["kind"] == "change" else controls
                tallies.setdefault(_group(case, name), CaseTally()).add(ok, case["id"], why)
                ranks = by_rank if case["kind"] == "change" else found
                ranks.setdefault(_group(case, name), CaseTally()).add(rank_ok, case["id"])
                if n % 16 == 0:
                    progress(f"{name}: {n + 1}/{len(data['cases'])}")
        counters = {k: v for k, v in c.stats()["memory"].items() if isinstance(v, int)}
    return changes, by_rank, controls, found, counters


def _rows(
    who: str,
    changes: dict[str, CaseTally],
    by_rank: dict[str, CaseTally],
    controls: dict[str, CaseTally],
    found: dict[str, CaseTally],
    counters: dict[str, int],
) -> list[Row]:
    kinds = (
        ("changes", "new value first, old not returned", changes, CHANGE_AIM),
        ("changes", "new value ranked above the old (held-out rule)", by_rank, CHANGE_AIM),
        ("controls", "earlier statement still current", controls, CONTROL_AIM),
        ("controls", "still current and found by the probe (held-out rule)", found, CONTROL_AIM),
    )
    rows = [
        Row(f"{group} {kind}, {who}: {what}", t.percent, "%", aim, note=f"{t.hits}/{t.total}")
        for kind, what, tallies, aim in kinds
        for group, t in tallies.items()
    ]
    sessions = counters.get("change_sessions", 0) or 1
    calls = counters.get("change_calls", 0)
    ruled, asked = counters.get("change_rules", 0), counters.get("change_pairs_asked", 0)
    rows.append(
        Row(
            f"fast path: pairs decided by the rules, no model, {who}",
            round(100.0 * ruled / max(1, ruled + asked), 1),
            "%",
            note=f"{ruled} by the rules, {asked} asked",
        )
    )
    rows.append(
        Row(
            f"model calls for changes per consolidated session, {who}",
            round(calls / sessions, 3),
            "",
            note=f"{calls} calls over {sessions} sessions, {counters.get('change_pairs_asked', 0)} pairs "
            f"asked, {counters.get('change_pairs_unreadable', 0)} unreadable; decided by rules "
            f"{counters.get('change_rules', 0)}, by the model {counters.get('change_llm', 0)}; all of "
            f"memory's calls (facts, summaries too): {counters.get('llm_calls', 0)}",
        )
    )
    return rows


def run(quick: bool) -> Section:
    """Rules alone (scripted provider), then, with ``XAID_PERF_UPDATES_GGUF``, that model deciding."""
    section = Section("Updates by meaning, dev sets (issue 24 items 1, 3, 8)")
    runs = [("rules alone", "")]
    if gguf := os.environ.get("XAID_PERF_UPDATES_GGUF", ""):
        runs.append((os.path.basename(gguf), gguf))
    sets = tuple(os.environ.get("XAID_PERF_UPDATES_SETS", ",".join(SETS)).split(","))
    for who, path in runs:
        started = time.monotonic()
        changes, by_rank, controls, found, counters = evaluate(path, sets)
        section.rows += _rows(who, changes, by_rank, controls, found, counters)
        tuned = {g: t for g, t in changes.items() if " test " not in g}
        kept = {g: t for g, t in controls.items() if " test " not in g}
        section.notes += [
            f"{who}: " + misses("changes (test split not named)", _merge(tuned)),
            f"{who}: " + misses("controls (test split not named)", _merge(kept)),
            f"{who}: {time.monotonic() - started:.0f} s",
        ]
    section.notes += [
        BEFORE15,
        BEFORE10,
        TRIED10,
        BEFORE7,
        DIAGNOSIS,
        LEARNED,
        BEFORE4,
        BEFORE,
        BEFORE2,
        BEFORE3,
    ]
    return section


def _merge(t: dict[str, CaseTally]) -> CaseTally:
    out = CaseTally()
    for x in t.values():
        out.hits += x.hits
        out.total += x.total
        out.misses += x.misses
        out.hit_ids += x.hit_ids
    return out
