"""Area ``search``: ``memory.search`` and a turn's recall over the wire on long histories, before and
after, with recall re-run in the same run (issue 28 item 2).

Agents, built the same way in every daemon of the run:

- the LoCoMo samples of ``$XAID_PERF_LOCOMO`` (the public locomo10.json: ~600 turns each), ingested
  session by session at their dates (``perf.eval.locomo.ingest``); with --quick, the tiny smoke file;
- a generated agent with two years of daily conversation (``two_years``): one short session a day
  for 730 days (``perf.bench.memory.Speaker``: English and Chinese sessions, small talk and things
  that stand out), each ingested at its time and closed with ``wait: true`` (consolidated).

Each daemon answers the same queries over its socket, the daemons taking turns query by query so
a busy machine slows both alike: LoCoMo's questions, and bilingual user messages for the two-year
agent, at 1,000 tokens with ``k`` 200 (``touch: false``), twice over (the second pass repeats the
queries: lines the first pass worked out are remembered, xaid/memory/shown.py). Then turns on one
session per agent (scripted model), timed by the daemon's own ``timings.memory_ms`` (embedding the
message, search and the profile read).

The stages are timed in wall time and in the thread's CPU time (``time.thread_time``): on a
machine shared by several people the wall time is mostly waiting for a core, the CPU time is what
the code costs. The stage process runs as the daemon does: numpy's BLAS on one thread
(xaid/__main__.py sets it; with several, a small matrix product spun for milliseconds on a loaded
machine) and what the daemon warms at start warmed first (``index.warm``; ``pack.warm``,
``index.warm_hubs`` and ``retrieve.warm`` where the tree has them); after the queries it times the
longest database call of the warm that follows a consolidation (the agent's rows started over), as
the tree runs it: one call of ``index.warm`` before warm21, the chunks of ``index.warm_rows`` since.
Memory's model calls per consolidated session while the agents were built (the scripted provider,
whose answers never parse: every question the rules leave open is asked) are reported for both
trees (issue 28 item 5).

"Before" is a daemon running the code of ``$XAID_PERF_SEARCH_BASELINE`` (a checkout of the tree
before the change, e.g. ``git worktree add /tmp/base main``); unset, only this tree's daemon runs.
Every query's items are compared between the two daemons: the change may make search faster, not
different. Recall (``perf.eval.locomo.run_file`` at 1,000 tokens on the companion set and on LoCoMo,
with its BM25/dense/hybrid baselines) runs in the same run on this tree's code.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from xaiclient import Client

from ..eval import locomo
from ..kit import (
    DAY,
    HOUR,
    MINUTE,
    Aim,
    Row,
    Section,
    percentile,
    progress,
    ratio,
    scratch_daemon,
)
from .memory import QUERY_TEMPLATES, Speaker, history

BUDGET = 1000
TWO_YEARS = 730  # days, one session each
TWO_YEARS_AGENT = "two-years"
QUERIES = 200  # for the two-year agent
LOCOMO_QUESTIONS = 40  # per LoCoMo sample
TURNS = 30  # per agent and daemon
AIM_MS = 10.0
PASSES = {"first": "each query once", "again": "queries repeated"}


# Run in a process of its own on one daemon's database, with that daemon's code first on the path:
# the stages of a search timed inside the process, where the changes are, apart from the embedding
# of the query and the round trip. Only names both trees have (retrieve.search's signature is the same).
_STAGES = """
import json, sys, time
from pathlib import Path
from xaid.config import load
from xaid.embed.factory import load as load_embedder
from xaid.memory import retrieve
from xaid.store.db import connect
db, work_path, out_path = sys.argv[1:4]
cfg = load(None, {})
embedder, profile = load_embedder(cfg.memory)
conn = connect(Path(db))
from xaid.memory import index, pack
# As the daemon does at start: the vectors, the rows, and (where the tree has them) the turns' lines,
# the vectors' hubness and what the rules read of the turns.
for agent in sorted({w[1] for w in json.loads(Path(work_path).read_text(encoding="utf-8"))}):
    index.warm(conn, agent, embedder.dim)
    start = 0 if hasattr(pack, "warm") else None
    while start is not None:
        start = pack.warm(conn, agent, start)
    start = 0 if hasattr(index, "warm_hubs") else None
    while start is not None:
        start = index.warm_hubs(conn, agent, embedder.dim, start)
    start = 0 if hasattr(retrieve, "warm") else None
    while start is not None:
        start = retrieve.warm(conn, agent, start)
