"""Server-sent events the way OpenAI's clients parse them: ``data: <json>\\n\\n`` per chunk,
``data: [DONE]`` at the end, and ``: keep-alive`` comments while there is nothing to say.

A 1.5B model on a Pi reads a long prompt for tens of seconds before its first token; proxies and
clients with a read timeout would give up on a silent stream. A comment line is ignored by every
SSE parser (the spec says so), so it keeps the connection warm without a chunk the client must read.
"""

from __future__ import annotations

import json
from types import TracebackType
from typing import Any, Protocol

import anyio
from anyio.abc import TaskGroup

KEEPALIVE = b": keep-alive\n\n"
DONE = b"data: [DONE]\n\n"


class Body(Protocol):
    async def begin_stream(self) -> None: ...

    async def write(self, data: bytes) -> None: ...

    async def end(self) -> None: ...


def encode(item: dict[str, Any]) -> bytes:
    return (
        b"data: " + json.dumps(item, ensure_ascii=False, separators=(",", ":")).encode() + b"\n\n"
    )


class EventStream:
    """``async with EventStream(body, every):`` starts the 200 response and the keep-alives."""

    def __init__(self, body: Body, every: float):
        self.body = body
        self.every = every
        self._lock = anyio.Lock()
        self._last = 0.0
        self._tg: TaskGroup | None = None
        self.comments = 0
        self.broken = False  # the peer went away while we waited: the request is cancelled

    async def __aenter__(self) -> EventStream:
        await self.body.begin_stream()
        self._last = anyio.current_time()
        self._tg = await anyio.create_task_group().__aenter__()
        self._tg.start_soon(self._keepalive)
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> bool | None:
        assert self._tg is not None
        self._tg.cancel_scope.cancel()
        handled = await self._tg.__aexit__(exc_type, exc, tb)
        if self.broken:  # the body was cancelled by the keep-alive that found the peer gone
            raise anyio.BrokenResourceError
        return handled

    async def _keepalive(self) -> None:
        """A comment while the stream is quiet; a peer found gone cancels the whole request (the
        turn stops the model and keeps what it wrote as ``interrupted``)."""
        while True:
            await anyio.sleep(max(0.0, self._last + self.every - anyio.current_time()))
            if anyio.current_time() - self._last >= self.every:
                self.comments += 1
                try:
                    await self._send(KEEPALIVE)
                except (anyio.BrokenResourceError, anyio.ClosedResourceError, OSError):
                    self.broken = True
                    assert self._tg is not None
                    self._tg.cancel_scope.cancel()
                    return

    async def _send(self, data: bytes) -> None:
        async with self._lock:
            await self.body.write(data)
            self._last = anyio.current_time()

    async def send(self, item: dict[str, Any]) -> None:
        await self._send(encode(item))

    async def finish(self) -> None:
        """``data: [DONE]`` and the end of the response."""
        await self._send(DONE)
        async with self._lock:
            await self.body.end()
