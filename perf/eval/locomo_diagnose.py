"""Where xaid's budget goes, and which turns the hybrid baseline shows that xaid does not, and why.

``python -m perf.eval.locomo_diagnose FILE [--samples 0,2,4] [--budget 1000] [--k 200] [--db DIR]``
``python -m perf.eval.locomo_diagnose --associative train [--set dev7] [--budget 400]``
``python -m perf.eval.locomo_diagnose FILE --split perf/scenarios/locomo_split12.json [--half test]
[--category 4]``: the samples a split file names (``--half``, train by default), one category only

A diagnosis tool for the tuning split only (LoCoMo's samples 0-4 by default, ``--tuning``; the
associative train half): it prints per-question misses and the budget's use for the tuning samples
only, and recall alone for the others (the test half), so never read a test half's questions with
it. The database is built once by a real daemon (the same ingest as perf/eval/locomo.py, scripted
provider) and kept in ``--db``; then every question is searched in this process with
``retrieve.search`` exactly as ``memory.search`` calls it (the daemon's embedder on the query's
topic, the configured fusion), so a change to the ranking is measured again in seconds, without
ingesting. The stages of the search are watched, not changed: the candidates each index offered, the
ranked list handed to packing, what the repeat collapse took out.

Printed: tokens by what they hold (episodes, facts, turns a search matched, turns that came in as
neighbours, turns cut to the query's sentences, recent episodes with nothing matched), recall of
xaid and the fair baselines, and, for each evidence turn hybrid shows and xaid does not, the reason:
not a candidate of either index, ranked below what the budget held (and what ranked above it),
collapsed as a repeat, or ranked above the last shown item yet skipped (budget or covered).
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import json
import os
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from testkit import DaemonProcess
from xaid import config, embed
from xaid.memory import associate, index, pack, retrieve, vectors
from xaid.store import db
from xaid.text.tokens import count as count_tokens

from .. import kit
from ..kit import HOUR, progress
from . import locomo
from . import locomo_score as score


@dataclass
class Watch:
    """What one search's stages handed on, for the diagnosis."""

    keyword: list[int] = field(default_factory=list)
    vector: list[int] = field(default_factory=list)
    ranked: list[tuple[index.Item, pack.About, float]] = field(default_factory=list)
    before_collapse: list[int] = field(default_factory=list)
    after_collapse: list[int] = field(default_factory=list)


@contextmanager
def watching() -> Iterator[Watch]:
    """Wrap the search's stages to record what passes through them; the results are unchanged."""
    seen = Watch()
    real_fill, real_kw = pack.fill, index.keyword
    real_near, real_collapse = vectors.AgentVectors.nearest, associate.collapse_repeats

    def fill(ranked: Sequence[tuple[index.Item, pack.About, float]], *a: Any, **kw: Any) -> Any:
        seen.ranked = list(ranked)
        return real_fill(ranked, *a, **kw)

    def keyword(*a: Any, **kw: Any) -> list[tuple[int, float]]:
        out = real_kw(*a, **kw)
        seen.keyword = [i for i, _ in out]
        return out

    def nearest(self: vectors.AgentVectors, *a: Any, **kw: Any) -> Any:
        out = real_near(self, *a, **kw)
        seen.vector = [i for i, _ in out]
        return out

    def collapse(ranked: Sequence[int], *a: Any, **kw: Any) -> list[int]:
        out = real_collapse(ranked, *a, **kw)
        seen.before_collapse, seen.after_collapse = list(ranked), out
        return out

    pack.fill, index.keyword = fill, keyword
    vectors.AgentVectors.nearest = nearest  # type: ignore[method-assign]
    associate.collapse_repeats = collapse
    try:
        yield seen
    finally:
        pack.fill, index.keyword = real_fill, real_kw
        vectors.AgentVectors.nearest = real_near  # type: ignore[method-assign]
        associate.collapse_repeats = real_collapse


