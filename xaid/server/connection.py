"""One client connection: frames in, concurrent calls, replies and events out.

Each request runs in its own task under its own cancel scope, so many calls share a
connection and ``cancel`` can stop one of them. Replies go out through one lock, whole frames
only. When the peer goes away every call still running on its behalf is cancelled: nobody is
left to read the reply, and a generation nobody reads is wasted CPU on a Pi.

A connection holds one of ``server.max_connections`` slots, so a peer that stalls must not keep
it: with nothing in flight, ``server.idle_seconds`` of silence closes it; a frame begun and not
finished within ``server.frame_seconds``, or a frame of ours the peer does not take in that time,
closes it too.

A peer that sends requests and stops reading the replies must not cost unbounded memory (issue 22
item 2: 8 such connections once took 500 MiB). So a reply is encoded under the write lock (the
connection holds one encoded frame at a time, however many replies wait), the methods whose
replies may be large (``dispatch.BULKY``: export, history, lists) run one at a time per connection,
and while the peer leaves a written frame unread the connection reads no more of its requests
(and lets the socket push back on the peer). What a connection holds is counted
(``stats.backpressure``): one frame plus the transport's high-water mark at most.
"""

from __future__ import annotations

import contextlib
import logging
import math
import time
from typing import Any

import anyio
from anyio.abc import TaskGroup
from xaiclient.wire import (
    BadRequest,
    Cancelled,
    ErrorCode,
    FrameDecoder,
    FrameTooLarge,
    Internal,
    Overloaded,
    Request,
    ShuttingDown,
    Timeout,
    UnknownMethod,
    XaiError,
    decode_payload,
    encode_frame,
    frame_id,
    parse_request,
    safe_repr,
)

from .. import cpu
from ..app import App
from ..store.errors import StoreError
from .dispatch import BULKY, METHODS, Call, Params, store_error
from .transport import Stream

log = logging.getLogger(__name__)
# Answered in the reading task itself: they never wait, and a task per ping is most of its cost.
INLINE = frozenset({"ping", "hello"})
# Still answered while draining: a running turn may need its tool result to finish.
ALWAYS_ALLOWED = frozenset({"hello", "ping", "status", "stats", "session.tool_result"})
DECODE_OFF_LOOP = 1 << 16  # payloads larger than this are decoded on a worker thread (xaid.cpu)


