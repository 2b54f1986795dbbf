"""perf/README.md names every module of perf/bench, perf/eval and perf/campaigns, and every module
path it names exists: a module added, moved or removed without its README row fails here."""

from __future__ import annotations

import re
from pathlib import Path

PERF = Path(__file__).resolve().parents[2] / "perf"
KINDS = ("bench", "eval", "campaigns")
NAMED = re.compile(r"(?<![\w/.])(?:perf/)?((?:bench|eval|campaigns)/[a-z0-9_]+\.py)\b")
DOTTED = re.compile(r"\bperf\.((?:bench|eval|campaigns)\.[a-z0-9_]+)\b")


def readme() -> str:
    return (PERF / "README.md").read_text(encoding="utf-8")


def on_disk() -> set[str]:
    return {
        p.relative_to(PERF).as_posix()
        for kind in KINDS
        for p in (PERF / kind).glob("*.py")
        if p.name != "__init__.py"
    }


def test_every_module_is_named() -> None:
    missing = on_disk() - set(NAMED.findall(readme()))
    assert not missing, f"perf/README.md does not name {sorted(missing)}"


def test_every_named_module_exists() -> None:
    text = readme()
    named = set(NAMED.findall(text)) | {d.replace(".", "/") + ".py" for d in DOTTED.findall(text)}
    gone = named - on_disk()
    assert not gone, f"perf/README.md names modules that do not exist: {sorted(gone)}"


def test_the_checks_see_a_stale_name() -> None:
    """The pattern finds both spellings, so a renamed module cannot hide behind either."""
    text = "`bench/daemon.py` and perf/eval/gone.py and `python -m perf.campaigns.old`"
    assert set(NAMED.findall(text)) == {"bench/daemon.py", "eval/gone.py"}
    assert DOTTED.findall(text) == ["campaigns.old"]
    assert "kit.py" not in NAMED.findall(
        "`kit.py`"
    )  # the root modules are not in the three folders