out = {}
for attempt in ("first", "again"):
    for label, agent, text, ts in json.loads(Path(work_path).read_text(encoding="utf-8")):
        t0 = time.perf_counter()
        asked = retrieve.read_cues(conn, agent, text, ts)
        t1 = time.perf_counter()
        vector = embedder.embed([asked.topic])[0] if asked.topic.strip() else None
        t2 = time.perf_counter()
        for shape, budget, lang, fill, k in (("search", 1000, None, True, 200), ("turn", 400, "en", False, 20)):
            t3, c3 = time.perf_counter(), time.thread_time()
            retrieve.search(conn, agent, text, vector, ts, k=k, budget_tokens=budget,
                recent_days=cfg.memory.recent_days, touch=False, profile=profile,
                fusion=cfg.memory.fusion, asked=asked, fill=fill, lang=lang)
            out.setdefault(f"{label} {attempt} {shape}", []).append((time.perf_counter() - t3) * 1000)
            out.setdefault(f"{label} {attempt} {shape} cpu", []).append((time.thread_time() - c3) * 1000)
        out.setdefault(f"{label} {attempt} cues", []).append((t1 - t0) * 1000)
        out.setdefault(f"{label} {attempt} embed", []).append((t2 - t1) * 1000)
# What a turn arriving after a consolidation waits for at most: the longest database call of the
# warm after a job (xaid.memory.embeddings.warm_agent; the job moved the agent's rows' generation),
# as this tree runs it, three times per agent.
import inspect
from xaid.memory import rows
def calls(step, *args):
    at, ms = 0, []
    while at is not None:
        t0 = time.perf_counter()
        at = step(conn, *args, at)
        ms.append((time.perf_counter() - t0) * 1000)
    return ms
if hasattr(pack, "warm") and hasattr(retrieve, "warm"):
    labels = {w[1]: w[0] for w in json.loads(Path(work_path).read_text(encoding="utf-8"))}
    for agent, label in sorted(labels.items()):
        for _ in range(3):
            rows.drop_agent(conn, agent)
            if "start" in inspect.signature(index.warm_rows).parameters:
                ms = calls(index.warm_rows, agent)
                t0 = time.perf_counter()
                index.warm_vectors(conn, agent, embedder.dim)
            else:
                ms, t0 = [], time.perf_counter()
                index.warm(conn, agent, embedder.dim)
            ms.append((time.perf_counter() - t0) * 1000)
            ms += calls(pack.warm, agent) + calls(retrieve.warm, agent)
            out.setdefault(f"{label} first warm call", []).append(max(ms))