class Connection:
    def __init__(self, app: App, stream: Stream, peer_uid: int):
        self.app = app
        self.stream = stream
        self.peer_uid = peer_uid
        self._lock = anyio.Lock()
        self._inflight: dict[int, anyio.CancelScope] = {}
        self._closed = False
        self._tg: TaskGroup | None = None
        self._last = anyio.current_time()  # the last bytes received, or the end of the last request
        self._frame_start: float | None = None  # when the first byte of the unfinished frame came
        self._frames = 0
        self._waiting: anyio.CancelScope | None = None  # around the read, to re-arm the idle clock
        self._bulky = anyio.Lock()  # one BULKY call at a time, from its start to its reply written
        self._drained = anyio.Event()  # set while the peer keeps up with what is written
        self._drained.set()
        self._holding = 0  # bytes of the encoded frame being written

    async def send(
        self, frame: dict[str, Any], *, off_loop: bool = False, release: bool = False
    ) -> bool:
        """Write one frame whole; False when the connection is gone. ``off_loop``: a reply that may be
        large is encoded on a worker thread. ``release``: the frame is the caller's to give up, and is
        emptied once encoded, so a peer that does not read holds its bytes only, not its objects."""
        if self._closed:
            return False
        cfg = self.app.config.server
        try:
            async with self._lock:
                if self._closed:
                    return False
                # Encoded only now, under the lock: replies waiting for it are not bytes yet.
                data = await cpu.run(encode_frame, frame) if off_loop else encode_frame(frame)
                if len(data) > cfg.max_frame_bytes and "result" in frame:
                    # The client would refuse it and lose the connection; say so in a frame it can read.
                    # Built, not raised: the plain error keeps the data this reply has always carried.
                    err = XaiError(
                        ErrorCode.FRAME_TOO_LARGE,
                        f"the reply ({len(data)} bytes) exceeds the frame limit; "
                        "ask for less (e.g. a smaller 'limit')",
                        {"length": len(data)},
                    )
                    data = encode_frame({"id": frame["id"], "ok": False, "error": err.to_wire()})
                if release:
                    frame.clear()
                self._holding = len(data)
                self._account()
                self.stream.write(data)
                self._holding = 0
                del data
                if not self.stream.writable:  # the peer is not reading: read none of its requests
                    self._drained = anyio.Event()
                self._account()
                with anyio.move_on_after(cfg.frame_seconds) as stalled:
                    await self.stream.drain()
                self._drained.set()
                self._account()
        except (anyio.BrokenResourceError, anyio.ClosedResourceError, OSError):
            self._hang_up()
            return False
        if stalled.cancelled_caught:
            log.info(
                "the peer took no frame for %g s: closing its connection",
                self.app.config.server.frame_seconds,
            )
            self.stream.abort()  # what it has not read would never drain
            self._hang_up()
            return False
        return True

    def held_bytes(self) -> int:
        """Reply bytes this connection holds for its peer now: the frame being handed over, and
        what the transport keeps because the peer's socket has not taken it."""
        return 0 if self._closed else self._holding + self.stream.queued

    def _account(self) -> None:
        self.app.stats.backpressure.seen(self.held_bytes())

    async def _until_drained(self) -> None:
        """While the peer leaves a written frame unread, take none of its requests."""
        if self._drained.is_set():
            return
        self.app.stats.backpressure.pauses += 1
        self.stream.pause_reading()
        try:
            await self._drained.wait()
        finally:
            self.stream.resume_reading()

    async def send_error(self, rid: int | None, err: XaiError) -> None:
        await self.send({"id": rid, "ok": False, "error": err.to_wire()})

    def _hang_up(self) -> None:
        self._closed = True
        self._drained.set()
        if self._tg is not None:
            self._tg.cancel_scope.cancel()

    async def serve(self) -> None:
        decoder = FrameDecoder(self.app.config.server.max_frame_bytes)
        self.app.stats.backpressure.holders.add(self)
        try:
            await self._serve(decoder)
        finally:
            self.app.stats.backpressure.holders.discard(self)

    async def _serve(self, decoder: FrameDecoder) -> None:
        async with anyio.create_task_group() as tg:
            self._tg = tg
            while not self._closed:
                await self._until_drained()
                deadline, why = self._deadline(decoder)
                with anyio.CancelScope(deadline=deadline) as self._waiting:
                    try:
                        data = await self.stream.receive()
                    except (
                        anyio.EndOfStream,
                        anyio.BrokenResourceError,
                        anyio.ClosedResourceError,
                        OSError,
                    ):
                        break
                if self._waiting.cancelled_caught:
                    if anyio.current_time() >= deadline:
                        await self._time_out(why)
                        break
                    continue  # woken: the last request ended, and the idle clock starts now
                now = self._last = anyio.current_time()
                frames = self._frames
                decoder.feed(data)
                if not await self._drain_frames(decoder, tg):
                    break
                if not decoder.pending:
                    self._frame_start = None
                elif self._frame_start is None or self._frames != frames:
                    self._frame_start = now  # a new frame began in these bytes
            if decoder.pending and not self._closed:
                log.info(
                    "peer closed mid-frame (%d bytes of a truncated frame dropped)", decoder.pending
                )
                self.app.stats.protocol_errors += 1
            self._hang_up()

    def _deadline(self, decoder: FrameDecoder) -> tuple[float, str]:
        """When the wait for bytes ends the connection, and why ("frame" or "idle")."""
        cfg = self.app.config.server
        if decoder.pending and self._frame_start is not None:
            return self._frame_start + cfg.frame_seconds, "frame"
        if not self._inflight and cfg.idle_seconds > 0:
            return self._last + cfg.idle_seconds, "idle"
        return math.inf, ""

    async def _time_out(self, why: str) -> None:
        cfg = self.app.config.server
        if why == "frame":
            self.app.stats.protocol_errors += 1
            log.info(
                "a frame stayed unfinished for %g s: closing its connection", cfg.frame_seconds
            )
            text = f"a frame was begun but not finished within {cfg.frame_seconds:g} s; closing the connection"
        else:
            log.debug("closing a connection idle for %g s", cfg.idle_seconds)
            text = f"no request for {cfg.idle_seconds:g} s; closing the idle connection"
        await self.send_error(None, Timeout(text))
        self._hang_up()

    async def _drain_frames(self, decoder: FrameDecoder, tg: TaskGroup) -> bool:
        """Handle every whole frame buffered; False when the connection must close."""
        while True:
            await self._until_drained()
            if self._closed:
                return False
            try:
                payload = decoder.next_payload()
            except FrameTooLarge as exc:
                # The stream cannot be resynchronised without reading the oversized body: close.
                self.app.stats.protocol_errors += 1
                await self.send_error(None, exc)
                return False
            if payload is None:
                return True
            self._frames += 1
            item: Any = None
            try:
                if len(payload) > DECODE_OFF_LOOP:  # an import's megabyte: off the event loop
                    item = await cpu.run(decode_payload, payload)
                else:
                    item = decode_payload(payload)
                request = parse_request(item)
            except XaiError as exc:
                self.app.stats.protocol_errors += 1
                rid = frame_id(item) if isinstance(item, dict) else None
                await self.send_error(rid, exc)
                continue
            try:
                await self._start(request, tg)
            except (
                Exception
            ) as exc:  # a value no check foresaw: this request fails, not the connection
                log.exception("request %s could not be started", safe_repr(request.method))
                await self.send_error(request.id, _internal(exc))

    async def _start(self, req: Request, tg: TaskGroup) -> None:
        if req.method == "cancel":
            await self._cancel(req)
            return
        error: XaiError | None = None
        if req.id in self._inflight:
            error = BadRequest(f"request id {safe_repr(req.id)} is already in flight")
        elif req.method not in METHODS:
            error = UnknownMethod(
                f"unknown method {safe_repr(req.method)}",
                {"method": req.method[:200]},
            )
        elif len(self._inflight) >= self.app.config.server.max_inflight:
            limit = self.app.config.server.max_inflight
            error = Overloaded(f"more than {limit} requests in flight on this connection")
        elif self.app.shutting_down and req.method not in ALWAYS_ALLOWED:
            error = ShuttingDown("xaid is shutting down; retry after it restarts")
        if error is not None:
            await self.send_error(req.id, error)
            return
        scope = anyio.CancelScope()
        self._inflight[req.id] = scope
        if req.method in INLINE:
            await self._run(req, scope)
        else:
            tg.start_soon(self._run, req, scope)

    async def _cancel(self, req: Request) -> None:
        target = frame_id(req.params)
        scope = self._inflight.get(target) if target is not None else None
        if scope is not None:
            scope.cancel()
        await self.send({"id": req.id, "ok": True, "result": {"cancelled": scope is not None}})

    async def _run(self, req: Request, scope: anyio.CancelScope) -> None:
        async def emit(event: str, data: dict[str, Any]) -> None:
            await self.send({"id": req.id, "event": event, "data": data})

        call = Call(self.app, req.id, req.method, Params(req.params), emit, self.peer_uid)
        start = time.perf_counter()
        ok = False
        self.app.calls_in_flight += 1
        bulky = req.method in BULKY
        try:
            with scope:
                try:
                    async with self._bulky if bulky else _NO_LOCK:
                        reply = {
                            "id": req.id,
                            "ok": True,
                            "result": await METHODS[req.method](call),
                        }
                        ok = await self.send(reply, off_loop=bulky, release=True)
                except XaiError as exc:
                    await self.send_error(req.id, exc)
                except StoreError as exc:
                    await self.send_error(req.id, store_error(exc))
                except (
                    Exception
                ) as exc:  # a bug, or a result that cannot be encoded: this request only
                    log.exception("method %s failed", req.method)
                    await self.send_error(req.id, _internal(exc))
            if scope.cancelled_caught and not self._closed:
                await self.send_error(req.id, Cancelled("the request was cancelled"))
        finally:
            self.app.calls_in_flight -= 1
            del self._inflight[req.id]
            if not self._inflight:
                self._last = anyio.current_time()
                if self._waiting is not None:
                    self._waiting.cancel()  # the reader waits with no deadline: re-arm the idle clock
            self.app.stats.record(req.method, (time.perf_counter() - start) * 1000, ok)


_NO_LOCK = contextlib.nullcontext()


def _internal(exc: Exception) -> XaiError:
    return Internal(f"internal error: {type(exc).__name__}")
