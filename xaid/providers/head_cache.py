"""The prompt head's llama.cpp state on disk, per agent and model: a session's first turn reads only
what follows the head.

An agent's head (xaid.conversation.prompt: who it is, the rules, the user's profile) is the same
from one session to the next until the profile changes, and it is most of a first turn's prompt:
hundreds of tokens that the 1.5B reads at ~30-170 tokens/s on two cores. The runner process owns
the model, so it owns this cache too (xaid/providers/runner.py); this module is only the files,
with no llama.cpp in it (the state itself is cut and restored by xaid.providers.llama_state).

- **Key.** A file is found by a hash of the exact head text and of the model's identity: the
  model file (path, size, modification time), the llama-cpp-python version and the llama.cpp
  parameters that shape the state (``n_ctx``, ``n_batch``, the extra buffer types, the chat
  format). Another head or another model never finds a file; the file's own token list is
  checked again by llama-cpp-python's prefix match, so a file only ever saves reading.
- **Where.** ``<state dir>/head_cache/<hash of the agent id>/<model>-<head>.kv``, directories
  0700 and files 0600 (the head holds the user's profile). One head per agent and model: a new
  head (the profile changed) replaces the agent's older one, and at load the files of other
  models go.
- **Bounded.** At most ``llm.head_cache_mb`` in all; the least recently used (by modification
  time, touched at every restore) go first.
- **Erased with the agent.** Any forget of an agent's memory, and ``agent.delete``, drop the
  agent's directory (xaid.memory.erase → the provider's ``agent_erased``).
- **Read ahead of time.** The runner reads an agent's head while the model is idle (after a
  consolidation, at start: ``LlamaCppProvider.prewarm``) and saves it here, so even a session's
  first turn after a change of the profile reads only what follows the head.
- **Never trusted blindly.** A file that is short, has another key, or fails its CRC is
  removed and counted (``corrupt``); the turn then reads its prompt as without the cache.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import shutil
import struct
import zlib
from array import array
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

MAGIC = b"XAIDHEAD1\n"
# the key's sha256, the token count, the state's byte count, the CRC-32 of tokens and state
_HEADER = struct.Struct("<32sIII")
_SUFFIX = ".kv"


@dataclass(frozen=True, slots=True)
class HeadState:
    """One head's sequence state: the tokens it covers and llama.cpp's copy of their KV cells."""

    tokens: tuple[int, ...]
    data: bytes


@dataclass(slots=True)
class HeadCounters:
    saves: int = 0
    restores: int = 0  # a session's first turn began from a file
    misses: int = 0  # no file for the head: the turn read it, and saved it after the reply
    evictions: int = 0
    corrupt: int = 0  # a file that could not be trusted, removed
    erased: int = 0  # agents whose files were dropped by a forget or a delete
    prewarms: int = 0  # heads read ahead of time, while the model was idle, and saved
    prewarm_yields: int = 0  # a prewarm stopped because a turn (or another frame) came in


def model_identity(model_path: Path, params: dict[str, Any]) -> str:
    """What makes one llama.cpp state differ from another besides the tokens: the model file and
    the parameters the caller names. A replaced file (size or time) is another model."""
    try:
        st = model_path.stat()
        file = [str(model_path.resolve()), st.st_size, st.st_mtime_ns]
    except OSError:
        file = [str(model_path), 0, 0]
    try:
        from importlib.metadata import version

        lib = version("llama_cpp_python")
    except Exception:  # not installed (a test of the files alone): the params still separate models
        lib = ""
    blob = json.dumps({"file": file, "llama_cpp": lib, **params}, sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()


def agent_dir_name(agent_id: str) -> str:
    """Agent ids are the user's strings: a hash makes them safe file names of one length."""
    return hashlib.sha256(agent_id.encode()).hexdigest()[:32]


