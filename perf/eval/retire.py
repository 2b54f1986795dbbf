"""A later loss or "it doesn't matter now" retires an earlier "how did it go": area ``retire``.

``python -m perf retire`` (issues 24 item 6 and 25, branches retire8 and retire9). Every scene of
perf/scenarios/retire_dev8.json (or the set ``XAID_PERF_RETIRE_SET`` names: ``retire_dev9``, played
in its own area ``retire9``; ``retire_dev38`` in ``retire38``) is played as its own agent on ONE
real daemon (scripted provider, the default embedder USE-multilingual-v3, real SQLite): session 1
arms a dated matter (the user's lines one a minute, closed with ``wait=True``), session 2 days later
says something of it or of something else (ingested as history for the sets of ``INGESTED``), and
then a conversation opens at each probe time (``scheduler.check_in``, recorded as a real opening is,
so ``min_gap`` applies between them). What is judged, by rules and without a model, is whether the
scheduler suggests the session-1 matter (its ``plan``/``worry``/``ahead`` items, session 2 began: at
session 2's own first turn or at a probe.

- ``retire`` (cancelled, moot, told in passing): right when the matter is never suggested;
- ``hold`` (a loss of something else): right when the matter is not suggested at the probes, which
  fall within four days of the loss (fire.FRESH_GRIEF_MS);
- ``ask`` (controls: the matter mentioned without calling it off, sad news that is not a loss):
  right when it is suggested;
- ``keep`` (the matter moved to a new date): right when it is not closed unasked (still pending,
  or suggested);
- ``follow`` (retire_dev9: the matter mentioned while still ahead, sad news that is not a loss, "doesn't
  matter" said of something else): right when a probe suggests it (after its day) and no probe holds
  matters back for a loss;
- ``moved`` (retire_dev9: re-dated to the scene's ``new_day``): right when no probe before the day after
  ``new_day`` suggests a "how did it go" of it (a ``plan``/``worry`` item) and a probe from then on
  suggests it.

Scenes whose session 1 armed nothing are counted apart (``not armed``): they test nothing here.
Both halves are reported; the test half is never tuned on.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from xaiclient import Client

from .. import kit
from ..kit import DAY, HOUR, MINUTE, Row, Section, progress
from .scheduler import BASE_MS

DEV = kit.SCENARIOS / "retire_dev8.json"
SET_ENV = "XAID_PERF_RETIRE_SET"
# Each set's own area, so a run of one keeps the other's section.
AREAS = {"retire_dev8": "retire", "retire_dev9": "retire9", "retire_dev38": "retire38"}
QUICK = 12
# Main's xaid (ceca500) on this set with this harness, before retire8's change: (right, counted) per
# half and language, and the wrong scenes' kinds.
BEFORE = {
    ("test", "en"): (7, 11, "cancel/moot/told 1/5, loss 2/2, controls 4/4"),
    ("test", "zh"): (4, 10, "cancel/moot/told 0/3, loss 1/3, controls 3/4"),
    ("train", "en"): (10, 12, "cancel/moot/told 4/5, loss 2/3, controls 4/4"),
    ("train", "zh"): (6, 12, "cancel/moot/told 3/5, loss 0/3, controls 3/4"),
}
# Main's xaid (e313420) on retire_dev9, before retire9's change: (right, counted) per half and language.
BEFORE9: dict[tuple[str, str], tuple[int, int, str]] = {
    ("test", "en"): (12, 16, "mention 1/3, moved 1/3, moot 3/3, sad 3/3, controls 4/4"),
    ("test", "zh"): (10, 13, "mention 2/2, moved 2/2, moot 0/2, sad 3/3, controls 3/4"),
    ("train", "en"): (9, 16, "mention 2/3, moved 0/3, moot 2/3, sad 3/3, controls 2/4"),
    ("train", "zh"): (7, 16, "mention 1/3, moved 0/3, moot 2/3, sad 2/3, controls 2/4"),
}
# Main's xaid (5a4acf0) on retire_dev38, before session 38's change: (right, counted) per half and language.
BEFORE38: dict[tuple[str, str], tuple[int, int, str]] = {
    ("test", "en"): (6, 10, "other 1/2, progress 2/2, settled 1/1, told 2/5"),
    ("test", "zh"): (4, 13, "other 2/3, progress 1/2, settled 1/3, told 0/5"),
    ("train", "en"): (4, 10, "other 1/1, progress 1/2, settled 0/2, told 2/5"),
    ("train", "zh"): (8, 13, "other 3/3, progress 1/2, settled 1/4, told 3/4"),
}
MAINS = {"retire_dev8": "ceca500", "retire_dev9": "e313420", "retire_dev38": "5a4acf0"}
MATTER_SCENES = ("plan", "worry", "ahead", "matter")
# Sets whose later sessions are ingested (retire_dev38: an undated worry told in session 1 would be
# asked about at session 2's own opening, before the user tells how it ended; what is measured is
# whether the telling retires it).
INGESTED = frozenset({"retire_dev38"})


@dataclass(frozen=True, slots=True)
class Session:
    at_ms: int
    lines: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Scene:
    id: str
    lang: str
    split: str
    kind: str
    expect: str
    sessions: tuple[Session, ...]
    probes: tuple[int, ...]
    new_day: int | None = None  # a moved matter's new day (day number from day 0)
    ingested: bool = False  # later sessions ingested as history (INGESTED)


def _at(day: int, hour: int) -> int:
    return BASE_MS + day * DAY + hour * HOUR


def set_name() -> str:
    """The set ``XAID_PERF_RETIRE_SET`` names (default retire_dev8)."""
    return kit.set_named(SET_ENV, AREAS, "retire_dev8")


def load(name: str = "retire_dev8") -> list[Scene]:
    doc = json.loads((kit.SCENARIOS / f"{name}.json").read_text(encoding="utf-8"))
    default = doc["default_probes"]
    return [
        Scene(
            i["id"],
            i["lang"],
            i["split"],
            i["kind"],
            i["expect"],
            tuple(Session(_at(s["day"], s["hour"]), tuple(s["lines"])) for s in i["sessions"]),
            tuple(_at(d, h) for d, h in i.get("probes", default)),
            i.get("new_day"),
            name in INGESTED,
        )
        for i in doc["items"]
    ]


@dataclass(frozen=True, slots=True)
class Judged:
    scene: Scene
    armed: tuple[int, ...]  # the session-1 matter's item ids
    asked: bool  # one of them suggested after session 2 began
    open_after: bool  # one of them still pending or suggested at the end
    reasons: tuple[str, ...]  # the probes' verdicts
    # (probe time, scene of the matter's item it suggested) for the probes that suggested one
    probed: tuple[tuple[int, str], ...] = ()

    @property
    def right(self) -> bool:
        e = self.scene.expect
        if e in ("retire", "hold"):
            return not self.asked
        if e == "ask":
            return self.asked
        if e == "follow":
            return bool(self.probed) and not any(_held_for_loss(r) for r in self.reasons)
        if e == "moved":
            due = _at((self.scene.new_day or 0) + 1, 0)
            early = any(at < due and scene in ("plan", "worry") for at, scene in self.probed)
            return not early and any(at >= due for at, _ in self.probed)
        return self.open_after


def _held_for_loss(reason: str) -> bool:
    """A probe's verdict that holds matters back for a loss, or suggests the loss's own item."""
    return reason.startswith("loss:") or "grieving" in reason or "of a loss" in reason


def _items(client: Client, agent: str) -> list[dict[str, Any]]:
    states = ["pending", "pushed", "expired", "resolved", "cancelled"]
    return list(client.scheduler_list(agent, states=states, limit=200)["items"])


def _play_session(client: Client, agent: str, s: Session, told: bool = False) -> None:
    """One session, its lines sent as turns; ``told``: ingested instead, the user's words reaching
    the daemon as history, with no check-in of the session's own to take the matter first."""
    sid = client.session_open(agent, ts=s.at_ms)["session_id"]
    if told:
        client.session_ingest(
            sid,
            [
                {"role": "user", "text": line, "ts": s.at_ms + n * MINUTE}
                for n, line in enumerate(s.lines)
            ],
        )
    else:
        for n, line in enumerate(s.lines):
            client.session_send(sid, line, ts=s.at_ms + n * MINUTE).finish()
    client.session_close(sid, ts=s.at_ms + len(s.lines) * MINUTE, wait=True)


