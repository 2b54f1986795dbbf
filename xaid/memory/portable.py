"""Export and import of an agent's memory in a portable form.

Episodes use the roadmap's MVP-a layout: one JSONL file per session at
``<agent_id>/<YYYY-MM>/<session_id>.jsonl``, one episode per line, with its highlights and the
session's turns. Facts (every status, with their history), the mood, the scheduler's follow-ups
and its settings, and the persona travel beside them. Import re-embeds every text with the running
model, so a file from another device or another model works, and is idempotent per session id.

A round trip (export, import into a fresh agent, export again) gives back every field of a
person's memory (tests/xaid/memory/test_portable_round_trip.py): what differs is only what is the
device's own (ids, session keys, ``decided_by: import``, reference counts) and the persona, which
is rewritten from the facts at the next consolidation.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import itertools
import json
import re
from dataclasses import dataclass
from typing import Any

import apsw

from .. import clock
from ..clock import MAX_TS
from ..store import memory as sql
from ..store import mood as mood_sql
from ..store import recall as recall_sql
from ..store import utterances as utterance_sql
from ..store.mood import MoodState
from ..store.recall import RecallItem, Settings
from ..store.utterances import NewUtterance
from . import imported, index, utterances
from .imported import ImportedFact

FORMAT = "xaid-memory/1"
IMPORT_KEY = re.compile(r"x_[0-9a-f]{16}")  # live sessions are s_<16 hex>: the two never meet


def _held_elsewhere(conn: apsw.Connection, agent_id: str, key: str) -> bool:
    return any(
        conn.execute(
            f"SELECT 1 FROM {table} WHERE session_id = ? AND agent_id != ? LIMIT 1", (key, agent_id)
        ).fetchone()
        for table in ("sessions", "episodes", "utterances")
    )


def session_key(conn: apsw.Connection, agent_id: str, original: str | None) -> str | None:
    """The session id an import is stored under: never one of a live session, never another agent's.

    An imported id is the file's word, not ours: taken as it is, it could name another agent's open
    session (whose consolidation would then find "its" episode done) or hold path parts. It is re-keyed
    to ``x_`` and a hash of agent and id, the same every time, so importing a file twice still finds
    the first copy; a key of this agent's own earlier export stays as it is."""
    if original is None:
        return None
    if IMPORT_KEY.fullmatch(original) and not _held_elsewhere(conn, agent_id, original):
        return original
    return "x_" + hashlib.sha256(f"{agent_id}\0{original}".encode()).hexdigest()[:16]


def path_part(name: str) -> str:
    """``name`` as one safe file name: ids checked since (dispatch.Params.id) pass unchanged; an agent
    stored by an older xaid as ``..`` or with a NUL is spelt with %XX escapes, so it can still be exported."""
    if name not in ("", ".", "..") and all(
        c.isprintable() and not c.isspace() and c not in "/\\%" for c in name
    ):
        return name
    escaped = "".join(
        c if c.isalnum() or c in "-_." else "".join(f"%{b:02X}" for b in c.encode()) for c in name
    )
    return escaped.replace(".", "%2E") if set(escaped) <= {"."} else escaped


def _month(ts_ms: int) -> str:
    return clock.local(ts_ms, dt.UTC).strftime("%Y-%m")


def _turns(conn: apsw.Connection, agent_id: str) -> dict[str | None, list[dict[str, Any]]]:
    """Every utterance of the agent by session, as exported (ids are local and stay behind)."""
    out: dict[str | None, list[dict[str, Any]]] = {}
    for u in utterance_sql.listed(conn, agent_id, limit=10**9):
        out.setdefault(u.session_id, []).append(
            {
                "role": u.role,
                "speaker": u.speaker,
                "text": u.text,
                "ts": u.ts_ms,
                "ref": u.ref,
                "status": u.status,
                "value": u.value,
            }
        )
    return out