Path(out_path).write_text(json.dumps(out), encoding="utf-8")
"""


class _Run:
    """One daemon of the run: its client and what it measured."""

    def __init__(self, name: str, client: Client, db: Path, tree: Path | None) -> None:
        self.name = name
        self.c = client
        self.db = db
        self.tree = tree
        self.stages: dict[str, list[float]] = {}
        self.ms: dict[str, list[float]] = {}
        self.turn_ms: dict[str, list[float]] = {}
        self.counters: dict[str, int] = {}  # stats.memory after the agents were built

    def add(self, key: str, value: float) -> None:
        self.ms.setdefault(key, []).append(value)


def _stages(runs: list[_Run], work: list[tuple[str, str, str, int]], tmp: Path) -> None:
    """The in-process stage times of ``work`` on each run's database with its tree's code, the trees
    at the same time so that both see the same load."""
    work_path = tmp / "work.json"
    work_path.write_text(json.dumps(work, ensure_ascii=False), encoding="utf-8")
    started = []
    for run in runs:
        env = dict(os.environ, OPENBLAS_NUM_THREADS="1")  # as the daemon sets it (xaid/__main__.py)
        if run.tree is not None:
            env["PYTHONPATH"] = f"{run.tree}{os.pathsep}{run.tree / 'client'}"
            env["PYTHONSAFEPATH"] = (
                "1"  # as for the daemon: the tree's code, not the working directory's
            )
        out = tmp / f"stages-{run.name}.json"
        args = [sys.executable, "-c", _STAGES, str(run.db), str(work_path), str(out)]
        started.append((run, out, subprocess.Popen(args, env=env)))
    for run, out, proc in started:
        if proc.wait() != 0:
            raise RuntimeError(f"the stages of {run.name} failed ({proc.returncode})")
        run.stages = json.loads(out.read_text(encoding="utf-8"))


def two_years(client: Client, agent_id: str, days: int, end_ms: int) -> None:
    """``days`` days of daily conversation ending at ``end_ms``: one short session a day in English
    or Chinese, each consolidated as it closes."""
    client.agent_create(agent_id, name="Mia")
    history(client, agent_id, Speaker(28), days, end_ms, days * DAY)


def _queries(n: int) -> list[str]:
    asker = Speaker(29)
    return [asker.pick(QUERY_TEMPLATES) for _ in range(n)]


def _search(c: Client, agent: str, text: str, ts: int) -> tuple[float, list[Any]]:
    started = time.perf_counter()
    result = c.memory_search(
        agent, text, k=locomo.SEARCH_K, budget_tokens=BUDGET, ts=ts, touch=False
    )
    elapsed = (time.perf_counter() - started) * 1000
    return elapsed, [(i["kind"], i["id"], i["text"], i.get("ids")) for i in result["items"]]


def _build(run: _Run, samples: list[locomo.Sample], days: int, end_ms: int) -> None:
    started = time.perf_counter()
    for n, sample in enumerate(samples):
        run.c.agent_create(locomo.agent_id(n, sample), name=sample.speaker_b)
        locomo.ingest(run.c, locomo.agent_id(n, sample), sample)
    progress(
        f"search: {run.name}: {len(samples)} LoCoMo agents in {time.perf_counter() - started:.0f} s"
    )
    started = time.perf_counter()
    two_years(run.c, TWO_YEARS_AGENT, days, end_ms)
    progress(
        f"search: {run.name}: {days} days of sessions in {time.perf_counter() - started:.0f} s"
    )


def _turns(runs: list[_Run], key: str, agent: str, texts: list[str], ts: int) -> None:
    """One session per daemon, the same messages, the daemons taking turns message by message."""
    sids = [run.c.session_open(agent, ts=ts)["session_id"] for run in runs]
    for i, text in enumerate(texts):
        order = list(zip(runs, sids, strict=True))
        for run, sid in order if i % 2 == 0 else reversed(order):
            result = run.c.session_send(sid, text, ts=ts + i * MINUTE).finish()
            run.turn_ms.setdefault(key, []).append(float(result["timings"]["memory_ms"]))
    for run, sid in zip(runs, sids, strict=True):
        run.c.session_close(sid, ts=ts + len(texts) * MINUTE, wait=True)


def _copy_database(source: Path, target: Path) -> None:
    """A database built earlier (stopped cleanly: its WAL checkpointed) as a daemon's own."""
    target.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    shutil.copy2(source, target)


