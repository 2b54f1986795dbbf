"""Connections as asyncio protocols: the socket stays registered with the event loop for its life.

anyio's socket streams re-register the socket with epoll on every receive, which cost more than
a whole ping on these machines (strace: ~30 syscalls per request). A protocol gets its bytes
pushed by the loop (uvloop's fast path when uvloop runs), and this thin adapter gives the rest of
the daemon the same small ``receive``/``send`` surface it would have from an anyio stream.

Both directions are bounded. Bytes received and not yet taken by ``receive`` stop the socket's
reading past ``READ_BUFFER`` beyond one frame, so a peer that writes faster than the daemon reads
fills its own socket buffer, not the daemon's memory; ``pause_reading`` stops it outright (the
connection does so while the peer does not read its replies). ``send`` returns once the
transport's buffer is under its high-water mark again, so a connection holds at most the frame it
is writing beyond that mark (``queued``).
"""

from __future__ import annotations

import asyncio
import socket
from collections import deque
from collections.abc import Callable

import anyio

READ_BUFFER = 1 << 16  # bytes received beyond the frame limit before the socket stops being read


class Stream(asyncio.Protocol):
    def __init__(self, on_open: Callable[[Stream], object], max_frame_bytes: int = 1 << 20):
        self._on_open = on_open
        self._chunks: deque[bytes] = deque()
        self._buffered = 0
        self._read_limit = max_frame_bytes + 4 + READ_BUFFER
        self._reading_paused = False  # by us, for a full buffer
        self._held = False  # by the connection, for a peer that does not read
        self._readable = asyncio.Event()
        self._writable = asyncio.Event()
        self._writable.set()
        self._eof = False
        self._lost = False
        self.transport: asyncio.Transport | None = None

    # -- asyncio.Protocol -------------------------------------------------------------------
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]  # uvloop's transports are not subclasses
        self._on_open(self)

    def data_received(self, data: bytes) -> None:
        self._chunks.append(data)
        self._buffered += len(data)
        self._readable.set()
        if self._buffered > self._read_limit:
            self._pause()

    def eof_received(self) -> bool:
        self._eof = True
        self._readable.set()
        return True  # keep our side open: replies may still be on their way

    def connection_lost(self, exc: Exception | None) -> None:
        self._eof = self._lost = True
        self._readable.set()
        self._writable.set()

    def pause_writing(self) -> None:
        self._writable.clear()

    def resume_writing(self) -> None:
        self._writable.set()

    def _pause(self) -> None:
        if not self._reading_paused and self.transport is not None and not self._lost:
            self._reading_paused = True
            self.transport.pause_reading()

    def _resume(self) -> None:
        if self._reading_paused and not self._held and self._buffered <= self._read_limit:
            self._reading_paused = False
            if self.transport is not None and not self._lost and not self.transport.is_closing():
                self.transport.resume_reading()

    # -- what the daemon uses -----------------------------------------------------------------
    def pause_reading(self) -> None:
        """Take no more bytes from the peer until ``resume_reading`` (its writes then block)."""
        self._held = True
        self._pause()

    def resume_reading(self) -> None:
        self._held = False
        self._resume()

    @property
    def queued(self) -> int:
        """Bytes written and not yet taken by the peer's socket."""
        if self.transport is None or self._lost:
            return 0
        return self.transport.get_write_buffer_size()

    @property
    def writable(self) -> bool:
        """False while the transport's buffer is above its high-water mark: the peer reads slowly."""
        return self._writable.is_set()

    @property
    def socket(self) -> socket.socket:
        assert self.transport is not None
        return self.transport.get_extra_info("socket")

    async def receive(self) -> bytes:
        while not self._chunks:
            if self._eof:
                raise anyio.EndOfStream
            self._readable.clear()
            await self._readable.wait()
        data = b"".join(self._chunks)
        self._chunks.clear()
        self._buffered = 0
        self._resume()
        return data

    def write(self, data: bytes) -> None:
        """Hand ``data`` to the transport (it keeps what the socket does not take at once)."""
        if self._lost or self.transport is None or self.transport.is_closing():
            raise anyio.BrokenResourceError
        self.transport.write(data)

    async def drain(self) -> None:
        """Return once the transport's buffer is under its high-water mark again."""
        if not self._writable.is_set():
            await (
                self._writable.wait()
            )  # the client reads slowly: wait rather than buffer without bound
            if self._lost:
                raise anyio.BrokenResourceError

    async def send(self, data: bytes) -> None:
        self.write(data)
        await self.drain()

    async def send_eof(self) -> None:
        if (
            self.transport is not None
            and self.transport.can_write_eof()
            and not self.transport.is_closing()
        ):
            self.transport.write_eof()

    def abort(self) -> None:
        """Close at once, dropping what the peer has not read (close() would wait for it)."""
        if self.transport is not None:
            self.transport.abort()

    async def aclose(self) -> None:
        if self.transport is not None:
            self.transport.close()
