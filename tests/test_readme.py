"""README.md is true: its Python snippets run as written against a real daemon (scripted provider
standing in for the LLM), and its shell commands name make targets, xaictl subcommands and
configuration variables that exist."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from xaid.testing import DaemonProcess

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", README, re.S)


def run_python(code: str, sock: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("XAID_")}
    env["XAID_SOCKET"] = str(sock)
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)


def test_the_python_snippets_run_as_written_and_again(daemon: DaemonProcess) -> None:
    snippets = blocks("python")
    assert len(snippets) >= 2
    for round_ in (1, 2):  # the second time the agent exists, as it does after `make demo`
        for code in snippets:
            out = run_python(code, daemon.socket)
            assert out.returncode == 0, f"round {round_}:\n{code}\n{out.stderr}"
            assert "echo: " in out.stdout and "prompt_tokens" in out.stdout
    with daemon.client() as c:
        sessions = c.session_list("mia")["sessions"]
    assert len(sessions) == 2 * len(snippets) and not any(s["open"] for s in sessions)


def make_dry_run(*args: str) -> str:
    out = subprocess.run(["make", "-n", *args], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_setup_says_each_stage_and_lets_pip_speak(tmp_path: Path) -> None:
    """`make demo` on a fresh clone: one line per stage with its cost, pip's own progress, not `pip -q`."""
    plan = make_dry_run(f"VENV={tmp_path / 'venv'}", "setup")
    stages = re.findall(r'echo "==> \[(\d)/(\d)\]', plan)
    assert [s[0] for s in stages] == ["1", "2", "3"] and {s[1] for s in stages} == {"3"}
    assert "about 5 minutes on 2 cores" in plan and "still working" in plan
    pip_lines = [line for line in plan.splitlines() if "bin/pip install" in line]
    assert len(pip_lines) == 3 and not any(" -q" in line for line in pip_lines)
