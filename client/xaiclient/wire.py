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
from typing import Any, ClassVar

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
    MODEL_CRASHED = "model_crashed"
    PROVIDER_ERROR = "provider_error"
    STORAGE_ERROR = "storage_error"
    SHUTTING_DOWN = "shutting_down"
    TIMEOUT = "timeout"
    INTERNAL = "internal"


class XaiError(Exception):
    """An error reply from the daemon, or a protocol violation detected locally.

    A reply with a code of ``ErrorCode`` arrives as that code's subclass (``NotFound``,
    ``Conflict``, ...), so a caller can ``except NotFound``; ``code`` is there either way, and a
    code this client does not know yet stays a plain XaiError.
    """

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


class _Coded(XaiError):
    """An error of one code: raised with its message (and data) alone."""

    CODE: ClassVar[ErrorCode]

    def __init__(self, message: str, data: Mapping[str, Any] | None = None):
        super().__init__(self.CODE, message, data)


class BadCbor(_Coded):
    CODE = ErrorCode.BAD_CBOR


class FrameTooLarge(_Coded):
    """The length prefix announced more than the limit; the stream cannot be resynchronised.
    The client raises it too, for a request it refuses to send."""

    CODE = ErrorCode.FRAME_TOO_LARGE

    def __init__(self, length: int, limit: int, message: str | None = None):
        super().__init__(
            message or f"frame of {length} bytes exceeds the limit of {limit} bytes",
            {"length": length, "limit": limit},
        )


class BadRequest(_Coded):
    CODE = ErrorCode.BAD_REQUEST


class UnsupportedProtocol(_Coded):
    CODE = ErrorCode.UNSUPPORTED_PROTOCOL


class UnknownMethod(_Coded):
    CODE = ErrorCode.UNKNOWN_METHOD


class BadParams(_Coded):
    CODE = ErrorCode.BAD_PARAMS


class NotFound(_Coded):
    CODE = ErrorCode.NOT_FOUND


class Conflict(_Coded):
    CODE = ErrorCode.CONFLICT


class Busy(_Coded):
    CODE = ErrorCode.BUSY


class Cancelled(_Coded):
    CODE = ErrorCode.CANCELLED


class Forbidden(_Coded):
    CODE = ErrorCode.FORBIDDEN


class Overloaded(_Coded):
    CODE = ErrorCode.OVERLOADED


class ModelUnavailable(_Coded):
    CODE = ErrorCode.MODEL_UNAVAILABLE


class ModelCrashed(_Coded):
    """The model's process died while it wrote this reply; the daemon restarts it, a retry may work."""

    CODE = ErrorCode.MODEL_CRASHED


class ProviderError(_Coded):
    CODE = ErrorCode.PROVIDER_ERROR


class StorageError(_Coded):
    CODE = ErrorCode.STORAGE_ERROR


class ShuttingDown(_Coded):
    CODE = ErrorCode.SHUTTING_DOWN


class Timeout(_Coded):
    CODE = ErrorCode.TIMEOUT


class Internal(_Coded):
    CODE = ErrorCode.INTERNAL


ERRORS: dict[str, type[XaiError]] = {cls.CODE.value: cls for cls in _Coded.__subclasses__()}


def error(code: str, message: str, data: Mapping[str, Any] | None = None) -> XaiError:
    """The error a reply carries, as the subclass of its code (a plain XaiError for a code not in ErrorCode)."""
    kind = ERRORS.get(code)
    if kind is None:
        return XaiError(code, message, data)
    err = kind.__new__(kind)
    XaiError.__init__(err, code, message, data)  # whatever the subclass's own constructor takes
    return err


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
        return {
            "v": message.v,
            "id": message.id,
            "method": message.method,
            "params": message.params,
        }
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
        raise BadCbor(f"frame is not valid CBOR: {_clip(str(exc), 200)}") from None
    if not isinstance(item, dict):
        raise BadRequest(f"frame must hold a CBOR map, got {type(item).__name__}")
    return item


def frame_id(item: Mapping[Any, Any]) -> int | None:
    raw = item.get("id")
    return raw if isinstance(raw, int) and not isinstance(raw, bool) else None


def parse_request(item: Mapping[Any, Any]) -> Request:
    """Validate the envelope of a request; the error carries the id when one could be read."""
    rid = frame_id(item)
    if rid is None:
        raise BadRequest("request needs an integer 'id'")
    v = item.get("v", PROTOCOL_VERSION)
    if (
        type(v) is not int or v not in SUPPORTED_PROTOCOLS
    ):  # not True, 1.0 or Decimal(1): they equal 1
        raise UnsupportedProtocol(
            f"protocol version {safe_repr(v)} is not supported; supported: {list(SUPPORTED_PROTOCOLS)}",
            {"supported": list(SUPPORTED_PROTOCOLS)},
        )
    method = item.get("method")
    if not isinstance(method, str) or not method:
        raise BadRequest("request needs a string 'method'")
    params = item.get("params", {})
    if params is None:
        params = {}
    if not isinstance(params, dict):
        raise BadParams("'params' must be a map")
    return Request(id=rid, method=method, params=params, v=v)


def parse_server_message(item: Mapping[Any, Any]) -> Reply | Event:
    """What a client receives: a reply or a stream event."""
    rid = frame_id(item)
    if "event" in item:
        if rid is None or not isinstance(item["event"], str):
            raise BadRequest("malformed event frame")
        data = item.get("data")
        return Event(id=rid, event=item["event"], data=data if isinstance(data, dict) else {})
    if item.get("ok") is True:
        return Reply(id=rid, ok=True, result=item.get("result"))
    err = item.get("error")
    if not isinstance(err, dict):
        raise BadRequest("malformed reply frame")
    return Reply(
        id=rid,
        ok=False,
        error=error(str(err.get("code", "internal")), str(err.get("message", "")), err.get("data")),
    )
