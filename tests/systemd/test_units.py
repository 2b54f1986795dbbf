"""The systemd units in systemd/: the directives xaid relies on, and `systemd-analyze verify` when present."""

from __future__ import annotations

import configparser
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

UNITS = Path(__file__).resolve().parents[2] / "systemd"


def parse(name: str) -> configparser.RawConfigParser:
    # strict=False: systemd allows a key several times; interpolation off: `$MAINPID`, `%h`.
    parser = configparser.RawConfigParser(
        strict=False, delimiters=("=",), comment_prefixes=("#", ";")
    )
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys are case-sensitive
    parser.read_string((UNITS / name).read_text(encoding="utf-8"), source=name)
    return parser


def values(name: str, section: str, key: str) -> list[str]:
    """Every value of a key, in order (configparser keeps only the last, so read the lines too)."""
    out, current = [], None
    for line in (UNITS / name).read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if m := re.fullmatch(r"\[(.+)\]", line):
            current = m.group(1)
        elif current == section and line.partition("=")[0].strip() == key:
            out.append(line.partition("=")[2].strip())
    return out


def test_system_service_directives() -> None:
    unit = parse("xaid.service")
    svc = unit["Service"]
    assert svc["Type"] == "notify"
    assert svc["NotifyAccess"] == "main"
    assert svc["ExecStart"] == "/opt/xaid/venv/bin/xaid --config /etc/xaid/xaid.toml"
    assert svc["ExecReload"] == "/bin/kill -HUP $MAINPID"
    assert svc["WatchdogSec"] == "30s"
    assert svc["Restart"] == "on-failure"
    assert (svc["User"], svc["Group"]) == ("xaid", "xaid")
    assert (svc["StateDirectory"], svc["StateDirectoryMode"]) == ("xaid", "0700")
    assert (svc["RuntimeDirectory"], svc["RuntimeDirectoryMode"]) == ("xaid", "0750")
    assert svc["RuntimeDirectoryPreserve"] == "yes"  # the socket unit's socket lives in /run/xaid
    assert svc["UMask"] == "0077"
    for key, expected in {
        "ProtectSystem": "strict",
        "ProtectHome": "yes",
        "NoNewPrivileges": "yes",
        "PrivateTmp": "yes",
        "PrivateDevices": "yes",
        "RestrictAddressFamilies": "AF_UNIX",
        "LockPersonality": "yes",
        "RestrictRealtime": "yes",
        "RestrictNamespaces": "yes",
        "SystemCallArchitectures": "native",
        "ProtectKernelTunables": "yes",
        "ProtectKernelModules": "yes",
        "ProtectControlGroups": "yes",
    }.items():
        assert values("xaid.service", "Service", key) == [expected], key


@pytest.mark.parametrize("name", ["xaid.service", "xaid-user.service"])
def test_settings_that_would_break_xaid_are_absent(name: str) -> None:
    svc = parse(name)["Service"]
    # ctypes/libffi callbacks and native back-ends need W+X memory.
    assert "MemoryDenyWriteExecute" not in svc
    # SO_PEERCRED inside a user namespace reports unmapped peers as nobody: the allow-list would break.
    assert "PrivateUsers" not in svc
    # The drain must fit in the stop timeout (server.drain_seconds defaults to 10 s).
    if "TimeoutStopSec" in svc:
        assert int(svc["TimeoutStopSec"].removesuffix("s")) > 10


def test_socket_unit() -> None:
    sock = parse("xaid.socket")["Socket"]
    assert sock["ListenStream"] == "/run/xaid/xaid.sock"
    assert sock["SocketMode"] == "0660"
    assert (sock["SocketUser"], sock["SocketGroup"]) == ("xaid", "xaid")
    assert sock["DirectoryMode"] == "0750"
    assert sock["Service"] == "xaid.service"
    assert parse("xaid.socket")["Install"]["WantedBy"] == "sockets.target"


