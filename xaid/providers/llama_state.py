"""llama.cpp's KV cache kept per session, so that sessions taking turns on one model do not re-read
each other's prompts.

One llama.cpp context holds one conversation's tokens. When session B speaks after A, llama.cpp
keeps only the prefix both prompts share (often nothing past the chat template), and A's next turn
would read its whole prompt again: tens of seconds for the 1.5B at ~31 tokens/s. So when the
context changes hands, the leaving session's sequence is copied out (``llama_state_seq_get_data``:
its KV cells only, ~28 KB per token for the 1.5B) and the arriving one's copied back in.

Measured on the 1.5B at n_ctx 4096, 669 tokens (perf/RESULTS.md): the sequence copy is 19 MB and
takes ~8 ms out and ~3 ms in, against 6.7 s to read the prompt again. llama-cpp-python's own
``LlamaRAMCache`` was not used: its entries are ``Llama.save_state()``, which also copies the score
matrix (n_batch × vocabulary floats, 311 MB for Qwen's 151,936 tokens) that its capacity does not
count, and it saves after every completion rather than when the context changes hands.
"""

from __future__ import annotations

import ctypes
import logging
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Saved:
    tokens: tuple[int, ...]
    data: bytes


@dataclass(slots=True)
class StateCounters:
    saves: int = 0
    restores: int = 0
    evictions: int = 0
    misses: int = 0  # a session came back and its state was not kept (evicted, or never saved)


class SessionStates:
    """At most ``capacity_bytes`` of saved sequences, least recently used dropped first.

    ``switch(llm, owner)`` is called before every generation with the session that is about to use
    the context. A request without a session (consolidation's prompts) may use the context, but is
    never saved: its prompt is not read twice. ``forget(session)`` (a session closed) drops its copy;
    it comes from the event loop's thread while the model's thread may be switching, hence the lock.
    """

    def __init__(self, capacity_bytes: int):
        self.capacity = capacity_bytes
        self.saved: OrderedDict[str, Saved] = OrderedDict()
        self.owner = ""  # whose tokens the live context holds
        self.counters = StateCounters()
        self.used_bytes = (
            0  # kept as a number: `status` reads it from another thread than the model's
        )
        self._lock = threading.Lock()

    def describe(self) -> dict[str, Any]:
        c = self.counters
        return {
            "capacity_mb": round(self.capacity / 2**20, 1),
            "used_mb": round(self.used_bytes / 2**20, 1),
            "sessions": len(self.saved),
            "saves": c.saves,
            "restores": c.restores,
            "evictions": c.evictions,
            "misses": c.misses,
        }

    def _drop(self, session: str | None = None) -> None:
        gone: Saved | None
        if session is None:
            _key, gone = self.saved.popitem(last=False)
        else:
            gone = self.saved.pop(session, None)
        if gone is not None:
            self.used_bytes -= len(gone.data)

    def forget(self, session: str) -> None:
        """A closed session never speaks again: its saved copy only takes room. If it still holds the
        live context, that context is not saved when the next session arrives."""
        with self._lock:
            self._drop(session)
            if self.owner == session:
                self.owner = ""

    def switch(self, llm: Any, owner: str) -> None:
        """Never fails a turn: if llama.cpp refuses a copy, the prompt is simply read again."""
        with self._lock:
            if self.capacity <= 0 or owner == self.owner:
                return
            try:
                self._switch(llm, owner)
            except (
                Exception
            ):  # a ctypes or llama.cpp error: forget what is saved rather than trust it
                log.exception("per-session llama.cpp state failed; the prompt is read again")
                self.saved.clear()
                self.used_bytes = 0
                self.owner = ""
                llm.reset()

    def _switch(self, llm: Any, owner: str) -> None:
        if self.owner and llm.n_tokens > 0:
            self._save(llm, self.owner)
        self.owner = owner
        if not owner:
            return
        saved = self.saved.pop(owner, None)
        if saved is None:
            self.counters.misses += 1
            return  # llama.cpp's own prefix match keeps whatever this prompt shares with the live one
        # Live again, so the copy is stale and would only take room: the session is saved anew when it leaves.
        self.used_bytes -= len(saved.data)
        if self._restore(llm, saved):
            self.counters.restores += 1

    def _save(self, llm: Any, owner: str) -> None:
        import llama_cpp

        size = llama_cpp.llama_state_seq_get_size(llm.ctx, 0)
        if size <= 0 or size > self.capacity:
            return
        buf = (ctypes.c_uint8 * size)()
        written = llama_cpp.llama_state_seq_get_data(llm.ctx, buf, size, 0)
        if written <= 0:
            return
        self._drop(owner)
        saved = Saved(tuple(int(t) for t in llm.input_ids[: llm.n_tokens]), bytes(buf)[:written])
        self.saved[owner] = saved
        self.used_bytes += len(saved.data)
        self.counters.saves += 1
        while self.used_bytes > self.capacity and self.saved:
            self._drop()
            self.counters.evictions += 1

    @staticmethod
    def _restore(llm: Any, saved: Saved) -> bool:
        """Replace sequence 0 with the saved one and tell llama-cpp-python which tokens it now holds,
        so its prefix match against the next prompt starts from them."""
        import llama_cpp

        mem = llama_cpp.llama_get_memory(llm.ctx)
        llama_cpp.llama_memory_seq_rm(mem, 0, -1, -1)
        src = (ctypes.c_uint8 * len(saved.data)).from_buffer_copy(saved.data)
        if llama_cpp.llama_state_seq_set_data(llm.ctx, src, len(saved.data), 0) != len(saved.data):
            log.warning("llama.cpp refused a saved session state; the prompt is read again")
            llm.reset()
            llama_cpp.llama_memory_seq_rm(mem, 0, -1, -1)
            return False
        n = len(saved.tokens)
        llm.input_ids[:n] = saved.tokens
        llm.n_tokens = n
        llm._requires_eval = (
            True  # logits are not part of the copy: the next decode must refresh them
        )
        return True


