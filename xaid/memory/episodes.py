"""The memory side of a consolidation: read a closed session, plan its facts, embed what is worth a
vector, and write the episode, its highlights, turns and facts.

xaid.consolidation runs these steps as one job, and the scheduler's and the mood's parts beside
them; what they need from the daemon (the model for an unsure call, the embedder, counters) comes
in through ``Helpers``, so the rules here import no service.
"""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass, replace
from functools import partial
from typing import Protocol

import apsw
import numpy as np

from .. import cpu
from ..config import MemoryConfig
from ..embed import EmbedProfile
from ..store import Database
from ..store import memory as sql
from ..store import sessions as session_sql
from ..store import utterances as utterance_sql
from ..store.memory import ClosingMood, Fact, NewFact, Signals
from ..store.mood import MoodState
from ..store.utterances import NewUtterance
from ..text import features, timeparse
from . import confirm, draft, facts, index, supersede, utterances
from .rules import extract

log = logging.getLogger(__name__)


class Helpers(Protocol):
    """What planning an episode needs from the daemon, as ``facts.decide`` takes ``ask``."""

    counters: Counter[str]

    @property
    def profile(self) -> EmbedProfile: ...

    async def ask(self, prompt: str, max_tokens: int, agent_id: str) -> str | None: ...

    async def embed_readable(self, texts: list[str]) -> list[np.ndarray | None]: ...


@dataclass
class PlannedFact:
    new: NewFact
    decision: facts.Decision
    vector: np.ndarray | None
    sources: list[tuple[int | None, str]]


def read(
    conn: apsw.Connection, session_id: str
) -> tuple[list[session_sql.Message], dict[int, float]]:
    messages = session_sql.messages(conn, session_id)
    rows = conn.execute(
        "SELECT h.message_id, h.intensity FROM mood_history h JOIN messages m ON m.message_id = h.message_id "
        "WHERE m.session_id = ? AND h.intensity IS NOT NULL",
        (session_id,),
    )
    return messages, {int(mid): float(i) for mid, i in rows}


def _mentions(utterances: list[draft.Utterance], source: str) -> int:
    """How many of the user's messages name what the candidate is about (its nouns, numbers)."""
    f = features.features(source)
    keys = [k.lower() for k in (*f.proper_nouns, *f.numbers)]
    if not keys:
        return 1
    # at least the message that stated it, even when its noun is written otherwise ("King's" → "King")
    return max(1, sum(1 for u in utterances if any(k in u.message.text.lower() for k in keys)))


@dataclass
class _Mention:
    """One fact candidate of a session with every message that stated it: a fact said twice in one
    conversation is one fact with two sources, never two facts (or one superseding its own twin)."""

    candidate: extract.Candidate
    utterance: draft.Utterance
    signals: facts.Signals
    value: float
    sources: list[tuple[int | None, str]]

    def repeat(self, c: extract.Candidate, u: draft.Utterance, s: facts.Signals, v: float) -> None:
        """A later mention: its words and dates are the latest; the better value and confidence stay."""
        if (u.message.message_id, u.ref) not in self.sources:
            self.sources.append((u.message.message_id, u.ref))
        self.candidate = replace(c, confidence=max(c.confidence, self.candidate.confidence))
        self.utterance = u
        if v > self.value:
            self.signals, self.value = s, v


def _gather(cfg: MemoryConfig, d: draft.Draft, now_ms: int) -> list[_Mention]:
    """The session's candidates, repeats merged: same subject and same words (facts.normalise) are
    one. Pure computation over every utterance (``cpu.run`` keeps it off the event loop)."""
    seen: dict[tuple[str, str], _Mention] = {}
    for u in d.utterances:
        for c in u.candidates:
            s = facts.signals(
                c.kind,
                u.specificity,
                u.intensity,
                _mentions(d.utterances, c.source),
                u.message.ts_ms,
                now_ms,
            )
            v = facts.value(s, cfg)
            key = (c.subject, facts.normalise(c.text))
            if key in seen:
                seen[key].repeat(c, u, s, v)
            else:
                seen[key] = _Mention(c, u, s, v, [(u.message.message_id, u.ref)])
    return list(seen.values())


def _valid(u: draft.Utterance) -> tuple[str | None, str | None]:
    """The dates a fact from this message holds for: the soonest future time it names, else the first."""
    refs = timeparse.find_times(u.message.text, u.message.ts_ms)
    when = timeparse.earliest_future(refs) or (refs[0] if refs else None)
    return (when.date_from.isoformat(), when.date_to.isoformat()) if when else (None, None)


