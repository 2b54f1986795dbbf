"""``xaid --list-models`` / ``--prepare-model`` / ``--install-model`` as a user runs them, and
``models.list`` of a daemon that does not use the catalogue (the scripted provider)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from testkit.inproc import InProcessDaemon


def xaid(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("XAID_")}
    return subprocess.run(
        [sys.executable, "-m", "xaid", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**clean, "XAID_STORAGE_STATE_DIR": str(tmp_path / "state"), **env},
    )


def test_list_models_marks_the_configured_one_and_says_how_to_install(tmp_path: Path) -> None:
    out = xaid(tmp_path, "--list-models", XAID_LLM_MODEL="smollm2-135m")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert any(line.startswith("*smollm2-135m") for line in lines)
    assert any(
        line.startswith(" qwen2.5-coder-1.5b") and "1117MB" in line and "zh,en" in line
        for line in lines
    )
    assert f"joined files live in {tmp_path / 'state' / 'models'}" in out.stdout


def test_prepare_model_checks_once_and_list_models_then_says_verified(tmp_path: Path) -> None:
    first = xaid(tmp_path, "--prepare-model", "smollm2-135m")
    assert first.returncode == 0, first.stderr
    assert "checking sha256" in first.stderr and first.stdout.strip().endswith(".gguf")
    again = xaid(tmp_path, "--prepare-model", "smollm2-135m")
    assert (
        again.returncode == 0 and "checking sha256" not in again.stderr
    )  # the marker vouches for it
    listing = xaid(tmp_path, "--list-models", XAID_LLM_MODEL="smollm2-135m").stdout
    assert "yes, verified: " + first.stdout.strip() in listing


def test_unknown_names_are_refused_in_one_line(tmp_path: Path) -> None:
    for flag in ("--install-model", "--prepare-model"):
        out = xaid(tmp_path, flag, "mistral-7b")
        assert out.returncode == 2 and out.stderr.count("\n") == 1
        assert "unknown model 'mistral-7b'" in out.stderr and "qwen2.5-coder-1.5b" in out.stderr


def test_models_list_of_a_daemon_without_the_catalogue(daemon: InProcessDaemon) -> None:
    with daemon.client() as c:
        listing = c.models_list()
    assert listing["configured"] is None and listing["model_path"] is None  # the scripted provider
    assert [m["name"] for m in listing["models"]] == [
        "qwen2.5-coder-1.5b",
        "qwen2.5-coder-0.5b",
        "smollm2-135m",
    ]
    assert [m["default"] for m in listing["models"]] == [True, False, False]
    assert not any(m["configured"] for m in listing["models"])
    assert listing["models_dir"] == str(daemon.state_dir / "models")
