"""Updates and feelings on dev sets in the held-out format: area ``understanding_dev46``.

Issue 24 items 1, 5 and 7. The held-out sets (understanding.py) only count their misses
(``private``), so a change cannot be tuned on them; perf/scenarios/updates_dev46.json (40 changes and
10 controls per language) and feelings_dev46.json (40 messages per language) were written by an
outside author in the same formats on 2026-12-08, before any change of session 46, and split into
``train`` and ``test`` halves. Played by the held-out harness's own functions (understanding.updates,
understanding.play_feeling: the same ingest, the same probe a week later, the same judges), each half
apart; the notes name every miss, so the train half is what a change is tuned on and the test half
what it is measured on.

Rules alone by default; with ``XAID_PERF_DEV46_MODEL`` set to a GGUF the feelings are played again on a
daemon with that model (consolidation asks it where the embedder reads a feeling), as the product
runs. The updates with the model changed no verdict on the fifth and sixth held-out sets, so they are
played with the rules alone only.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from xaiclient import Client

from ..kit import Row, Section, day0, misses, progress, scratch_daemon, wait_model
from . import heldout_files, understanding

UPDATES = "updates_dev46.json"
FEELINGS = "feelings_dev46.json"
HALVES = ("train", "test")
MODEL_ENV = "XAID_PERF_DEV46_MODEL"


def feelings_of(c: Client, cases: list[dict[str, Any]], base: int) -> understanding.Feelings:
    out = understanding.Feelings()
    for case in cases:
        understanding.play_feeling(c, case, base, out)
    return out


def run(quick: bool) -> Section:
    ups = heldout_files.updates(UPDATES)
    fes = heldout_files.feelings(FEELINGS)
    every = 5 if quick else 1
    rows: list[Row] = []
    notes = [f"perf/scenarios/{UPDATES} and {FEELINGS}, halves {', '.join(HALVES)}"]
    model = "" if quick else os.environ.get(MODEL_ENV, "")
    with scratch_daemon() as daemon, daemon.client(timeout=300.0) as c:
        for name in HALVES:
            cases = [k for k in ups["cases"] if k["split"] == name][::every]
            progress(f"understanding_dev46: updates, {name} ({len(cases)} cases)")
            u = understanding.updates(c, cases, day0(ups), f"d46{name[:2]}", float("inf"))
            found, said, _ = understanding.update_rows("rules alone", u)
            rows += understanding.relabelled(found, f"dev46 {name}")
            notes += [f"{name}: {n}" for n in said]
            for lang in understanding.LANGS:
                notes.append(f"{name}: " + misses(f"updates {lang}", u.by_lang.get(lang)))
                notes.append(f"{name}: " + misses(f"update controls {lang}", u.controls.get(lang)))
        for name in HALVES:
            cases = [k for k in fes["cases"] if k["split"] == name][::every]
            progress(f"understanding_dev46: feelings, {name} ({len(cases)} cases)")
            found, said, each = understanding.feeling_rows(feelings_of(c, cases, day0(fes)))
            rows += understanding.relabelled(found, f"dev46 {name}")
            notes += [f"{name}: {n}" for n in (*said, *each)]
    if model:
        label = f"with {Path(model).name}"
        with (
            scratch_daemon(understanding.model_env(model)) as daemon,
            daemon.client(timeout=1800.0) as c,
        ):
            wait_model(c, 600, 0.1, daemon)
            for name in HALVES:
                cases = [k for k in fes["cases"] if k["split"] == name]
                progress(f"understanding_dev46: feelings {label}, {name}")
                f = feelings_of(c, cases, day0(fes))
                found, said, each = understanding.feeling_rows(f, label)
                rows += understanding.relabelled(found, f"dev46 {name}")
                notes += [f"{name} ({label}): {n}" for n in (*said, *each)]
    else:
        notes.append(f"feelings with the model: off (set {MODEL_ENV}=<gguf>)")
    notes.append(f"code measured: {understanding.measured_commit()}")
    return Section(
        "Updates and feelings on dev sets in the held-out format: dev set 46 (issue 24 items 1, 5)",
        rows,
        notes,
        area="understanding_dev46",
    )
