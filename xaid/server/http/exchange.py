"""One HTTP connection: h11 reads requests off the daemon's ``Stream``, a route answers each.

h11 owns the protocol (request line, headers, chunked or sized bodies, keep-alive, what a
malformed request is); this module owns the I/O and its limits: a request must arrive within
``server.frame_seconds`` once begun, a body is at most ``http.max_body_bytes``, an idle keep-alive
connection is closed after ``server.idle_seconds``. A malformed request gets 400 (h11's
``error_status_hint``) and the connection closes; the daemon and its other connections go on.
"""

from __future__ import annotations

import json
import logging
import math
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

import anyio
import h11
from xaiclient.wire import XaiError

from ...app import App
from ...store.errors import StoreError
from ..dispatch import store_error
from ..listen import allowed, peer_credentials, peer_groups
from ..transport import Stream
from . import guard
from .listener import Listener
from .openai import HttpError
from .sse import encode

log = logging.getLogger(__name__)
SERVER = b"xaid"
_GONE = (anyio.EndOfStream, anyio.BrokenResourceError, anyio.ClosedResourceError, OSError)


@dataclass(frozen=True, slots=True)
class Peer:
    """Who is at the other end, as the connection says: a uid (Unix socket) or the token (TCP)."""

    identity: str  # "uid:1000" or "token": the key of per-peer state (a current session)
    uid: int  # -1 over TCP

    @property
    def by_token(self) -> bool:
        """Over TCP: the token, not the socket, says who it is."""
        return self.uid < 0


@dataclass(frozen=True, slots=True)
class HttpRequest:
    method: str
    path: str
    query: str
    headers: dict[str, str]  # lower-case names; repeated headers joined with ", "
    body: bytes
    peer: Peer


class TooLarge(Exception):
    pass


class Body:
    """The response to one request: a whole JSON answer, or a stream (``sse.EventStream``)."""

    def __init__(self, conn: h11.Connection, stream: Stream, headers: list[tuple[bytes, bytes]]):
        self.conn = conn
        self.stream = stream
        self.headers = headers  # CORS, when the Origin is allowed
        self.started = False
        self.status = 0
        # What ``stats`` counts the request under, named by the route that took it: a path nobody
        # serves is "other", so a peer cannot grow the table with made-up paths.
        self.route = "other"

    async def _send(self, event: Any) -> None:
        data = self.conn.send(event)
        if data:
            await self.stream.send(data)

    async def json(self, status: int, body: Any, headers: tuple[tuple[str, str], ...] = ()) -> None:
        data = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
        await self.whole(status, data, b"application/json", headers)

    async def whole(
        self,
        status: int,
        data: bytes,
        content_type: bytes,
        headers: tuple[tuple[str, str], ...] = (),
    ) -> None:
        self.started, self.status = True, status
        head = [
            (b"content-type", content_type),
            (b"content-length", str(len(data)).encode()),
            *self.headers,
            *((k.encode(), v.encode()) for k, v in headers),
        ]
        await self._send(h11.Response(status_code=status, headers=head, reason=_reason(status)))
        await self._send(h11.Data(data=data))
        await self._send(h11.EndOfMessage())

    async def begin_stream(self) -> None:
        self.started, self.status = True, 200
        head = [
            (b"content-type", b"text/event-stream; charset=utf-8"),
            (b"cache-control", b"no-cache"),
            (b"x-accel-buffering", b"no"),  # nginx in front: pass each event on at once
            *self.headers,
        ]
        await self._send(h11.Response(status_code=200, headers=head, reason=b"OK"))

    async def write(self, data: bytes) -> None:
        await self._send(h11.Data(data=data))

    async def end(self) -> None:
        await self._send(h11.EndOfMessage())


def _reason(status: int) -> bytes:
    try:
        return HTTPStatus(status).phrase.encode()
    except ValueError:  # 499, say: no phrase of its own
        return b""


Route = Callable[[App, HttpRequest, Body], Awaitable[None]]


def _headers(raw: Iterable[tuple[bytes, bytes]]) -> dict[str, str]:
    out: dict[str, str] = {}
    for name, value in raw:
        key, text = name.decode("latin-1").lower(), value.decode("latin-1")
        out[key] = f"{out[key]}, {text}" if key in out else text
    return out