def build(path: Path, root: Path) -> Path:
    """The database of every sample of ``path``, made by a real daemon once and kept in ``root``."""
    done = root / "built"
    daemon = DaemonProcess(
        root, {k: v for k, v in os.environ.items() if k.startswith("XAID_MEMORY_")}
    )
    if done.exists():
        return daemon.db_path
    daemon.start()
    try:
        with daemon.client(timeout=300.0) as c:
            for n, sample in enumerate(locomo.load(path)):
                c.agent_create(locomo.agent_id(n, sample), name=sample.speaker_b)
                locomo.ingest(c, locomo.agent_id(n, sample), sample)
                progress(f"diagnose: built {sample.sample_id}")
    finally:
        daemon.stop()
    done.write_text("ok\n")
    return daemon.db_path


@dataclass
class Tally:
    """Sums over the questions of a run."""

    questions: int = 0
    tokens: dict[str, float] = field(default_factory=dict)
    answer: dict[str, list[float]] = field(default_factory=dict)
    evidence: dict[str, list[float]] = field(default_factory=dict)
    missed: Counter[str] = field(default_factory=Counter)  # evidence hybrid shows, xaid not: why
    # per system, the tokens returned and the turns they show, summed: what a turn's line costs
    spent: dict[str, list[int]] = field(default_factory=dict)
    by_category: dict[tuple[str, int], list[float]] = field(default_factory=dict)  # answer recall
    by_lang: dict[tuple[str, str], list[float]] = field(default_factory=dict)  # answer recall
    examples: list[str] = field(default_factory=list)
    # xaid's block counted with the model's own tokenizer (--tokenizer), over the budget, by language
    real_fill: dict[str, list[float]] = field(default_factory=dict)

    def add(self, system: str, answer: locomo.Answer, category: int = 0, lang: str = "") -> None:
        if answer.answer is not None:
            self.answer.setdefault(system, []).append(answer.answer)
            self.by_category.setdefault((system, category), []).append(answer.answer)
            if lang:
                self.by_lang.setdefault((system, lang), []).append(answer.answer)
        if answer.evidence is not None:
            self.evidence.setdefault(system, []).append(answer.evidence)
        tokens_turns = self.spent.setdefault(system, [0, 0])
        tokens_turns[0] += answer.tokens
        tokens_turns[1] += len(set(answer.refs))