def export(conn: apsw.Connection, agent_id: str) -> dict[str, Any]:
    files: dict[str, list[str]] = {}
    turns = _turns(conn, agent_id)
    for ep in reversed(sql.episodes(conn, agent_id, limit=10**9)):
        facts = [
            r[0]
            for r in conn.execute(
                "SELECT fact_id FROM facts WHERE episode_id = ?", (ep.episode_id,)
            )
        ]
        line = {
            "episode_id": ep.episode_id,
            "session_id": ep.session_id,
            "agent_id": agent_id,
            "started_ms": ep.started_ms,
            "ended_ms": ep.ended_ms,
            "summary": ep.summary,
            "highlights": [h.to_wire() for h in sql.highlights_of(conn, ep.episode_id)],
            "closing_mood": {
                "valence": ep.closing_valence,
                "arousal": ep.closing_arousal,
                "fatigue": ep.closing_fatigue,
            },
            "tension": ep.tension,
            "decided_by": ep.decided_by,
            "refs": list(ep.refs),
            "fact_refs": facts,
            "utterances": turns.pop(ep.session_id, []) if ep.session_id is not None else [],
        }
        name = path_part(ep.session_id or f"episode-{ep.episode_id}")
        path = f"{path_part(agent_id)}/{_month(ep.ended_ms)}/{name}.jsonl"
        files.setdefault(path, []).append(json.dumps(line, ensure_ascii=False))
    for (
        session_id,
        rest,
    ) in turns.items():  # sessions where only the companion spoke: turns, no episode
        line = {"session_id": session_id, "agent_id": agent_id, "utterances": rest}
        path = f"{path_part(agent_id)}/{_month(rest[-1]['ts'])}/{path_part(session_id or 'turns')}.jsonl"
        files.setdefault(path, []).append(json.dumps(line, ensure_ascii=False))
    facts = []
    for fact in sql.facts(conn, agent_id, status=None):
        wire = fact.to_wire()
        wire["history"] = sql.fact_history(conn, fact.fact_id)
        facts.append(wire)
    persona = sql.persona(conn, agent_id)
    mood = mood_sql.get(conn, agent_id)
    settings = recall_sql.saved_settings(conn, agent_id)
    return {
        "format": FORMAT,
        "agent_id": agent_id,
        "files": {path: "\n".join(lines) + "\n" for path, lines in sorted(files.items())},
        "facts": facts,
        "persona": persona.text if persona else None,
        "mood": dataclasses.asdict(mood) if mood else None,
        "scheduler": {
            "items": [i.to_wire() for i in recall_sql.items(conn, agent_id, recall_sql.STATES)],
            "settings": settings.to_wire() if settings else None,
        },
    }


def parse_files(files: dict[str, str]) -> list[dict[str, Any]]:
    episodes = []
    for path, text in sorted(files.items()):
        for n, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{path}:{n}: not JSON ({exc.msg})") from None
            except RecursionError:
                raise ValueError(f"{path}:{n}: JSON nested too deep") from None
            if not isinstance(record, dict):
                raise ValueError(f"{path}:{n}: a line must be a JSON object")
            record["utterances"] = _utterances(record.get("utterances", []), f"{path}:{n}")
            if "summary" not in record and record["utterances"]:
                episodes.append(record)  # a session's turns without an episode
                continue
            imported.episode(record, f"{path}:{n}")
            episodes.append(record)
    return episodes


def _utterances(raw: Any, where: str) -> list[dict[str, Any]]:
    """Imported turns, checked like wire params: a bad one refuses the import, nothing is written."""
    if not isinstance(raw, list):
        raise ValueError(f"{where}: 'utterances' must be a list")
    out = []
    for u in raw:
        ok = (
            isinstance(u, dict)
            and u.get("role") in ("user", "assistant")
            and isinstance(u.get("text"), str)
            and isinstance(u.get("ts"), int)
            and not isinstance(u.get("ts"), bool)
            and 0 <= u["ts"] <= MAX_TS
            and isinstance(u.get("ref", ""), str)
            and isinstance(u.get("speaker") or "", str)
        )
        if not ok:
            raise ValueError(
                f"{where}: an utterance needs 'role' (user or assistant), 'text' and an integer 'ts'"
            )
        imported.text(u["text"], f"{where}: an utterance's 'text'", imported.MAX_TURN_TEXT)
        imported.text(u.get("ref"), f"{where}: an utterance's 'ref'", imported.MAX_LABEL)
        imported.text(u.get("speaker"), f"{where}: an utterance's 'speaker'", imported.MAX_LABEL)
        value = imported.number(u.get("value"), f"{where}: an utterance's 'value'", 0.0, 1.0)
        out.append(
            {
                "role": u["role"],
                "text": u["text"],
                "ts": u["ts"],
                "ref": u.get("ref") or "",
                "speaker": u.get("speaker") or None,
                "superseded": u.get("status") == "superseded",
                "value": value,
            }
        )
    return out


