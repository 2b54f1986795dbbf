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
from ..store.mood import MoodState
from ..store.recall import STATES, RecallItem, Settings

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


FACT_STATUSES = ("current", "superseded", "deleted")
FACT_ACTIONS = ("ADD", "UPDATE", "DELETE", "NOOP", "SUPERSEDED")
MAX_HISTORY = 10_000
MAX_HALF_LIFE_MS = 366 * 24 * 3_600_000


@dataclass(frozen=True, slots=True)
class HistoryLine:
    """One line of a fact's history; ``other`` is an id of the exporting device (remapped)."""

    ts_ms: int
    action: str
    text: str
    decided_by: str
    other: int | None


@dataclass(frozen=True, slots=True)
class ImportedFact:
    new: NewFact
    created_ms: int | None
    refs: tuple[str, ...] = field(default=())
    status: str = "current"
    updated_ms: int | None = None
    history: tuple[HistoryLine, ...] = ()
    exported_id: int | None = None  # its id on the exporting device, which its chain names
    superseded_ref: int | None = None
    episode_ref: int | None = None  # the exporting device's id of the episode it was learnt in

    @property
    def current(self) -> bool:
        return self.status == "current"


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
    status = text(raw.get("status"), f"{where}.status", 20, default="current") or "current"
    if status not in FACT_STATUSES:
        raise Refused(f"{where}.status must be one of {', '.join(FACT_STATUSES)}")
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
        status,
        timestamp(raw.get("updated_ms"), f"{where}.updated_ms"),
        history(raw.get("history"), f"{where}.history"),
        local_id(raw.get("fact_id"), f"{where}.fact_id"),
        local_id(raw.get("superseded_by"), f"{where}.superseded_by"),
        local_id(raw.get("episode_id"), f"{where}.episode_id"),
    )


def local_id(value: Any, where: str) -> int | None:
    """An id of the exporting device: only matched against others of the same file."""
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 0 < value < 1 << 62:
        raise Refused(f"{where} must be a positive integer id")
    return value


