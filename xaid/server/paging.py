"""Pages of a list method: ``limit`` and an opaque ``cursor`` in, ``next_cursor`` out.

A list that grows without bound (sessions, agents, scheduler items) must never make a reply too
large to send. Pages are read by key (after the last key of the previous page, so a row added or
deleted meanwhile neither repeats nor skips one) and end early when the page would pass half the
frame limit: ``limit`` is the most a page holds, not a promise that it is full.

A cursor is the key and a tag: an HMAC over the key and the list it belongs to (the method and,
for a per-agent list, the agent), under a key drawn when the daemon starts. So a hand-made cursor
(``base64("5\\nzzzz")``, a negative number), one from another agent's list and one from an earlier
run of the daemon are all ``bad_params``, as docs/protocol.md section 7.3 promises, and never read
from a position nobody was given.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import cbor2

from .dispatch import MAX_INT, Params, bad_params

T = TypeVar("T")
MAX_LIMIT = 1_000
Key = tuple[int, str]
TAG_BYTES = 12  # 96 bits: guessing one is hopeless, and the cursor stays short
_SECRET = secrets.token_bytes(32)  # per daemon process: a cursor is good for the run that gave it
NOT_OURS = "param 'cursor' is not one this daemon gave out (pass the 'next_cursor' of a page)"


@dataclass(frozen=True, slots=True)
class Request:
    limit: int
    after: Key | None
    scope: str


@dataclass(frozen=True, slots=True)
class Page:
    items: list[dict[str, Any]]
    next_cursor: str | None


def _tag(scope: str, body: bytes) -> bytes:
    message = scope.encode("utf-8", "surrogatepass") + b"\0" + body
    return hmac.new(_SECRET, message, hashlib.sha256).digest()[:TAG_BYTES]


def encode(key: Key, scope: str) -> str:
    body = f"{key[0]}\n{key[1]}".encode("utf-8", "surrogatepass")
    return base64.urlsafe_b64encode(_tag(scope, body) + body).decode().rstrip("=")


def decode(raw: str, scope: str) -> Key:
    """The key in a cursor this daemon gave out for ``scope``; anything else is ``bad_params``."""
    try:
        blob = base64.b64decode(raw + "=" * (-len(raw) % 4), altchars=b"-_", validate=True)
    except ValueError:
        raise bad_params(NOT_OURS) from None
    if base64.urlsafe_b64encode(blob).decode().rstrip("=") != raw:  # spare bits set: not ours
        raise bad_params(NOT_OURS)
    tag, body = blob[:TAG_BYTES], blob[TAG_BYTES:]
    if len(tag) < TAG_BYTES or not hmac.compare_digest(tag, _tag(scope, body)):
        raise bad_params(NOT_OURS)
    number, _, text = body.decode("utf-8", "surrogatepass").partition("\n")
    value = int(number)  # we wrote it: a tag that matches is a key we encoded
    if not 0 <= value <= MAX_INT:
        raise bad_params(NOT_OURS)
    return value, text


def request(p: Params, scope: str, default_limit: int = 100) -> Request:
    """``scope`` names the list: the method, and the agent when the list is one agent's."""
    limit = p.int("limit", default_limit, min=1, max=MAX_LIMIT)
    cursor = p.str("cursor", None, max_len=1_000)
    return Request(limit, decode(cursor, scope) if cursor is not None else None, scope)


def fill(
    rows: Sequence[T],
    req: Request,
    key: Callable[[T], Key],
    wire: Callable[[T], dict[str, Any]],
    budget: int,
) -> Page:
    """``rows`` are up to ``req.limit + 1`` rows after the cursor, in key order."""
    out: list[dict[str, Any]] = []
    used = 0
    for n, row in enumerate(rows[: req.limit]):
        record = wire(row)
        size = len(cbor2.dumps(record))
        if out and used + size > budget:
            return Page(out, encode(key(rows[n - 1]), req.scope))
        out.append(record)
        used += size
    more = len(rows) > req.limit
    return Page(out, encode(key(rows[req.limit - 1]), req.scope) if more else None)