def diagnose_question(
    conn: Any,
    agent: str,
    q: dict[str, Any],
    now_ms: int,
    budget: int,
    k: int,
    vector_of: Callable[[str], np.ndarray | None],
    profile: embed.EmbedProfile,
    fusion: str,
    base: Callable[[], dict[str, locomo.Answer | None]],
    tally: Tally,
    label: str,
) -> float:
    """Diagnose one question into ``tally``; the CPU time (thread_time) of its search alone."""
    question = str(q["question"])
    asked = retrieve.read_cues(conn, agent, question, now_ms)
    vector = vector_of(asked.topic) if asked.topic.strip() else None
    with watching() as seen:
        started = time.thread_time()
        hits, used = retrieve.search(
            conn,
            agent,
            question,
            vector,
            now_ms,
            k=k,
            budget_tokens=budget,
            recent_days=7,
            touch=False,
            profile=profile,
            fusion=fusion,
            asked=asked,
        )
        spent = time.thread_time() - started
    refs = [r for h in hits for r in h.refs]
    mine = locomo.scored(q, [h.text for h in hits], refs, used)
    tally.questions += 1
    category = int(q.get("category") or 0)
    lang = str(q.get("lang") or "")
    if REAL is not None:
        real = sum(REAL(h.text) for h in hits) / budget
        tally.real_fill.setdefault(lang or "all", []).append(real)
    tally.add("xaid", mine, category, lang)
    baselines = base()
    hybrid = baselines.get("hybrid")
    for name, got in baselines.items():
        if got is not None:
            tally.add(name, got, category, lang)
    matched = {*seen.keyword, *seen.vector}
    ref_of = {
        i: (a.refs[0] if a.refs else "")
        for i, (_it, a, _s) in ((it.item_id, (it, a, s)) for it, a, s in seen.ranked)
    }
    # tokens by what they hold
    for h in hits:
        cost = count_tokens(h.text)
        if h.kind != "utterance":
            tally.tokens[h.kind] = tally.tokens.get(h.kind, 0.0) + cost
            continue
        turns = h.ids or (h.id,)
        items = {it.source_id: it.item_id for it, _a, _s in seen.ranked if it.kind == "utterance"}
        own = [u for u in turns if items.get(u) in matched]
        share = cost / len(turns)
        tally.tokens["turn matched"] = tally.tokens.get("turn matched", 0.0) + share * len(own)
        tally.tokens["turn neighbour"] = tally.tokens.get("turn neighbour", 0.0) + share * (
            len(turns) - len(own)
        )
        if len(h.text) < len(h.content) * 0.9:
            tally.tokens["(of which cut)"] = tally.tokens.get("(of which cut)", 0.0) + cost
    # evidence hybrid shows that xaid does not
    shown_refs = set(refs)
    if hybrid is None:
        return spent
    ranked_ids = [it.item_id for it, _a, _s in seen.ranked]
    by_ref = {
        a.refs[0]: it.item_id for it, a, _s in seen.ranked if it.kind == "utterance" and a.refs
    }
    last_shown = max(
        (n for n, (it, a, _s) in enumerate(seen.ranked) if set(a.refs) & shown_refs), default=-1
    )
    for e in score.evidence_ids(q.get("evidence") or []):
        if e not in hybrid.refs or e in shown_refs:
            continue
        item = by_ref.get(e)
        if item is None:
            removed = {i for i in seen.before_collapse if i not in set(seen.after_collapse)}
            reason = (
                "collapsed as a repeat"
                if any(ref_of.get(i) == e for i in removed)
                else "not a candidate"
            )
            if reason == "not a candidate":
                reason = _why_not_a_candidate(conn, agent, e, seen)
        else:
            n = ranked_ids.index(item)
            reason = "ranked below the budget" if n > last_shown else "skipped above the last shown"
            if n > last_shown:
                above = Counter(
                    "episode"
                    if it.kind == "episode"
                    else it.kind
                    if it.kind != "utterance"
                    else ("turn matched" if it.item_id in matched else "turn neighbour")
                    for it, _a, _s in seen.ranked[:n]
                )
                for kind, c in above.items():
                    tally.missed[f"  above it: {kind}"] += c
                tally.missed["  its rank (sum)"] += n
        tally.missed[reason] += 1
        if len(tally.examples) < 40:
            tally.examples.append(f"{label} {reason}: {question[:80]} → {e}")
    return spent


def _why_not_a_candidate(conn: Any, agent: str, ref: str, seen: Watch) -> str:
    """Why a turn never reached the ranking: gone, superseded (and the question read as present),
    offered by an index but below the vector cut, or in neither index's candidates."""
    row = conn.execute(
        "SELECT m.item_id, u.status FROM utterances u JOIN memory_items m ON m.kind = 'utterance' "
        "AND m.source_id = u.utterance_id WHERE u.ref = ? AND m.agent_id = ?",
        (ref, agent),
    ).fetchone()
    if row is None:
        return "not a candidate: not stored"
    item_id, status = row
    if status != "current":
        return "not a candidate: superseded, question read as present"
    if item_id in seen.keyword or item_id in seen.vector:
        return "not a candidate: offered, below the vector cut"
    return "not a candidate: in neither index's candidates"


# The model's tokenizer (--tokenizer GGUF): what xaid's blocks really hold of the budget, the way
# the daemon's model reads them; the estimate (xaid.text.tokens) is what packing counts.
REAL: Callable[[str], int] | None = None


