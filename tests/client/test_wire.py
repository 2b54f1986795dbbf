"""The frame codec: round trips, and every way a byte stream can be wrong."""

from __future__ import annotations

import struct

import cbor2
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xaiclient.wire import (
    ErrorCode,
    Event,
    FrameDecoder,
    FrameTooLarge,
    Reply,
    Request,
    XaiError,
    decode_payload,
    encode,
    parse_request,
    parse_server_message,
    safe_repr,
)


def frames(decoder: FrameDecoder) -> list[bytes]:
    out = []
    while (payload := decoder.next_payload()) is not None:
        out.append(payload)
    return out


def test_request_round_trip_through_bytes_split_anywhere() -> None:
    req = Request(
        id=7, method="session.send", params={"text": "明天见 see you", "ts": 1_700_000_000_000}
    )
    data = encode(req) * 3
    for cut in range(len(data)):
        dec = FrameDecoder()
        dec.feed(data[:cut])
        got = frames(dec)
        dec.feed(data[cut:])
        got += frames(dec)
        assert [parse_request(decode_payload(p)) for p in got] == [req, req, req]
        assert dec.pending == 0


def test_reply_and_event_round_trip() -> None:
    ok = Reply(id=3, ok=True, result={"x": [1, 2]})
    err = Reply(id=4, ok=False, error=XaiError(ErrorCode.NOT_FOUND, "no agent 'a'", {"id": "a"}))
    ev = Event(id=5, event="text", data={"delta": "你好"})
    dec = FrameDecoder()
    dec.feed(encode(ok) + encode(err) + encode(ev))
    got = [parse_server_message(decode_payload(p)) for p in frames(dec)]
    assert got[0] == ok
    assert isinstance(got[1], Reply) and got[1].error is not None
    assert (got[1].error.code, got[1].error.message, got[1].error.data) == (
        "not_found",
        "no agent 'a'",
        {"id": "a"},
    )
    assert got[2] == ev


def test_oversized_length_is_refused_before_buffering() -> None:
    dec = FrameDecoder(max_frame=1024)
    dec.feed(struct.pack(">I", 1025))
    with pytest.raises(FrameTooLarge) as info:
        dec.next_payload()
    assert info.value.code == ErrorCode.FRAME_TOO_LARGE
    assert info.value.data == {"length": 1025, "limit": 1024}


@pytest.mark.parametrize(
    ("payload", "code"),
    [
        (b"\xff\xfe\x00garbage", ErrorCode.BAD_CBOR),
        (cbor2.dumps([1, 2, 3]), ErrorCode.BAD_REQUEST),
        (cbor2.dumps("just a string"), ErrorCode.BAD_REQUEST),
        (b"", ErrorCode.BAD_CBOR),
    ],
)
def test_payload_errors_are_distinct(payload: bytes, code: ErrorCode) -> None:
    with pytest.raises(XaiError) as info:
        decode_payload(payload)
    assert info.value.code == code


@pytest.mark.parametrize(
    ("item", "code"),
    [
        ({"method": "ping"}, ErrorCode.BAD_REQUEST),
        ({"id": "7", "method": "ping"}, ErrorCode.BAD_REQUEST),
        ({"id": True, "method": "ping"}, ErrorCode.BAD_REQUEST),
        ({"id": 1}, ErrorCode.BAD_REQUEST),
        ({"id": 1, "method": "ping", "params": [1]}, ErrorCode.BAD_PARAMS),
        ({"id": 1, "v": 99, "method": "ping"}, ErrorCode.UNSUPPORTED_PROTOCOL),
        (
            {"id": 1, "v": 1.0, "method": "ping"},
            ErrorCode.UNSUPPORTED_PROTOCOL,
        ),  # equals 1, but is no int
        ({"id": 1, "v": True, "method": "ping"}, ErrorCode.UNSUPPORTED_PROTOCOL),
        (
            {"id": 1, "v": 10**5000, "method": "ping"},
            ErrorCode.UNSUPPORTED_PROTOCOL,
        ),  # repr() would raise
    ],
)
def test_envelope_errors(item: dict, code: ErrorCode) -> None:
    with pytest.raises(XaiError) as info:
        parse_request(item)
    assert info.value.code == code


def cbor_map(*pairs: tuple[object, object]) -> bytes:
    """A definite-length CBOR map written pair by pair, so it may repeat a key."""
    assert len(pairs) < 24
    return bytes([0xA0 + len(pairs)]) + b"".join(cbor2.dumps(k) + cbor2.dumps(v) for k, v in pairs)