async def plan_facts(
    mem: Helpers, db: Database, cfg: MemoryConfig, agent_id: str, d: draft.Draft, now_ms: int
) -> list[PlannedFact]:
    """Each candidate of the session scored, the unsure ones confirmed, and compared with what is known."""
    mem.counters["fact_candidates"] += sum(len(u.candidates) for u in d.utterances)
    gathered = await cpu.run(_gather, cfg, d, now_ms)
    found = [m for m in gathered if m.value >= cfg.promote_threshold]
    if not found:
        return []
    found = await _confirmed(mem, agent_id, found)
    who = draft.speaker(d.utterances)
    texts = [draft.name_the_user(m.candidate.text, who) for m in found]
    # An English-only model maps all Chinese close together (用户喜欢猫 vs 用户在腾讯工作: 0.98): its
    # neighbours would make every Chinese fact a "duplicate". Such facts get no vector and are compared
    # by subject and words only (facts.settle: exact restatements, and the object each names).
    vectors = await mem.embed_readable(texts)
    planned: list[PlannedFact] = []
    for m, text, vec in zip(found, texts, vectors, strict=True):
        c = m.candidate
        neighbours, same = await db.run(_neighbours, agent_id, vec, c.subject)
        # Facts planned earlier in this same episode count as known too (never as targets: they have no row).
        same = [
            *same,
            *(
                _pseudo(p, i)
                for i, p in enumerate(planned)
                if p.new.subject == c.subject and p.decision.action != "NOOP"
            ),
        ]
        claim = facts.Claim(text, c.subject, c.negated, c.key, c.source)
        decision = await facts.decide(
            claim, neighbours, same, cfg, partial(mem.ask, agent_id=agent_id), mem.profile
        )
        mem.counters[f"fact_{decision.decided_by}"] += 1
        new = NewFact(c.subject, c.kind, text, m.value, m.signals, *_valid(m.utterance))
        planned.append(PlannedFact(new, decision, vec, m.sources))
    return planned


async def _confirmed(mem: Helpers, agent_id: str, found: list[_Mention]) -> list[_Mention]:
    """A rule that is sure stands; the unsure ones of the session are confirmed by one yes/no call
    for all of them (memory.confirm), else dropped."""
    done = await confirm.confirm([m.candidate for m in found], partial(mem.ask, agent_id=agent_id))
    mem.counters["fact_unsure_asked"] += done.asked
    mem.counters["fact_unsure_calls"] += done.calls
    mem.counters["fact_unsure_unreadable"] += done.unreadable
    kept = sum(done.kept[i] for i, m in enumerate(found) if m.candidate.confidence < confirm.SURE)
    mem.counters["fact_unsure_kept"] += kept
    mem.counters["fact_unsure_dropped"] += done.asked - kept
    return [m for m, ok in zip(found, done.kept, strict=True) if ok]


def _pseudo(p: PlannedFact, i: int) -> Fact:
    """A fact planned earlier in this session, as a known fact: its id is -(i + 1), never a stored one,
    so facts.decide shows it but never makes it the target of an UPDATE, DELETE or NOOP."""
    return Fact(
        -(i + 1),
        "",
        p.new.subject,
        p.new.kind,
        p.new.text,
        "current",
        None,
        None,
        p.new.value,
        Signals(),
        p.new.valid_from,
        p.new.valid_to,
        "",
        0,
        0,
        0,
    )


def _neighbours(
    conn: apsw.Connection, agent_id: str, vec: np.ndarray | None, subject: str
) -> tuple[list[tuple[Fact, float]], list[Fact]]:
    hits = index.knn(conn, agent_id, vec, 12) if vec is not None else []
    found = index.items(conn, [i for i, _ in hits])
    out: list[tuple[Fact, float]] = []
    for item_id, cos in hits:
        item = found.get(item_id)
        if item is None or item.kind != "fact":
            continue
        fact = sql.get_fact(conn, agent_id, item.source_id)
        if fact is not None and fact.status == "current":
            out.append((fact, cos))
        if len(out) == 3:
            break
    return out, sql.facts(conn, agent_id, subject=subject)


async def embed(
    mem: Helpers, texts: list[str], turns: list[NewUtterance]
) -> tuple[list[np.ndarray | None], list[np.ndarray | None]]:
    """Vectors for ``texts`` and for the turns worth finding by meaning, in one batch. Small talk gets
    none: "haha ok" is found by its words if at all, and a vector is most of what a turn costs to keep."""
    worth = [i for i, t in enumerate(turns) if utterances.worth_a_vector(t)]
    found = await mem.embed_readable([*texts, *(turns[i].text for i in worth)])
    by_turn: list[np.ndarray | None] = [None] * len(turns)
    for i, vec in zip(worth, found[len(texts) :], strict=True):
        by_turn[i] = vec
    return found[: len(texts)], by_turn


