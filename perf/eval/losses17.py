"""A loss said softly is not a matter to follow up: area ``loss17`` (issue 24).

``python -m perf loss17`` (XAID_PERF_LOSS17_MODEL=qwen2.5-1.5b: with the chat model consolidation
asks) plays perf/scenarios/losses_dev17.json (checkin_dev.json's session format)
the way ``checkin_dev`` plays its set: each session as its own agent on ONE real daemon (scripted
provider, the default embedder USE-multilingual-v3, real SQLite), the user's lines one a minute from
day 0 21:00 UTC, the session closed with ``wait=True`` so consolidation has armed what it arms, then
``scheduler.list`` (pending). Per half and language:

- losses (``expect: gentle``: a pet's or a person's death said softly, a break-up, a grave
  diagnosis): **armed as a matter** when an item that asks how it went (``ASKING``: plan, worry,
  ahead, matter, manual) is pending (must be 0); right when only the gentle check-in (a ``loss``
  item) or nothing is pending; an emotion item alone ("last time you said…") is neither, and counted apart;
- controls (``expect: ask``: a pet's operation ahead, a relative awaiting results, an exam): armed
  when an ``ASKING`` item is pending, named when its topic holds one of the matter's words.

Tune on the train half only; the test half is measured.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from .. import kit
from ..kit import Aim, Row, Section, progress
from . import checkin_dev
from .checkin_dev import Judged

SET = "losses_dev17"
AREA = "loss17"
QUICK = 20
# The test half's misses are named only when this is "1": tune on the train half without reading them.
SHOW_TEST = "XAID_PERF_LOSS17_SHOW_TEST"
# A model of perf.kit.MODELS (qwen2.5-1.5b) the daemon loads instead of the scripted provider: what
# consolidation asks it (the loss question, the mood's and the matter's weighed questions) counts too.
MODEL = "XAID_PERF_LOSS17_MODEL"


# The items that ask how something went (or, ``ahead``, how they feel about it): never about a loss.
ASKING = frozenset({"plan", "worry", "ahead", "matter", "manual"})


def _matter_armed(j: Judged) -> bool:
    return any(i["scene"] in ASKING for i in j.items)


def _gentle_or_nothing(j: Judged) -> bool:
    return all(i["scene"] == "loss" for i in j.items)


def rows_of(label: str, judged: Sequence[Judged]) -> list[Row]:
    losses = [j for j in judged if j.case.expect == "gentle"]
    controls = [j for j in judged if j.case.expect == "ask"]
    armed = sum(_matter_armed(j) for j in losses)
    right = sum(_gentle_or_nothing(j) for j in losses)
    nothing = sum(not j.items for j in losses)
    other = len(losses) - armed - right  # an emotion item ("last time you said…"), no loss item
    asked = sum(_matter_armed(j) for j in controls)
    named = sum(j.named for j in controls)
    return [
        Row(
            f"{label}: losses armed as a matter",
            float(armed),
            "",
            Aim("<=", 0.0),
            note=f"{armed}/{len(losses)}",
        ),
        Row(
            f"{label}: losses given a gentle check-in or nothing",
            100.0 * right / len(losses) if losses else 0.0,
            "%",
            note=f"{right}/{len(losses)} (gentle {right - nothing}, nothing {nothing}); "
            f"an emotion item instead {other}",
        ),
        Row(
            f"{label}: controls armed (a matter to follow up)",
            100.0 * asked / len(controls) if controls else 0.0,
            "%",
            note=f"{asked}/{len(controls)}; the matter's words in the topic {named}/{len(controls)}",
        ),
    ]


def wrong(judged: Sequence[Judged]) -> str:
    out = [
        f"{j.case.id} ({j.case.expect}/{j.case.kind}: {', '.join(i['scene'] for i in j.items) or 'nothing'})"
        for j in judged
        if (j.case.expect == "gentle" and not _gentle_or_nothing(j))
        or (j.case.expect == "ask" and not _matter_armed(j))
    ]
    return "; ".join(out) or "none"


def run(quick: bool) -> Section:
    cases = checkin_dev.load(SET)
    if quick:
        cases = cases[: QUICK // 2] + [c for c in cases if c.lang == "zh"][: QUICK // 2]
    progress(f"{SET}: {len(cases)} sessions")
    model = os.environ.get(MODEL, "")
    env = kit.model_env(model) if model else None
    judged = kit.played_on_one_daemon(cases, checkin_dev.play, SET, env)[0]
    rows: list[Row] = []
    notes = [
        f"Each session of perf/scenarios/{SET}.json played on one real daemon "
        f"({f'{model} loaded by llama.cpp' if model else 'scripted provider'}, "
        "USE-multilingual-v3), closed with wait=True, then scheduler.list (pending). A loss is right "
        "with the gentle check-in or nothing; a plan, worry, ahead, matter or manual item pending is a "
        "'how did it go' about it; an emotion item alone is counted apart.",
        "Main before loss17 (8e3439d), the same set and judge: losses armed as a matter test en 3/10, "
        "zh 2/10, train en 4/10, zh 2/10; gentle or nothing test en 7/10, zh 8/10, train en 4/10 "
        "(2 emotion items), zh 7/10 (1); controls armed test 3/5 and 3/5, train 5/5 and 5/5.",
    ]
    for split in ("test", "train"):
        for lang in ("en", "zh"):
            part = [j for j in judged if j.case.split == split and j.case.lang == lang]
            if part:
                rows += rows_of(f"{split} half, {lang}", part)
                if split == "train" or os.environ.get(SHOW_TEST) == "1":
                    notes.append(f"{split} half, {lang}, wrong: {wrong(part)}")
    return Section(
        "A loss said softly is not a matter to follow up: losses_dev17 (issue 24)",
        rows,
        notes,
        area=AREA,
    )
