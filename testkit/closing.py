"""Clients a test opens and forgets to close, closed for it after each test.

The suite runs with warnings as errors, so an HTTP client left open (its socket unclosed) fails the
test that leaked it. Tests that make a client per call (``openai.OpenAI`` over a Unix socket, an
``httpx.Client``) hand it to ``kept``; an autouse fixture calls ``close_all`` after each test.
"""

from __future__ import annotations

from typing import Protocol, TypeVar


class Closable(Protocol):
    def close(self) -> None: ...


C = TypeVar("C", bound=Closable)
_OPEN: list[Closable] = []


def kept(client: C) -> C:
    """``client``, to be closed after the test."""
    _OPEN.append(client)
    return client


def close_all() -> None:
    while _OPEN:
        _OPEN.pop().close()