def play(client: Client, scene: Scene) -> Judged:
    client.agent_create(scene.id)
    first, *later = scene.sessions
    _play_session(client, scene.id, first)
    first_items = [i for i in _items(client, scene.id) if i["scene"] in MATTER_SCENES]
    armed = tuple(i["item_id"] for i in first_items)
    words = {w for i in first_items for w in i["keywords"]}
    for s in later:
        _play_session(client, scene.id, s, told=scene.ingested)
    reasons = []
    suggested: list[tuple[int, int, str]] = []
    for at in scene.probes:
        got = client.scheduler_check_in(scene.id, ts=at)
        item = got.get("item") or {}
        reasons.append(f"{item.get('scene', '-')}: {got['reason']}")
        if item:
            suggested.append((at, item["item_id"], item["scene"]))
    since = later[0].at_ms if later else first.at_ms
    end = {i["item_id"]: i for i in _items(client, scene.id)}
    # the matter: session 1's items, and any armed later on the same matter (a keyword shared)
    mine = [
        i
        for i in end.values()
        if i["item_id"] in armed or (i["scene"] in MATTER_SCENES and words & set(i["keywords"]))
    ]
    asked = any(i["state"] == "pushed" and (i["pushed_ms"] or 0) >= since for i in mine)
    open_after = any(i["state"] in ("pending", "pushed") for i in mine)
    ids = {i["item_id"] for i in mine}
    probed = tuple((at, kind) for at, item_id, kind in suggested if item_id in ids)
    return Judged(scene, armed, asked, open_after, tuple(reasons), probed)


