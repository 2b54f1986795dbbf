"""``python -m perf`` (perf/__main__.py) files each area's section under the area's name, unless the
section names its own: a module measuring another labelled set (chosen by an env var) then sits
beside the default set's section instead of replacing it."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import perf.__main__ as perf_main
from perf.kit import Row, Section, load_results, save_results


def fake_module(section: Section) -> Any:
    return SimpleNamespace(run=lambda quick: section)


def test_a_section_that_names_its_own_area_keeps_the_other_sets_section(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "RESULTS.md"
    first = Section("first set", [Row("updates, en", 50.0, "%")], area="understanding")
    save_results(tmp_path / "results.json", {"understanding": first})
    second = Section("second set", [Row("updates, en", 40.0, "%")], area="understanding2")
    monkeypatch.setattr(perf_main.importlib, "import_module", lambda name: fake_module(second))
    assert perf_main.main(["understanding", "--output", str(out)]) == 0
    sections = load_results(tmp_path / "results.json")
    assert sections["understanding"].rows[0].value == 50.0  # the first set's figures stay
    assert sections["understanding2"].rows[0].value == 40.0
    assert sections["understanding2"].area == "understanding2"
    assert "second set" in out.read_text(encoding="utf-8")


def test_a_section_without_an_area_is_filed_under_the_area_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "RESULTS.md"
    plain = Section("daemon figures", [Row("ping", 80.0, "µs")])
    monkeypatch.setattr(perf_main.importlib, "import_module", lambda name: fake_module(plain))
    assert perf_main.main(["daemon", "--output", str(out)]) == 0
    assert set(load_results(tmp_path / "results.json")) == {"daemon"}
