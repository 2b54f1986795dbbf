"""Area ``search_stages``: where a two-year agent's ``memory.search`` spends its CPU time, stage by
stage, before and after (issue 28 item 2).

The database is ``$XAID_PERF_SEARCH_DB`` (built by the ``search`` area's steps: the LoCoMo samples,
then the two-year agent, built today), copied once per tree. Each tree runs in a process of its own
with its code first on the path (``$XAID_PERF_SEARCH_BASELINE``: the tree before the change; unset,
only this tree), the two at the same time so that both see the same load. Each process embeds the
``search`` area's bilingual queries for the two-year agent, then runs ``retrieve.search`` in
memory.search's shape (1,000 tokens, k 200) over all of them twice (the second pass repeats them),
timing each call and each stage inside it by the thread's CPU time (``time.thread_time``; on a
machine shared by several people the wall time is mostly waiting for a core). The vector ranking is
kept on the calling thread (the daemon gives it a thread of its own past 4,096 vectors), so its CPU
time is counted; numpy's BLAS has one thread, as in the daemon. Before the queries, each process
warms what the daemon warms at start (its tree's ``index.warm``, and ``pack.warm`` where it has it).

A stage is a function both trees have, wrapped while the process runs; a stage called inside
another (the neighbour turns' read inside the neighbours) is indented and counted in both; "the
rest" is what the search does between its stages (scoring, sorting, the query's own cues).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ..kit import DAY, HOUR, Row, Section, percentile, progress, ratio
from .search import QUERIES, TWO_YEARS_AGENT, _queries

# (module, attribute, label): the indented ones run inside a stage above them.
STAGES = (
    ("xaid.memory.index", "keyword", "keyword search (3 FTS5 indexes)"),
    ("xaid.memory.index", "_rankable", "  terms' document counts"),
    ("xaid.memory.vectors", "AgentVectors.nearest", "vector ranking (numpy)"),
    ("xaid.memory.index", "items_said", "the candidates' items and turns"),
    ("xaid.memory.retrieve", "_about", "the memories behind them (values, sources)"),
    ("xaid.memory.retrieve", "_relevance", "relevance (cosine and bm25 mixed)"),
    ("xaid.memory.retrieve", "_add_neighbours", "neighbour turns"),
    ("xaid.memory.index", "turns_around", "  their rows"),
    ("xaid.memory.recency", "prefer_present", "present over past (recency)"),
    ("xaid.memory.associate", "collapse_repeats", "repeats collapsed (associate)"),
    ("xaid.memory.associate", "_close_to", "  their vectors compared"),
    ("xaid.memory.index", "vectors_of", "the agent's vectors looked up"),
    ("xaid.memory.index", "recent_episodes", "the last days' episodes"),
    ("xaid.memory.shown", "memo", "the agent's remembered lines looked up"),
    ("xaid.memory.pack", "fill", "packing (pack.fill)"),
    ("xaid.memory.pack", "_turn", "  each turn's line and cost"),
    ("xaid.memory.pack", "_Snippet.hit", "  the hits returned"),
)

_SCRIPT = """
import importlib, json, sys, time
from pathlib import Path
from xaid.config import load
from xaid.embed.factory import load as load_embedder
from xaid.memory import retrieve
from xaid.store.db import connect
db, work_path, out_path, stages = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
cfg = load(None, {})
embedder, profile = load_embedder(cfg.memory)
conn = connect(Path(db))
retrieve.OWN_THREAD_FROM = 1 << 62  # the vector ranking on this thread: its CPU time counted
from xaid.memory import index, pack
# As the daemon does at start: the vectors, the rows, and (where the tree has it) the turns' lines.
for agent in sorted({w[0] for w in json.loads(Path(work_path).read_text(encoding="utf-8"))}):
    index.warm(conn, agent, embedder.dim)
    start = 0 if hasattr(pack, "warm") else None
    while start is not None:
        start = pack.warm(conn, agent, start)
spent = {}
def timed(f, label):
    def g(*args, **kwargs):
        started = time.thread_time()
        try:
            return f(*args, **kwargs)
        finally:
            spent[label] = spent.get(label, 0.0) + (time.thread_time() - started) * 1000
    return g
for module, name, label in stages:
    owner = importlib.import_module(module)
    *path, attr = name.split(".")
    for part in path:
        owner = getattr(owner, part)
    setattr(owner, attr, timed(getattr(owner, attr), label))
work = []
for agent, text, ts in json.loads(Path(work_path).read_text(encoding="utf-8")):
    asked = retrieve.read_cues(conn, agent, text, ts)
    work.append((agent, text, ts, asked, embedder.embed([asked.topic])[0] if asked.topic.strip() else None))
