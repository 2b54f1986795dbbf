"""Joining and checking a model, on small fake chunk packages made in a temp dir: real files on
disk, real sha256, the same code path as the 22 parts of the 1.5B (only the sizes differ)."""

from __future__ import annotations

import hashlib
import os
import time
from pathlib import Path

import pytest

from xaid.catalogue import ModelPackage, ModelSpec
from xaid.providers import model_files

PARTS = (b"GGUF" + b"\x01" * 3000, b"\x02" * 4096, b"tail of the model \xe6\xa8\xa1\xe5\x9e\x8b")


def make_packages(site: Path, prefix: str, parts: tuple[bytes, ...]) -> tuple[ModelPackage, ...]:
    pkgs = []
    for i, data in enumerate(parts, start=1):
        pkg = ModelPackage(f"{prefix}-part{i}", "0.1.0", "0" * 64, f"data/part{i:02d}.bin")
        member = site / pkg.module / pkg.member
        member.parent.mkdir(parents=True)
        (site / pkg.module / "__init__.py").write_text("")
        member.write_bytes(data)
        pkgs.append(pkg)
    return tuple(pkgs)


def spec_for(pkgs: tuple[ModelPackage, ...], whole: bytes, name: str = "fake-3part") -> ModelSpec:
    return ModelSpec(
        name,
        "a fake model",
        f"{name}.gguf",
        len(whole),
        hashlib.sha256(whole).hexdigest(),
        1,
        "Apache-2.0",
        ("en",),
        pkgs,
    )


@pytest.fixture
def site(tmp_path: Path) -> Path:
    path = tmp_path / "site"
    path.mkdir()
    return path


def test_parts_are_joined_in_order_verified_and_reused(site: Path, tmp_path: Path) -> None:
    whole = b"".join(PARTS)
    spec = spec_for(make_packages(site, "fakemodel", PARTS), whole)
    models_dir = tmp_path / "state" / "models"
    lines: list[str] = []
    path = model_files.prepare(spec, models_dir, lines.append, paths=[str(site)])
    assert path == models_dir / spec.file_name and path.read_bytes() == whole
    assert [line for line in lines if "joined part" in line] == [
        f"model fake-3part: joined part {i}/3 ({size / 1e6:.0f} of 0 MB)"
        for i, size in ((1, 3004), (2, 7100), (3, 7100 + len(PARTS[2])))
    ]
    assert list(models_dir.glob("*.part")) == []  # the temp file was renamed, not left beside
    assert model_files.status(spec, models_dir, [str(site)]).verified
    before = path.stat()
    again: list[str] = []
    assert model_files.prepare(spec, models_dir, again.append, paths=[str(site)]) == path
    assert again == []  # the second start neither joins nor hashes
    after = path.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


def test_a_part_that_does_not_match_fails_closed(site: Path, tmp_path: Path) -> None:
    pkgs = make_packages(site, "badmodel", PARTS)
    spec = spec_for(pkgs, b"".join(PARTS))
    (site / pkgs[1].module / pkgs[1].member).write_bytes(b"\x03" * 4096)  # same size, other bytes
    models_dir = tmp_path / "models"
    with pytest.raises(model_files.ModelUnavailable) as info:
        model_files.prepare(spec, models_dir, lambda _line: None, paths=[str(site)])
    message = str(info.value)
    got = hashlib.sha256(PARTS[0] + b"\x03" * 4096 + PARTS[2]).hexdigest()
    assert "\n" not in message and "fake-3part" in message
    assert f"expected {spec.sha256}" in message and f"got {got}" in message
    assert not (models_dir / spec.file_name).exists() and list(models_dir.iterdir()) == []


def test_a_wrong_size_fails_before_hashing(site: Path, tmp_path: Path) -> None:
    spec = spec_for(make_packages(site, "shortmodel", PARTS[:2]), b"".join(PARTS))
    with pytest.raises(
        model_files.ModelUnavailable, match=r"size mismatch, expected 7,1\d\d bytes, got 7,100"
    ):
        model_files.prepare(spec, tmp_path / "models", lambda _line: None, paths=[str(site)])


def test_missing_packages_say_which_command_installs_them(site: Path, tmp_path: Path) -> None:
    spec = spec_for(make_packages(site, "halfmodel", PARTS), b"".join(PARTS))
    spec = spec_for(
        (*spec.packages, ModelPackage("halfmodel-part4", "0.1.0", "0" * 64, "data/part04.bin")),
        b"".join(PARTS),
    )
    with pytest.raises(model_files.ModelUnavailable) as info:
        model_files.prepare(spec, tmp_path / "models", lambda _line: None, paths=[str(site)])
    assert "1 of 4 packages missing" in str(
        info.value
    ) and "xaid --install-model fake-3part" in str(info.value)
    assert model_files.status(spec, tmp_path / "models", [str(site)]).packages_present == 3


def test_a_joined_file_changed_on_disk_is_checked_again_and_rejoined(
    site: Path, tmp_path: Path
) -> None:
    whole = b"".join(PARTS)
    spec = spec_for(make_packages(site, "rotmodel", PARTS), whole)
    models_dir = tmp_path / "models"
    path = model_files.prepare(spec, models_dir, lambda _line: None, paths=[str(site)])
    path.write_bytes(
        b"\x00" * len(whole)
    )  # same size, new mtime: the marker no longer vouches for it
    lines: list[str] = []
    assert model_files.prepare(spec, models_dir, lines.append, paths=[str(site)]) == path
    assert path.read_bytes() == whole
    assert any("checking sha256" in line for line in lines) and any(
        "joined part 3/3" in line for line in lines
    )


def test_a_single_package_model_is_used_in_place_and_checked_once(
    site: Path, tmp_path: Path
) -> None:
    pkg = ModelPackage("tinymodel", "1.0", "0" * 64, "tiny.gguf")
    (site / "tinymodel").mkdir()
    (site / "tinymodel" / "tiny.gguf").write_bytes(PARTS[0])
    spec = spec_for((pkg,), PARTS[0], name="tiny")
    models_dir = tmp_path / "models"
    lines: list[str] = []
    path = model_files.prepare(spec, models_dir, lines.append, paths=[str(site)])
    assert (
        path == site / "tinymodel" / "tiny.gguf"
        and len(lines) == 1
        and "checking sha256" in lines[0]
    )
    lines.clear()
    model_files.prepare(spec, models_dir, lines.append, paths=[str(site)])
    assert lines == []
    path.write_bytes(PARTS[0][:-1] + b"X")
    with pytest.raises(model_files.ModelUnavailable, match="model tiny: sha256 mismatch"):
        model_files.prepare(spec, models_dir, lines.append, paths=[str(site)])


def test_the_temp_file_of_a_killed_join_is_removed_and_a_fresh_one_left(
    site: Path, tmp_path: Path
) -> None:
    spec = spec_for(make_packages(site, "killedmodel", PARTS), b"".join(PARTS))
    models_dir = tmp_path / "models"
    models_dir.mkdir()
    old = models_dir / f".{spec.file_name}.abc123.part"
    old.write_bytes(b"half")
    os.utime(old, (time.time() - 3600, time.time() - 3600))
    busy = models_dir / f".{spec.file_name}.def456.part"  # another process is writing this one now
    busy.write_bytes(b"half")
    model_files.prepare(spec, models_dir, lambda _line: None, paths=[str(site)])
    assert not old.exists() and busy.exists()
