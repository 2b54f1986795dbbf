"""README.md is true: its Python snippets run as written against a real daemon (scripted provider
standing in for the LLM), and its shell commands name make targets, xaictl subcommands and
configuration variables that exist."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from testkit.inproc import InProcessDaemon

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def fenced() -> list[tuple[str, str]]:
    """Every fenced block as (language, body), the language "" for a bare fence."""
    out: list[tuple[str, str]] = []
    lang: str | None = None
    body: list[str] = []
    for line in README.splitlines():
        if line.startswith("```"):
            if lang is None:
                lang, body = line[3:].strip(), []
            else:
                out.append((lang, "\n".join(body) + "\n"))
                lang = None
        elif lang is not None:
            body.append(line)
    return out


def blocks(lang: str) -> list[str]:
    return [body for kind, body in fenced() if kind == lang]


def run_python(code: str, sock: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("XAID_")}
    env["XAID_SOCKET"] = str(sock)
    return subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60
    )


def test_the_python_snippets_run_as_written_and_again(daemon: InProcessDaemon) -> None:
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
    out = subprocess.run(
        ["make", "-n", *args], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
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


def _shell_lines() -> list[str]:
    return [line.strip() for block in blocks("sh") for line in block.splitlines() if line.strip()]


def test_the_make_targets_it_names_exist() -> None:
    named = set(re.findall(r"`make (\w+)`", README)) | {
        line.split()[1] for line in _shell_lines() if line.startswith("make ")
    }
    assert {"demo", "test", "bench"} <= named
    targets = set(re.findall(r"^([\w-]+):", (ROOT / "Makefile").read_text(encoding="utf-8"), re.M))
    assert named <= targets, named - targets


def test_the_daemon_command_reads_as_a_valid_configuration(tmp_path: Path) -> None:
    (line,) = [ln for ln in _shell_lines() if "bin/xaid " in ln or ln.endswith("bin/xaid &")]
    variables = dict(re.findall(r"(XAID_\w+)=(\S+)", line))
    assert set(variables) == {"XAID_STORAGE_STATE_DIR", "XAID_SERVER_SOCKET"}
    env = {k: v for k, v in os.environ.items() if not k.startswith("XAID_")}
    env.update(variables, XDG_CONFIG_HOME=str(tmp_path))
    out = subprocess.run(
        [sys.executable, "-m", "xaid", "--check-config"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0 and "XAID_SERVER_SOCKET" in out.stdout, out.stderr


def test_the_xaictl_commands_run_as_written(daemon: InProcessDaemon) -> None:
    """Every xaictl line of the README against a daemon, after what `make demo` leaves (agent mia)."""
    import shlex

    with daemon.client() as c:
        c.agent_create("mia", name="Mia")
    env = {k: v for k, v in os.environ.items() if not k.startswith("XAID_")}
    env["XAID_SOCKET"] = str(daemon.socket)
    env["XAICTL_HISTORY"] = str(daemon.root / "history")
    commands = [
        shlex.split(ln)[1:] for ln in _shell_lines() if shlex.split(ln)[0].endswith("bin/xaictl")
    ]
    assert {c[0] for c in commands} >= {"chat", "demo", "send"}
    for args in commands:
        out = subprocess.run(
            [sys.executable, "-m", "xaiclient.cli", *args],
            env=env,
            input="hello\n/quit\n",
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert out.returncode == 0, f"xaictl {' '.join(args)}: {out.stderr}"
        assert "echo: " in out.stdout


def test_the_layout_it_describes_exists() -> None:
    (tree,) = [b for b in blocks("") if "xaid/" in b]
    top = ROOT
    for line in tree.splitlines():
        if (
            not line.strip() or len(line) - len(line.lstrip()) > 8
        ):  # blank, or a description's second line
            continue
        names = line.strip().split("  ")[0].strip()
        if not line.startswith(" "):
            top = ROOT / names.rstrip("/")
            assert top.exists(), names
            continue
        for name in names.split(", "):
            assert list(top.glob(name.rstrip("/"))), f"{top.relative_to(ROOT)}/{name}"


def test_the_layout_names_everything_at_the_package_top() -> None:
    """Every module and package directly under xaid/ has a line: a new one cannot hide."""
    (tree,) = [b for b in blocks("") if "xaid/" in b]
    named = {
        n.strip().rstrip("/")
        for line in tree.splitlines()
        if line.startswith("  ") and line[2] != " "
        for n in line.strip().split("  ")[0].split(", ")
    }
    present = {
        p.name
        for p in (ROOT / "xaid").iterdir()
        if (p.suffix == ".py" and p.name != "__init__.py") or (p / "__init__.py").exists()
    }
    assert present - named == set(), f"README's 'What is where' misses {sorted(present - named)}"
