"""The one frame codec of the xaid protocol, shared by the daemon and every client.

A frame is a 4-byte big-endian length followed by exactly one CBOR map. Keeping the codec
sans-IO (bytes in, messages out) lets the blocking client, the asyncio client and the daemon
use the same code, so the three can never disagree about what a frame is.
"""

from __future__ import annotations

import struct
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import cbor2

PROTOCOL_VERSION = 1
SUPPORTED_PROTOCOLS: tuple[int, ...] = (1,)
DEFAULT_MAX_FRAME = 1 << 20
HEADER = struct.Struct(">I")


class ErrorCode(StrEnum):
    """Every error a reply can carry; docs/protocol.md describes when each is sent."""

    BAD_CBOR = "bad_cbor"
    FRAME_TOO_LARGE = "frame_too_large"
    BAD_REQUEST = "bad_request"
    UNSUPPORTED_PROTOCOL = "unsupported_protocol"
    UNKNOWN_METHOD = "unknown_method"
    BAD_PARAMS = "bad_params"
    NOT_FOUND = "not_found"
    CONFLICT = "conflict"
    BUSY = "busy"
    CANCELLED = "cancelled"
    FORBIDDEN = "forbidden"
    OVERLOADED = "overloaded"
    MODEL_UNAVAILABLE = "model_unavailable"
    PROVIDER_ERROR = "provider_error"
    STORAGE_ERROR = "storage_error"
    SHUTTING_DOWN = "shutting_down"
    TIMEOUT = "timeout"
    INTERNAL = "internal"


class XaiError(Exception):
    """An error reply from the daemon, or a protocol violation detected locally."""

    def __init__(self, code: str, message: str, data: Mapping[str, Any] | None = None):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.data = dict(data or {})

    def to_wire(self) -> dict[str, Any]:
        err: dict[str, Any] = {"code": str(self.code), "message": self.message}
        if self.data:
            err["data"] = self.data
        return err


class FrameTooLarge(XaiError):
    """The length prefix announced more than the limit; the stream cannot be resynchronised."""

    def __init__(self, length: int, limit: int):
        super().__init__(
            ErrorCode.FRAME_TOO_LARGE,
            f"frame of {length} bytes exceeds the limit of {limit} bytes",
            {"length": length, "limit": limit},
        )


@dataclass(frozen=True, slots=True)
class Request:
    id: int
    method: str
    params: dict[str, Any] = field(default_factory=dict)
    v: int = PROTOCOL_VERSION


@dataclass(frozen=True, slots=True)
class Reply:
    id: int | None
    ok: bool
    result: Any = None
    error: XaiError | None = None


@dataclass(frozen=True, slots=True)
class Event:
    id: int
    event: str
    data: dict[str, Any]


Message = Request | Reply | Event


def safe_repr(value: Any, limit: int = 100) -> str:
    """``repr()`` of a value a peer sent, for a message: bounded, and never raising.

    ``repr()`` refuses integers of more than 4,300 digits (ValueError) and copies a long string
    whole; either would let one frame break or flood the error text that answers it.
    """
    if isinstance(value, int) and value.bit_length() > 128:
        return f"<an integer of about {int(value.bit_length() * 0.30103) + 1} digits>"
    try:
        text = repr(value)
    except Exception:  # a big int nested in a list, say
        return f"<a {type(value).__name__}>"
    return _clip(text, limit)


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def encode_frame(payload: Mapping[str, Any]) -> bytes:
    body = cbor2.dumps(dict(payload))
    return HEADER.pack(len(body)) + body


def encode(message: Message) -> bytes:
    return encode_frame(to_map(message))


def to_map(message: Message) -> dict[str, Any]:
    if isinstance(message, Request):
        return {"v": message.v, "id": message.id, "method": message.method, "params": message.params}
    if isinstance(message, Event):
        return {"id": message.id, "event": message.event, "data": message.data}
    if message.ok:
        return {"id": message.id, "ok": True, "result": message.result}
    assert message.error is not None
    return {"id": message.id, "ok": False, "error": message.error.to_wire()}