MODEL_ENV = "XAID_PERF_RETIRE_MODEL"  # a perf.kit.MODELS name: consolidation asks that chat model


def play_all(scenes: Sequence[Scene]) -> tuple[list[Judged], dict[str, int]]:
    """Every scene on one daemon: the scripted provider, or the model ``XAID_PERF_RETIRE_MODEL``
    names (consolidation's weighed questions: the matter left, its end told, scheduler/ended.py);
    the daemon's memory counters after."""
    model = os.environ.get(MODEL_ENV, "")
    return kit.played_on_one_daemon(scenes, play, "retire", kit.model_env(model) if model else None)


def _pct(part: int, whole: int) -> float:
    return 100.0 * part / whole if whole else 0.0


def rows_of(label: str, judged: Sequence[Judged]) -> tuple[list[Row], str]:
    t: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    for j in judged:
        if not j.armed:
            t["unarmed"] += 1
            continue
        kinds[j.scene.kind] += 1
        kinds[f"{j.scene.kind}:right"] += j.right
        group = (
            "control" if j.scene.expect in ("ask", "keep", "follow", "moved") else j.scene.expect
        )
        t[group] += 1
        t[f"{group}:right"] += j.right
    done = t["retire:right"] + t["hold:right"] + t["control:right"]
    total = t["retire"] + t["hold"] + t["control"]
    by_kind = ", ".join(
        f"{k} {kinds[k + ':right']}/{kinds[k]}" for k in sorted(kinds) if ":" not in k
    )
    rows = [
        Row(
            f"{label}: scenes right",
            _pct(done, total),
            "%",
            note=f"{done}/{total}; retired (cancel, moot, told) {t['retire:right']}/{t['retire']}, "
            f"held after a loss {t['hold:right']}/{t['hold']}, controls {t['control:right']}/{t['control']}"
            f"; by kind: {by_kind}; not armed by session 1: {t['unarmed']}",
        )
    ]
    unarmed = ", ".join(j.scene.id for j in judged if not j.armed)
    wrong = "; ".join(
        f"{j.scene.id} ({j.scene.kind}: {'asked' if j.asked else 'not asked'}; {' | '.join(j.reasons)})"
        for j in judged
        if j.armed and not j.right
    )
    return rows, (wrong or "none") + (f"; not armed: {unarmed}" if unarmed else "")


def run(quick: bool) -> Section:
    name = set_name()
    scenes = load(name)
    if quick:
        scenes = scenes[: QUICK // 2] + [s for s in scenes if s.lang == "zh"][: QUICK // 2]
    progress(f"retire: {len(scenes)} scenes")
    judged, counters = play_all(scenes)
    rows: list[Row] = []
    model = os.environ.get(MODEL_ENV, "")
    notes = [
        f"Each scene of perf/scenarios/{name}.json played on one real daemon "
        f"({'the chat model ' + model if model else 'scripted provider'}, "
        "USE-multilingual-v3): session 1 arms a dated matter, session 2 says something later, then "
        "scheduler.check_in at the probe times (recorded). Judged: is the session-1 matter suggested after "
        "session 2 began (perf/eval/retire.py).",
        "consolidation's model calls: "
        + ", ".join(f"{k} {v}" for k, v in sorted(counters.items()) if k.endswith("model_calls"))
        + f"; ended_model_told {counters.get('ended_model_told', 0)}",
    ]
    for split in ("test", "train"):
        for lang in ("en", "zh"):
            part = [j for j in judged if j.scene.split == split and j.scene.lang == lang]
            if part:
                got, wrong = rows_of(f"{split} half, {lang}", part)
                rows += got
                befores = {"retire_dev8": BEFORE, "retire_dev9": BEFORE9, "retire_dev38": BEFORE38}
                before = befores[name].get((split, lang))
                if before is not None:
                    right, counted, kinds = before
                    main = MAINS[name]
                    rows.append(
                        Row(
                            f"{split} half, {lang}: scenes right, BEFORE (main {main})",
                            _pct(right, counted),
                            "%",
                            note=f"{right}/{counted}; {kinds}",
                        )
                    )
                notes.append(f"{split} half, {lang}, wrong: {wrong}")
    title = {
        "retire_dev8": "A later loss or 'it doesn't matter now' retires a how-did-it-go (retire_dev8)",
        "retire_dev9": "A matter follows what the user said since: mentioned, moved, moot, sad (retire_dev9)",
        "retire_dev38": "A matter whose end the user told is not asked again (retire_dev38)",
    }[name]
    return Section(title, rows, notes, area=AREAS[name])
