"""Area ``search_stages``: where a two-year agent's ``memory.search`` spends its CPU time, stage by
stage, before and after (issue 28 item 2).

The database is ``$XAID_PERF_SEARCH_DB`` (built by the ``search`` area's steps: the LoCoMo samples,
then the two-year agent, built today), copied once per tree. Each tree runs in a process of its own
with its code first on the path (``$XAID_PERF_SEARCH_BASELINE``: the tree before the change; unset,
only this tree), the two at the same time so that both see the same load; with
``$XAID_PERF_STAGES_ROUNDS`` = N, one after the other instead, N rounds each in alternating order,
each figure from the round with the least median (on a machine others load, the least of several
moments is the steadiest figure of what the code costs; side by side, the two trees also compete for
the same two cores). Each process embeds the
``search`` area's bilingual queries for the two-year agent, then runs ``retrieve.search`` in
memory.search's shape (1,000 tokens, k 200) over all of them twice (the second pass repeats them),
timing each call and each stage inside it by the thread's CPU time (``time.thread_time``; on a
machine shared by several people the wall time is mostly waiting for a core). The vector ranking is
kept on the calling thread (the daemon gives it a thread of its own past 4,096 vectors), so its CPU
time is counted; numpy's BLAS has one thread, as in the daemon. Before the queries, each process
warms what the daemon warms at start (its tree's ``index.warm``, and ``pack.warm``,
``index.warm_hubs`` and ``retrieve.warm`` where it has them).

Around ``retrieve.search``, what ``memory.search`` does first is timed too: the query's cues and its
embedding (CPU per query, English and Chinese), and the whole in the process's CPU time and in wall
time. The items of every query are compared between
the trees: the timing queries, and ``perf/scenarios/search_dev11.json``, ``search_dev13.json`` and
``search_dev14.json``
(their train and test halves, in memory.search's shape and a turn's); each dev query's
``retrieve.search`` CPU time is reported per test half, language and shape.

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
    ("xaid.memory.hubs", "discounted", "the hubness discount (hubs.py)"),
    ("xaid.memory.hubs", "_measure", "  the candidates' hubness measured"),
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
# As the daemon does at start: the vectors, the rows, and (where the tree has them) the turns' lines,
# the vectors' hubness and what the rules read of the turns.
work, dev = json.loads(Path(work_path).read_text(encoding="utf-8"))
for agent in sorted({w[0] for w in work} | {d[1] for d in dev}):
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
from xaid.memory.index import mostly_cjk
embedder.embed(["warm up"])
def embed(topic):
    started = time.thread_time()
    return embedder.embed([topic])[0], (time.thread_time() - started) * 1000
out = {}
items = {}
for attempt in ("first", "again"):
    for agent, text, ts in work:
        # What memory.search does before retrieve.search: the query's cues, then its embedding.
        wall, cpu = time.perf_counter(), time.process_time()
        asked = retrieve.read_cues(conn, agent, text, ts)
        cued = time.process_time()
        vector, embed_ms = embed(asked.topic) if asked.topic.strip() else (None, 0.0)
        out.setdefault(f"{attempt} cues", []).append((cued - cpu) * 1000)
        lang = "zh" if mostly_cjk(text) else "en"
        out.setdefault(f"{attempt} embed {lang}", []).append(embed_ms)
        spent.clear()
        started = time.thread_time()
        hits, _ = retrieve.search(conn, agent, text, vector, ts, k=200, budget_tokens=1000,
            recent_days=cfg.memory.recent_days, touch=False, profile=profile,
            fusion=cfg.memory.fusion, asked=asked, fill=True)
        done = time.thread_time()
        items.setdefault(f"{attempt} {text}", [[h.kind, h.id, h.text] for h in hits])
        out.setdefault(f"{attempt} whole cpu", []).append((time.process_time() - cpu) * 1000)
        out.setdefault(f"{attempt} whole wall", []).append((time.perf_counter() - wall) * 1000)
        total = (done - started) * 1000
        out.setdefault(f"{attempt} total", []).append(total)
        top = sum(v for (_, _, label) in stages if not label.startswith(" ") for v in [spent.get(label, 0.0)])
        out.setdefault(f"{attempt} rest", []).append(total - top)
        for _, _, label in stages:
            out.setdefault(f"{attempt} {label}", []).append(spent.get(label, 0.0))
# The dev sets' queries (both shapes: memory.search's, a turn's): what each returns, to compare,
# and retrieve.search's CPU time for each (each query once, the stage timers still wrapped).
dev_cpu = {}
for name, agent, text, ts in dev:
    asked = retrieve.read_cues(conn, agent, text, ts)
    vector = embedder.embed([asked.topic])[0] if asked.topic.strip() else None
    for shape, budget, lang, fill, k in (("search", 1000, None, True, 200), ("turn", 400, "en", False, 20)):
        started = time.thread_time()
        hits, _ = retrieve.search(conn, agent, text, vector, ts, k=k, budget_tokens=budget,
            recent_days=cfg.memory.recent_days, touch=False, profile=profile,
            fusion=cfg.memory.fusion, asked=asked, fill=fill, lang=lang)
        dev_cpu[f"{name} {shape}"] = (time.thread_time() - started) * 1000
        items[f"{name} {shape}"] = [[h.kind, h.id, h.text] for h in hits]
out["dev cpu"] = dev_cpu
out["items"] = items
Path(out_path).write_text(json.dumps(out), encoding="utf-8")
"""


