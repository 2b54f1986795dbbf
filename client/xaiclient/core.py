"""The transport-free heart of both clients: request ids, frame routing, socket discovery.

The blocking and the asyncio client differ only in how they move bytes; everything about which
frame belongs to which call lives here once.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .wire import (
    DEFAULT_MAX_FRAME,
    Event,
    FrameDecoder,
    FrameTooLarge,
    Reply,
    Request,
    ShuttingDown,
    XaiError,
    decode_payload,
    encode,
    parse_server_message,
)

UNAVAILABLE = "unavailable"


class DaemonUnavailable(XaiError):
    """No daemon answers at the socket, or the connection ended; raised locally, never sent by the daemon.

    The message says only what the client knows: a refused connect means nothing listens there, a
    connection that ends means the daemon closed it, and "shutting down" only when the daemon said so.
    """

    def __init__(
        self,
        path: str,
        reason: str,
        *,
        denied: bool = False,
        lost: bool = False,
        shutting_down: bool = False,
    ):
        if denied:
            message = f"no permission to use the xaid socket at {path} (the xaid group grants it)"
        elif shutting_down:
            message = f"xaid is shutting down (it closed the connection at {path})"
        elif lost:
            message = f"the connection to xaid at {path} ended: {reason}"
        else:
            message = f"xaid is not running (no answer at {path}: {reason})"
        super().__init__(UNAVAILABLE, message)
        self.path = path


def socket_candidates() -> list[Path]:
    """Where a daemon listens, most specific first, mirroring the daemon's own choice."""
    out: list[Path] = []
    if env := os.environ.get("XAID_SOCKET"):
        out.append(Path(env))
    if runtime := os.environ.get("XDG_RUNTIME_DIR"):
        out.append(Path(runtime) / "xaid" / "xaid.sock")
    out.append(Path("/run/xaid/xaid.sock"))
    out.append(Path(f"/tmp/xaid-{os.geteuid()}") / "xaid.sock")
    return out


def default_socket_path() -> Path:
    candidates = socket_candidates()
    for path in candidates:
        if path.exists():
            return path
    return candidates[0]


def clean_params(params: Mapping[str, Any]) -> dict[str, Any]:
    """Drop unset keyword arguments so that the daemon applies its own defaults."""
    return {k: v for k, v in params.items() if v is not None}


class Router:
    """Numbers outgoing requests and files incoming frames under the request they answer."""

    def __init__(self, max_frame: int = DEFAULT_MAX_FRAME):
        self._decoder = FrameDecoder(max_frame)
        self._next_id = 1
        self.inbox: dict[int, deque[Reply | Event]] = {}
        self.orphans: deque[Reply] = deque()
        self.shutting_down = (
            False  # the daemon answered shutting_down: a close that follows is that
        )
        self.max_frame: int | None = (
            None  # the daemon's limit once hello told it; frames above it are not sent
        )

    def check_size(self, frame: bytes) -> None:
        """Refuse locally what the daemon would refuse by closing the connection."""
        body = len(frame) - 4
        if self.max_frame is not None and body > self.max_frame:
            raise FrameTooLarge(
                body,
                self.max_frame,
                f"the request is {body} bytes, over the daemon's frame limit of {self.max_frame} bytes "
                "(server.max_frame_bytes); nothing was sent",
            )

    def lost(self, path: str, reason: str = "closed by the daemon") -> DaemonUnavailable:
        return DaemonUnavailable(path, reason, lost=True, shutting_down=self.shutting_down)

    def learn(self, hello: Any) -> None:
        if isinstance(hello, dict) and isinstance(hello.get("max_frame_bytes"), int):
            self.max_frame = int(hello["max_frame_bytes"])

    def request(self, method: str, params: Mapping[str, Any]) -> tuple[int, bytes]:
        rid = self._next_id
        frame = encode(Request(id=rid, method=method, params=clean_params(params)))
        self.check_size(frame)
        self._next_id += 1
        self.inbox[rid] = deque()
        return rid, frame

    def receive(self, data: bytes) -> set[int]:
        """Feed bytes; return the request ids that have new messages."""
        self._decoder.feed(data)
        touched: set[int] = set()
        while (payload := self._decoder.next_payload()) is not None:
            msg = parse_server_message(decode_payload(payload))
            if isinstance(msg, Reply) and isinstance(msg.error, ShuttingDown):
                self.shutting_down = True
            if msg.id is not None and msg.id in self.inbox:
                self.inbox[msg.id].append(msg)
                touched.add(msg.id)
            elif isinstance(msg, Reply):
                # An error the daemon could not tie to a request (e.g. a refused connection).
                self.orphans.append(msg)
        return touched

    def pop(self, rid: int) -> Reply | Event | None:
        box = self.inbox.get(rid)
        if not box:
            return None
        msg = box.popleft()
        if isinstance(msg, Reply):
            del self.inbox[rid]
        return msg

    def orphan_error(self) -> XaiError | None:
        if self.orphans:
            return self.orphans.popleft().error
        return None


def unwrap(reply: Reply) -> Any:
    if reply.ok:
        return reply.result
    assert reply.error is not None
    raise reply.error