def _fill_line(lang: str, xs: list[float]) -> str:
    s = sorted(xs)
    return (
        f"  xaid block, real tokens / budget, {lang}: median {s[len(s) // 2]:.3f}, "
        f"p5 {s[int(len(s) * 0.05)]:.3f}, p95 {s[min(len(s) - 1, int(len(s) * 0.95))]:.3f}, "
        f"mean {sum(s) / len(s):.3f}  ({len(s)} blocks)"
    )


def report(tally: Tally) -> str:
    lines = [f"{tally.questions} questions"]
    for name in ("xaid", "bm25", "dense", "hybrid"):
        a, e = tally.answer.get(name, []), tally.evidence.get(name, [])
        used, turns = tally.spent.get(name, [0, 0])
        lines.append(
            f"  {name:7s} answer-token recall {100 * (sum(a) / len(a) if a else 0):5.1f} %  "
            f"evidence recall {100 * (sum(e) / len(e) if e else 0):5.1f} %  "
            f"tokens {used / max(1, tally.questions):5.0f}, turns {turns / max(1, tally.questions):4.1f} "
            f"({used / max(1, turns):4.1f} tokens a turn)"
        )
    for c in sorted({c for _s, c in tally.by_category}):
        lines.append(
            f"  category {c} {locomo.CATEGORIES.get(c, '?'):12s} answer-token recall: "
            + ", ".join(
                f"{name} {100 * sum(xs) / len(xs):5.1f}"
                for name in ("xaid", "bm25", "dense", "hybrid")
                if (xs := tally.by_category.get((name, c)))
            )
            + f"  ({len(tally.by_category.get(('xaid', c), []))} q.)"
        )
    lines += [_fill_line(lang, xs) for lang, xs in sorted(tally.real_fill.items()) if xs]
    for lang in sorted({g for _s, g in tally.by_lang}):
        lines.append(
            f"  lang {lang} answer-token recall: "
            + ", ".join(
                f"{name} {100 * sum(xs) / len(xs):5.1f}"
                for name in ("xaid", "bm25", "dense", "hybrid")
                if (xs := tally.by_lang.get((name, lang)))
            )
            + f"  ({len(tally.by_lang.get(('xaid', lang), []))} q.)"
        )
    total = sum(v for key, v in tally.tokens.items() if not key.startswith("("))
    lines.append("xaid's tokens per question, by what they hold:")
    for key, v in sorted(tally.tokens.items(), key=lambda kv: -kv[1]):
        lines.append(
            f"  {key:22s} {v / max(1, tally.questions):6.1f}  ({100 * v / max(1, total):4.1f} %)"
        )
    lines.append("evidence turns hybrid shows and xaid does not, by reason:")
    for key, v in tally.missed.items():
        lines.append(f"  {key:34s} {v}")
    return "\n".join(lines)


def _mean(xs: list[float]) -> float | None:
    return sum(xs) / len(xs) if xs else None