def _run(trees: list[tuple[str, Path | None]], db: Path, work: list, dev: list, tmp: Path) -> dict:
    work_path = tmp / "work.json"
    work_path.write_text(json.dumps([work, dev], ensure_ascii=False), encoding="utf-8")
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


def _alternate(
    trees: list[tuple[str, Path | None]], db: Path, work: list, dev: list, tmp: Path, rounds: int
) -> dict:
    """The trees one after the other, ``rounds`` times each, the order swapped every round (ABBA...),
    so that each sees the load of the others' moments; each figure is taken from the round whose
    median is least, the dev queries' CPU is the least over the rounds, and the items are the first
    round's."""
    runs: dict[str, list[dict]] = {name: [] for name, _ in trees}
    for r in range(rounds):
        for name, tree in trees if r % 2 == 0 else list(reversed(trees)):
            runs[name].append(_run([(name, tree)], db, work, dev, tmp)[name])
            progress(f"search_stages: round {r + 1} of {rounds}, {name} done")
    found = {}
    for name, done in runs.items():
        merged: dict = {"items": done[0]["items"]}
        merged["dev cpu"] = {k: min(d["dev cpu"][k] for d in done) for k in done[0]["dev cpu"]}
        for key in done[0]:
            if key not in merged:
                merged[key] = min((d[key] for d in done), key=lambda v: percentile(v, 0.5))
        found[name] = merged
    return found


SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
# search_dev11 (session 11's), search_dev13 and search_dev14 (sessions 13's and 14's, each written
# before its changes): ids "s11-train-en-00", "s13-test-zh-05", "s14-test-en-03".
DEV_SETS = tuple(SCENARIOS / f"search_dev{n}.json" for n in (11, 13, 14))


def _dev(now_ms: int) -> list[tuple[str, str, str, int]]:
    """The dev sets' queries as the stage process takes them: (id, agent, text, now)."""
    return [
        (q["id"], q["agent"], q["text"], now_ms)
        for path in DEV_SETS
        for q in json.loads(path.read_text(encoding="utf-8"))["queries"]
    ]


def _dev_rows(after: dict[str, float], before: dict[str, float] | None) -> list[Row]:
    """retrieve.search's CPU time on each dev set's test half (each query once), per language and
    shape: the figure a change is judged by (the train halves are for profiling)."""
    rows = []
    groups: dict[tuple[str, str, str], list[str]] = {}
    for key in after:
        name, shape = key.rsplit(" ", 1)
        dev_set, half, lang, _ = name.split("-")
        if half == "test":
            groups.setdefault((dev_set, lang, shape), []).append(key)
    for (dev_set, lang, shape), keys in sorted(groups.items()):
        what = "memory.search's shape" if shape == "search" else "a turn's shape"
        rows.append(
            _row(
                f"search_dev{dev_set[1:]} test half, {lang}, {what}: "
                "retrieve.search CPU ms per query, mean",
                [after[k] for k in keys],
                [before[k] for k in keys if k in before] if before is not None else None,
            )
        )
    return rows


