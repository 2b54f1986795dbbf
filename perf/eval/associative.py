"""Associative recall: the user mentions A, and a friend would think of B, said weeks earlier.

``python -m perf.eval.associative [--split train|test|both] [--budget 400] [--out PATH]``, and area
``associative`` of ``python -m perf``. The set is perf/scenarios/associative_dev.json (format in
perf/scenarios/README.md): LoCoMo-format samples, each a user's six weeks of everyday sessions with a
companion, at real times; ten things said in the first four weeks (the sister's wedding in June, the
knee after the half marathon), a look-alike line later for each (the sister borrowing the car), and ten
later mentions (talked to my sister last night) whose answer is the words of B.

Why a set of its own: LoCoMo's questions name what they ask for ("When did Caroline go to the support
group?"), so lexical overlap carries most of them; a companion's turn rarely does. Here the mention and
B share little or no surface, and the look-alike shares the mention's surface but not B's meaning.

Each half runs through ``perf.eval.locomo.run_file`` with a turn's shape: the budget of a turn (400),
``k`` = ``retrieve.turn_k`` of it. Baselines as in LoCoMo: BM25, dense and hybrid RRF over the raw turns,
each dated and attributed, same budget, same counter. Scored by answer-token recall of B's words and by
evidence recall (B's turn among the refs). The samples are split by ``split`` ("train": tune on it;
"test": report only); the report gives both halves apart.

Held-out sets: ``--set heldout4`` (or ``XAID_PERF_ASSOCIATIVE_SET=heldout4`` for ``python -m perf
associative``) plays perf/scenarios/associative_heldout4.json instead, written by another author apart
from the rules and never tuned on: every sample is ``test``, the file is checked as it loads
(``heldout_files.associative``: a malformed one is refused naming the sample) and its figures go to a
section of their own (area ``associative4``), beside the dev set's; ``--set heldout5`` likewise plays
associative_heldout5.json (a fifth author) into area ``associative5``. Only aggregate rows are written.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from xaid.memory import retrieve

from ..kit import Aim, Row, Section, progress
from . import heldout_files, locomo

DEV = Path(__file__).resolve().parents[1] / "scenarios" / "associative_dev.json"
SET_ENV = "XAID_PERF_ASSOCIATIVE_SET"


@dataclass(frozen=True)
class AssocSet:
    """A labelled associative file and the section it fills; a held-out one is checked as it loads
    and is all ``test`` (measured, never tuned on)."""

    path: Path
    area: str
    title: str
    held_out: bool = False


SETS = {
    "dev": AssocSet(
        DEV,
        "associative",
        "Associative recall at a turn's 400 tokens (dev set: train and test halves)",
    ),
    "dev7": AssocSet(
        DEV.with_name("associative_dev7.json"),
        "associative_dev7",
        "Associative recall at a turn's 400 tokens (dev set 7, mention and B share a word: train and "
        "test halves)",
    ),
    "dev8": AssocSet(
        DEV.with_name("associative_dev8.json"),
        "associative_dev8",
        "Associative recall at a turn's 400 tokens (dev set 8, a present mention and the traps a plain "
        "hybrid does not have: train and test halves)",
    ),
    "dev10": AssocSet(
        DEV.with_name("associative_dev10.json"),
        "associative_dev10",
        "Associative recall at a turn's 400 tokens (dev set 10, daily small talk, a look-alike naming "
        "the mention's person, activity, place or date after B: train and test halves)",
    ),
    "dev11": AssocSet(
        DEV.with_name("associative_dev11.json"),
        "associative_dev11",
        "Associative recall at a turn's 400 tokens (dev set 11, mention and B name the same thing in "
        "different words, the look-alike repeats the mention's: train and test halves)",
    ),
    "dev13": AssocSet(
        DEV.with_name("associative_dev13.json"),
        "associative_dev13",
        "Associative recall at a turn's 400 tokens (dev set 13, 32 sessions of pooled small talk over "
        "six weeks, a look-alike of the mention two weeks after B: train and test halves)",
    ),
    "dev14": AssocSet(
        DEV.with_name("associative_dev14.json"),
        "associative_dev14",
        "Associative recall at a turn's 400 tokens (dev set 14, pooled small talk, the mention names a "
        "place or person another way or B is linked to it through one: train and test halves)",
    ),
    "dev15": AssocSet(
        DEV.with_name("associative_dev15.json"),
        "associative_dev15",
        "Associative recall at a turn's 400 tokens (dev set 15, pooled small talk, the mention names a "
        "person, a relative or role, or a city another way than B did: train and test halves)",
    ),
    "heldout4": AssocSet(
        DEV.with_name("associative_heldout4.json"),
        "associative4",
        "Associative recall at a turn's 400 tokens (fourth held-out set, another author)",
        held_out=True,
    ),
    "heldout5": AssocSet(
        DEV.with_name("associative_heldout5.json"),
        "associative5",
        "Associative recall at a turn's 400 tokens (fifth held-out set, a fifth author)",
        held_out=True,
    ),
}
TURN_BUDGET = 400  # a turn's memory block (memory.budget_tokens' default)
SPLITS = ("train", "test")


@dataclass(frozen=True)
class Half:
    """One split of the set, as the LoCoMo-format list run_file reads."""

    split: str
    samples: list[dict[str, Any]]

    @property
    def questions(self) -> int:
        return sum(len(s["qa"]) for s in self.samples)


def load(path: Path = DEV) -> dict[str, Half]:
    """The set's halves; refuses a file whose samples or questions lack a known split or language."""
    if path.name.startswith("associative_heldout"):
        heldout_files.associative(
            path
        )  # the full check: evidence said by the user, B's words in it
    data = json.loads(path.read_text(encoding="utf-8"))
    if data.get("format") != 1:
        raise ValueError(f"{path}: format {data.get('format')!r}, expected 1")
    halves: dict[str, list[dict[str, Any]]] = {s: [] for s in SPLITS}
    for sample in data["samples"]:
        split = sample.get("split")
        if split not in halves:
            raise ValueError(f"{path}: sample {sample.get('sample_id')!r} has split {split!r}")
        for q in sample["qa"]:
            if q.get("lang") not in ("en", "zh") or not q.get("answer") or not q.get("evidence"):
                raise ValueError(
                    f"{path}: {sample['sample_id']}: {q.get('question')!r} lacks a field"
                )
        halves[split].append(sample)
    return {split: Half(split, samples) for split, samples in halves.items()}