def _highlights(ep: dict[str, Any]) -> list[sql.PeakExport]:
    """The episode's highlights as the file has them (a time, intensity and specificity it lacks
    are the episode's end and 0)."""
    return [
        sql.PeakExport(
            h["text"],
            h["ts"] if isinstance(h.get("ts"), int) else ep["ended_ms"],
            float(h.get("intensity") or 0.0),
            float(h.get("specificity") or 0.0),
        )
        for h in ep.get("highlights", [])
        if isinstance(h, dict) and isinstance(h.get("text"), str)
    ]


def _searched(ep: dict[str, Any]) -> list[sql.PeakExport]:
    """Highlights are searched as such only in files without turns (older exports); with the turns
    present, the utterances hold the same words, as in an episode consolidated here (episodes.py).
    They are stored either way (issue 22 item 11: a round trip lost every one of them)."""
    return [] if ep.get("utterances") else _highlights(ep)


def texts_to_embed(episodes: list[dict[str, Any]], facts: list[ImportedFact]) -> list[str]:
    out = []
    for ep in episodes:
        if "summary" in ep:
            out.append(ep["summary"])
        out += [h.text for h in _searched(ep)]
        out += [u["text"] for u in ep["utterances"]]
    out += [f.new.text for f in facts if f.current]
    return out


def write(
    conn: apsw.Connection,
    agent_id: str,
    episodes: list[dict[str, Any]],
    facts: list[ImportedFact],
    vectors: list[Any],
    now_ms: int,
    state: State | None = None,
) -> dict[str, int]:
    """Insert what is new; episodes whose session id this agent already has are skipped."""
    episode_ids: dict[int, int] = {}  # the exporting device's episode ids → this agent's
    vec = (
        iter(vectors) if len(vectors) else itertools.repeat(None)
    )  # no embedding model: keywords only
    added_eps = added_facts = 0
    for ep in episodes:
        session_id = session_key(
            conn, agent_id, ep.get("session_id") if isinstance(ep.get("session_id"), str) else None
        )
        if "summary" not in ep:  # turns only
            if (
                conn.execute(
                    "SELECT 1 FROM utterances WHERE agent_id = ? AND session_id = ?",
                    (agent_id, session_id),
                ).fetchone()
                is None
            ):
                _write_turns(conn, agent_id, session_id, None, ep["utterances"], vec)
            else:
                for _ in ep["utterances"]:
                    next(vec)
            continue
        owner = conn.execute(
            "SELECT agent_id FROM episodes WHERE session_id = ?", (session_id,)
        ).fetchone()
        searched = _searched(ep)
        same = conn.execute(
            "SELECT 1 FROM episodes WHERE agent_id = ? AND started_ms = ? AND ended_ms = ? AND "
            "summary = ?",
            (agent_id, ep["started_ms"], ep["ended_ms"], ep["summary"]),
        ).fetchone()
        if (owner is not None and owner[0] == agent_id) or same is not None:
            for _ in range(1 + len(searched) + len(ep["utterances"])):
                next(vec)
            continue
        mood = ep.get("closing_mood") or {}
        closing = (
            sql.ClosingMood(mood["valence"], mood.get("arousal"), mood.get("fatigue"))
            if mood.get("valence") is not None
            else None
        )
        tension = float(ep.get("tension") or 0.0)
        episode_id = sql.insert_episode(
            conn,
            agent_id,
            session_id if owner is None else None,
            ep["started_ms"],
            ep["ended_ms"],
            ep["summary"],
            closing,
            tension,
            "import",
        )
        if isinstance(ep.get("episode_id"), int):
            episode_ids[ep["episode_id"]] = episode_id
        refs = [r for r in ep.get("refs", []) if isinstance(r, str)]
        sql.add_sources(conn, "episode", episode_id, agent_id, [(None, r) for r in refs])
        index.add(conn, agent_id, "episode", episode_id, ep["summary"], ep["ended_ms"], next(vec))
        for h in _highlights(ep):
            hid = sql.insert_highlight(
                conn, episode_id, agent_id, h.text, h.ts_ms, h.intensity, h.specificity
            )
            if searched:
                index.add(conn, agent_id, "highlight", hid, h.text, h.ts_ms, next(vec))
        _write_turns(
            conn, agent_id, session_id if owner is None else None, episode_id, ep["utterances"], vec
        )
        added_eps += 1
    added_facts = _write_facts(conn, agent_id, facts, vec, now_ms, episode_ids)
    added = {"episodes": added_eps, "facts": added_facts}
    if state is not None:  # the call carried a mood or the scheduler's items
        added["follow_ups"] = _write_state(conn, agent_id, state, episode_ids)
    return added


