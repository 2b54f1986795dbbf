"""Pages of a list method: ``limit`` and an opaque ``cursor`` in, ``next_cursor`` out.

A list that grows without bound (sessions, agents, scheduler items) must never make a reply too
large to send. Pages are read by key (after the last key of the previous page, so a row added or
deleted meanwhile neither repeats nor skips one) and end early when the page would pass half the
frame limit: ``limit`` is the most a page holds, not a promise that it is full.
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import cbor2

from .dispatch import MAX_INT, Params, bad_params

T = TypeVar("T")
MAX_LIMIT = 1_000
Key = tuple[int, str]


@dataclass(frozen=True, slots=True)
class Request:
    limit: int
    after: Key | None


@dataclass(frozen=True, slots=True)
class Page:
    items: list[dict[str, Any]]
    next_cursor: str | None


def encode(key: Key) -> str:
    return base64.urlsafe_b64encode(f"{key[0]}\n{key[1]}".encode()).decode().rstrip("=")


def decode(raw: str) -> Key:
    try:
        number, _, text = (
            base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4)).decode().partition("\n")
        )
        value = int(number)
    except (ValueError, UnicodeDecodeError):
        raise bad_params(
            "param 'cursor' is not one this daemon gave out (pass the 'next_cursor' of a page)"
        ) from None
    if abs(value) > MAX_INT:
        raise bad_params(
            "param 'cursor' is not one this daemon gave out (pass the 'next_cursor' of a page)"
        )
    return value, text


def request(p: Params, default_limit: int = 100) -> Request:
    limit = p.int("limit", default_limit, min=1, max=MAX_LIMIT)
    cursor = p.str("cursor", None, max_len=1_000)
    return Request(limit, decode(cursor) if cursor is not None else None)


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
            return Page(out, encode(key(rows[n - 1])))
        out.append(record)
        used += size
    more = len(rows) > req.limit
    return Page(out, encode(key(rows[req.limit - 1])) if more else None)