# --- one sequence's state as a value: the prompt head kept on disk (xaid.providers.head_cache) ------


def copy_out(llm: Any) -> Saved | None:
    """The live sequence 0 (its tokens and llama.cpp's copy of their KV cells), or None if empty."""
    import llama_cpp

    if llm.n_tokens <= 0:
        return None
    size = llama_cpp.llama_state_seq_get_size(llm.ctx, 0)
    if size <= 0:
        return None
    buf = (ctypes.c_uint8 * size)()
    written = llama_cpp.llama_state_seq_get_data(llm.ctx, buf, size, 0)
    if written <= 0:
        return None
    return Saved(tuple(int(t) for t in llm.input_ids[: llm.n_tokens]), bytes(buf)[:written])


def restore(llm: Any, saved: Saved) -> bool:
    """Make ``saved`` the live sequence 0 (False, and an empty context, if llama.cpp refuses it)."""
    return SessionStates._restore(llm, saved)


def agreeing(llm: Any, tokens: Sequence[int]) -> int:
    """How many of ``tokens`` the live context already holds, from the start."""
    held = 0
    for have, want in zip(llm.input_ids[: llm.n_tokens], tokens, strict=False):
        if int(have) != want:
            break
        held += 1
    return held


def holds(llm: Any, tokens: tuple[int, ...]) -> bool:
    """Whether the live context already starts with ``tokens`` (then restoring them saves nothing)."""
    n = len(tokens)
    return 0 < n <= llm.n_tokens and tuple(int(t) for t in llm.input_ids[:n]) == tokens


def head_length(llm: Any, head: str) -> int:
    """How many of the live context's tokens it takes to hold the whole of ``head`` (a system
    message's text, as the chat template wrote it into the prompt); 0 when it is not there.

    Read back from the tokens rather than predicted from the template: every token's bytes in
    order, then the first token whose end reaches past the head's text. The count may take in a
    token of the template after it; the prefix match of the next prompt keeps only what agrees."""
    return head_length_in(llm, [int(t) for t in llm.input_ids[: llm.n_tokens]], head)


def head_length_in(llm: Any, tokens: Sequence[int], head: str) -> int:
    """``head_length`` over a token list rather than the live context (the prewarm's prompt)."""
    want = head.encode()
    if not want:
        return 0
    text = bytearray()
    for i, t in enumerate(tokens):
        piece = llm.detokenize([t], special=True)
        text += piece
        # the head's text can only have ended within this token: look just there
        if text.find(want, max(0, len(text) - len(want) - len(piece))) >= 0:
            return i + 1
    return 0


def save_prefix(llm: Any, n: int) -> Saved | None:
    """The state of the live context's first ``n`` tokens, leaving the context as it was: the whole
    sequence is copied out, cut to ``n``, copied again, and the whole put back (~3 copies of a
    few tens of MB for the 1.5B; done after a reply, off the path to its first token)."""
    import llama_cpp

    whole = copy_out(llm)
    if whole is None or n <= 0 or n > len(whole.tokens):
        return None
    mem = llama_cpp.llama_get_memory(llm.ctx)
    try:
        llama_cpp.llama_memory_seq_rm(mem, 0, n, -1)
        llm.n_tokens = n
        head = copy_out(llm)
    finally:
        restore(llm, whole)
    return head
