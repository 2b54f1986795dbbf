"""What the wheel ships: pyproject's package discovery finds the daemon's packages only, and none
of them imports a test-only dependency. The .deb test builds the real wheel where dpkg exists; this
one runs everywhere, on the same discovery rule setuptools applies."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

from setuptools import find_packages

REPO = Path(__file__).resolve().parents[2]
TEST_ONLY = ("hypothesis", "pytest", "testkit")


def shipped_packages() -> list[str]:
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    include = config["tool"]["setuptools"]["packages"]["find"]["include"]
    return find_packages(where=str(REPO), include=include)


def test_test_helpers_are_not_shipped() -> None:
    packages = shipped_packages()
    assert "xaid" in packages and "xaid.store.migrations" in packages
    assert not [p for p in packages if p.startswith(("testkit", "xaid.testing", "tests", "perf"))]


def test_no_shipped_module_imports_a_test_dependency() -> None:
    offenders = []
    for package in shipped_packages():
        for path in (REPO / package.replace(".", "/")).glob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = (
                    [a.name for a in node.names]
                    if isinstance(node, ast.Import)
                    else (
                        [node.module or ""]
                        if isinstance(node, ast.ImportFrom) and node.level == 0
                        else []
                    )
                )
                offenders += [
                    f"{path.relative_to(REPO)}: {n}" for n in names if n.split(".")[0] in TEST_ONLY
                ]
    assert offenders == []