def test_http_socket_unit() -> None:
    """The HTTP surface's socket: beside the CBOR one, as guarded, named so xaid tells them apart."""
    from xaid.server.listen import HTTP_FD_NAME

    sock = parse("xaid-http.socket")["Socket"]
    cbor = parse("xaid.socket")["Socket"]
    assert sock["ListenStream"] == "/run/xaid/xaid-http.sock"
    assert sock["FileDescriptorName"] == HTTP_FD_NAME
    assert "FileDescriptorName" not in cbor or cbor["FileDescriptorName"] != HTTP_FD_NAME
    for key in ("SocketMode", "SocketUser", "SocketGroup", "DirectoryMode", "Service"):
        assert sock[key] == cbor[key], key
    assert parse("xaid-http.socket")["Install"]["WantedBy"] == "sockets.target"


def test_user_service() -> None:
    unit = parse("xaid-user.service")
    svc = unit["Service"]
    assert svc["Type"] == "notify"
    assert svc["ExecStart"].startswith("%h/")
    assert "User" not in svc and "Group" not in svc
    assert svc["StateDirectory"] == "xaid"
    assert svc["RuntimeDirectory"] == "xaid"
    assert svc["WatchdogSec"] == "30s"
    assert svc["NoNewPrivileges"] == "yes"
    assert unit["Install"]["WantedBy"] == "default.target"


def _entries(name: str) -> list[list[str]]:
    lines = (UNITS / name).read_text(encoding="utf-8").splitlines()
    return [line.split() for line in lines if line.strip() and not line.lstrip().startswith("#")]


def test_sysusers() -> None:
    entries = _entries("xaid.sysusers.conf")
    assert [e[:3] for e in entries] == [["u", "xaid", "-"]]


def test_tmpfiles() -> None:
    entries = {e[1]: e for e in _entries("xaid.tmpfiles.conf")}
    assert entries["/var/lib/xaid"][:5] == ["d", "/var/lib/xaid", "0700", "xaid", "xaid"]
    assert entries["/etc/xaid"][:5] == ["d", "/etc/xaid", "0755", "root", "root"]
    # Exists before xaid.socket binds, so the xaid group can traverse it.
    assert entries["/run/xaid"][:5] == ["d", "/run/xaid", "0750", "xaid", "xaid"]


# --- systemd-analyze verify ---------------------------------------------------------------------------

ANALYZE = shutil.which("systemd-analyze")
needs_analyze = pytest.mark.skipif(
    ANALYZE is None, reason="systemd-analyze is not installed (apt-get install systemd)"
)


def _copy_units(tmp_path: Path, names: list[str]) -> list[Path]:
    """Copies whose ExecStart is an executable that exists here (the real one is /opt/xaid/venv/bin/xaid)."""
    true = shutil.which("true") or "/bin/true"
    copies = []
    for name in names:
        text = (UNITS / name).read_text(encoding="utf-8")
        text = re.sub(r"(?m)^ExecStart=.*$", f"ExecStart={true}", text)
        copy = tmp_path / ("xaid.service" if name == "xaid-user.service" else name)
        copy.write_text(text, encoding="utf-8")
        copies.append(copy)
    return copies


def _verify(args: list[str], copies: list[Path], tmp_path: Path) -> None:
    env = {
        **os.environ,
        "XDG_RUNTIME_DIR": str(tmp_path),
        "SYSTEMD_LOG_COLOR": "0",
        "SYSTEMD_PAGER": "",
    }
    result = subprocess.run(
        [ANALYZE, "verify", *args, *map(str, copies)],  # type: ignore[list-item]
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=120,
    )
    output = result.stdout + result.stderr
    # verify exits 0 even on unknown keys or unparsable values; it only warns. Any line about our units fails.
    ours = [line for line in output.splitlines() if "xaid" in line]
    assert result.returncode == 0 and not ours, output


@needs_analyze
def test_systemd_analyze_verify_system_units(tmp_path: Path) -> None:
    _verify(
        [], _copy_units(tmp_path, ["xaid.service", "xaid.socket", "xaid-http.socket"]), tmp_path
    )


@needs_analyze
def test_systemd_analyze_verify_user_unit(tmp_path: Path) -> None:
    _verify(["--user"], _copy_units(tmp_path, ["xaid-user.service"]), tmp_path)
