"""Evaluation suites: does xaid remember like a person would? Area ``suites`` of ``python -m perf``.

Five suites, bilingual, from labelled scenarios in perf/scenarios/ (formats: perf/scenarios/README.md),
all through one real daemon (scripted provider: the words of the replies do not matter here, what the
daemon puts into the prompt does; each case has its own agent):

1. cross-session (cross_session.json, 30 cases): something said on day 0, then the first turn of the
   next session on day 1..7 with ``explain``; a hit when the key fact is in ``context.memories``.
   Roadmap aim ≥ 80 %. Each agent also has two older, unrelated sessions (12 and 30 days before): how
   often they are dragged into that first turn is reported beside it.
2. mood carry-over (mood_pairs.json, 20 pairs): a mood-laden session, then N hours later a neutral
   opener; agreement when ``context.tone`` is present or absent as a person would expect (and, where the
   pair names one, ``mood.get`` shows the expected band).
3. the Morning / 早 scene (cross_session.json ``scenes``, one per language): yesterday's episode in the
   memories, fatigue in the tone, a suggestion present, nothing old and unrelated dragged in.
4. long conversation (long_conversation.json): 110 turns per language generated from templates, facts
   planted in the first 16; at the end one question per fact with ``explain``; a hit when the fact is in
   ``context.earlier``, ``context.memories`` or the unfolded history. Aim ≥ 70 %.
5. recall (recall.json): 200 facts (50 per user, 2 users per language) said across 40 sessions, then
   asked with ``memory.search`` at the daemon's defaults (what a turn gets: k 8, 400 tokens); a hit when
   the key string is in a returned item. Aim ≥ 85 %.

6.-8. updates, conversational forget (with a forget-word negative set) and follow-ups at the right
   time: perf/eval/suites_weeks.py (issue 12).

``--quick`` runs a subset of each (about a third of the cases, one user per language for recall).
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from xaiclient import Client

from xaid.config import LLMConfig, MemoryConfig
from xaid.text.tokens import estimate_tokens

from ..kit import (
    AGENT_NAME,
    HOUR,
    MINUTE,
    Aim,
    CaseTally,
    Row,
    Section,
    at,
    contains,
    day0,
    first_turn,
    live_session,
    load_scenario,
    memory_texts,
    misses,
    progress,
    scratch_daemon,
)
from . import suites_weeks as weeks

CROSS_AIM = Aim(">=", 80.0)
MORNING_AIM = Aim(">=", 100.0)
LONG_AIM = Aim(">=", 70.0)
RECALL_AIM = Aim(">=", 85.0)
MOOD_AIM = Aim(">=", 90.0)
TIRED_BANDS = ("tired", "exhausted")


@dataclass(frozen=True)
class Plan:
    every: int  # take every n-th case of cross_session and mood_pairs
    conversations: tuple[str, ...]  # long_conversation ids
    recall_users: int  # per language, 1 or 2


FULL = Plan(1, ("en", "zh"), 2)
QUICK = Plan(3, ("en", "zh"), 1)


def background(c: Client, agent: str, data: dict[str, Any], lang: str, base: int) -> list[str]:
    """The older, unrelated sessions every cross-session agent has; their keys."""
    keys: list[str] = []
    for old in data["background"][lang]:
        live_session(c, agent, old["lines"], at(base, old["day"], old["hour"]))
        keys += old["keys"]
    return keys


# --- 1. cross-session recall ----------------------------------------------------------------------


def cross_session(c: Client, plan: Plan) -> tuple[CaseTally, CaseTally]:
    """(recall of the key fact, old memories dragged in) over the cases."""
    data = load_scenario("cross_session.json")
    base = day0(data)
    recall, dragged = CaseTally(), CaseTally()
    for case in data["cases"][:: plan.every]:
        agent = f"cs-{case['id']}"
        c.agent_create(agent, name=AGENT_NAME)
        old_keys = background(c, agent, data, case["lang"], base)
        live_session(
            c, agent, case["said"]["lines"], at(base, case["said"]["day"], case["said"]["hour"])
        )
        context = first_turn(
            c, agent, case["open"]["text"], at(base, case["open"]["day"], case["open"]["hour"])
        )
        texts = memory_texts(context)
        kinds = ",".join(m["kind"] for m in context["memories"]) or "no memories"
        recall.add(contains(texts, case["expect"]), case["id"], kinds)
        # "dragged" counts cases where something old and unrelated came in: a hit here is bad
        dragged.add(contains(texts, old_keys), case["id"])
    return recall, dragged


# --- 2. mood carry-over ---------------------------------------------------------------------------


def mood_pairs(c: Client, plan: Plan) -> CaseTally:
    data = load_scenario("mood_pairs.json")
    base = day0(data)
    out = CaseTally()
    for pair in data["pairs"][:: plan.every]:
        agent = f"mood-{pair['id']}"
        c.agent_create(agent, name=AGENT_NAME)
        said = at(base, 0, pair["hour"])
        live_session(c, agent, pair["lines"], said)
        opened = said + len(pair["lines"]) * MINUTE + int(pair["after_hours"] * HOUR)
        context = first_turn(c, agent, pair["opener"], opened)
        present = context.get("tone") is not None
        ok = present == (pair["tone"] == "present")
        mood = c.mood_get(agent, ts=opened)
        bands = mood.get("bands") or {}
        for dim, allowed in (pair.get("band") or {}).items():
            ok = ok and bands.get(dim) in allowed
        seen = (
            f"tone {'present' if present else 'absent'}, fatigue {mood['fatigue']:.2f}, "
            f"valence {mood['valence']:.2f}, bands {bands.get('fatigue')}/{bands.get('valence')}"
        )
        out.add(ok, pair["id"], f"expected {pair['tone']}; {seen}")
    return out


# --- 3. the Morning / 早 scene --------------------------------------------------------------------


def morning(c: Client) -> dict[str, tuple[int, int, list[str]]]:
    """Per language: (checks passed, checks, the failed checks)."""
    data = load_scenario("cross_session.json")
    base = day0(data)
    results: dict[str, tuple[int, int, list[str]]] = {}
    for scene in data["scenes"]:
        agent = f"scene-{scene['id']}"
        c.agent_create(agent, name=AGENT_NAME)
        old_keys = background(c, agent, data, scene["lang"], base)
        live_session(
            c, agent, scene["said"]["lines"], at(base, scene["said"]["day"], scene["said"]["hour"])
        )
        opened = at(base, scene["open"]["day"], scene["open"]["hour"])
        context = first_turn(c, agent, scene["open"]["text"], opened)
        bands = c.mood_get(agent, ts=opened).get("bands") or {}
        memories = context.get("memories") or []
        checks = {
            "yesterday's episode in the memories": any(
                m["kind"] == "episode"
                and m["when"] == "yesterday"
                and contains([m["text"]], scene["expect"])
                for m in memories
            ),
            "fatigue in the tone": context.get("tone") is not None
            and bands.get("fatigue") in TIRED_BANDS,
            "a suggestion": bool(context.get("suggestion")),
            "nothing old and unrelated": not contains([m["text"] for m in memories], old_keys),
        }
        failed = [name for name, ok in checks.items() if not ok]
        results[scene["lang"]] = (len(checks) - len(failed), len(checks), failed)
    return results


# --- 4. long conversation -------------------------------------------------------------------------


def generate(conv: dict[str, Any]) -> list[str]:
    """The conversation's user turns: planted facts at their turns, templated small talk elsewhere."""
    rng = random.Random(conv["seed"])
    planted = {p["turn"]: p["text"] for p in conv["planted"]}
    turns = []
    for i in range(conv["turns"]):
        if i in planted:
            turns.append(planted[i])
        else:
            turns.append(rng.choice(conv["filler"]).format(topic=rng.choice(conv["topics"])))
    return turns