def record(
    area: str,
    title: str,
    tallies: dict[tuple[str, str], Tally],
    cpu: dict[str, list[float]],
    pair: tuple[str, str],
    budget: int,
    notes: list[str],
) -> None:
    """The ``after`` variant against the best fair baseline of the same run, per group, with the
    ``before`` variant's figure in each row's note; written as a section of perf/results.json and
    perf/RESULTS.md (kept beside the other areas' last results)."""
    from .. import __main__ as perf_main

    before, after = pair
    section = kit.Section(title)
    groups = [*sorted({g for _v, g in tallies}), "all"]

    def pooled(variant: str, group: str) -> Tally:
        out = Tally()
        for (v, g), t in tallies.items():
            if v == variant and group in (g, "all"):
                out.questions += t.questions
                for s_, xs in t.answer.items():
                    out.answer.setdefault(s_, []).extend(xs)
                for s_, xs in t.evidence.items():
                    out.evidence.setdefault(s_, []).extend(xs)
        return out

    for group in groups:
        new, old = pooled(after, group), pooled(before, group)
        for figure, metric in (("answer-token recall", "answer"), ("evidence recall", "evidence")):
            mine = _mean(getattr(new, metric).get("xaid", []))
            was = _mean(getattr(old, metric).get("xaid", []))
            base = {
                n: v
                for n in ("bm25", "dense", "hybrid")
                if (v := _mean(getattr(new, metric).get(n, []))) is not None
            }
            if mine is None or not base:
                continue
            best = max(base, key=lambda n: base[n])
            section.rows.append(
                kit.Row(
                    f"{area} @{budget} {group}: {figure}",
                    round(100 * mine, 1),
                    "%",
                    kit.Aim(">=", round(100 * base[best] + 5, 1)),
                    round(mine / base[best], 3) if base[best] else None,
                    best,
                    f"before {100 * (was or 0):.1f} %; "
                    + ", ".join(f"{n} {100 * v:.1f} %" for n, v in base.items())
                    + f"; {new.questions} questions",
                )
            )
    for name in pair:
        times = sorted(cpu.get(name, []))
        if times:
            section.rows.append(
                kit.Row(
                    f"{area} @{budget}: retrieve.search CPU p95, {name}",
                    round(1000 * times[int(len(times) * 0.95)], 2),
                    "ms",
                    None,
                    None,
                    "",
                    f"p50 {1000 * times[len(times) // 2]:.2f} ms; thread_time, in process, the "
                    "variants interleaved question by question",
                )
            )
    section.notes += notes
    stamped = dataclasses.replace(
        section,
        area=area,
        command=" ".join(["python", "-m", "perf.eval.locomo_diagnose", *sys.argv[1:]]),
        date=kit.now(),
        machine=kit.machine(),
    )
    out = perf_main.HERE / "RESULTS.md"
    data = perf_main.json_path(out)
    sections = {**kit.load_results(data), area: stamped}
    kit.save_results(data, sections)
    out.write_text(kit.render(sections), encoding="utf-8")


Settings = dict[str, tuple[Any, str, Any]]  # "module.NAME" → (module, attribute, value)


def _settings(spec: str) -> Settings:
    """ "retrieve.RECENCY_WEIGHT=0,retrieve.NEIGHBOURS=6" → what to set for one variant."""
    out: Settings = {}
    for part in filter(None, spec.split(",")):
        name, value = part.split("=", 1)
        module, attr = name.rsplit(".", 1)
        target = importlib.import_module(f"xaid.memory.{module}")
        out[name] = (target, attr, json.loads(value))
    return out


@contextmanager
def applied(settings: Settings) -> Iterator[None]:
    """The variant's constants for the duration of one search, the module's own after."""
    old = {name: getattr(m, a) for name, (m, a, _v) in settings.items()}
    for m, a, v in settings.values():
        setattr(m, a, v)
    try:
        yield
    finally:
        for name, (m, a, _v) in settings.items():
            setattr(m, a, old[name])


