"""The model catalogue against the files generated from it and the places that name its models."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from xaid import catalogue as models

ROOT = Path(__file__).resolve().parents[3]
REGENERATE = "python -c 'from xaid import catalogue as models; models.write_requirements(\"packaging/models\")'"


@pytest.mark.parametrize("spec", models.CATALOGUE, ids=lambda s: s.name)
def test_the_requirement_file_is_the_catalogue_entry(spec: models.ModelSpec) -> None:
    path = ROOT / "packaging" / "models" / f"{spec.name}.txt"
    assert path.read_text(encoding="utf-8") == spec.requirements(), (
        f"stale {path}; regenerate: {REGENERATE}"
    )
    pins = re.findall(r"^([\w.-]+)==([\w.]+) --hash=sha256:([0-9a-f]{64})$", path.read_text(), re.M)
    assert [(p.name, p.version, p.wheel_sha256) for p in spec.packages] == pins


def test_no_requirement_file_without_an_entry() -> None:
    files = {p.stem for p in (ROOT / "packaging" / "models").glob("*.txt")}
    assert files == set(models.BY_NAME)


@pytest.mark.parametrize("spec", models.CATALOGUE, ids=lambda s: s.name)
def test_each_entry_is_complete(spec: models.ModelSpec) -> None:
    assert re.fullmatch(r"[0-9a-f]{64}", spec.sha256) and spec.size > 0 and spec.ram_mb > 0
    assert spec.license and spec.languages and spec.file_name.endswith(".gguf")
    assert len({p.wheel_sha256 for p in spec.packages}) == len(spec.packages)
    if spec.chunked:  # parts in order: the n-th package holds data/partNN.bin
        for i, pkg in enumerate(spec.packages, start=1):
            assert pkg.name.endswith(f"-part{i}") and pkg.member == f"data/part{i:02d}.bin"


def test_the_default_and_the_official_hashes() -> None:
    assert models.get("").name == models.DEFAULT_MODEL == "qwen2.5-coder-1.5b"
    big, small = models.get("qwen2.5-coder-1.5b"), models.get("qwen2.5-coder-0.5b")
    assert (big.size, big.sha256[:8], len(big.packages)) == (1_117_320_768, "cc324af0", 22)
    assert (small.size, small.sha256[:8], len(small.packages)) == (491_400_064, "1d961463", 6)
    assert "zh" in big.languages and "zh" in small.languages
    assert not models.get("smollm2-135m").chunked


def test_an_unknown_name_lists_the_known_ones() -> None:
    with pytest.raises(models.UnknownModel) as info:
        models.get("llama-70b")
    assert "llama-70b" in str(info.value) and "qwen2.5-coder-0.5b" in str(info.value)