def measure(
    samples: list[locomo.Sample],
    days: int,
    queries: int,
    baseline: Path | None,
    prebuilt: Path | None = None,
) -> tuple[list[_Run], int, dict[str, int]]:
    """Build the agents in each daemon (or copy ``prebuilt``, a database with them, into each) and
    time the same searches and turns in each; (runs, differing results, searches per set)."""
    end_ms = (int(time.time() * 1000) // DAY) * DAY + 8 * HOUR
    trees: list[tuple[str, dict[str, str], Path | None]] = [("after", {}, None)]
    if baseline is not None:
        path = f"{baseline}{os.pathsep}{baseline / 'client'}"
        # PYTHONSAFEPATH: without it ``python -m xaid`` and ``python -c`` put the working directory
        # (this tree) before PYTHONPATH, and the "before" daemon would run this tree's code.
        trees.insert(0, ("before", {"PYTHONPATH": path, "PYTHONSAFEPATH": "1"}, baseline))
    work: list[tuple[str, str, str, int]] = []
    for n, sample in enumerate(samples):
        for q in sample.qa[:LOCOMO_QUESTIONS]:
            work.append(
                ("LoCoMo", locomo.agent_id(n, sample), str(q["question"]), sample.end_ms + HOUR)
            )
    for text in _queries(queries):
        work.append(("two years", TWO_YEARS_AGENT, text, end_ms + HOUR))
    counts = {k: sum(1 for w in work if w[0] == k) for k in ("LoCoMo", "two years")}
    differ = 0
    with ExitStack() as stack:
        runs = []
        for name, env, tree in trees:
            daemon = stack.enter_context(
                scratch_daemon({"XAID_LLM_SCRIPTED_DELAY_MS": "5", **env}, start=prebuilt is None)
            )
            if prebuilt is not None:
                _copy_database(prebuilt, daemon.db_path)
                daemon.start()
            client = stack.enter_context(daemon.client(timeout=600.0))
            runs.append(_Run(name, client, daemon.db_path, tree))
        for run in runs:
            if prebuilt is None:
                _build(run, samples, days, end_ms)
            memory = run.c.call("stats")["memory"]
            run.counters = {
                k: int(v)
                for k, v in memory.items()
                if isinstance(v, int) and not isinstance(v, bool)
            }
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="xaid-search-")))
        progress("search: the stages in process")
        _stages(runs, work[::2], tmp)
        for attempt in ("first", "again"):
            progress(f"search: {len(work)} searches per daemon ({attempt})")
            for i, (label, agent, text, ts) in enumerate(work):
                seen = []
                for run in runs if i % 2 == 0 else list(reversed(runs)):
                    elapsed, items = _search(run.c, agent, text, ts)
                    run.add(f"{label} {attempt}", elapsed)
                    seen.append(items)
                differ += attempt == "first" and any(s != seen[0] for s in seen)
        texts = _queries(TURNS + 7)[7:]
        _turns(runs, "two years", TWO_YEARS_AGENT, texts, end_ms + 2 * HOUR)
        if samples:
            agent = locomo.agent_id(0, samples[0])
            questions = [str(q["question"]) for q in samples[0].qa[-TURNS:]]
            _turns(runs, "LoCoMo", agent, questions, samples[0].end_ms + 2 * HOUR)
    return runs, differ, counts


def _consolidated(counters: dict[str, int]) -> int:
    return sum(
        counters.get(k, 0) for k in ("episodes_rules", "episodes_llm", "episodes_llm_rejected")
    )


# Model calls consolidation makes beside the memory's own ``llm_calls`` (Consolidation.ask/weigh).
QUESTION_COUNTERS = ("mood_model_calls", "loss_model_calls", "matter_model_calls")