class Exchange:
    def __init__(
        self,
        app: App,
        stream: Stream,
        listener: Listener,
        peer: Peer,
        token: str,
        route: Route,
        refusal: HttpError | None = None,
    ):
        self.refusal = refusal  # the peer may not come in: each request gets this, then close
        self.app = app
        self.stream = stream
        self.listener = listener
        self.peer = peer
        self.token = token
        self.route = route
        self.conn = h11.Connection(h11.SERVER, max_incomplete_event_size=64 * 1024)

    async def _next_event(self, deadline: float) -> Any:
        while True:
            event = self.conn.next_event()
            if event is not h11.NEED_DATA:
                return event
            with anyio.fail_after(max(0.0, deadline - anyio.current_time())):
                try:
                    data = await self.stream.receive()
                except anyio.EndOfStream:
                    data = b""
            self.conn.receive_data(data)

    async def _read(self) -> HttpRequest | None:
        """The next whole request, or None when the peer closed or went quiet between requests."""
        server = self.app.config.server
        idle = server.idle_seconds if server.idle_seconds > 0 else math.inf
        try:
            event = await self._next_event(anyio.current_time() + idle)
        except TimeoutError:
            return None
        if isinstance(event, h11.ConnectionClosed):
            return None
        assert isinstance(event, h11.Request)
        deadline = anyio.current_time() + server.frame_seconds
        limit = self.app.config.http.max_body_bytes
        declared = dict(event.headers).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            raise TooLarge
        body = bytearray()
        while True:
            part = await self._next_event(deadline)
            if isinstance(part, h11.Data):
                body += part.data
                if len(body) > limit:
                    raise TooLarge
            elif isinstance(part, h11.EndOfMessage):
                break
            else:  # ConnectionClosed in the middle of a body
                return None
        target = event.target.decode("latin-1")
        path, _, query = target.partition("?")
        return HttpRequest(
            event.method.decode("latin-1"),
            path,
            query,
            _headers(event.headers),
            bytes(body),
            self.peer,
        )

    async def serve(self) -> None:
        while True:
            try:
                request = await self._read()
            except h11.RemoteProtocolError as exc:
                self.app.stats.protocol_errors += 1
                await self._refuse(
                    HttpError(
                        exc.error_status_hint, f"malformed HTTP request: {exc}", "bad_request"
                    )
                )
                return
            except TooLarge:
                limit = self.app.config.http.max_body_bytes
                await self._refuse(
                    HttpError(
                        413, f"the body exceeds http.max_body_bytes ({limit})", "body_too_large"
                    )
                )
                return
            except TimeoutError:
                self.app.stats.protocol_errors += 1
                await self._refuse(
                    HttpError(
                        408, "the request did not arrive in time (server.frame_seconds)", "timeout"
                    )
                )
                return
            if request is None:
                return
            await self._answer(request)
            if self.refusal is not None:
                return
            if self.conn.our_state is h11.DONE and self.conn.their_state is h11.DONE:
                self.conn.start_next_cycle()
            else:
                return

    def _cors(self, headers: dict[str, str]) -> list[tuple[bytes, bytes]]:
        origin = headers.get("origin")
        if origin is None or origin not in self.app.config.http.origins:
            return []
        return [
            (b"access-control-allow-origin", origin.encode("latin-1")),
            (b"vary", b"Origin"),
        ]

    async def _answer(self, request: HttpRequest) -> None:
        out = Body(self.conn, self.stream, self._cors(request.headers))
        start = time.perf_counter()
        refusal = guard.check(
            self.app.config.http, self.listener.endpoint, request.headers, self.token, request.path
        )
        self.app.calls_in_flight += 1
        try:
            if self.refusal is not None:
                raise self.refusal
            if refusal is not None:
                log.info("refused an HTTP request: %s", refusal.message)
                raise HttpError(refusal.status, refusal.message, refusal.code)
            await self.route(self.app, request, out)
        except HttpError as exc:
            await self._fail(out, exc)
        except XaiError as exc:
            await self._fail(out, HttpError.of(exc))
        except StoreError as exc:
            await self._fail(out, HttpError.of(store_error(exc)))
        except _GONE:
            log.debug("the HTTP peer went away during %s %s", request.method, request.path)
        except Exception:
            log.exception("HTTP %s %s failed", request.method, request.path)
            await self._fail(out, HttpError(500, "internal error", "internal"))
        finally:
            self.app.calls_in_flight -= 1
            ms = (time.perf_counter() - start) * 1000
            self.app.stats.record(f"http {out.route}", ms, 200 <= out.status < 300)

    async def _fail(self, out: Body, exc: HttpError) -> None:
        if out.started:  # a stream already under way: OpenAI's clients read an error event
            if self.conn.our_state is h11.SEND_BODY:
                await out.write(encode(exc.body()))
                await out.end()
            return
        await out.json(
            exc.status, exc.body(), (("connection", "close"),) if exc.status >= 500 else ()
        )

    async def _refuse(self, exc: HttpError) -> None:
        """Answer a request that could not be read, then let the connection close."""
        if self.conn.our_state not in (h11.IDLE, h11.SEND_RESPONSE):
            return
        out = Body(self.conn, self.stream, [])
        try:
            await out.json(exc.status, exc.body(), (("connection", "close"),))
        except (*_GONE, h11.LocalProtocolError):
            pass


async def admit(app: App, stream: Stream, listener: Listener, token: str, route: Route) -> None:
    """One accepted connection: who it is (peer credentials on a Unix socket, the token on TCP),
    whether there is room, then its requests until it closes."""
    refusal = None
    try:
        app.stats.connections_total += 1
        if listener.endpoint.kind == "unix":
            _pid, uid, gid = peer_credentials(stream.socket)
            peer = Peer(f"uid:{uid}", uid)
            if not allowed(app.config, uid, {gid} | peer_groups(stream.socket)):
                log.warning(
                    "refused an HTTP connection from uid %d gid %d (not in the allow-list)",
                    uid,
                    gid,
                )
                refusal = HttpError(403, f"uid {uid} may not use this daemon", "forbidden")
        else:
            peer = Peer("token", -1)
        if refusal is None and app.connections >= app.config.server.max_connections:
            refusal = HttpError(503, "too many connections; try again shortly", "overloaded")
        if refusal is not None:
            app.stats.connections_refused += 1
            with anyio.move_on_after(app.config.server.frame_seconds):
                await Exchange(app, stream, listener, peer, token, route, refusal).serve()
            return
        app.connections += 1
        try:
            await Exchange(app, stream, listener, peer, token, route).serve()
        finally:
            app.connections -= 1
    except Exception:  # whatever a peer provoked ends its own connection, never the daemon
        log.exception("an HTTP connection failed; closed it")
    finally:
        await stream.aclose()