def fitting_earlier(chunks: Sequence[str]) -> list[str]:
    """The Earlier chunks prompt.build keeps at the default context: the oldest are dropped while they
    take more than a third of the budget (n_ctx - max_tokens)."""
    llm = LLMConfig()
    budget = max(256, llm.n_ctx - llm.max_tokens)
    kept = list(chunks)
    while kept and sum(estimate_tokens(e) for e in kept) > budget // 3:
        kept.pop(0)
    return kept


def long_conversation(c: Client, plan: Plan) -> tuple[CaseTally, CaseTally, list[tuple[int, int]]]:
    """(context hit as defined, context hit counting only the Earlier chunks that fit the prompt,
    (tokens the prompt carried, tokens of the whole history) at each question)."""
    data = load_scenario("long_conversation.json")
    base = day0(data)
    every = MemoryConfig().compress_every
    loose, strict = CaseTally(), CaseTally()
    costs: list[tuple[int, int]] = []
    for conv in data["conversations"]:
        if conv["id"] not in plan.conversations:
            continue
        agent = f"long-{conv['id']}"
        c.agent_create(agent, name=AGENT_NAME)
        ts = at(base, 0, data["hour"])
        step = int(data["seconds_per_turn"] * 1000)
        sid = c.session_open(agent, ts=ts)["session_id"]
        for text in generate(conv):
            c.session_send(sid, text, ts=ts).finish()
            ts += step
        for p in conv["planted"]:
            context = c.session_send(sid, p["question"], ts=ts, explain=True).finish()["context"]
            ts += step
            upto = context.get(
                "folded_upto"
            )  # the messages the prompt's Earlier chunks stand in for
            unfolded = (
                [m["text"] for m in c.session_history(sid, limit=every)["messages"]]
                if upto is None
                else [m["text"] for m in c.session_history(sid)["messages"] if m["id"] > upto]
            )
            earlier = context.get("earlier") or []
            memories = memory_texts(context)
            whole = sum(estimate_tokens(m["text"]) for m in c.session_history(sid)["messages"])
            # the conversation part only: with the whole history fitting, head and memories come on top of it
            carried = sum(estimate_tokens(t) for t in (*fitting_earlier(earlier), *unfolded))
            costs.append((carried, whole))
            where = [
                name
                for name, texts in (
                    ("earlier", earlier),
                    ("memories", memories),
                    ("history", unfolded),
                )
                if contains(texts, p["key"])
            ]
            kind = "with hard features" if p.get("marked") else "no name or number"
            loose.add(bool(where), p["id"], kind)
            strict.add(
                contains([*fitting_earlier(earlier), *memories, *unfolded], p["key"]),
                p["id"],
                "in an Earlier chunk the prompt drops" if where else kind,
            )
    return loose, strict, costs