def _same_items(before: dict, after: dict) -> str:
    """How many searches returned the same items (kind, id, text, in order) on both trees: the
    timing queries, and the dev set's halves in both shapes (a speed change may change nothing)."""
    groups: dict[str, list[bool]] = {}
    for key, hits in after.items():
        group = (
            "timing queries"
            if key.startswith(("first ", "again "))
            else f"{key.split('-')[0]} "
            + key.split("-")[1]
            + " half, "
            + key.rsplit(" ", 1)[1]
            + " shape"
        )
        groups.setdefault(group, []).append(before.get(key) == hits)
    return "Same items before and after: " + "; ".join(
        f"{name} {sum(same)}/{len(same)}" for name, same in sorted(groups.items())
    )


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def _row(figure: str, now: list[float], then: list[float] | None, wall: bool = False) -> Row:
    """One figure: the mean of ``now`` (its median for a wall time, which a busy moment skews),
    against ``then`` measured in the same run, with both p95s in the note."""
    centre = percentile if wall else None
    value = centre(now, 0.5) if centre else _mean(now)
    old = (centre(then, 0.5) if centre else _mean(then)) if then else None
    return Row(
        figure.replace(", mean (", ", p50 (") if wall else figure,
        value,
        "ms",
        None,
        ratio(value, old) if old else None,
        "before (same run)" if old else "",
        (f"before {old:.2f} ms, p95 {percentile(then, 0.95):.2f}; " if then and old else "")
        + f"p95 {percentile(now, 0.95):.2f} ms",
    )


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
    rounds = int(os.environ.get("XAID_PERF_STAGES_ROUNDS", "0"))
    how = (
        f"one after the other, {rounds} alternating rounds each, each figure from the round with "
        "the least median"
        if rounds > 0
        else "both at once"
    )
    with tempfile.TemporaryDirectory(prefix="xaid-search-stages-") as tmp:
        if rounds > 0:
            found = _alternate(trees, Path(raw), work, _dev(end_ms + HOUR), Path(tmp), rounds)
        else:
            found = _run(trees, Path(raw), work, _dev(end_ms + HOUR), Path(tmp))
    load_after = os.getloadavg()
    after, before = found["after"], found.get("before")
    labels = ["total", *(label for _, _, label in STAGES), "rest"]
    # Before retrieve.search, memory.search reads the query's cues and embeds it: with them, the
    # whole of what a search costs the daemon (its round trip apart), in CPU and in wall time.
    outside = {
        "whole cpu": "the whole search (cues, embedding, retrieve.search): CPU ms per search (process)",
        "whole wall": "the whole search (cues, embedding, retrieve.search): wall ms per search",
        "cues": "the query's cues (read_cues): CPU ms per search",
        "embed en": "the query's embedding, English: CPU ms per query",
        "embed zh": "the query's embedding, Chinese: CPU ms per query",
    }
    for attempt, what in (("first", "each query once"), ("again", "queries repeated")):
        for key, name in outside.items():
            now = after.get(f"{attempt} {key}")
            then = before.get(f"{attempt} {key}") if before is not None else None
            if now:
                section.rows.append(_row(f"{name}, mean ({what})", now, then, key == "whole wall"))
        for label in labels:
            key = f"{attempt} {label}"
            name = (
                "retrieve.search, all of it"
                if label == "total"
                else ("the rest (scoring, sorting, the query's cues)" if label == "rest" else label)
            )
            then = before.get(key) if before is not None else None
            section.rows.append(_row(f"{name}: CPU ms per search, mean ({what})", after[key], then))
    section.rows += _dev_rows(after["dev cpu"], before.get("dev cpu") if before else None)
    if before is not None:
        section.notes.append(_same_items(before["items"], after["items"]))
    section.notes.append(
        f"{len(work)} bilingual queries on the two-year agent at 1,000 tokens, k 200, twice; "
        f"thread CPU time; each tree on its own copy of {Path(raw).name}, {how}; load average "
        f"(1, 5, 15 min) {load_before[0]:.1f}/{load_before[1]:.1f}/{load_before[2]:.1f} at the start, "
        f"{load_after[0]:.1f}/{load_after[1]:.1f}/{load_after[2]:.1f} at the end (2 cores shared)."
    )
    return section