out = {}
for attempt in ("first", "again"):
    for agent, text, ts, asked, vector in work:
        spent.clear()
        started = time.thread_time()
        retrieve.search(conn, agent, text, vector, ts, k=200, budget_tokens=1000,
            recent_days=cfg.memory.recent_days, touch=False, profile=profile,
            fusion=cfg.memory.fusion, asked=asked, fill=True)
        total = (time.thread_time() - started) * 1000
        out.setdefault(f"{attempt} total", []).append(total)
        top = sum(v for (_, _, label) in stages if not label.startswith(" ") for v in [spent.get(label, 0.0)])
        out.setdefault(f"{attempt} rest", []).append(total - top)
        for _, _, label in stages:
            out.setdefault(f"{attempt} {label}", []).append(spent.get(label, 0.0))
Path(out_path).write_text(json.dumps(out), encoding="utf-8")
"""


def _run(trees: list[tuple[str, Path | None]], db: Path, work: list, tmp: Path) -> dict:
    work_path = tmp / "work.json"
    work_path.write_text(json.dumps(work, ensure_ascii=False), encoding="utf-8")
    started = []
    for name, tree in trees:
        copy = tmp / f"{name}.db"
        shutil.copy2(db, copy)
        env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
        if tree is not None:
            env["PYTHONPATH"] = f"{tree}{os.pathsep}{tree / 'client'}"
            env["PYTHONSAFEPATH"] = "1"  # the tree's code, not the working directory's
        out = tmp / f"{name}.json"
        args = [sys.executable, "-c", _SCRIPT, str(copy), str(work_path), str(out)]
        args.append(json.dumps(STAGES))
        started.append((name, out, subprocess.Popen(args, env=env)))
    found = {}
    for name, out, proc in started:
        if proc.wait() != 0:
            raise RuntimeError(f"the stages of {name} failed ({proc.returncode})")
        found[name] = json.loads(out.read_text(encoding="utf-8"))
    return found


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def run(quick: bool) -> Section:
    section = Section("Search CPU time by stage, two-year agent (issue 28 item 2)")
    raw = os.environ.get("XAID_PERF_SEARCH_DB")
    if not raw:
        section.notes.append(
            "not run: $XAID_PERF_SEARCH_DB (the search area's prebuilt database) unset"
        )
        return section
    baseline = os.environ.get("XAID_PERF_SEARCH_BASELINE")
    trees: list[tuple[str, Path | None]] = [("after", None)]
    if baseline:
        trees.insert(0, ("before", Path(baseline)))
    end_ms = (int(time.time() * 1000) // DAY) * DAY + 8 * HOUR  # as the search area built it
    queries = _queries(40 if quick else QUERIES)
    work = [(TWO_YEARS_AGENT, text, end_ms + HOUR) for text in queries]
    load_before = os.getloadavg()
    progress(f"search_stages: {len(work)} queries, {len(trees)} tree(s)")
    with tempfile.TemporaryDirectory(prefix="xaid-search-stages-") as tmp:
        found = _run(trees, Path(raw), work, Path(tmp))
    load_after = os.getloadavg()
    after, before = found["after"], found.get("before")
    labels = ["total", *(label for _, _, label in STAGES), "rest"]
    for attempt, what in (("first", "each query once"), ("again", "queries repeated")):
        for label in labels:
            key = f"{attempt} {label}"
            now = after[key]
            then = before.get(key) if before is not None else None
            name = (
                "retrieve.search, all of it"
                if label == "total"
                else ("the rest (scoring, sorting, the query's cues)" if label == "rest" else label)
            )
            value = _mean(now)
            old = _mean(then) if then else None
            section.rows.append(
                Row(
                    f"{name}: CPU ms per search, mean ({what})",
                    value,
                    "ms",
                    None,
                    ratio(value, old) if old else None,
                    "before (same run)" if old else "",
                    (
                        f"before {old:.2f} ms, p95 {percentile(then, 0.95):.2f}; "
                        if then and old
                        else ""
                    )
                    + f"p95 {percentile(now, 0.95):.2f} ms",
                )
            )
    section.notes.append(
        f"{len(work)} bilingual queries on the two-year agent at 1,000 tokens, k 200, twice; "
        f"thread CPU time; each tree on its own copy of {Path(raw).name}, both at once; load average "
        f"(1, 5, 15 min) {load_before[0]:.1f}/{load_before[1]:.1f}/{load_before[2]:.1f} at the start, "
        f"{load_after[0]:.1f}/{load_after[1]:.1f}/{load_after[2]:.1f} at the end (2 cores shared)."
    )
    return section