@pytest.mark.parametrize(
    "payload",
    [
        cbor_map(("id", 1), ("method", "ping"), ("id", 2)),
        cbor_map(("id", 1), ("method", "ping"), ("params", {"x": 1}), ("method", "agent.delete")),
        cbor_map(("id", 1), ("method", "ping")).replace(b"\xa2", b"\xa3", 1)
        + b"\x66params"
        + cbor_map(("a", 1), ("a", 2)),  # inside params too
    ],
)
def test_a_map_that_repeats_a_key_is_not_valid_cbor(payload: bytes) -> None:
    with pytest.raises(XaiError) as info:
        decode_payload(payload)
    assert info.value.code == ErrorCode.BAD_CBOR and "uplicate" in info.value.message


def test_bad_cbor_message_is_bounded() -> None:
    key = "k" * 100_000
    with pytest.raises(XaiError) as info:
        decode_payload(cbor_map((key, 1), (key, 2)))
    assert len(info.value.message) < 300


def test_safe_repr_never_raises_and_stays_short() -> None:
    assert safe_repr(7) == "7" and safe_repr("ping") == "'ping'" and safe_repr(1.0) == "1.0"
    assert safe_repr(10**5000) == "<an integer of about 5001 digits>"
    assert safe_repr([10**5000]) == "<a list>"
    assert len(safe_repr("x" * 1_000_000)) == 100
    assert len(safe_repr(b"\x00" * 1000, limit=20)) == 20


cbor_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.text(max_size=20)
    | st.binary(max_size=20)
    | st.floats(allow_nan=False),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=2048))
def test_random_bytes_never_crash_the_decoder(data: bytes) -> None:
    """Whatever arrives, the decoder either yields payloads or raises a protocol error, nothing else."""
    dec = FrameDecoder(max_frame=4096)
    dec.feed(data)
    try:
        for payload in frames(dec):
            try:
                parse_request(decode_payload(payload))
            except XaiError as exc:
                assert exc.code in set(ErrorCode)
    except FrameTooLarge:
        pass


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.text(max_size=10), cbor_values, max_size=6), st.integers(0, 2**32))
def test_any_params_round_trip(params: dict, rid: int) -> None:
    req = Request(id=rid, method="m", params=params)
    dec = FrameDecoder(max_frame=1 << 20)
    dec.feed(encode(req))
    (payload,) = frames(dec)
    assert parse_request(decode_payload(payload)) == req


def test_every_error_code_arrives_as_its_own_exception() -> None:
    """A caller writes ``except NotFound`` instead of comparing strings; ``code``, ``message`` and
    ``data`` are what the daemon sent, and a code this client does not know stays a plain XaiError."""
    import xaiclient
    from xaiclient.wire import ERRORS

    assert set(ERRORS) == {c.value for c in ErrorCode}
    for code in ErrorCode:
        kind = ERRORS[code.value]
        assert getattr(xaiclient, kind.__name__) is kind and issubclass(kind, XaiError)
        reply = parse_server_message(
            {
                "id": 3,
                "ok": False,
                "error": {"code": code.value, "message": "why", "data": {"k": 1}},
            }
        )
        assert isinstance(reply, Reply) and type(reply.error) is kind
        assert reply.error is not None
        assert (reply.error.code, reply.error.message, reply.error.data) == (
            code.value,
            "why",
            {"k": 1},
        )
        assert str(reply.error) == f"{code.value}: why"
        others = [k for c, k in ERRORS.items() if c != code.value]
        assert not isinstance(reply.error, tuple(others))
    unknown = parse_server_message(
        {"id": 3, "ok": False, "error": {"code": "from_v2", "message": "new"}}
    )
    assert (
        isinstance(unknown, Reply)
        and type(unknown.error) is XaiError
        and unknown.error.code == "from_v2"
    )


def test_local_protocol_errors_are_typed_too() -> None:
    from xaiclient.core import Router
    from xaiclient.wire import BadCbor, BadParams, BadRequest, UnsupportedProtocol

    with pytest.raises(BadCbor):
        decode_payload(b"\xff\xff")
    with pytest.raises(BadRequest):
        decode_payload(cbor2.dumps([1, 2]))
    with pytest.raises(UnsupportedProtocol) as v:
        parse_request({"id": 1, "v": 9, "method": "ping"})
    assert v.value.code == "unsupported_protocol" and v.value.data == {"supported": [1]}
    with pytest.raises(BadParams):
        parse_request({"id": 1, "method": "ping", "params": [1]})
    router = Router()
    router.max_frame = 64
    with pytest.raises(FrameTooLarge) as big:
        router.request("ping", {"pad": "x" * 100})
    assert big.value.code == "frame_too_large" and "nothing was sent" in big.value.message
    assert big.value.data["limit"] == 64
