"""``python -m perf [AREA ...] [--quick]``: run benchmark areas, write perf/results.json and perf/RESULTS.md.

An area is a module of this package exposing ``run(quick: bool) -> kit.Section``; add it to
``AREAS`` to make it part of ``python -m perf``.
"""

from __future__ import annotations

import argparse
import importlib
import os
import shlex
import sys
import time
from dataclasses import replace
from pathlib import Path

# Before numpy loads, as xaid/__main__ does for the daemon: one OpenBLAS thread (perf.bench.memory's index.knn).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from . import kit

AREAS: dict[str, str] = {
    "daemon": "perf.bench.daemon",
    "memory": "perf.bench.memory",
    "search": "perf.bench.search",
    "search_stages": "perf.bench.search_stages",
    "heap": "perf.bench.heap",
    "mood": "perf.bench.mood",
    # later: "evaluation", a module with the same run(quick) -> Section
    "scheduler": "perf.eval.scheduler",
    "checkin_dev": "perf.eval.checkin_dev",
    "loss17": "perf.eval.losses17",
    "retire": "perf.eval.retire",
    "meaning": "perf.eval.meaning_dev",
    "feelings": "perf.eval.feelings",
    "forget_dev3": "perf.eval.forget_intent_dev",
    "forget_dev4": "perf.eval.forget_honoured",
    "forget_dev5": "perf.eval.forget_lookalikes",
    "forget_dev6": "perf.eval.forget_dev6",
    "forget_dev7": "perf.eval.forget_dev7",
    "forget_dev10": "perf.eval.forget_dev10",
    "forget_dev11": "perf.eval.forget_dev11",
    "forget_dev12": "perf.eval.forget_dev12",
    "forget_dev13": "perf.eval.forget_dev13",
    "forget_dev14": "perf.eval.forget_dev14",
    "forget_dev15": "perf.eval.forget_dev15",
    "forget_dev17": "perf.eval.forget_dev17",
    "forget_dev18": "perf.eval.forget_dev18",
    "forget_dev19": "perf.eval.forget_dev19",
    "forget_dev20": "perf.eval.forget_dev20",
    "forget_dev32": "perf.eval.forget_dev32",
    "forget_dev34": "perf.eval.forget_dev34",
    "forget_dev45": "perf.eval.forget_dev45",
    "forget_dev46": "perf.eval.forget_dev46",
    "forget_tellings": "perf.eval.forget_tellings",
    "forget_words32": "perf.eval.forget_words32",
    "suites": "perf.eval.suites",
    "updates_dev": "perf.eval.updates_dev",
    "understanding_dev46": "perf.eval.understanding_dev46",
    "present_dev": "perf.eval.present_dev",
    "supersede_chat": "perf.eval.supersede_chat",
    "recall_dev9": "perf.eval.recall_dev9",
    "openers_dev": "perf.eval.openers_dev",
    "locomo": "perf.eval.locomo",
    "associative": "perf.eval.associative",
    "faults": "perf.campaigns.faults",
    "llm": "perf.bench.llm_speed",
    "llm_runner": "perf.bench.llm_runner",
    "tokens": "perf.eval.token_counter",
    "replies": "perf.eval.replies",
    "replies_heldout": "perf.eval.replies_heldout",
    "later_turns": "perf.eval.later_turns",
    "voice_dev": "perf.eval.voice_dev",
    "voice_live": "perf.eval.voice_live",
    "voice_dev8": "perf.eval.voice_dev8",
    "voice_dev17": "perf.eval.voice_dev17",
    "voice_dev34": "perf.eval.voice_dev34",
    "tone_dev9": "perf.eval.tone_dev9",
    "understanding": "perf.eval.understanding",
    "morning": "perf.eval.morning",
    "session_ttft": "perf.bench.session_ttft",
    "read_speed": "perf.bench.read_speed",
    "read_chunks": "perf.bench.read_chunks",
    "matter_judge": "perf.eval.matter_judge",
    "forget_judge": "perf.eval.forget_judge",
    "turn_recall": "perf.eval.turn_recall",
    "first_turn_dev11": "perf.eval.first_turn_dev11",
    "opener_slot_dev12": "perf.eval.opener_slot_dev12",
    "hardening": "perf.campaigns.hardening",
    "mcp": "perf.bench.mcp",
    "http": "perf.bench.http",
    "web": "perf.bench.web",
}
HERE = Path(__file__).resolve().parent


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m perf", description="Run the xaid benchmarks.")
    parser.add_argument(
        "areas",
        nargs="*",
        metavar="AREA",
        help=f"areas to run (default: all of {', '.join(AREAS)})",
    )
    parser.add_argument(
        "--quick", action="store_true", help="shrink counts for a smoke run (~30 s per area)"
    )
    parser.add_argument(
        "--output",
        type=Path,
        help="markdown file to write (default: perf/RESULTS.md; --quick writes nothing unless this is given); "
        "the JSON goes next to it as results.json (or <stem>.json)",
    )
    args = parser.parse_args(argv)
    unknown = [a for a in args.areas if a not in AREAS]
    if unknown:
        parser.error(f"unknown area(s) {', '.join(unknown)}; known: {', '.join(AREAS)}")
    return args


def json_path(markdown: Path) -> Path:
    return markdown.with_name(
        "results.json" if markdown.name == "RESULTS.md" else markdown.stem + ".json"
    )


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = parse_args(argv)
    command = shlex.join(["python", "-m", "perf", *argv])
    host = kit.machine()
    fresh: dict[str, kit.Section] = {}
    for area in args.areas or list(AREAS):
        started = time.perf_counter()
        section = importlib.import_module(AREAS[area]).run(args.quick)
        # A section may name its own area: the same module measuring another labelled set (an env
        # var chooses it) keeps its own section instead of replacing the default set's.
        key = section.area or area
        fresh[key] = replace(
            section,
            area=key,
            command=command,
            date=kit.now(),
            duration_s=round(time.perf_counter() - started, 1),
            quick=args.quick,
            machine=host,
        )
    output: Path | None = args.output or (None if args.quick else HERE / "RESULTS.md")
    if output is None:
        print(kit.render(fresh))
        return 0
    data = json_path(output)
    sections = {
        **kit.load_results(data),
        **fresh,
    }  # a run of one area keeps the others' last results
    sections = {a: sections[a] for a in [*AREAS, *sections] if a in sections}  # registry order
    kit.save_results(data, sections)
    output.write_text(kit.render(sections), encoding="utf-8")
    print(kit.render(fresh))
    print(f"wrote {output} and {data}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