def run_half(half: Half, budget: int = TURN_BUDGET) -> dict[str, Any]:
    """One half through a real daemon and the baselines; run_file's report."""
    with tempfile.TemporaryDirectory(prefix="xaid-perf-assoc-") as tmp:
        path = Path(tmp) / f"associative_{half.split}.json"
        path.write_text(json.dumps(half.samples, ensure_ascii=False), encoding="utf-8")
        return locomo.run_file(path, budget, k=retrieve.turn_k(budget))


def rows(split: str, report: dict[str, Any]) -> list[Row]:
    """xaid against the best fair baseline of the same run, overall and per language, both metrics."""
    systems = report["systems"]
    out: list[Row] = []
    groups: list[tuple[str, Any]] = [("all", lambda r: r["overall"])]
    groups += [
        (f"lang {lang}", lambda r, lang=lang: r.get("by_lang", {}).get(lang))
        for lang in ("en", "zh")
    ]
    for label, pick in groups:
        for figure, metric in (("B's words", "answer_recall"), ("B's turn", "evidence_recall")):
            mine = pick(systems["xaid"])
            base = {n: pick(systems[n]) for n in locomo.BASELINES if n in systems}
            got = {n: b[metric] for n, b in base.items() if b and b.get(metric) is not None}
            if not mine or mine.get(metric) is None or not got:
                continue
            best = max(got, key=lambda n: got[n])
            value, other = 100 * mine[metric], 100 * got[best]
            out.append(
                Row(
                    f"associative {split} @{report['budget_tokens']}: {figure}, {label}",
                    round(value, 1),
                    "%",
                    Aim(">=", round(other + 5, 1)),
                    round(value / other, 3) if other else None,
                    best,
                    ", ".join(f"{n} {100 * v:.1f}%" for n, v in got.items())
                    + f"; {mine['questions']} cases",
                )
            )
    return out


def chosen_set(name: str | None = None) -> AssocSet:
    """The set ``name`` (else ``XAID_PERF_ASSOCIATIVE_SET``, default the dev set) names."""
    name = name or os.environ.get(SET_ENV, "dev") or "dev"
    if name not in SETS:
        raise ValueError(f"{SET_ENV}={name!r}: one of {', '.join(SETS)}")
    return SETS[name]


def set_name(chosen: AssocSet) -> str:
    return next(name for name, s in SETS.items() if s == chosen)


def splits_to_play(chosen: AssocSet, halves: dict[str, Half], quick: bool) -> tuple[str, ...]:
    """The dev set's train half (both unless quick); a held-out set's test half, the only one."""
    if chosen.held_out:
        return tuple(s for s in SPLITS if halves[s].questions)
    return ("train",) if quick else SPLITS


