"""How a method is declared, how its params are checked, and what a running call can do.

Each namespace module registers its handlers with ``@method("name")``. Handlers receive a
``Call``: typed access to params (a wrong type is a ``bad_params`` error naming the key), the
daemon's ``App`` (the methods reach the services through it), and ``emit`` for stream events.
``bad_params``, ``not_found`` and ``Emit`` live in the leaf xaid.errors, so the services below can
use them; they are re-exported here for the methods.
"""

from __future__ import annotations

import builtins
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from xaiclient.wire import Conflict, StorageError, XaiError, safe_repr

from .. import clock
from ..errors import Emit, bad_params, not_found
from ..store import errors as store_errors

if TYPE_CHECKING:
    from ..app import App

T = TypeVar("T")
Handler = Callable[["Call"], Awaitable[Any]]
METHODS: dict[str, Handler] = {}
# Methods whose reply may be large (up to a frame): a connection runs one at a time and encodes its
# reply off the event loop, so a peer that stops reading holds one such reply, not max_inflight.
BULKY: set[str] = set()
_MISSING = object()
__all__ = [
    "BULKY",
    "MAX_INT",
    "METHODS",
    "Call",
    "Emit",
    "Handler",
    "Params",
    "bad_params",
    "method",
    "not_found",
]
MAX_INT = 2**53  # integers every client language represents exactly


def method(name: str, *, bulky: bool = False) -> Callable[[Handler], Handler]:
    """Register a handler; ``bulky`` for a method whose reply may approach the frame limit."""

    def register(fn: Handler) -> Handler:
        if name in METHODS:
            raise RuntimeError(f"method {name} registered twice")
        METHODS[name] = fn
        if bulky:
            BULKY.add(name)
        return fn

    return register


def store_error(exc: store_errors.StoreError) -> XaiError:
    """The one place a store error gets its wire code; the words are the store's."""
    if isinstance(exc, store_errors.NotFound):
        return not_found(exc.what, exc.key)
    if isinstance(exc, store_errors.Conflict):
        return Conflict(exc.message)
    return StorageError(exc.message)


class Params:
    """Typed reads of a request's params; unknown keys are refused so typos never pass silently."""

    def __init__(self, raw: Mapping[Any, Any]):
        self.raw = raw
        self._seen: set[str] = set()

    def _get(self, key: str, kind: type | tuple[type, ...], label: str, default: Any) -> Any:
        self._seen.add(key)
        value = self.raw.get(key, _MISSING)
        if value is _MISSING or value is None:
            if default is _MISSING:
                raise bad_params(f"missing required param '{key}' ({label})")
            return default
        if isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
            raise bad_params(f"param '{key}' must be {label}, got a boolean")
        if not isinstance(value, kind):
            raise bad_params(f"param '{key}' must be {label}, got {type(value).__name__}")
        return value

    def str(self, key: str, default: Any = _MISSING, *, max_len: int = 1 << 20) -> Any:
        value = self._get(key, str, "a string", default)
        if isinstance(value, str) and len(value) > max_len:
            raise bad_params(f"param '{key}' is longer than {max_len} characters")
        return value

    # The methods are named for the types they read, so below `def str` the class body's `str` is the
    # method: annotations there spell the type builtins.str.
    def id(self, key: builtins.str, default: Any = _MISSING) -> Any:
        value = self.str(key, default, max_len=128)
        if isinstance(value, str) and (not value or any(c.isspace() or c in "/\\" for c in value)):
            raise bad_params(f"param '{key}' must be a non-empty id without spaces or slashes")
        return value

    def new_id(self, key: builtins.str) -> Any:
        """An id being created names files too (an export is ``<agent_id>/<month>/<session>.jsonl``): also
        no control characters (NUL among them), and not ``.`` or ``..``. Ids stored by an older xaid stay
        reachable through ``id``; their export escapes them (memory.portable.path_part)."""
        value = self.id(key)
        if value in (".", "..") or not value.isprintable():
            raise bad_params(
                f"param '{key}' must be a non-empty id without spaces, slashes or control "
                "characters, and not '.' or '..'"
            )
        return value

    def int(
        self,
        key: builtins.str,
        default: Any = _MISSING,
        *,
        min: int | None = None,
        max: int = MAX_INT,
    ) -> Any:
        value = self._get(key, int, "an integer", default)
        if isinstance(value, int) and min is not None and value < min:
            raise bad_params(f"param '{key}' must be at least {min}")
        if isinstance(value, int) and (value > max or value < -MAX_INT):
            raise bad_params(f"param '{key}' must be at most {max}")
        return value

    def ts(self, key: builtins.str = "ts", default: Any = None) -> Any:
        """A time in ms since the epoch, between 1970 and the end of year 9999."""
        return self.int(key, default, min=0, max=clock.MAX_TS)  # dates past it cannot be written

    def bool(self, key: builtins.str, default: Any = _MISSING) -> Any:
        return self._get(key, bool, "a boolean", default)

    def map(self, key: builtins.str, default: Any = _MISSING) -> Any:
        return self._get(key, dict, "a map", default)

    def list(self, key: builtins.str, default: Any = _MISSING) -> Any:
        return self._get(key, list, "a list", default)

    def any(self, key: builtins.str, default: Any = _MISSING) -> Any:
        self._seen.add(key)
        if key not in self.raw:
            if default is _MISSING:
                raise bad_params(f"missing required param '{key}'")
            return default
        return self.raw[key]

    def done(self) -> None:
        """Call after reading every param: anything left over is a typo or a misunderstanding."""
        extra = sorted(
            k if isinstance(k, str) and len(k) <= 100 else safe_repr(k)
            for k in self.raw
            if k not in self._seen
        )
        if extra:
            more = f" and {len(extra) - 10} more" if len(extra) > 10 else ""
            raise bad_params(f"unknown param(s): {', '.join(extra[:10])}{more}")


@dataclass
class Call:
    app: App
    id: int
    method: str
    params: Params
    emit: Emit
    peer_uid: int
