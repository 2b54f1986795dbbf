"""Connections as asyncio protocols: the socket stays registered with the event loop for its life.

anyio's socket streams re-register the socket with epoll on every receive, which cost more than
a whole ping on these machines (strace: ~30 syscalls per request). A protocol gets its bytes
pushed by the loop (uvloop's fast path when uvloop runs), and this thin adapter gives the rest of
the daemon the same small ``receive``/``send`` surface it would have from an anyio stream.
"""

from __future__ import annotations

import asyncio
import socket
from collections import deque
from collections.abc import Callable

import anyio


class Stream(asyncio.Protocol):
    def __init__(self, on_open: Callable[[Stream], object]):
        self._on_open = on_open
        self._chunks: deque[bytes] = deque()
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
        self._readable.set()

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

    # -- what the daemon uses -----------------------------------------------------------------
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
        return data

    async def send(self, data: bytes) -> None:
        if self._lost or self.transport is None or self.transport.is_closing():
            raise anyio.BrokenResourceError
        self.transport.write(data)
        if not self._writable.is_set():
            await (
                self._writable.wait()
            )  # the client reads slowly: wait rather than buffer without bound
            if self._lost:
                raise anyio.BrokenResourceError

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