@dataclass(frozen=True, slots=True)
class State:
    """What an export holds beside episodes and facts: the mood, the scheduler's follow-ups and
    its settings."""

    mood: MoodState | None = None
    follow_ups: tuple[RecallItem, ...] = ()
    settings: Settings | None = None


def _write_facts(
    conn: apsw.Connection,
    agent_id: str,
    facts: list[ImportedFact],
    vec: Any,
    now_ms: int,
    episode_ids: dict[int, int],
) -> int:
    """Facts of every status, skipping one the agent holds with the same text and status; their
    history, the chain of what superseded what and the episode each was learnt in (when that
    episode came in the same call) as the export had them, the ids remapped."""
    known = {(f.text, f.status) for f in sql.facts(conn, agent_id, status=None)}
    ids: dict[int, int] = {}
    written: list[tuple[ImportedFact, int, int]] = []
    for f in facts:
        vector = next(vec) if f.current else None  # texts_to_embed embeds the current ones
        if (f.new.text, f.status) in known:
            continue
        created = f.created_ms if f.created_ms is not None else now_ms
        episode = episode_ids.get(f.episode_ref) if f.episode_ref is not None else None
        fact_id = sql.insert_fact(conn, agent_id, f.new, episode, "import", created)
        sql.add_sources(conn, "fact", fact_id, agent_id, [(None, r) for r in f.refs])
        if f.current:
            index.add(conn, agent_id, "fact", fact_id, f.new.text, created, vector)
        known.add((f.new.text, f.status))
        if f.exported_id is not None:
            ids[f.exported_id] = fact_id
        written.append((f, fact_id, created))
    for f, fact_id, created in written:
        successor = ids.get(f.superseded_ref) if f.superseded_ref is not None else None
        sql.restore_fact_state(conn, fact_id, f.status, successor, f.updated_ms or created)
        if f.history:
            lines = [
                (h.ts_ms, h.action, h.text, h.decided_by, ids.get(h.other) if h.other else None)
                for h in f.history
            ]
            sql.restore_history(conn, fact_id, agent_id, lines)
    return len(written)


def _write_state(
    conn: apsw.Connection, agent_id: str, state: State, episode_ids: dict[int, int]
) -> int:
    """The mood when newer than the agent's own, the follow-ups not yet held, the scheduler's
    settings when the agent has none of its own; the number of follow-ups written."""
    if state.mood is not None:
        mood_sql.restore(conn, agent_id, state.mood)
    if state.settings is not None and recall_sql.saved_settings(conn, agent_id) is None:
        recall_sql.save_settings(conn, agent_id, state.settings)
    written = 0
    for item in state.follow_ups:
        source = episode_ids.get(item.source_episode) if item.source_episode else None
        written += recall_sql.restore(
            conn, agent_id, dataclasses.replace(item, source_episode=source)
        )
    return written


def _write_turns(
    conn: apsw.Connection,
    agent_id: str,
    session_id: str | None,
    episode_id: int | None,
    turns: list[dict[str, Any]],
    vec: Any,
) -> None:
    """Imported utterances, written like consolidated ones; a superseded one stays history."""
    new = [
        NewUtterance(
            None,
            t["ref"],
            t["role"],
            t["speaker"],
            t["text"],
            t["ts"],
            t["value"] if t["value"] is not None else utterances.value(t["text"], 0.0),
        )
        for t in turns
    ]
    vectors = [next(vec) for _ in turns]
    utterances.keep(
        conn, agent_id, session_id, episode_id, new, vectors, [t["superseded"] for t in turns]
    )
