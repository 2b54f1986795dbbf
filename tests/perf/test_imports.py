"""perf/ has no import cycle either: the areas share helpers through perf/kit.py, never through each
other, so any area can be read, moved or run alone. The same ``ast`` reader as xaid's import test.
"""

from __future__ import annotations

from pathlib import Path

from tests.xaid.test_imports import find_cycle, graph, strongly_connected

PERF = Path(__file__).resolve().parents[2] / "perf"


def test_the_reader_sees_perf_modules_and_their_relative_imports() -> None:
    edges = graph(PERF)
    assert {"perf.kit", "perf.bench.daemon", "perf.eval.suites", "perf.campaigns.faults"} <= set(
        edges
    )
    assert "perf.kit" in edges["perf.eval.suites"]  # from ..kit import (...)
    assert "perf.eval.suites_weeks" in edges["perf.eval.suites"]  # from . import suites_weeks
    assert "perf.campaigns.faults" in edges["perf.campaigns.hardening"]  # from .faults import ...


def test_no_import_cycle_in_perf() -> None:
    edges = graph(PERF)
    knots = strongly_connected(edges)
    cycle = find_cycle(edges)
    assert cycle is None and not knots, (
        f"import cycle: {' -> '.join(cycle or [])}; modules tied together: "
        + "; ".join(", ".join(sorted(k)) for k in knots)
    )


def test_kit_imports_no_area() -> None:
    """The kit is the bottom of perf/: an area importing it can never be imported back by it."""
    assert not {m for m in graph(PERF)["perf.kit"] if m.startswith("perf.")}
