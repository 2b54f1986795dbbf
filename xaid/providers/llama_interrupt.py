"""Reading ahead that a turn stops at once, not at the end of the chunk under way.

The runner reads an agent's head, a session's next start and an opening while the model is idle,
a chunk at a time (xaid/providers/llama_cpp.py). A turn that arrives meanwhile used to wait for the
chunk under way: one ``llama_decode`` of 32 tokens, 350-650 ms for the 1.5B on two cores (a small
batch streams all the weights once, like a decode step, on top of its own tokens). ``session_ttft``
measured it: a session's first turn right after another agent's reply (whose exchange the runner
was reading ahead) waited 685-1,086 ms for what takes ~700 ms after a pause.

Only a turn rings (a ``generate`` frame of an agent's conversation, runner.Inbox): a consolidation's
calls to the model come one after another with a few milliseconds between them, and stopping the
read at each would leave it no progress at all while they last, where it reads a chunk before each.

llama.cpp asks an abort callback between the nodes of a decode's graph on the CPU backend; a decode
it aborts returns 2 and removes the positions of the unfinished micro-batch from the KV cache, so
the context holds whole chunks and llama-cpp-python's ``n_tokens`` still agrees with it (the next
read or turn goes on from there; measured: the logits after reading the chunk again are identical).

The callback is C's ``strlen`` over a two-byte buffer: it returns 1 once the first byte is set and 0
otherwise, which the caller reads as the bool it wants, and it runs on llama.cpp's compute thread
without Python's interpreter lock (a Python callback would take that lock at every node of every
decode, about a thousand times a turn). The first byte is set only while reading ahead (``armed``),
under a lock, so a turn's own decode is never aborted.
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import threading
from collections.abc import Iterator
from typing import Any

log = logging.getLogger(__name__)


class Interrupt:
    """The flag one llama.cpp context's abort callback reads; ``ring`` sets it while armed."""

    def __init__(self) -> None:
        self._flag = (ctypes.c_ubyte * 2)()  # a C string of length 0: no abort
        self._lock = threading.Lock()
        self._armed = False

    @classmethod
    def install(cls, ctx: Any) -> Interrupt | None:
        """An interrupt whose flag ``ctx``'s decodes read; None where llama.cpp or the C library
        does not offer the functions (reading ahead then gives way between chunks, as before)."""
        try:
            from llama_cpp import llama_cpp as low

            setter = low._lib.llama_set_abort_callback
            strlen = ctypes.CDLL(None).strlen
        except (AttributeError, ImportError, OSError) as exc:
            log.info("reading ahead gives way between chunks only: %s", exc)
            return None
        setter.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
        setter.restype = None
        interrupt = cls()
        setter(
            ctx,
            ctypes.cast(strlen, ctypes.c_void_p).value,
            ctypes.addressof(interrupt._flag),
        )
        return interrupt

    @contextlib.contextmanager
    def armed(self) -> Iterator[None]:
        """While reading ahead: a ``ring`` aborts the decode under way and any after it."""
        with self._lock:
            self._armed = True
            self._flag[0] = 0
        try:
            yield
        finally:
            with self._lock:
                self._armed = False
                self._flag[0] = 0

    def ring(self) -> None:
        """A turn is waiting (any thread): stop the read under way, if one is."""
        with self._lock:
            if self._armed:
                self._flag[0] = 1

    @property
    def rung(self) -> bool:
        return self._flag[0] != 0