# --- 5. recall ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RecallItem:
    id: str
    say: str
    ask: str
    key: str


def recall_users(
    data: dict[str, Any], users: int
) -> list[tuple[str, str, list[list[str]], list[RecallItem]]]:
    """Per user: (agent id, language, sessions as lists of lines, items), deterministic from the seed."""
    out = []
    for lang, templates in data["templates"].items():
        for u in range(users):
            agent = f"recall-{lang}-{'ab'[u]}"
            items = [
                RecallItem(
                    f"{agent}:{t['id']}", t["say"].format(x=t["fills"][u]), t["ask"], t["fills"][u]
                )
                for t in templates
            ]
            rng = random.Random(f"{data['seed']}:{agent}")
            order = items[:]
            rng.shuffle(order)
            n = data["sessions_per_user"]
            sessions = []
            for s in range(n):
                lines = [i.say for i in order[s::n]]
                for filler in rng.sample(data["filler"][lang], 3):
                    lines.insert(rng.randrange(len(lines) + 1), filler)
                sessions.append(lines)
            out.append((agent, lang, sessions, items))
    return out


def recall(c: Client, plan: Plan) -> tuple[CaseTally, dict[str, CaseTally]]:
    data = load_scenario("recall.json")
    base = day0(data)
    ask_ts = at(base, data["ask_day"], data["ask_hour"])
    total = CaseTally()
    by_lang: dict[str, CaseTally] = {}
    for agent, lang, sessions, items in recall_users(data, plan.recall_users):
        c.agent_create(agent, name=AGENT_NAME)
        for s, lines in enumerate(sessions):
            ts = at(base, s * data["days_between_sessions"], data["hour"])
            sid = c.session_open(agent, ts=ts)["session_id"]
            c.session_ingest(
                sid,
                [
                    {"role": "user", "text": line, "ts": ts + i * MINUTE}
                    for i, line in enumerate(lines)
                ],
            )
            c.session_close(sid, ts=ts + len(lines) * MINUTE, wait=True)
        stored = stored_memories(c, agent)
        for item in items:
            found = c.memory_search(agent, item.ask, ts=ask_ts, touch=False)["items"]
            ok = contains([i["text"] for i in found], [item.key])
            kept = sorted({kind for kind, text in stored if contains([text], [item.key])})
            why = f"kept as {'+'.join(kept)}, not returned" if kept else "kept nowhere"
            total.add(ok, item.id, why)
            by_lang.setdefault(lang, CaseTally()).add(ok, item.id, why)
    return total, by_lang


def stored_memories(c: Client, agent: str) -> list[tuple[str, str]]:
    """(kind, text) of everything the agent's memory holds: current facts, episode summaries, highlights."""
    out = [("fact", f["text"]) for f in c.memory_list(agent, kind="fact", limit=10_000)["items"]]
    for ep in c.memory_list(agent, kind="episode", limit=10_000)["items"]:
        out.append(("episode", ep["summary"]))
        out += [("highlight", h) for h in ep["highlights"]]
    return out


# --- the area -------------------------------------------------------------------------------------