class FrameDecoder:
    """Splits a byte stream into frame payloads, refusing an oversized frame before buffering it."""

    def __init__(self, max_frame: int = DEFAULT_MAX_FRAME):
        self.max_frame = max_frame
        self._buf = bytearray()

    def feed(self, data: bytes) -> None:
        self._buf += data

    @property
    def pending(self) -> int:
        """Bytes buffered but not yet a whole frame (non-zero at EOF means a truncated frame)."""
        return len(self._buf)

    def next_payload(self) -> bytes | None:
        if len(self._buf) < HEADER.size:
            return None
        (length,) = HEADER.unpack_from(self._buf)
        if length > self.max_frame:
            raise FrameTooLarge(length, self.max_frame)
        end = HEADER.size + length
        if len(self._buf) < end:
            return None
        payload = bytes(self._buf[HEADER.size : end])
        del self._buf[:end]
        return payload


def decode_payload(payload: bytes) -> dict[Any, Any]:
    """One CBOR item that must be a map; anything else is a distinct, recoverable error.

    A map that repeats a key, at any depth, is not valid CBOR (RFC 8949 §5.6) and is refused
    rather than read as "the last one wins".
    """
    try:
        item = cbor2.loads(payload, max_depth=64, allow_duplicate_keys=False)
    except Exception as exc:  # cbor2 raises several unrelated types for garbage
        raise XaiError(ErrorCode.BAD_CBOR, f"frame is not valid CBOR: {_clip(str(exc), 200)}") from None
    if not isinstance(item, dict):
        raise XaiError(ErrorCode.BAD_REQUEST, f"frame must hold a CBOR map, got {type(item).__name__}")
    return item


def frame_id(item: Mapping[Any, Any]) -> int | None:
    raw = item.get("id")
    return raw if isinstance(raw, int) and not isinstance(raw, bool) else None


def parse_request(item: Mapping[Any, Any]) -> Request:
    """Validate the envelope of a request; the error carries the id when one could be read."""
    rid = frame_id(item)
    if rid is None:
        raise XaiError(ErrorCode.BAD_REQUEST, "request needs an integer 'id'")
    v = item.get("v", PROTOCOL_VERSION)
    if type(v) is not int or v not in SUPPORTED_PROTOCOLS:  # not True, 1.0 or Decimal(1): they equal 1
        raise XaiError(
            ErrorCode.UNSUPPORTED_PROTOCOL,
            f"protocol version {safe_repr(v)} is not supported; supported: {list(SUPPORTED_PROTOCOLS)}",
            {"supported": list(SUPPORTED_PROTOCOLS)},
        )
    method = item.get("method")
    if not isinstance(method, str) or not method:
        raise XaiError(ErrorCode.BAD_REQUEST, "request needs a string 'method'")
    params = item.get("params", {})
    if params is None:
        params = {}
    if not isinstance(params, dict):
        raise XaiError(ErrorCode.BAD_PARAMS, "'params' must be a map")
    return Request(id=rid, method=method, params=params, v=v)


def parse_server_message(item: Mapping[Any, Any]) -> Reply | Event:
    """What a client receives: a reply or a stream event."""
    rid = frame_id(item)
    if "event" in item:
        if rid is None or not isinstance(item["event"], str):
            raise XaiError(ErrorCode.BAD_REQUEST, "malformed event frame")
        data = item.get("data")
        return Event(id=rid, event=item["event"], data=data if isinstance(data, dict) else {})
    if item.get("ok") is True:
        return Reply(id=rid, ok=True, result=item.get("result"))
    err = item.get("error")
    if not isinstance(err, dict):
        raise XaiError(ErrorCode.BAD_REQUEST, "malformed reply frame")
    return Reply(
        id=rid,
        ok=False,
        error=XaiError(str(err.get("code", "internal")), str(err.get("message", "")), err.get("data")),
    )