class HeadCache:
    """The files of one runner (see the module docstring). ``capacity_bytes`` 0 turns it off."""

    def __init__(self, directory: Path, capacity_bytes: int, model: str = ""):
        self.directory = directory
        self.capacity = capacity_bytes
        self.model = model
        self.counters = HeadCounters()

    @property
    def enabled(self) -> bool:
        return self.capacity > 0 and bool(self.model)

    def key(self, head: str) -> bytes:
        return hashlib.sha256(self.model.encode() + b"\0" + head.encode()).digest()

    def path(self, agent_id: str, head: str) -> Path:
        return (
            self.directory
            / agent_dir_name(agent_id)
            / f"{self.model[:16]}-{self.key(head).hex()[:32]}{_SUFFIX}"
        )

    def _files(self) -> list[Path]:
        return sorted(self.directory.glob(f"*/*{_SUFFIX}")) if self.directory.is_dir() else []

    def describe(self) -> dict[str, Any]:
        files = self._files()
        used = sum(_size(f) for f in files)
        return {
            "capacity_mb": round(self.capacity / 2**20, 1),
            "used_mb": round(used / 2**20, 1),
            "files": len(files),
            **asdict(self.counters),
        }

    # --- reading -------------------------------------------------------------------------------

    def load(self, agent_id: str, head: str) -> HeadState | None:
        """The saved state of this head, or None (no file, or one that was removed as untrustworthy)."""
        if not self.enabled:
            return None
        path = self.path(agent_id, head)
        try:
            blob = path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            log.warning("head cache: cannot read %s: %s", path.name, exc)
            return None
        state = _decode(blob, self.key(head))
        if state is None:
            self.counters.corrupt += 1
            log.warning("head cache: %s is damaged or not ours; removed", path.name)
            with contextlib.suppress(OSError):
                path.unlink()
            return None
        with contextlib.suppress(OSError):
            os.utime(path)  # recently used: the last to be evicted
        return state

    # --- writing -------------------------------------------------------------------------------

    def store(self, agent_id: str, head: str, state: HeadState) -> bool:
        """Write the head's state (0600, whole or not at all), drop the agent's older heads of this
        model, then evict the least recently used files beyond the capacity."""
        if not self.enabled:
            return False
        blob = _encode(state, self.key(head))
        if len(blob) > self.capacity:
            return False
        path = self.path(agent_id, head)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        try:
            self.directory.mkdir(mode=0o700, parents=True, exist_ok=True)
            path.parent.mkdir(mode=0o700, exist_ok=True)
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "wb") as f:
                f.write(blob)
            os.replace(tmp, path)
        except (
            OSError
        ) as exc:  # a full disk or an agent erased meanwhile: the cache only saves time
            log.warning("head cache: cannot write %s: %s", path.name, exc)
            with contextlib.suppress(OSError):
                tmp.unlink()
            return False
        self.counters.saves += 1
        prefix = f"{self.model[:16]}-"
        for old in path.parent.glob(f"{prefix}*{_SUFFIX}"):
            if old != path:
                with contextlib.suppress(OSError):
                    old.unlink()
        self.evict()
        return True

    def evict(self) -> None:
        files = [(f, _stat(f)) for f in self._files()]
        live = [(f, st) for f, st in files if st is not None]
        used = sum(st.st_size for _, st in live)
        for f, st in sorted(live, key=lambda x: x[1].st_mtime_ns):
            if used <= self.capacity:
                break
            with contextlib.suppress(OSError):
                f.unlink()
                self.counters.evictions += 1
            used -= st.st_size

    def drop_agent(self, agent_id: str) -> None:
        """Every file of the agent goes (it held the agent's profile)."""
        folder = self.directory / agent_dir_name(agent_id)
        if folder.exists():
            shutil.rmtree(folder, ignore_errors=True)
            self.counters.erased += 1

    def drop_other_models(self) -> None:
        """At load: files of another model (or other parameters) can never be used again."""
        prefix = f"{self.model[:16]}-"
        for f in self._files():
            if not f.name.startswith(prefix):
                with contextlib.suppress(OSError):
                    f.unlink()
        if self.directory.is_dir():
            for stale in self.directory.glob("*/.*.tmp"):  # a runner that died while writing
                with contextlib.suppress(OSError):
                    stale.unlink()


def _encode(state: HeadState, key: bytes) -> bytes:
    tokens = array("i", state.tokens)
    if tokens.itemsize != 4:  # pragma: no cover - every platform llama.cpp runs on
        raise ValueError("a token must be 4 bytes")
    raw = tokens.tobytes()
    crc = zlib.crc32(state.data, zlib.crc32(raw))
    return MAGIC + _HEADER.pack(key, len(state.tokens), len(state.data), crc) + raw + state.data


def _decode(blob: bytes, key: bytes) -> HeadState | None:
    start = len(MAGIC) + _HEADER.size
    if len(blob) < start or not blob.startswith(MAGIC):
        return None
    got_key, n, size, crc = _HEADER.unpack_from(blob, len(MAGIC))
    if got_key != key or len(blob) != start + 4 * n + size or n == 0 or size == 0:
        return None
    raw, data = blob[start : start + 4 * n], blob[start + 4 * n :]
    if zlib.crc32(data, zlib.crc32(raw)) != crc:
        return None
    tokens = array("i")
    tokens.frombytes(raw)
    return HeadState(tuple(tokens), data)


def _stat(path: Path) -> os.stat_result | None:
    try:
        return path.stat()
    except OSError:
        return None


def _size(path: Path) -> int:
    st = _stat(path)
    return st.st_size if st is not None else 0