def run(quick: bool) -> Section:
    plan = QUICK if quick else FULL
    section = Section("Evaluation suites (does it remember like a person?)")
    timings: list[str] = []
    with scratch_daemon() as daemon, daemon.client(timeout=120.0) as c:
        started = time.perf_counter()
        progress("suites: cross-session")
        cross, dragged = cross_session(c, plan)
        timings.append(f"cross-session {time.perf_counter() - started:.0f} s")

        started = time.perf_counter()
        progress("suites: mood pairs")
        mood = mood_pairs(c, plan)
        progress("suites: morning scene")
        scenes = morning(c)
        timings.append(f"mood + morning {time.perf_counter() - started:.0f} s")

        started = time.perf_counter()
        progress("suites: long conversation")
        long_loose, long_strict, long_costs = long_conversation(c, plan)
        timings.append(f"long conversation {time.perf_counter() - started:.0f} s")

        started = time.perf_counter()
        progress("suites: recall")
        rec, rec_by_lang = recall(c, plan)
        timings.append(f"recall {time.perf_counter() - started:.0f} s")

        started = time.perf_counter()
        progress("suites: updates, forget, follow-ups")
        weekly = weeks.rows_and_notes(
            weeks.updates(c, plan.every),
            weeks.forgets(c, plan.every),
            weeks.followups(c, plan.every),
        )
        timings.append(f"updates + forget + follow-ups {time.perf_counter() - started:.0f} s")

    section.rows += [
        Row(
            "cross-session: key fact in the next session's first-turn memories",
            cross.percent,
            "%",
            CROSS_AIM,
            note=f"{cross.hits}/{cross.total} cases, openers 1-7.5 days later",
        ),
        Row(
            "cross-session: old unrelated memories dragged into that turn",
            dragged.percent,
            "%",
            note=f"{dragged.hits}/{dragged.total} cases; lower is better",
        ),
        Row(
            "mood carry-over: tone present/absent as a person expects",
            mood.percent,
            "%",
            MOOD_AIM,
            note=f"{mood.hits}/{mood.total} pairs (grief and grave news 24-48 h, annoyances overnight, "
            "stated calm, a day that was too much)",
        ),
    ]
    for lang, (passed, checks, failed) in scenes.items():
        failures = f"; failed: {', '.join(failed)}" if failed else ""
        section.rows.append(
            Row(
                f"Morning scene ({'早' if lang == 'zh' else 'Morning.'}), {lang}",
                round(100.0 * passed / checks, 1),
                "%",
                MORNING_AIM,
                note=f"{passed}/{checks} checks{failures}",
            )
        )
    section.rows += [
        Row(
            "long conversation: planted fact in earlier / memories / history",
            long_loose.percent,
            "%",
            LONG_AIM,
            note=f"{long_loose.hits}/{long_loose.total} questions after {'+'.join(plan.conversations)} x 110 turns",
        ),
        Row(
            "long conversation: same, only Earlier chunks that fit the prompt",
            long_strict.percent,
            "%",
            note="prompt.build drops the oldest Earlier chunks beyond a third of n_ctx - max_tokens",
        ),
        Row(
            "long conversation: conversation tokens in the prompt against the full history",
            round(100 * sum(a for a, _ in long_costs) / max(1, sum(b for _, b in long_costs)), 1),
            "%",
            note=f"mean {sum(a for a, _ in long_costs) / max(1, len(long_costs)):.0f} tokens carried (Earlier "
            f"chunks that fit + the messages after context.folded_upto) vs "
            f"{sum(b for _, b in long_costs) / max(1, len(long_costs)):.0f} in the whole history at the question "
            "(estimated as the daemon does: characters / 3 + 4); the chunks stand in only once the messages no "
            "longer fit, so below n_ctx this is 100 %",
        ),
        Row(
            "recall: key string in memory.search results (k 8, 400 tokens)",
            rec.percent,
            "%",
            RECALL_AIM,
            note=f"{rec.hits}/{rec.total} items; "
            + ", ".join(f"{lang} {o.percent:.0f}%" for lang, o in rec_by_lang.items()),
        ),
        *weekly[0],
    ]
    section.notes += [
        misses("cross-session", cross),
        "cross-session cases whose first turn pulled in an old unrelated memory: "
        + (", ".join(dragged.hit_ids) or "none"),
        misses("mood carry-over", mood),
        misses("long conversation", long_loose),
        misses("long conversation (prompt budget)", long_strict),
        misses("recall", rec, limit=80),
        *weekly[1],
        "Scripted provider: no words are generated; what is measured is what xaid puts into the prompt. "
        "Scenarios and formats: perf/scenarios/README.md. Time: " + ", ".join(timings) + ".",
    ]
    return section


def main(argv: list[str] | None = None) -> int:
    """``python -m perf.eval.suites [--quick]``: print the section, write nothing.

    ``python -m perf suites`` is the run that records.
    """
    from dataclasses import replace

    from ..kit import machine, now, render

    quick = "--quick" in (sys.argv[1:] if argv is None else argv)
    started = time.perf_counter()
    section = run(quick)
    section = replace(
        section,
        area="suites",
        command="python -m perf.eval.suites" + (" --quick" if quick else ""),
        date=now(),
        duration_s=round(time.perf_counter() - started, 1),
        quick=quick,
        machine=machine(),
    )
    print(render({"suites": section}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
