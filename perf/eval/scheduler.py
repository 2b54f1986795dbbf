"""Proactive recall against a labelled set: does the scheduler ask when a thoughtful friend would, and stay
quiet otherwise?

The situations live in ``perf/scenarios/proactive.json`` (format: ``perf/scenarios/README.md``). Each is
played as its own agent (agent id = situation id) on ONE real daemon with the scripted provider: the earlier
sessions are replayed with ``ts`` (day 0 is Monday 2025-12-01, 00:00 UTC) and closed with ``wait=True`` so
consolidation has armed whatever it arms; then each labelled new session is opened and its first user turn
sent with ``explain=True``. A push is a non-null ``context.suggestion``; the daemon's
``context.suggestion_reason`` says why it did or did not ask.

Figures: precision of pushes (pushes labelled "ask" / all pushes; aim ≥ 80 %), recall (labelled asks that
got a push / labelled asks), the share of pushes a user would find intrusive (aim ≤ 5 %), and the wrong
decisions, grouped by the daemon's reason, in the notes.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from xaiclient import Client

from .. import kit
from ..kit import DAY, HOUR, MINUTE, Aim, Row, Section, progress, scratch_daemon

SCENARIOS = kit.SCENARIOS / "proactive.json"
BASE_MS = int(datetime(2025, 12, 1, tzinfo=UTC).timestamp() * 1000)  # day 0: a Monday, 00:00 UTC
QUICK_SITUATIONS = 15
PRECISION_AIM = Aim(">=", 80.0)  # %
INTRUSIVE_AIM = Aim("<=", 5.0)  # %
DECISIONS = ("ask", "quiet")


# --- the labelled set ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Session:
    """An earlier conversation: its user lines, one a minute from ``at``; closed a minute after the last."""

    at: int
    lines: tuple[str, ...]

    @property
    def closes(self) -> int:
        return self.at + len(self.lines) * MINUTE


@dataclass(frozen=True)
class Open:
    """A new session whose first user turn is judged; ``then`` are further lines of that session."""

    at: int
    text: str
    expected: str
    reason: str
    intrusive: bool
    then: tuple[str, ...] = ()
    controls: dict[str, Any] = field(default_factory=dict)

    @property
    def closes(self) -> int:
        return self.at + (len(self.then) + 1) * MINUTE


@dataclass(frozen=True)
class Situation:
    id: str
    lang: str
    kind: str
    hard: bool
    history: tuple[Session, ...]
    opens: tuple[Open, ...]
    controls: dict[str, Any]


def ts(day: int, hour: int, minute: int = 0) -> int:
    return BASE_MS + day * DAY + hour * HOUR + minute * MINUTE


def _at(raw: dict[str, Any], where: str) -> int:
    day, hour, minute = raw.get("day"), raw.get("hour"), raw.get("minute", 0)
    if not (
        isinstance(day, int)
        and day >= 0
        and isinstance(hour, int)
        and 0 <= hour < 24
        and isinstance(minute, int)
        and 0 <= minute < 60
    ):
        raise ValueError(
            f"{where}: needs integer 'day' ≥ 0, 'hour' 0-23 and optional 'minute' 0-59"
        )
    return ts(day, hour, minute)


def _lines(raw: Any, where: str) -> tuple[str, ...]:
    if not isinstance(raw, list) or not all(isinstance(t, str) and t.strip() for t in raw):
        raise ValueError(f"{where}: needs a list of non-empty strings")
    return tuple(raw)


def _open(raw: dict[str, Any], labels: dict[str, Any], where: str) -> Open:
    expected = labels.get("expected")
    if expected not in DECISIONS:
        raise ValueError(f"{where}: 'expected' must be 'ask' or 'quiet'")
    if not isinstance(labels.get("reason"), str) or not labels["reason"].strip():
        raise ValueError(f"{where}: needs a 'reason'")
    if not isinstance(labels.get("intrusive_if_asked"), bool):
        raise ValueError(f"{where}: needs 'intrusive_if_asked' true or false")
    text = raw.get("text")
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"{where}: needs the first user turn as 'text'")
    controls = raw.get("controls", {})
    if not isinstance(controls, dict):
        raise ValueError(f"{where}: 'controls' must be an object of scheduler.config params")
    return Open(
        _at(raw, where),
        text,
        expected,
        labels["reason"],
        labels["intrusive_if_asked"],
        _lines(raw.get("then", []), f"{where} then"),
        controls,
    )


def parse(raw: dict[str, Any]) -> Situation:
    sid = raw.get("id")
    if (
        not isinstance(sid, str)
        or not sid
        or any(c.isspace() or c in "/\\" for c in sid)
        or len(sid) > 128
    ):
        raise ValueError(
            f"situation id {sid!r}: needs a non-empty agent id without spaces or slashes"
        )
    if raw.get("lang") not in ("en", "zh"):
        raise ValueError(f"{sid}: 'lang' must be 'en' or 'zh'")
    history = tuple(
        Session(_at(h, f"{sid} history[{i}]"), _lines(h.get("lines"), f"{sid} history[{i}] lines"))
        for i, h in enumerate(raw.get("history", []))
    )
    if not history:
        raise ValueError(f"{sid}: needs at least one earlier session in 'history'")
    if ("open" in raw) == ("opens" in raw):
        raise ValueError(
            f"{sid}: give either 'open' (labels beside it) or 'opens' (labels inside each)"
        )
    opens: tuple[Open, ...]
    if "open" in raw:
        opens = (_open(raw["open"], raw, f"{sid} open"),)
    else:
        opens = tuple(_open(o, o, f"{sid} opens[{i}]") for i, o in enumerate(raw["opens"]))
    if not opens:
        raise ValueError(f"{sid}: 'opens' is empty")
    last = 0
    steps: tuple[Session | Open, ...] = (*history, *opens)
    for step in steps:
        if step.at < last:
            raise ValueError(
                f"{sid}: sessions must come in time order, each after the previous one closed"
            )
        last = step.closes
    controls = raw.get("controls", {})
    if not isinstance(controls, dict):
        raise ValueError(f"{sid}: 'controls' must be an object of scheduler.config params")
    return Situation(
        sid,
        raw["lang"],
        str(raw.get("kind", "")),
        bool(raw.get("hard", False)),
        history,
        opens,
        controls,
    )


def load(path: Path = SCENARIOS) -> list[Situation]:
    data = json.loads(path.read_text(encoding="utf-8"))
    situations = [parse(s) for s in data["situations"]]
    dupes = [i for i, n in Counter(s.id for s in situations).items() if n > 1]
    if dupes:
        raise ValueError(f"duplicate situation ids: {', '.join(dupes)}")
    return situations


# --- playing them -------------------------------------------------------------------------------


@dataclass
class Decision:
    situation: Situation
    index: int  # which open of the situation
    open: Open
    pushed: bool
    reason: str  # the daemon's suggestion_reason
    suggestion: str | None

    @property
    def label(self) -> str:
        return (
            self.situation.id
            if len(self.situation.opens) == 1
            else f"{self.situation.id}#{self.index + 1}"
        )

    @property
    def right(self) -> bool:
        return self.pushed == (self.open.expected == "ask")


@dataclass
class Played:
    decisions: list[Decision]
    history_pushes: list[str]  # situations whose earlier sessions already got a push (unlabelled)
    armed: dict[str, list[dict[str, Any]]]  # situation id -> every recall item, in any state


def _first_turn(client: Client, agent: str, at: int, text: str) -> tuple[str, dict[str, Any]]:
    sid = client.session_open(agent, ts=at)["session_id"]
    context = client.session_send(sid, text, ts=at, explain=True).finish()["context"]
    return sid, context


def play(client: Client, s: Situation) -> tuple[list[Decision], bool, list[dict[str, Any]]]:
    client.agent_create(s.id)
    if s.controls:
        client.call("scheduler.config", agent_id=s.id, **s.controls)
    pushed_in_history = False
    for h in s.history:
        sid, context = _first_turn(client, s.id, h.at, h.lines[0])
        pushed_in_history |= context.get("suggestion") is not None
        for i, line in enumerate(h.lines[1:], 1):
            client.session_send(sid, line, ts=h.at + i * MINUTE).finish()
        client.session_close(sid, ts=h.closes, wait=True)
    decisions = []
    for n, o in enumerate(s.opens):
        if o.controls:
            client.call("scheduler.config", agent_id=s.id, **o.controls)
        sid, context = _first_turn(client, s.id, o.at, o.text)
        decisions.append(
            Decision(
                s,
                n,
                o,
                context.get("suggestion") is not None,
                str(context.get("suggestion_reason")),
                context.get("suggestion"),
            )
        )
        for i, line in enumerate(o.then, 1):
            client.session_send(sid, line, ts=o.at + i * MINUTE).finish()
        client.session_close(sid, ts=o.closes, wait=True)
    states = ["pending", "pushed", "expired", "resolved", "cancelled"]
    items = client.call("scheduler.list", agent_id=s.id, states=states)["items"]
    return decisions, pushed_in_history, items


def play_all(situations: Sequence[Situation]) -> Played:
    played = Played([], [], {})
    with scratch_daemon() as daemon, daemon.client(timeout=120.0) as client:
        for n, s in enumerate(situations, 1):
            decisions, in_history, items = play(client, s)
            played.decisions += decisions
            played.armed[s.id] = items
            if in_history:
                played.history_pushes.append(s.id)
            wrong = [d.label for d in decisions if not d.right]
            if n % 10 == 0 or n == len(situations) or wrong:
                progress(
                    f"scheduler: {n}/{len(situations)} situations"
                    + (f"; wrong: {', '.join(wrong)}" if wrong else "")
                )
    return played


# --- figures ------------------------------------------------------------------------------------


def _pct(part: int, whole: int) -> float:
    return 100.0 * part / whole if whole else 0.0


@dataclass(frozen=True)
class Tally:
    opens: int
    pushes: int
    right_pushes: int  # pushes where the label says ask
    intrusive_pushes: int
    asks: int  # labelled asks
    right: int  # decisions matching the label

    @classmethod
    def of(cls, decisions: Sequence[Decision]) -> Tally:
        pushes = [d for d in decisions if d.pushed]
        return cls(
            len(decisions),
            len(pushes),
            sum(d.open.expected == "ask" for d in pushes),
            sum(d.open.intrusive for d in pushes),
            sum(d.open.expected == "ask" for d in decisions),
            sum(d.right for d in decisions),
        )

    @property
    def precision(self) -> float:
        return _pct(self.right_pushes, self.pushes)

    @property
    def recall(self) -> float:
        return _pct(self.right_pushes, self.asks)

    @property
    def intrusive(self) -> float:
        return _pct(self.intrusive_pushes, self.pushes)

    @property
    def accuracy(self) -> float:
        return _pct(self.right, self.opens)


def _armed_text(items: list[dict[str, Any]]) -> str:
    if not items:
        return "nothing armed"
    parts = []
    for i in items:
        state = i["state"] + (f": {i['closed_reason']}" if i.get("closed_reason") else "")
        parts.append(f"{i['scene']} ({state})")
    return "armed " + ", ".join(parts)


def _scene(d: Decision, items: list[dict[str, Any]]) -> str:
    for i in items:
        if i["state"] == "pushed" and d.suggestion and i["topic"] in d.suggestion:
            return i["scene"]
    return "?"


def wrong_notes(played: Played) -> list[str]:
    """Wrong decisions grouped by what went wrong and the daemon's reason."""
    groups: dict[str, list[str]] = defaultdict(list)
    for d in played.decisions:
        if d.right:
            continue
        items = played.armed.get(d.situation.id, [])
        if d.pushed:
            flag = ", intrusive" if d.open.intrusive else ""
            key = f'pushed where a friend would stay quiet (daemon: "{d.reason}")'
            groups[key].append(f"`{d.label}` ({_scene(d, items)} scene{flag})")
        else:
            key = f'stayed quiet where a friend would ask (daemon: "{d.reason}")'
            groups[key].append(f"`{d.label}` ({_armed_text(items)})")
    return [f"{key}: {'; '.join(ids)}" for key, ids in sorted(groups.items())]