def _consolidation_calls(section: Section, after: _Run, before: _Run | None) -> None:
    """Model calls per consolidated session while the agents were built (scripted provider: its
    answers never parse, so every question the rules leave open is asked), issue 28 item 5."""
    sessions = _consolidated(after.counters)
    if not sessions or not after.counters.get("llm_calls"):
        return  # nothing consolidated in this run (a database built earlier)
    value = after.counters.get("llm_calls", 0) / sessions
    old = (
        before.counters.get("llm_calls", 0) / max(1, _consolidated(before.counters))
        if before is not None and _consolidated(before.counters)
        else None
    )
    keys = ("change_calls", "episodes_llm_rejected", "fact_rules", "fact_llm", "fact_unsure_asked")
    section.rows.append(
        Row(
            "memory's model calls per consolidated session (building the agents)",
            value,
            "",
            Aim("<=", 1.0),
            ratio(value, old) if old else None,
            "before (same run)" if old else "",
            (f"before {old:.3f}; " if old is not None else "")
            + f"{sessions} sessions; llm_calls {after.counters.get('llm_calls', 0)}: "
            + ", ".join(f"{k} {after.counters.get(k, 0)}" for k in keys)
            + f", fact_unsure_calls {after.counters.get('fact_unsure_calls', 0)}",
        )
    )
    # the mood's and the scheduler's questions go through the same model, counted apart
    asked = {k: after.counters.get(k, 0) for k in QUESTION_COUNTERS}
    section.rows.append(
        Row(
            "all model calls per consolidated session: the memory's and the mood's and "
            "scheduler's questions (building the agents)",
            (after.counters.get("llm_calls", 0) + sum(asked.values())) / sessions,
            "",
            Aim("<=", 1.0),
            note=f"{sessions} sessions; llm_calls {after.counters.get('llm_calls', 0)}, "
            + ", ".join(f"{k} {v}" for k, v in asked.items()),
        )
    )


def _recall(section: Section, quick: bool) -> None:
    """LoCoMo-format recall at 1,000 tokens, this tree's code, with the baselines of the same run."""
    files = [("companion", locomo.TINY if quick else locomo.COMPANION)]
    if not quick and os.environ.get("XAID_PERF_LOCOMO"):
        files.append(("LoCoMo", Path(os.environ["XAID_PERF_LOCOMO"])))
    for label, path in files:
        report = locomo.run_file(path, BUDGET)
        systems = report["systems"]
        best = max(
            (name for name in ("bm25", "dense", "hybrid") if name in systems),
            key=lambda name: systems[name]["overall"]["answer_recall"] or 0.0,
        )
        mine = systems["xaid"]["overall"]["answer_recall"] or 0.0
        base = systems[best]["overall"]["answer_recall"] or 0.0
        section.rows.append(
            Row(
                f"{label} answer-token recall at {BUDGET} tokens (xaid)",
                mine,
                "",
                ratio=ratio(mine, base),
                baseline=f"{best} {base:.3f}",
                note=f"{report['questions']} questions; the search p50/p95 of this run "
                f"{report['search_ms']['p50']:.1f}/{report['search_ms']['p95']:.1f} ms",
            )
        )


def _percentile_rows(
    title: str, now: list[float], then: list[float] | None, note: str, aimed: bool
) -> list[Row]:
    """p50 and p95 of ``now`` (``title`` names them with ``{name}``), each beside the same
    percentile of ``then``, the baseline tree in the same run; the p95 carries the aim if ``aimed``."""
    rows = []
    for q, name in ((0.5, "p50"), (0.95, "p95")):
        value = percentile(now, q)
        old = percentile(then, q) if then is not None else None
        rows.append(
            Row(
                title.replace("{name}", name),
                value,
                "ms",
                Aim("<=", AIM_MS) if aimed and name == "p95" else None,
                ratio(value, old) if old else None,
                "before (same run)" if old else "",
                (f"before {old:.1f} ms; " if old else "") + note,
            )
        )
    return rows


