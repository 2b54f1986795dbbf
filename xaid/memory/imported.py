"""The boundary for values that arrive in a ``memory.import``: checked like wire params.

Everything an import stores is read again by every later search, turn and consolidation, so a
value that passes here must be one those reads can handle: a time a calendar holds, a finite
number in its range, a string of bounded length, a date that parses. A bad value refuses the
whole import with ``bad_params`` (naming where) before anything is written or embedded.
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass, field
from typing import Any

from ..clock import MAX_TS
from ..store.memory import NewFact, Signals

MAX_FACT_TEXT = 2_000  # a fact is one sentence; a longer one is a document, not a fact
MAX_SUMMARY = 20_000
MAX_TURN_TEXT = 100_000  # as a message of session.send
MAX_LABEL = 200  # subject, kind, ref, speaker, session id
MAX_REFS = 1_000
SIGNALS = {
    "recency": (0.0, 1.0),
    "specificity": (0.0, 1.0),
    "intensity": (0.0, 1.0),
    "user_refs": (0, 1_000_000),
}


class Refused(ValueError):
    """A value of the import that a later read could not handle; the message says where."""


@dataclass(frozen=True, slots=True)
class ImportedFact:
    new: NewFact
    created_ms: int | None
    refs: tuple[str, ...] = field(default=())
    current: bool = True


def timestamp(value: Any, where: str, *, default: int | None = None) -> int | None:
    if value is None:
        return default
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_TS:
        raise Refused(f"{where} must be an integer time in ms between 0 and {MAX_TS}")
    return value


def number(
    value: Any, where: str, low: float, high: float, default: float | None = None
) -> float | None:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise Refused(f"{where} must be a number")
    if isinstance(value, int) and not low <= value <= high:  # before float(): 10**400 has no float
        raise Refused(f"{where} must be between {low} and {high}")
    if not math.isfinite(value) or not low <= value <= high:
        raise Refused(f"{where} must be a finite number between {low} and {high}")
    return float(value)


def text(
    value: Any, where: str, max_len: int, *, default: str | None = None, required: bool = False
) -> str | None:
    if value is None and not required:
        return default
    if not isinstance(value, str) or (required and not value.strip()):
        raise Refused(f"{where} must be a {'non-empty ' if required else ''}string")
    if len(value) > max_len:
        raise Refused(f"{where} is longer than {max_len} characters")
    if "\x00" in value:
        raise Refused(f"{where} holds a NUL character")
    return value


def day(value: Any, where: str) -> str | None:
    """A date as the facts table keeps it (ISO, e.g. 2026-05-03), or None."""
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > 32:
        raise Refused(f"{where} must be an ISO date string (YYYY-MM-DD)")
    try:
        return dt.date.fromisoformat(value).isoformat()
    except ValueError:
        raise Refused(f"{where} must be an ISO date string (YYYY-MM-DD)") from None


def refs(value: Any, where: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or len(value) > MAX_REFS:
        raise Refused(f"{where} must be a list of at most {MAX_REFS} strings")
    return tuple(r for i, r in enumerate(value) if text(r, f"{where}[{i}]", MAX_LABEL) is not None)


def fact(raw: Any, i: int) -> ImportedFact:
    where = f"facts[{i}]"
    if not isinstance(raw, dict):
        raise Refused(f"{where} must be a map")
    signals_raw = raw.get("signals") or {}
    if not isinstance(signals_raw, dict):
        raise Refused(f"{where}.signals must be a map")
    read = {
        key: number(signals_raw.get(key), f"{where}.signals.{key}", low, high) or 0.0
        for key, (low, high) in SIGNALS.items()
    }
    signals = Signals(
        read["recency"], read["specificity"], read["intensity"], int(read["user_refs"])
    )
    status = text(raw.get("status"), f"{where}.status", 20, default="current")
    new = NewFact(
        subject=text(raw.get("subject"), f"{where}.subject", MAX_LABEL, default="user.other")
        or "user.other",
        kind=text(raw.get("kind"), f"{where}.kind", MAX_LABEL, default="other") or "other",
        text=text(raw.get("text"), f"{where}.text", MAX_FACT_TEXT, required=True) or "",
        value=number(raw.get("value"), f"{where}.value", 0.0, 1.0, 0.5) or 0.0,
        signals=signals,
        valid_from=day(raw.get("valid_from"), f"{where}.valid_from"),
        valid_to=day(raw.get("valid_to"), f"{where}.valid_to"),
    )
    return ImportedFact(
        new,
        timestamp(raw.get("created_ms"), f"{where}.created_ms"),
        refs(raw.get("refs"), f"{where}.refs"),
        status == "current",
    )


def episode(record: dict[str, Any], where: str) -> None:
    """Checks an episode line in place (its turns are checked by portable._utterances)."""
    text(record.get("summary"), f"{where}: 'summary'", MAX_SUMMARY, required=True)
    for key in ("started_ms", "ended_ms"):
        if record.get(key) is None:
            raise Refused(f"{where}: an episode needs an integer '{key}' between 0 and {MAX_TS}")
        timestamp(record.get(key), f"{where}: '{key}'")
    text(record.get("session_id"), f"{where}: 'session_id'", MAX_LABEL)
    number(record.get("tension"), f"{where}: 'tension'", 0.0, 1.0)
    mood = record.get("closing_mood")
    if mood is not None:
        if not isinstance(mood, dict):
            raise Refused(f"{where}: 'closing_mood' must be a map")
        number(mood.get("valence"), f"{where}: 'closing_mood.valence'", -1.0, 1.0)
        number(mood.get("arousal"), f"{where}: 'closing_mood.arousal'", 0.0, 1.0)
        number(mood.get("fatigue"), f"{where}: 'closing_mood.fatigue'", 0.0, 1.0)
    highlights = record.get("highlights", [])
    if not isinstance(highlights, list):
        raise Refused(f"{where}: 'highlights' must be a list")
    for n, h in enumerate(highlights):
        if isinstance(h, dict):
            text(h.get("text"), f"{where}: 'highlights[{n}].text'", MAX_TURN_TEXT)
    refs(record.get("refs"), f"{where}: 'refs'")