def write_turns(
    conn: apsw.Connection,
    agent_id: str,
    session_id: str,
    turns: list[NewUtterance],
    vectors: list[np.ndarray | None],
) -> None:
    """A session where the companion alone spoke: no episode, but what it said is still memory."""
    if (
        conn.execute(
            "SELECT 1 FROM utterances WHERE agent_id = ? AND session_id = ?", (agent_id, session_id)
        ).fetchone()
        is None
    ):
        utterances.keep(conn, agent_id, session_id, None, turns, vectors)


def write_episode(
    conn: apsw.Connection,
    agent_id: str,
    session_id: str,
    d: draft.Draft,
    closing: MoodState | None,
    planned: list[PlannedFact],
    vectors: list[np.ndarray | None],
    turns: list[NewUtterance],
) -> int:
    """The episode, its highlights, the session's turns and the planned facts; its id. ``vectors`` are
    the summary's, then the turns'."""
    kept = ClosingMood(closing.valence, closing.arousal, closing.fatigue) if closing else None
    episode_id = sql.insert_episode(
        conn,
        agent_id,
        session_id,
        d.started_ms,
        d.ended_ms,
        d.summary,
        kept,
        d.tension,
        d.decided_by,
    )
    sql.add_sources(conn, "episode", episode_id, agent_id, d.sources())
    index.add(conn, agent_id, "episode", episode_id, d.summary, d.ended_ms, vectors[0])
    # Highlights stay part of the episode (its verbatim peaks, exported, pruned by the curve), but search
    # finds those words through the session's utterances, which hold every turn: indexing both would spend
    # the budget twice on one sentence.
    for u in d.highlights:
        hid = sql.insert_highlight(
            conn, episode_id, agent_id, u.message.text, u.message.ts_ms, u.intensity, u.specificity
        )
        sql.add_sources(conn, "highlight", hid, agent_id, [(u.message.message_id, u.ref)])
    utterances.keep(conn, agent_id, session_id, episode_id, turns, vectors[1:])
    for p in planned:
        apply_decision(conn, agent_id, episode_id, p, d.ended_ms)
    return episode_id


def apply_decision(
    conn: apsw.Connection, agent_id: str, episode_id: int | None, p: PlannedFact, ts_ms: int
) -> None:
    action, target, by = p.decision.action, p.decision.target, p.decision.decided_by
    if target is not None and target <= 0:
        target = None  # a fact planned in this session (_pseudo) has no row: never a target
    if target is not None and (sql.get_fact(conn, agent_id, target) or _gone()).status != "current":
        action, target = "ADD", None  # the target changed meanwhile: keep the new information
    if action == "NOOP":
        if target is not None:
            sql.fact_event(conn, target, agent_id, ts_ms, "NOOP", p.new.text, by)
            sql.add_sources(conn, "fact", target, agent_id, p.sources)
            sql.touch(conn, "fact", target, ts_ms)
        return
    if action == "DELETE" and target is not None:
        sql.retire(conn, target, ts_ms, by)
        index.remove(conn, "fact", [target])
        unquote(conn, utterance_sql.supersede_sources(conn, agent_id, target, supersede.stands))
        return
    fact_id = sql.insert_fact(conn, agent_id, p.new, episode_id, by, ts_ms)
    sql.add_sources(conn, "fact", fact_id, agent_id, p.sources)
    index.add(conn, agent_id, "fact", fact_id, p.new.text, ts_ms, p.vector)
    if action == "UPDATE" and target is not None:
        sql.supersede(conn, target, fact_id, ts_ms, by)
        index.remove(conn, "fact", [target])
        unquote(conn, utterance_sql.supersede_sources(conn, agent_id, target, supersede.stands))


def unquote(conn: apsw.Connection, stated: list[utterance_sql.Utterance]) -> None:
    """An episode summary that quotes a statement now superseded drops that quote (and its vector,
    made from the quote), so the old value is not recalled as current through the episode either;
    the turn itself stays, as history."""
    for u in stated:
        if u.episode_id is None:
            continue
        row = conn.execute(
            "SELECT summary FROM episodes WHERE episode_id = ?", (u.episode_id,)
        ).fetchone()
        if row is None:
            continue
        summary = row[0]
        for lang in draft.FRAMES:
            for who in {None, u.speaker}:
                summary = summary.replace(" " + draft.said(who, u.text, lang), "")
        if summary != row[0]:
            conn.execute(
                "UPDATE episodes SET summary = ? WHERE episode_id = ?", (summary, u.episode_id)
            )
            conn.execute(
                "UPDATE memory_items SET text = ? WHERE kind = 'episode' AND source_id = ?",
                (summary, u.episode_id),
            )
            # its vector still means the old quote: found by its words from now on, or the bare
            # "On 1 December the user talked with Kai." ranks first for the old value's question
            index.remove_vectors(
                conn, u.agent_id, list(index.items_of(conn, "episode", [u.episode_id]))
            )


class _gone:
    status = "gone"