# What each dev set's cases are, for its section's note (a set not named: the mention shares a word).
_ABOUT = {
    "associative_dev.json": (
        "the user mentions A weeks after saying B (the sister → her wedding in June; 跑步 → 膝盖的髌腱炎), "
        "with a look-alike of A's surface in between."
    ),
    "associative_dev8.json": (
        "the mention is a present statement sharing a word with B (saw Lucas carrying boxes → Lucas "
        "moving to Oslo; 今晚羽毛球 → 羽毛球班的教练), each case with a trap a plain hybrid does not have "
        "(B's answer in a sentence without the shared word; a later line that reads like an update of B; "
        "a routine line with the word said weekly)."
    ),
    "associative_dev10.json": (
        "six weeks of daily small talk per user; the mention names a person, an activity, a place or a "
        "date (Priya called me today; march 3rd is creeping up) that B named weeks before with words "
        "said nowhere else, and a look-alike naming the same thing comes 1-5 weeks after B."
    ),
    "associative_dev11.json": (
        "four Chinese and two English users, six weeks of daily small talk; the mention names a person, "
        "activity, place or date one way (姥姥, 中秋, 上海, Nana) and B named it weeks before another way "
        "(外婆, 八月十五, 魔都, grandmother), sharing few or no characters; a look-alike repeating the "
        "mention's words comes 1-5 weeks after B."
    ),
    "associative_dev13.json": (
        "eight users (four per language), 32 sessions over six weeks of small talk drawn from one pool "
        "per language; the mention names a person, activity, place or date (表姐今天突然给我打电话; "
        "driving up to Hull on sunday) as B did or another way (潮汕 → 汕头, ukulele → uke), and a "
        "look-alike repeating the mention's words comes 12-16 days after B."
    ),
    "associative_dev14.json": (
        "eight users (four per language), 32 sessions over six weeks of dev13's pooled small talk; the "
        "mention names a place or a person by another word than B did (鹏城 → 深圳, 太后 → 我妈, the big "
        "apple → new york) or B is linked to it through a place or person (断桥 → 杭州, the colosseum → "
        "Rome), and a look-alike repeating the mention's words comes 12-16 days after B."
    ),
    "associative_dev15.json": (
        "eight users (four per language), 32 sessions over six weeks of dev13's pooled small talk; the "
        "mention names a person by another form of the name (珍姐 → 阿珍, 老周 → 周哥, Elizabeth → Liz, "
        "William → Bill), a relative or role by another word (对象 → 男朋友, 老丈人 → 岳父, my other half → "
        "my husband, our kid) or a city by its nickname's plain name (山城 → 重庆, the Granite City → "
        "Aberdeen), and a look-alike repeating the mention's words comes 12-16 days after B."
    ),
}
_ABOUT_SHARED_WORD = (
    "the mention shares a word or two with B (Tessa's back tomorrow → Tessa flying to Porto for her "
    "cousin's wedding; 明天又要去游泳 → 游泳课的换气), a look-alike sharing that word about 2.5 weeks "
    "after B."
)


def run(quick: bool) -> Section:
    """Area ``associative`` (the dev set: both halves, with --quick the train half only), or the
    held-out set ``XAID_PERF_ASSOCIATIVE_SET`` names, in its own area."""
    chosen = chosen_set()
    section = Section(chosen.title, area=chosen.area)
    halves = load(chosen.path)
    for split in splits_to_play(chosen, halves, quick):
        report = run_half(halves[split])
        section.rows += rows(split, report)
        progress(f"associative {split}: xaid {report['systems']['xaid']['overall']}")
        section.notes.append(
            f"{split}: {report['samples']} samples, {report['turns']} turns, {report['questions']} cases; "
            f"memory.search p50 {report['search_ms']['p50']:.1f} ms, p95 {report['search_ms']['p95']:.1f} ms "
            f"(wall, over the socket)."
        )
    how = (
        f"xaid: memory.search with a turn's shape (budget {TURN_BUDGET}, k = retrieve.turn_k = "
        f"{retrieve.turn_k(TURN_BUDGET)}); baselines: BM25, dense (the daemon's embedder) and hybrid "
        "RRF over the raw turns shown '[date] speaker: text', same budget and token counter. B's "
        "words: answer-token recall of B's content words; B's turn: evidence recall."
    )
    if chosen.held_out:
        section.notes.append(
            f"perf/scenarios/{chosen.path.name}, played with `{SET_ENV}={set_name(chosen)} python -m perf "
            "associative`: held out (written by another author apart from the rules, never tuned "
            "on), so every sample is in the test half; eight users (four per language), six weeks of "
            "daily small talk each, eleven cases per user (a person, an activity, a place or a date "
            "mentioned; B said weeks before; a look-alike of the mention in between). " + how
        )
        return section
    about = _ABOUT.get(chosen.path.name, _ABOUT_SHARED_WORD)
    section.notes.append(
        f"perf/scenarios/{chosen.path.name}: {about} "
        + how
        + " Tune on train; test is reported, never tuned on."
    )
    return section


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m perf.eval.associative", description="Associative recall, dev set."
    )
    parser.add_argument("--split", choices=(*SPLITS, "both"), default="train")
    parser.add_argument("--budget", type=int, default=TURN_BUDGET)
    parser.add_argument("--file", type=Path, default=None)
    parser.add_argument(
        "--set", choices=tuple(SETS), default=None, help="a labelled set by name (default dev)"
    )
    parser.add_argument("--out", type=Path, help="write the reports as JSON here")
    args = parser.parse_args(argv)
    chosen = chosen_set(args.set)
    halves = load(args.file or chosen.path)
    reports = {}
    wanted: tuple[str, ...] = SPLITS if args.split == "both" else (args.split,)
    if chosen.held_out and args.file is None:
        wanted = splits_to_play(chosen, halves, quick=False)
    for split in wanted:
        reports[split] = report = run_half(halves[split], args.budget)
        print(locomo.render(report))
        for row in rows(split, report):
            print(f"{row.figure}: {row.value} % ({row.note})")
    if args.out:
        args.out.write_text(json.dumps(reports, indent=1, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