def run(quick: bool) -> Section:
    section = Section("Search latency on long histories (issue 28 item 2)")
    load_before = os.getloadavg()
    raw = os.environ.get("XAID_PERF_SEARCH_BASELINE")
    baseline = Path(raw) if raw else None
    path = Path(os.environ["XAID_PERF_LOCOMO"]) if os.environ.get("XAID_PERF_LOCOMO") else None
    samples = locomo.load(locomo.TINY if quick or path is None else path)
    days, queries = (60, 40) if quick else (TWO_YEARS, QUERIES)
    # A database built earlier by this area's own steps (the LoCoMo samples of $XAID_PERF_LOCOMO,
    # then the two-year agent, built today): on a machine at load 20 building takes most of an hour.
    raw_db = os.environ.get("XAID_PERF_SEARCH_DB")
    prebuilt = Path(raw_db) if raw_db else None
    runs, differ, counts = measure(samples, days, queries, baseline, prebuilt)
    after = runs[-1]
    before = runs[0] if len(runs) > 1 else None
    for label in ("LoCoMo", "two years"):
        for attempt in ("first", "again"):
            key = f"{label} {attempt}"
            section.rows += _percentile_rows(
                f"memory.search {{name}}, {label} agents, {PASSES[attempt]}",
                after.ms[key],
                before.ms[key] if before is not None else None,
                f"{counts[label]} searches at {BUDGET} tokens over the wire",
                aimed=True,
            )
        if label in after.turn_ms:
            section.rows += _percentile_rows(
                f"a turn's recall {{name}} (timings.memory_ms), {label} agent",
                after.turn_ms[label],
                before.turn_ms[label] if before is not None else None,
                f"{len(after.turn_ms[label])} turns"
                + (" (their p95 is the slowest one)" if len(after.turn_ms[label]) < 20 else "")
                + ", embedding the message included",
                aimed=True,
            )
    stage_names = {
        "search": "retrieve.search in process (memory.search's shape: 1,000 tokens, k 200)",
        "turn": "retrieve.search in process (a turn's shape: 400 tokens, k 20)",
        "search cpu": "retrieve.search's CPU time (thread_time; memory.search's shape)",
        "turn cpu": "retrieve.search's CPU time (thread_time; a turn's shape)",
        "embed": "embedding the query in process",
        "warm call": "the longest database call of the warm after a consolidation (the agent's "
        "rows started over) in process",
    }
    for label in ("LoCoMo", "two years"):
        for stage, what in stage_names.items():
            once = stage in ("embed", "warm call")
            for attempt in ("first",) if once else ("first", "again"):
                key = f"{label} {attempt} {stage}"
                if key not in after.stages:
                    continue
                section.rows += _percentile_rows(
                    f"{what} {{name}}, {label}" + ("" if once else f", {PASSES[attempt]}"),
                    after.stages[key],
                    before.stages.get(key) if before is not None else None,
                    (
                        f"{len(after.stages[key])} warms (3 per agent)"
                        if stage == "warm call"
                        else f"{len(after.stages[key])} queries (every other one of the run's)"
                    )
                    + ", each tree on its own daemon's database",
                    aimed=False,
                )
    _consolidation_calls(section, after, before)
    if os.environ.get("XAID_PERF_SEARCH_RECALL", "1") != "0":  # 0: a repeat of the timings only
        _recall(section, quick)
    load_after = os.getloadavg()
    if before is None:
        same = "no baseline tree ($XAID_PERF_SEARCH_BASELINE unset)"
    elif differ:
        same = f"{differ} queries returned different items before and after"
    else:
        same = "every query returned the same items before and after"
    section.notes.append(
        f"{len(samples)} LoCoMo agents, a two-year agent of {days} daily sessions"
        + (f" (built once, copied into each daemon: {prebuilt.name})" if prebuilt else "")
        + f"; {same}; load average "
        f"(1, 5, 15 min) {load_before[0]:.1f}/{load_before[1]:.1f}/{load_before[2]:.1f} at the start, "
        f"{load_after[0]:.1f}/{load_after[1]:.1f}/{load_after[2]:.1f} at the end (2 cores shared)."
    )
    return section
