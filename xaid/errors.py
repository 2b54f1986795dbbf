"""The errors a request can end in, and the type of the stream a call writes its events to.

A leaf, so that a service can refuse bad input (``agent_config``) or stream a reply (``turns``)
without importing the dispatch layer above it; ``dispatch`` re-exports these for the methods.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from xaiclient.wire import BadParams, NotFound

# One event of a running call (``"text"``, ``"tool_call"``, ``"notice"``) and its fields.
Emit = Callable[[str, dict[str, Any]], Awaitable[None]]


def bad_params(message: str) -> BadParams:
    return BadParams(message)


def not_found(what: str, key: str) -> NotFound:
    return NotFound(f"no {what} {key!r}", {"what": what, "id": key})


__all__ = ["Emit", "bad_params", "not_found"]