def split_of(split: Path, data: Path) -> dict[str, list[int]]:
    """The train and test sample indices a split file names for the data file ``data`` (by its file
    name): tuning reads the train half only, the test half is reported, never tuned on."""
    entries = json.loads(split.read_text(encoding="utf-8"))["files"]
    entry = entries.get(data.name)
    if entry is None:
        raise SystemExit(f"{split}: no split for {data.name} (has {', '.join(entries)})")
    return {"train": [int(n) for n in entry["train"]], "test": [int(n) for n in entry["test"]]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m perf.eval.locomo_diagnose")
    parser.add_argument("file", type=Path, nargs="?")
    parser.add_argument(
        "--associative", choices=("train", "test", "both"), help="the associative set's halves"
    )
    parser.add_argument(
        "--set",
        dest="assoc_set",
        default=None,
        help="with --associative: a labelled dev set of perf/eval/associative.py (dev, dev7)",
    )
    parser.add_argument("--samples", default="0,1,2,3,4", help="sample indices to search")
    parser.add_argument(
        "--tuning",
        default="0,1,2,3,4",
        help="the samples tuned on (group 'train'; the others are 'test', reported as recall only)",
    )
    parser.add_argument(
        "--split",
        type=Path,
        help="a split file (perf/scenarios/locomo_split12.json): FILE's train and test samples by name",
    )
    parser.add_argument(
        "--half",
        choices=("train", "test", "both"),
        default="train",
        help="with --split: which samples to search (default train; test is recall only)",
    )
    parser.add_argument(
        "--category", type=int, help="only the questions of this LoCoMo category (4: single-hop)"
    )
    parser.add_argument("--budget", type=int)
    parser.add_argument("--k", type=int)
    parser.add_argument("--db", type=Path, help="where the built database is kept")
    parser.add_argument(
        "--examples", action="store_true", help="list the misses (tuning split only)"
    )
    parser.add_argument(
        "--variant",
        action="append",
        default=[],
        metavar="NAME:module.CONST=VALUE,...",
        help="search every question once per variant, in one process (xaid.memory constants)",
    )
    parser.add_argument(
        "--record",
        nargs=2,
        metavar=("AREA", "BEFORE,AFTER"),
        help="write the AFTER variant against the baselines, BEFORE in the notes, to perf/RESULTS.md",
    )
    parser.add_argument("--note", action="append", default=[], help="a note for --record")
    parser.add_argument(
        "--tokenizer",
        type=Path,
        help="a GGUF (Qwen2.5): also count xaid's blocks with the model's own tokenizer",
    )
    args = parser.parse_args(argv)
    variants = [
        (v.split(":", 1)[0], _settings(v.split(":", 1)[1] if ":" in v else ""))
        for v in args.variant
    ]
    variants = variants or [("as is", {})]
    if args.tokenizer is not None:
        global REAL
        REAL = kit.gguf_counter(args.tokenizer)
    if args.associative:
        from . import associative

        picked = associative.chosen_set(args.assoc_set or "dev")
        if picked.held_out:
            parser.error("--set: a held-out set is never diagnosed")
        halves = associative.load(picked.path)
        chosen = list(halves) if args.associative == "both" else [args.associative]
        data = [dict(s) for split in chosen for s in halves[split].samples]
        tmp = Path(tempfile.gettempdir()) / (
            f"xaid-diagnose-{picked.path.stem}-{args.associative}.json"
        )
        tmp.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        path, budget = tmp, args.budget or associative.TURN_BUDGET
        wanted = list(range(len(data)))
        group_of = {n: str(data[n]["split"]) for n in wanted}
        k = args.k or retrieve.turn_k(budget)
    else:
        if args.file is None:
            parser.error("FILE or --associative")
        path, budget = args.file, args.budget or 1000
        wanted = [int(s) for s in args.samples.split(",")]
        tuned = {int(s) for s in args.tuning.split(",")}
        if args.split is not None:
            named = split_of(args.split, path)
            tuned = set(named["train"])
            wanted = sorted(
                n for h in ("train", "test") if args.half in (h, "both") for n in named[h]
            )
        group_of = {n: "train" if n in tuned else "test" for n in wanted}
        k = args.k or locomo.SEARCH_K
    root = args.db or Path(tempfile.gettempdir()) / f"xaid-diagnose-{path.stem}"
    db_path = build(path, root)
    conn = db.connect(db_path)
    cfg = config.load().memory
    embedder, profile = embed.load(cfg)
    queries = root / "queries.json"
    known: dict[str, list[float]] = json.loads(queries.read_text()) if queries.exists() else {}

    def vector_of(text: str) -> np.ndarray | None:
        if text not in known:
            known[text] = [float(x) for x in embedder.embed([text])[0]]
        return np.asarray(known[text], dtype=np.float32)

    def embed_all(texts: list[str]) -> np.ndarray:
        if len(texts) == 1:  # a question: the baselines embed it once each, the same text
            return np.asarray([vector_of(texts[0])])
        return np.concatenate([embedder.embed(texts[i : i + 64]) for i in range(0, len(texts), 64)])

    tallies: dict[tuple[str, str], Tally] = {}
    cpu: dict[str, list[float]] = {name: [] for name, _ in variants}
    samples = locomo.load(path)
    cache_path = root / f"baselines-{budget}.json"
    cache: dict[str, dict[str, Any]] = (
        json.loads(cache_path.read_text()) if cache_path.exists() else {}
    )

    def show(done: str) -> None:
        print(f"### after {done}", flush=True)
        cache_path.write_text(json.dumps(cache))
        queries.write_text(json.dumps(known))
        tuning = {"train"}
        for (name, group), tally in sorted(tallies.items(), key=lambda kv: (kv[0][1], kv[0][0])):
            print(f"== {group} · {name}")
            text = report(tally)
            print(text if group in tuning else text.split("xaid's tokens")[0].rstrip())
            if args.examples and group in tuning:
                print("\n".join(tally.examples))
        for name, _ in variants:
            whole = Tally()
            for (v, _group), t in tallies.items():
                if v == name:
                    whole.questions += t.questions
                    for s, xs in t.answer.items():
                        whole.answer.setdefault(s, []).extend(xs)
                    for s, xs in t.evidence.items():
                        whole.evidence.setdefault(s, []).extend(xs)
                    for s, xs in t.real_fill.items():
                        whole.real_fill.setdefault(s, []).extend(xs)
                    for s, (used, turns) in t.spent.items():
                        summed = whole.spent.setdefault(s, [0, 0])
                        summed[0] += used
                        summed[1] += turns
            print(f"== all · {name}")
            print(report(whole).split("xaid's tokens")[0].rstrip())
            times = sorted(cpu[name])
            if times:
                print(
                    f"   retrieve.search CPU (thread_time) p50 {1000 * times[len(times) // 2]:.1f} ms, "
                    f"p95 {1000 * times[int(len(times) * 0.95)]:.1f} ms"
                )
        sys.stdout.flush()

    for n in wanted:
        sample = samples[n]
        lazy: list[locomo.Baselines] = []

        def baselines(
            q: dict[str, Any],
            key: str,
            sample: locomo.Sample = sample,
            lazy: list[locomo.Baselines] = lazy,
        ) -> dict[str, locomo.Answer | None]:
            if key not in cache:
                if not lazy:
                    lazy.append(locomo.Baselines(sample.turns, embed_all))
                b = lazy[0]
                got = {
                    "bm25": b.bm25_answer(q, budget),
                    "dense": b.dense_answer(q, budget),
                    "hybrid": b.hybrid_answer(q, budget),
                }
                cache[key] = {
                    s: None if a is None else [a.answer, a.evidence, a.refs, a.tokens]
                    for s, a in got.items()
                }
            return {
                s: None
                if v is None
                else locomo.Answer([], v[2], v[3] if len(v) > 3 else 0, v[1], v[0])
                for s, v in cache[key].items()
            }

        progress(f"diagnose: sample {n}")
        for qi, q in enumerate(sample.qa):
            if args.category is not None and int(q.get("category") or 0) != args.category:
                continue
            key = f"{n}#{qi}"
            for name, settings in variants:
                tally = tallies.setdefault((name, group_of[n]), Tally())
                with applied(settings):
                    spent = diagnose_question(
                        conn,
                        locomo.agent_id(n, sample),
                        q,
                        sample.end_ms + HOUR,
                        budget,
                        k,
                        vector_of,
                        profile,
                        cfg.fusion,
                        partial(baselines, q, key),
                        tally,
                        f"{sample.sample_id}#{qi}",
                    )
                    cpu[name].append(spent)
        show(f"sample {n}")
    if args.record:
        before, after = args.record[1].split(",")
        title = f"Ranking without the age prior (issue 28): {path.name}, xaid before and after"
        record(args.record[0], title, tallies, cpu, (before, after), budget, args.note)
    return 0


if __name__ == "__main__":
    sys.exit(main())