def history(value: Any, where: str) -> tuple[HistoryLine, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or len(value) > MAX_HISTORY:
        raise Refused(f"{where} must be a list of at most {MAX_HISTORY} entries")
    out = []
    for n, line in enumerate(value):
        at = f"{where}[{n}]"
        if not isinstance(line, dict):
            raise Refused(f"{at} must be a map")
        action = text(line.get("action"), f"{at}.action", 20, required=True)
        if action not in FACT_ACTIONS:
            raise Refused(f"{at}.action must be one of {', '.join(FACT_ACTIONS)}")
        ts = timestamp(line.get("ts"), f"{at}.ts")
        if ts is None:
            raise Refused(f"{at}.ts is required")
        out.append(
            HistoryLine(
                ts,
                action,
                text(line.get("text"), f"{at}.text", MAX_FACT_TEXT, required=True) or "",
                text(line.get("decided_by"), f"{at}.decided_by", MAX_LABEL, default="import")
                or "import",
                local_id(line.get("other_fact"), f"{at}.other_fact"),
            )
        )
    return tuple(out)


def mood(raw: Any) -> MoodState | None:
    """The agent's mood as exported, or None when the export has none."""
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise Refused("'mood' must be a map")
    updated = timestamp(raw.get("updated_ms"), "mood.updated_ms")
    half_life = raw.get("half_life_ms")
    if (
        not isinstance(half_life, int)
        or isinstance(half_life, bool)
        or not 0 < half_life <= MAX_HALF_LIFE_MS
    ):
        raise Refused(f"mood.half_life_ms must be an integer from 1 to {MAX_HALF_LIFE_MS}")
    return MoodState(
        number(raw.get("valence"), "mood.valence", -1.0, 1.0, 0.0) or 0.0,
        number(raw.get("arousal"), "mood.arousal", 0.0, 1.0, 0.0) or 0.0,
        number(raw.get("fatigue"), "mood.fatigue", 0.0, 1.0, 0.0) or 0.0,
        number(raw.get("confidence"), "mood.confidence", 0.0, 1.0, 0.0) or 0.0,
        half_life,
        updated or 0,
    )


def follow_up(raw: Any, i: int) -> RecallItem:
    """A scheduler item as exported; its ids are the exporting device's (``source_episode`` is
    remapped by the caller, ``item_id`` and the pushed session are not kept)."""
    where = f"scheduler.items[{i}]"
    if not isinstance(raw, dict):
        raise Refused(f"{where} must be a map")
    state = text(raw.get("state"), f"{where}.state", 20, default="pending") or "pending"
    if state not in STATES:
        raise Refused(f"{where}.state must be one of {', '.join(STATES)}")
    feedback = text(raw.get("feedback"), f"{where}.feedback", 20)
    if feedback not in (None, "welcome", "annoying"):
        raise Refused(f"{where}.feedback must be welcome, annoying or null")
    words = raw.get("keywords", [])
    if not isinstance(words, list) or len(words) > 50:
        raise Refused(f"{where}.keywords must be a list of at most 50 strings")
    keywords = tuple(
        text(w, f"{where}.keywords[{n}]", 100, required=True) or "" for n, w in enumerate(words)
    )
    not_before = timestamp(raw.get("not_before"), f"{where}.not_before")
    not_after = timestamp(raw.get("not_after"), f"{where}.not_after")
    created = timestamp(raw.get("created_ms"), f"{where}.created_ms")
    if not_before is None or not_after is None or created is None:
        raise Refused(f"{where} needs 'not_before', 'not_after' and 'created_ms'")
    if not_after < not_before:
        raise Refused(f"{where}.not_after is before its not_before")
    engaged = raw.get("engaged")
    if engaged is not None and not isinstance(engaged, bool):
        raise Refused(f"{where}.engaged must be true, false or null")
    return RecallItem(
        0,
        "",
        local_id(raw.get("source_episode"), f"{where}.source_episode"),
        text(raw.get("topic"), f"{where}.topic", 500, required=True) or "",
        keywords,
        text(raw.get("scene"), f"{where}.scene", 20, default="manual") or "manual",
        not_before,
        not_after,
        number(raw.get("priority"), f"{where}.priority", 0.0, 1.0, 0.5) or 0.0,
        state,
        created,
        timestamp(raw.get("pushed_ms"), f"{where}.pushed_ms"),
        None,
        engaged,
        feedback,
        text(raw.get("closed_reason"), f"{where}.closed_reason", MAX_LABEL),
    )


def follow_up_settings(raw: Any) -> Settings | None:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise Refused("scheduler.settings must be a map")
    allow = raw.get("allow", [])
    if not isinstance(allow, list) or len(allow) > 50:
        raise Refused("scheduler.settings.allow must be a list of at most 50 strings")
    gap = number(raw.get("min_gap_hours"), "scheduler.settings.min_gap_hours", 0.0, 24.0 * 365)
    if gap is None:
        raise Refused("scheduler.settings.min_gap_hours is required")
    for key in ("enabled", "quiet"):
        if not isinstance(raw.get(key, False), bool):
            raise Refused(f"scheduler.settings.{key} must be true or false")
    avoid = raw.get("avoid", [])  # absent in exports made before "don't bring this up"
    if not isinstance(avoid, list) or len(avoid) > 100:
        raise Refused("scheduler.settings.avoid must be a list of at most 100 strings")
    return Settings(
        bool(raw.get("enabled", True)),
        bool(raw.get("quiet", False)),
        round(gap * 3_600_000),
        tuple(
            text(w, f"scheduler.settings.allow[{n}]", 100, required=True) or ""
            for n, w in enumerate(allow)
        ),
        tuple(
            text(w, f"scheduler.settings.avoid[{n}]", 200, required=True) or ""
            for n, w in enumerate(avoid)
        ),
    )


def episode(record: dict[str, Any], where: str) -> None:
    """Checks an episode line in place (its turns are checked by portable._utterances)."""
    text(record.get("summary"), f"{where}: 'summary'", MAX_SUMMARY, required=True)
    for key in ("started_ms", "ended_ms"):
        if record.get(key) is None:
            raise Refused(f"{where}: an episode needs an integer '{key}' between 0 and {MAX_TS}")
        timestamp(record.get(key), f"{where}: '{key}'")
    if record["started_ms"] > record["ended_ms"]:
        raise Refused(f"{where}: 'started_ms' is after 'ended_ms'")  # issue 22, also noted
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
            timestamp(h.get("ts"), f"{where}: 'highlights[{n}].ts'")
            for key in ("intensity", "specificity"):
                number(h.get(key), f"{where}: 'highlights[{n}].{key}'", 0.0, 1.0)
    refs(record.get("refs"), f"{where}: 'refs'")
