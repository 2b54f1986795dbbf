"""docs/protocol.md against the code: every error code and method documented, every example well-formed.

Conventions the doc follows (and this test relies on):
- each method, ``cancel`` included, and each error code has a heading ``### `name` ``;
- examples sit in fenced blocks with the info string ``cbor-diag``; in them a line starting with
  ``C: `` begins a frame sent by the client and ``S: `` one sent by the daemon, and indented lines
  continue the frame. The items use only the JSON-compatible subset of CBOR diagnostic notation
  (maps, arrays, text strings, numbers, true, false, null), so ``json`` parses them.

The method registry is read in a fresh interpreter: under pytest, ``tests/xaid/`` (a directory
without ``__init__.py`` on sys.path) can shadow the ``xaid`` package and break an in-process
``import xaid.server.methods``.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from xaiclient.wire import (
    ErrorCode,
    FrameDecoder,
    Reply,
    decode_payload,
    encode_frame,
    parse_request,
    parse_server_message,
)

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "protocol.md"
TEXT = DOC.read_text(encoding="utf-8")
HEADING = re.compile(r"^### `([^`]+)`[ \t]*$", re.M)
BLOCK = re.compile(r"^```cbor-diag[ \t]*\n(.*?)^```[ \t]*$", re.M | re.S)
CODES = {code.value for code in ErrorCode}


def registered_methods() -> set[str]:
    """``xaid.server.dispatch.METHODS`` after ``import xaid.server.methods``, plus ``cancel``."""
    code = (
        "import json, xaid.server.methods; from xaid.server.dispatch import METHODS; "
        "print(json.dumps(sorted(METHODS)))"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    return {*json.loads(proc.stdout), "cancel"}


@pytest.fixture(scope="module")
def all_methods() -> set[str]:
    return registered_methods()


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [k for k, _ in pairs]
    assert len(keys) == len(set(keys)), f"duplicate map key in {keys}"
    return dict(pairs)


def parse_diag(text: str) -> Any:
    """The diagnostic-notation subset the doc uses is JSON-compatible; reject duplicate keys."""
    return json.loads(text, object_pairs_hook=_no_duplicate_keys)


def frames_of(block: str) -> list[tuple[str, str]]:
    """(direction, diagnostic text) of every frame in one cbor-diag block."""
    frames: list[tuple[str, list[str]]] = []
    for line in block.splitlines():
        if line.startswith(("C: ", "S: ")):
            frames.append((line[0], [line[3:]]))
        elif line.strip():
            assert frames and line[0].isspace(), f"line outside a C:/S: frame: {line!r}"
            frames[-1][1].append(line)
    assert frames, "an empty cbor-diag block"
    return [(direction, "\n".join(lines)) for direction, lines in frames]


def all_frames() -> list[tuple[str, str]]:
    return [frame for block in BLOCK.findall(TEXT) for frame in frames_of(block)]


FRAMES = all_frames()
REQUESTS = [parse_diag(text) for direction, text in FRAMES if direction == "C"]


def test_doc_has_examples(all_methods: set[str]) -> None:
    assert len(BLOCK.findall(TEXT)) >= 20
    assert len(REQUESTS) >= len(all_methods)


def test_every_error_code_is_documented() -> None:
    headings = set(HEADING.findall(TEXT))
    missing = sorted(CODES - headings)
    assert not missing, f"error codes without a '### `code`' section in docs/protocol.md: {missing}"
    for code in CODES:
        assert f'"code": "{code}"' in TEXT, f"no example error reply for {code}"


def test_every_client_exception_is_named() -> None:
    from xaiclient.wire import ERRORS

    section = TEXT[TEXT.index("## 11. Errors") :]
    assert [kind.__name__ for kind in ERRORS.values() if f"`{kind.__name__}`" not in section] == []


def test_every_method_has_a_section(all_methods: set[str]) -> None:
    headings = set(HEADING.findall(TEXT))
    missing = sorted(all_methods - headings)
    assert not missing, f"methods without a '### `name`' section in docs/protocol.md: {missing}"
    stale = sorted(headings - all_methods - CODES)
    assert not stale, f"sections for names that are neither a method nor an error code: {stale}"


def test_every_method_has_an_example_request(all_methods: set[str]) -> None:
    shown = {req["method"] for req in REQUESTS}
    missing = sorted(all_methods - shown)
    assert not missing, f"methods without an example request: {missing}"


def test_hello_example_lists_the_registered_methods(all_methods: set[str]) -> None:
    (hello,) = [
        parse_diag(text)
        for direction, text in FRAMES
        if direction == "S" and '"server": "xaid"' in text
    ]
    assert hello["result"]["methods"] == sorted(all_methods)


@pytest.mark.parametrize(
    "direction,text", FRAMES, ids=[f"{d}{i}" for i, (d, _) in enumerate(FRAMES)]
)
def test_example_round_trips_through_the_codec(direction: str, text: str) -> None:
    item = parse_diag(text)
    assert isinstance(item, dict)
    decoder = FrameDecoder()
    decoder.feed(encode_frame(item))
    payload = decoder.next_payload()
    assert payload is not None
    assert decoder.pending == 0
    assert decode_payload(payload) == item


@pytest.mark.parametrize(
    "direction,text", FRAMES, ids=[f"{d}{i}" for i, (d, _) in enumerate(FRAMES)]
)
def test_example_is_a_valid_envelope(direction: str, text: str, all_methods: set[str]) -> None:
    item = parse_diag(text)
    if direction == "C":
        request = parse_request(item)
        assert item.get("v") == 1
        assert isinstance(item.get("params"), dict)
        assert request.method in all_methods, f"example calls an unknown method {request.method!r}"
        return
    message = parse_server_message(item)
    if isinstance(message, Reply) and not message.ok:
        assert message.error is not None
        assert message.error.code in CODES, (
            f"example error uses an unknown code {message.error.code!r}"
        )
        assert set(item["error"]) <= {"code", "message", "data"}
    elif isinstance(message, Reply):
        assert set(item) == {"id", "ok", "result"}
    else:
        assert set(item) == {"id", "event", "data"}
        assert message.event in {"text", "tool_call", "notice"}