def build_section(situations: Sequence[Situation], played: Played, quick: bool) -> Section:
    ds = played.decisions
    total = Tally.of(ds)
    rows = [
        Row(
            "precision of pushes",
            total.precision,
            "%",
            PRECISION_AIM,
            note=f"{total.right_pushes} of {total.pushes} pushes were at opens labelled 'ask'",
        ),
        Row(
            "intrusive share of pushes",
            total.intrusive,
            "%",
            INTRUSIVE_AIM,
            note=f"{total.intrusive_pushes} of {total.pushes} pushes were at opens labelled intrusive_if_asked",
        ),
        Row(
            "recall of asks",
            total.recall,
            "%",
            note=f"{total.right_pushes} of {total.asks} opens labelled 'ask' got a suggestion",
        ),
        Row(
            "decisions right",
            total.accuracy,
            "%",
            note=f"{total.right} of {total.opens} opens in {len(situations)} situations",
        ),
    ]
    for lang in ("en", "zh"):
        t = Tally.of([d for d in ds if d.situation.lang == lang])
        rows.append(
            Row(
                f"precision of pushes, {lang}",
                t.precision,
                "%",
                note=f"{t.right_pushes} of {t.pushes}; recall {t.right_pushes} of {t.asks} asks; "
                f"{t.right} of {t.opens} decisions right",
            )
        )
    plain = Tally.of([d for d in ds if not d.situation.hard])
    hard = Tally.of([d for d in ds if d.situation.hard])
    rows.append(
        Row(
            "decisions right, hard cases",
            hard.accuracy,
            "%",
            note=f"{hard.right} of {hard.opens}; the rest: {plain.right} of {plain.opens} right, precision "
            f"{plain.precision:.0f} %, recall {plain.recall:.0f} %",
        )
    )
    by_kind = defaultdict(list)
    for d in ds:
        by_kind[d.situation.kind or "-"].append(d)
    kinds = ", ".join(f"{k} {sum(d.right for d in v)}/{len(v)}" for k, v in sorted(by_kind.items()))
    langs = Counter(s.lang for s in situations)
    notes = [
        f"{len(situations)} situations ({langs['en']} English, {langs['zh']} Chinese"
        f"{', the first ' + str(QUICK_SITUATIONS) + ' only' if quick else ''}) from "
        f"`perf/scenarios/proactive.json`, {total.opens} labelled opens ({total.asks} 'ask', "
        f"{total.opens - total.asks} 'quiet'), {total.pushes} pushes. One daemon (scripted provider), one agent "
        "per situation; days replayed with `ts` from Monday 2025-12-01 00:00 UTC; a push is a non-null "
        "`context.suggestion` at the first user turn of a labelled session.",
        f"Right decisions by kind: {kinds}.",
    ]
    if played.history_pushes:
        notes.append(
            "Unlabelled pushes in earlier (history) sessions, not counted above: "
            + ", ".join(f"`{i}`" for i in played.history_pushes)
            + "."
        )
    lucky = [
        d.label
        for d in ds
        if d.situation.hard
        and d.right
        and not d.pushed
        and not any(i["created_ms"] <= d.open.at for i in played.armed.get(d.situation.id, []))
    ]
    if lucky:
        notes.append(
            "Hard cases that were right with nothing armed before the open (no arming rule fired, so the "
            "case never reached the firing conditions it was written for): "
            + ", ".join(f"`{i}`" for i in lucky)
            + "."
        )
    wrong = wrong_notes(played)
    notes += ["Wrong decisions, by the daemon's reason:"] if wrong else ["No wrong decisions."]
    notes += wrong
    return Section("Scheduler: proactive recall on a labelled set", rows, notes)


def run(quick: bool) -> Section:
    situations = load()
    if quick:
        situations = situations[:QUICK_SITUATIONS]
    progress(
        f"scheduler: {len(situations)} situations, {sum(len(s.opens) for s in situations)} labelled opens"
    )
    played = play_all(situations)
    return build_section(situations, played, quick)
