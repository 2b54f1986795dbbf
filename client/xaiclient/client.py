"""The two client twins: ``Client`` (blocking sockets) and ``AsyncClient`` (asyncio).

Both route frames through ``core.Router``, so many requests may be in flight on one
connection (a ``session.tool_result`` while its ``session.send`` is still streaming).
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import socket
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

from .api import Api
from .core import DaemonUnavailable, Router, default_socket_path, unwrap
from .wire import (
    DEFAULT_MAX_FRAME,
    PROTOCOL_VERSION,
    SUPPORTED_PROTOCOLS,
    Event,
    Reply,
    Timeout,
    XaiError,
)

_CHUNK = 65536


_SALVAGE_S = (
    1.0  # how long a failed write waits for the daemon's last words before giving up on them
)


class Stream:
    """Events of one streamed call; ``result`` holds the final reply once iteration ends."""

    def __init__(self, client: Client, rid: int):
        self._client = client
        self.id = rid
        self.result: Any = None
        self.done = False

    def __iter__(self) -> Iterator[Event]:
        while not self.done:
            msg = self._client._wait(self.id)
            if isinstance(msg, Event):
                yield msg
                continue
            self.done = True
            self.result = unwrap(msg)

    def cancel(self) -> None:
        """Ask the daemon to stop this call; iterate again to drain to its final reply."""
        if not self.done:
            self._client.call("cancel", id=self.id)

    def finish(self) -> Any:
        for _ in self:
            pass
        return self.result


class Client(Api):
    """Blocking client; not shared between threads (open one per thread)."""

    def __init__(
        self,
        socket_path: str | Path | None = None,
        *,
        timeout: float | None = None,
        client_name: str = "xaiclient",
        max_frame: int = DEFAULT_MAX_FRAME,
    ):
        self.path = str(socket_path or default_socket_path())
        self._router = Router(max_frame)
        self.ended: XaiError | None = (
            None  # why the connection ended, once it has: it is then unusable
        )
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._sock.settimeout(timeout)
        try:
            self._sock.connect(self.path)
        except OSError as exc:
            self._sock.close()
            raise DaemonUnavailable(
                self.path, exc.strerror or str(exc), denied=exc.errno == errno.EACCES
            ) from None
        try:
            self.server = self.call("hello", client=client_name, protocol=list(SUPPORTED_PROTOCOLS))
        except BaseException:  # refused (a peer not allowed, too many connections): no socket left
            self._sock.close()
            raise
        self._router.learn(self.server)

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._sock.close()

    def usable(self) -> bool:
        """False once the daemon has closed this connection (``server.idle_seconds``, a shutdown).

        Only meaningful with nothing in flight: then the daemon sends nothing unasked except the
        error it closes with, so any readable byte, like the end of the stream, means it is over."""
        if self.ended is not None:
            return False
        try:
            self._sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT)
        except BlockingIOError:
            return True
        except OSError:
            return False
        return False

    def _end(self, err: XaiError) -> XaiError:
        self.ended = err
        return err

    def _send(self, data: bytes) -> None:
        try:
            self._sock.sendall(data)
        except OSError:
            raise self._end(self._salvage()) from None

    def _salvage(self) -> XaiError:
        """After a failed write: the daemon usually said why before it closed (frame_too_large,
        shutting_down), and that error, not "the connection ended", is what the caller needs."""
        with contextlib.suppress(OSError, XaiError):
            self._sock.settimeout(_SALVAGE_S)
            while data := self._sock.recv(_CHUNK):
                self._router.receive(data)
        return self._router.orphan_error() or self._router.lost(self.path)

    def _wait(self, rid: int) -> Reply | Event:
        while True:
            msg = self._router.pop(rid)
            if msg is not None:
                return msg
            if (err := self._router.orphan_error()) is not None:
                raise self._end(err)
            try:
                data = self._sock.recv(_CHUNK)
            except TimeoutError:
                raise Timeout("no answer from xaid in time") from None
            except OSError as exc:
                raise self._end(self._router.lost(self.path, exc.strerror or str(exc))) from None
            if not data:
                raise self._end(self._router.orphan_error() or self._router.lost(self.path))
            self._router.receive(data)

    def call(self, method: str, **params: Any) -> Any:
        rid, frame = self._router.request(method, params)
        self._send(frame)
        while True:
            msg = self._wait(rid)
            if isinstance(msg, Reply):
                return unwrap(msg)

    def stream(self, method: str, **params: Any) -> Stream:
        rid, frame = self._router.request(method, params)
        self._send(frame)
        return Stream(self, rid)

    def every(self, method: str, key: str, **params: Any) -> list[Any]:
        """Every record of a paged list method (``agent.list``, ``session.list``, ``scheduler.list``),
        following ``next_cursor`` page by page: ``client.every("session.list", "sessions", agent_id="mia")``."""
        out: list[Any] = []
        cursor = None
        while True:
            page = self.call(method, **params, cursor=cursor)
            out += page[key]
            cursor = page.get("next_cursor")
            if cursor is None:
                return out


class AsyncStream:
    """Async twin of ``Stream``."""

    def __init__(self, client: AsyncClient, rid: int):
        self._client = client
        self.id = rid
        self.result: Any = None
        self.done = False

    async def __aiter__(self) -> AsyncIterator[Event]:
        while not self.done:
            msg = await self._client._wait(self.id)
            if isinstance(msg, Event):
                yield msg
                continue
            self.done = True
            self.result = unwrap(msg)

    async def cancel(self) -> None:
        if not self.done:
            await self._client.call("cancel", id=self.id)

    async def finish(self) -> Any:
        async for _ in self:
            pass
        return self.result


class AsyncClient(Api):
    """asyncio client; many tasks may share one instance and one connection."""

    def __init__(
        self,
        socket_path: str | Path | None = None,
        *,
        client_name: str = "xaiclient",
        max_frame: int = DEFAULT_MAX_FRAME,
    ):
        self.path = str(socket_path or default_socket_path())
        self.client_name = client_name
        self._router = Router(max_frame)
        # A plain non-blocking socket, not asyncio's streams: when a write fails (the daemon refused
        # a frame and closed), a stream transport closes the socket and drops what the daemon said
        # before it closed, and its reader raises ahead of the bytes it holds; the socket stays open
        # here until ``close``, so the read loop still reads that error (frame_too_large, not a bare
        # "unavailable": tests/client/test_client_errors.py saw the race on CI).
        self._sock: socket.socket | None = None
        self._write_lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        self._signals: dict[int, asyncio.Event] = {}
        self._failure: XaiError | None = None
        self.server: Any = None

    async def connect(self) -> AsyncClient:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.setblocking(False)
        try:
            await asyncio.get_running_loop().sock_connect(sock, self.path)
        except OSError as exc:
            sock.close()
            raise DaemonUnavailable(
                self.path, exc.strerror or str(exc), denied=exc.errno == errno.EACCES
            ) from None
        self._sock = sock
        self._task = asyncio.create_task(self._read_loop())
        try:
            self.server = await self.call(
                "hello", client=self.client_name, protocol=[PROTOCOL_VERSION]
            )
        except BaseException:  # refused: the connection is closed, not left to the collector
            await self.close()
            raise
        self._router.learn(self.server)
        return self

    async def __aenter__(self) -> AsyncClient:
        return await self.connect()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        if self._task:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        if self._sock:
            self._sock.close()

    async def _read_loop(self) -> None:
        assert self._sock is not None
        loop = asyncio.get_running_loop()
        try:
            while data := await loop.sock_recv(self._sock, _CHUNK):
                for rid in self._router.receive(data):
                    if sig := self._signals.get(rid):
                        sig.set()
                if err := self._router.orphan_error():
                    self._failure = err
                    break
        except (OSError, XaiError) as exc:
            self._failure = (
                exc if isinstance(exc, XaiError) else self._router.lost(self.path, str(exc))
            )
        self._failure = self._failure or self._router.lost(self.path)
        for sig in self._signals.values():
            sig.set()

    async def _wait(self, rid: int) -> Reply | Event:
        sig = self._signals.setdefault(rid, asyncio.Event())
        while True:
            msg = self._router.pop(rid)
            if msg is not None:
                if isinstance(msg, Reply):
                    self._signals.pop(rid, None)
                return msg
            if self._failure is not None:
                self._signals.pop(rid, None)
                raise self._failure
            sig.clear()
            await sig.wait()

    async def _send(self, frame: bytes) -> None:
        if self._sock is None:
            raise XaiError("unavailable", "not connected; call connect() first")
        if self._failure is not None:
            raise self._failure
        try:
            # shielded: a caller cancelled mid-frame (a timeout around ``call``) must not leave half
            # a frame on the wire for the next one to follow; the frame is written whole regardless
            await asyncio.shield(self._write(self._sock, frame))
        except OSError:
            # The reader still gets what the daemon said before it closed; that is the error to raise.
            if self._task is not None:
                with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
                    await asyncio.wait_for(asyncio.shield(self._task), _SALVAGE_S)
            raise (self._failure or self._router.lost(self.path)) from None

    async def _write(self, sock: socket.socket, frame: bytes) -> None:
        async with self._write_lock:  # one frame at a time on the wire, whoever sends
            await asyncio.get_running_loop().sock_sendall(sock, frame)

    async def call(self, method: str, **params: Any) -> Any:
        rid, frame = self._router.request(method, params)
        self._signals[rid] = asyncio.Event()
        await self._send(frame)
        while True:
            msg = await self._wait(rid)
            if isinstance(msg, Reply):
                return unwrap(msg)

    def stream(self, method: str, **params: Any) -> _PendingStream:
        return _PendingStream(self, method, params)


class _PendingStream:
    """Lets ``async for ev in client.stream(...)`` and ``s = await client.stream(...)`` both work.

    The request is sent at the first ``await`` or ``async for``; after the loop, ``result`` holds the
    final reply, as on the blocking ``Stream``.
    """

    def __init__(self, client: AsyncClient, method: str, params: dict[str, Any]):
        self._client = client
        self._method = method
        self._params = params
        self._stream: AsyncStream | None = None

    async def start(self) -> AsyncStream:
        if self._stream is None:
            rid, frame = self._client._router.request(self._method, self._params)
            self._client._signals[rid] = asyncio.Event()
            await self._client._send(frame)
            self._stream = AsyncStream(self._client, rid)
        return self._stream

    def __await__(self):  # type: ignore[no-untyped-def]
        return self.start().__await__()

    @property
    def result(self) -> Any:
        """The final reply once the stream has been read to its end; None before."""
        return self._stream.result if self._stream is not None else None

    @property
    def done(self) -> bool:
        return self._stream is not None and self._stream.done

    async def cancel(self) -> None:
        if self._stream is not None:
            await self._stream.cancel()

    async def finish(self) -> Any:
        return await (await self.start()).finish()

    async def __aiter__(self) -> AsyncIterator[Event]:
        stream = await self.start()
        async for ev in stream:
            yield ev
