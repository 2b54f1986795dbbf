"""Letting go: the forgetting curve, and the user's own "forget" which is complete and immediate.

Curve (DESIGN.md §2): an episode never referenced loses its highlights after ``highlight_days``
and is deleted after ``forget_days``. Retrieval hits and user mentions count as references, so
what keeps coming up stays.

Transcripts: the raw messages of a session whose consolidation is done are deleted
``keep_transcripts_days`` after it closed, with its "Earlier" folds (Layer A, quoted from them).
What consolidation kept (episode, highlights, facts, provenance refs) and the session row stay;
the row records when (``transcript_pruned_ms``) so ``session.history`` can say so.

``forget`` removes the memory from every table and index: the row, its provenance, its keyword
entries (FTS triggers) and its vector. Forgetting by query also deletes the raw messages that
said it, and the mood readings tied to them, because a user who says "forget that" means it.
What a query matched goes, and only that: a fact, a turn, a highlight whole; in an episode summary
and the profile (L3) the sentences that hold it (rewrite.py), so "forget that I'm a programmer"
keeps the sister and the tiredness of the same evening, and the profile, minus that line, stays
in the prompt. ``checkpoint`` then moves the WAL into the database file and truncates it, so the
text is not left behind in the -wal file either (secure_delete overwrites freed pages).

A query is looked for in every column that holds someone's words (``WORD_COLUMNS``, which
tests/xaid/memory/test_erase_canary.py checks against the schema): the text of messages and the
arguments of the tool calls they made, the scheduler's topics and keywords (and the topics not to
bring up), facts with their subjects and history, the cues a mood reading fired on, a speaker's
name. The functions here only
delete; the fence, the keyword indexes, the checkpoint and the copies held in memory are
``erase.Eraser``'s, the one path every forget and ``agent.delete`` takes.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable, Collection, Sequence

import apsw

from ..clock import DAY_MS
from ..config import MemoryConfig
from ..store import agents as agent_sql
from ..store import recall as recall_sql
from ..store import sessions as session_sql
from ..store import utterances as utterance_sql
from ..text import cjk
from . import forget_topic, index, persona, rewrite
from .utterances import CHATTER_VALUE, tells_a_change

# Sessions whose transcripts one transaction deletes: the first maintenance after an upgrade may
# find years of them, and the database is one thread; the rest follow in further transactions.
TRANSCRIPT_BATCH = 200
KINDS = ("episode", "highlight", "fact", "utterance")
KEEP_VALUE = (
    0.45  # an utterance this specific or felt is kept however old (a name and a date ≈ 0.5)
)
# Every column a forget by query searches, by table: what _forget_where reads. The schema test
# (tests/xaid/memory/test_erase_canary.py) fails on a TEXT column in neither this nor its list of
# identifiers and settings, so a new column of words cannot be left out of forget unnoticed.
WORD_COLUMNS: dict[str, tuple[str, ...]] = {
    "messages": ("text", "tool_calls", "speaker"),
    "episodes": ("summary",),
    "highlights": ("text",),
    "facts": ("subject", "text"),
    "fact_history": ("text",),
    "utterances": ("speaker",),
    "memory_items": ("text",),
    "persona": ("text",),
    "compressions": ("text",),
    "recall_items": ("topic", "keywords"),
    "recall_settings": ("avoid",),
    "participants": ("speaker",),
    "mood_history": ("cues",),
    "jobs": ("error",),
}


def apply_curve(conn: apsw.Connection, now_ms: int, cfg: MemoryConfig) -> dict[str, int]:
    prune_before = now_ms - cfg.highlight_days * DAY_MS
    delete_before = now_ms - cfg.forget_days * DAY_MS
    doomed = [
        r[0]
        for r in conn.execute(
            "SELECT episode_id FROM episodes WHERE ref_count = 0 AND ended_ms < ?", (delete_before,)
        )
    ]
    for episode_id in doomed:
        delete_episode(conn, episode_id)
    pruned = [
        r[0]
        for r in conn.execute(
            "SELECT episode_id FROM episodes WHERE ref_count = 0 AND ended_ms < ? AND pruned_ms IS NULL",
            (prune_before,),
        )
    ]
    highlights = 0
    for episode_id in pruned:
        highlights += _drop_highlights(conn, episode_id)
        conn.execute("UPDATE episodes SET pruned_ms = ? WHERE episode_id = ?", (now_ms, episode_id))
    messages = prune_transcripts(conn, now_ms, cfg.keep_transcripts_days)
    return {
        "episodes_deleted": len(doomed),
        "episodes_pruned": len(pruned),
        "highlights_deleted": highlights,
        "messages_deleted": messages,
        "utterances_deleted": _fade_utterances(conn, now_ms, cfg),
    }


def _fade_utterances(conn: apsw.Connection, now_ms: int, cfg: MemoryConfig) -> int:
    """Turns nobody recalled go by value: small talk after ``chatter_days``, ordinary turns after
    ``utterance_days`` unless their session's episode was recalled; specific or emotional ones (value ≥
    KEEP_VALUE) stay, like what was recalled itself."""
    # A change told in a few words ("I quit smoking", 我戒烟了) is valued as chatter by its length
    # and was deleted after chatter_days (session 46): it goes as an ordinary turn does.
    chatter_before = now_ms - cfg.chatter_days * DAY_MS
    ordinary_before = now_ms - cfg.utterance_days * DAY_MS
    doomed = [
        uid
        for uid, text, value, ts, recalled in conn.execute(
            "SELECT u.utterance_id, coalesce(m.text, ''), u.value, u.ts_ms, coalesce(e.ref_count, 0) "
            "FROM utterances u LEFT JOIN memory_items m ON m.kind = 'utterance' AND m.source_id = u.utterance_id "
            "LEFT JOIN episodes e ON e.episode_id = u.episode_id "
            "WHERE u.ref_count = 0 AND ((u.value < ? AND u.ts_ms < ?) "
            "OR (u.value < ? AND u.ts_ms < ? AND coalesce(e.ref_count, 0) = 0))",
            (CHATTER_VALUE, chatter_before, KEEP_VALUE, ordinary_before),
        )
        if (ts < ordinary_before and recalled == 0)
        or (value < CHATTER_VALUE and not tells_a_change(text))
    ]
    delete_utterances(conn, doomed)
    # While its transcript is kept, a turn is found by meaning too; after, by its words (names and numbers
    # are the best keywords there are), and by meaning through what consolidation made of it (facts,
    # episodes). The vector is most of what a turn costs to keep; a turn that was recalled keeps it.
    if cfg.keep_transcripts_days > 0:
        fading = utterance_sql.fading(conn, now_ms - cfg.keep_transcripts_days * DAY_MS)
        by_agent: dict[str, list[int]] = {}
        for _uid, agent_id, item_id in fading:
            by_agent.setdefault(agent_id, []).append(item_id)
        for agent_id, item_ids in by_agent.items():
            index.remove_vectors(conn, agent_id, item_ids)
        utterance_sql.unembed(conn, [uid for uid, _, _ in fading])
    index.compact_vectors(conn)
    return len(doomed)


def _transcripts_to_prune(
    conn: apsw.Connection, now_ms: int, keep_days: int, limit: int
) -> list[str]:
    """Sessions closed more than ``keep_days`` before ``now_ms``, consolidated (job done), that still
    hold messages or folds; ``keep_days`` 0 keeps everything."""
    before = now_ms - keep_days * DAY_MS
    if keep_days <= 0 or before <= 0:
        return []
    return [
        r[0]
        for r in conn.execute(
            "SELECT s.session_id FROM sessions s JOIN jobs j ON j.kind = 'consolidate' AND j.session_id = s.session_id "
            "WHERE j.state = 'done' AND s.closed_ms IS NOT NULL AND max(s.closed_ms, s.last_ms) < ? "
            "AND (EXISTS (SELECT 1 FROM messages m WHERE m.session_id = s.session_id) "
            "     OR EXISTS (SELECT 1 FROM compressions c WHERE c.session_id = s.session_id)) LIMIT ?",
            (before, limit),
        )
    ]


def prune_transcripts(
    conn: apsw.Connection, now_ms: int, keep_days: int, limit: int = TRANSCRIPT_BATCH
) -> int:
    """Delete the messages of sessions closed more than ``keep_days`` before ``now_ms`` whose
    consolidation job is done; the number of messages deleted. ``keep_days`` 0 keeps everything.

    A session whose job is pending or failed keeps its messages: they are what the job will read.
    Mood changes keep their rows (``mood_history.message_id`` becomes NULL by its foreign key);
    ``sources`` keep their copied ``ref``, which is the provenance once the message is gone."""
    doomed = _transcripts_to_prune(conn, now_ms, keep_days, limit)
    deleted = 0
    if doomed:
        session_sql.retire_message_ids(conn)
    for session_id in doomed:
        conn.execute("DELETE FROM compressions WHERE session_id = ?", (session_id,))
        conn.execute("DELETE FROM messages WHERE session_id = ?", (session_id,))
        deleted += (
            conn.changes()
        )  # the messages themselves, not the mood rows their foreign key updates
        conn.execute(
            "UPDATE sessions SET transcript_pruned_ms = ? WHERE session_id = ?",
            (now_ms, session_id),
        )
    return deleted


def transcripts_due(conn: apsw.Connection, now_ms: int, keep_days: int) -> bool:
    """Whether prune_transcripts would find anything (what is left after a batch)."""
    return bool(_transcripts_to_prune(conn, now_ms, keep_days, 1))


def _drop_highlights(conn: apsw.Connection, episode_id: int) -> int:
    ids = [
        r[0]
        for r in conn.execute(
            "SELECT highlight_id FROM highlights WHERE episode_id = ?", (episode_id,)
        )
    ]
    index.remove(conn, "highlight", ids)
    for hid in ids:
        conn.execute("DELETE FROM sources WHERE kind = 'highlight' AND item_id = ?", (hid,))
    conn.execute("DELETE FROM highlights WHERE episode_id = ?", (episode_id,))
    return len(ids)


def delete_episode(conn: apsw.Connection, episode_id: int) -> None:
    _drop_highlights(conn, episode_id)
    conn.execute(
        "DELETE FROM recall_items WHERE source_episode = ?", (episode_id,)
    )  # they quote the episode
    index.remove(conn, "episode", [episode_id])
    conn.execute("DELETE FROM sources WHERE kind = 'episode' AND item_id = ?", (episode_id,))
    conn.execute("DELETE FROM episodes WHERE episode_id = ?", (episode_id,))


def delete_fact(conn: apsw.Connection, fact_id: int) -> None:
    """The fact and its whole history chain: a forgotten fact leaves no superseded trace either."""
    chain = {fact_id}
    frontier = [fact_id]
    while frontier:
        fid = frontier.pop()
        for (other,) in conn.execute("SELECT fact_id FROM facts WHERE superseded_by = ?", (fid,)):
            if other not in chain:
                chain.add(other)
                frontier.append(other)
    for fid in chain:
        index.remove(conn, "fact", [fid])
        conn.execute("DELETE FROM sources WHERE kind = 'fact' AND item_id = ?", (fid,))
        conn.execute("UPDATE facts SET superseded_by = NULL WHERE superseded_by = ?", (fid,))
    for fid in chain:
        conn.execute("DELETE FROM facts WHERE fact_id = ?", (fid,))


def delete_utterances(conn: apsw.Connection, ids: list[int]) -> None:
    index.remove(conn, "utterance", ids)
    utterance_sql.delete(conn, ids)


def delete_item(conn: apsw.Connection, agent_id: str, kind: str, source_id: int) -> bool:
    table, key = {
        "episode": ("episodes", "episode_id"),
        "highlight": ("highlights", "highlight_id"),
        "fact": ("facts", "fact_id"),
        "utterance": ("utterances", "utterance_id"),
    }[kind]
    owned = conn.execute(
        f"SELECT 1 FROM {table} WHERE {key} = ? AND agent_id = ?", (source_id, agent_id)
    ).fetchone()
    if owned is None:
        return False
    if kind == "episode":
        delete_episode(conn, source_id)
    elif kind == "fact":
        delete_fact(conn, source_id)
    elif kind == "utterance":
        delete_utterances(conn, [source_id])
    else:
        index.remove(conn, "highlight", [source_id])
        conn.execute("DELETE FROM sources WHERE kind = 'highlight' AND item_id = ?", (source_id,))
        conn.execute("DELETE FROM highlights WHERE highlight_id = ?", (source_id,))
    return True


def forget_text(conn: apsw.Connection, agent_id: str, needle: str) -> int:
    """Everything of this agent that holds ``needle`` (case-insensitive): memories of every kind and
    status, the messages that said it, folded "Earlier" chunks, recall topics; the sentences of
    episode summaries and profile versions that hold it."""
    folded = needle.casefold()
    return _forget_where(
        conn,
        agent_id,
        "instr(casefold({col}), ?) > 0",
        (folded,),
        lambda text: folded in text.casefold(),
    )


def _forget_where(
    conn: apsw.Connection,
    agent_id: str,
    cond: str,
    params: tuple[str, ...],
    holds: Callable[[str], bool],
) -> int:
    """forget_text for any condition on a text column (``cond`` formats ``{col}``, binds ``params``);
    ``holds`` is the same test in Python, for the sentences of what is rewritten."""
    count = 0
    for episode_id, summary in list(
        conn.execute(
            f"SELECT episode_id, summary FROM episodes WHERE agent_id = ? AND {cond.format(col='summary')}",
            (agent_id, *params),
        )
    ):
        count += _forget_in_episode(conn, agent_id, episode_id, summary, holds)
    for kind, table, key, cols in (
        ("highlight", "highlights", "highlight_id", ("text",)),
        ("fact", "facts", "fact_id", ("text", "subject")),
        (
            "utterance",
            "(SELECT source_id, agent_id, text FROM memory_items WHERE kind = 'utterance')",
            "source_id",
            ("text",),
        ),
    ):
        either = " OR ".join(cond.format(col=col) for col in cols)
        ids = [
            r[0]
            for r in conn.execute(
                f"SELECT {key} FROM {table} WHERE agent_id = ? AND ({either})",
                (agent_id, *params * len(cols)),
            )
        ]
        count += sum(delete_item(conn, agent_id, kind, i) for i in ids)
    # A fact whose current words no longer hold it may have said it before: that line of its history goes.
    conn.execute(
        f"DELETE FROM fact_history WHERE agent_id = ? AND {cond.format(col='text')}",
        (agent_id, *params),
    )
    # A tool call's arguments are the model's copy of the user's words (issue 22 item 3).
    ids = [
        r[0]
        for r in conn.execute(
            f"SELECT message_id FROM messages WHERE agent_id = ? AND ({cond.format(col='text')} "
            f"OR {cond.format(col='tool_calls')})",
            (agent_id, *params, *params),
        )
    ]
    count += _delete_message_rows(conn, with_tool_exchange(conn, ids))
    # A name someone spoke under stays on their other words as no name.
    for table in ("messages", "utterances"):
        conn.execute(
            f"UPDATE {table} SET speaker = NULL WHERE agent_id = ? AND {cond.format(col='speaker')}",
            (agent_id, *params),
        )
    conn.execute(
        f"UPDATE mood_history SET cues = NULL WHERE agent_id = ? AND {cond.format(col='cues')}",
        (agent_id, *params),
    )
    conn.execute(
        f"UPDATE jobs SET error = NULL WHERE agent_id = ? AND {cond.format(col='error')}",
        (agent_id, *params),
    )
    conn.execute(
        f"DELETE FROM compressions WHERE {cond.format(col='text')} AND session_id IN "
        "(SELECT session_id FROM sessions WHERE agent_id = ?)",
        (*params, agent_id),
    )
    for version, text in list(
        conn.execute(
            f"SELECT rowid, text FROM persona WHERE agent_id = ? AND {cond.format(col='text')}",
            (agent_id, *params),
        )
    ):
        kept = rewrite.without(text, holds, head=persona.HEADER)
        if kept is None:
            conn.execute("DELETE FROM persona WHERE rowid = ?", (version,))
        else:
            conn.execute("UPDATE persona SET text = ? WHERE rowid = ?", (kept, version))
    # The scheduler's keywords are how it tells the matter came up again: the user's words too (item 9).
    conn.execute(
        f"DELETE FROM recall_items WHERE agent_id = ? AND ({cond.format(col='topic')} "
        f"OR {cond.format(col='keywords')})",
        (agent_id, *params, *params),
    )
    conn.execute(
        f"DELETE FROM participants WHERE agent_id = ? AND {cond.format(col='speaker')}",
        (agent_id, *params),
    )
    _forget_avoided(conn, agent_id, holds)
    return count


def _forget_avoided(conn: apsw.Connection, agent_id: str, holds: Callable[[str], bool]) -> None:
    """ "Don't bring this up" may hold the user's words (an armed item's topic): an entry that holds
    what is forgotten goes; the other entries and settings stay."""
    saved = recall_sql.saved_settings(conn, agent_id)
    if saved is not None and any(holds(w) for w in saved.avoid):
        kept = tuple(w for w in saved.avoid if not holds(w))
        recall_sql.save_settings(conn, agent_id, dataclasses.replace(saved, avoid=kept))


def _forget_in_episode(
    conn: apsw.Connection,
    agent_id: str,
    episode_id: int,
    summary: str,
    holds: Callable[[str], bool],
) -> int:
    """The summary without its sentences that hold the text; the episode goes only when nothing but
    its frame ("On … the user talked with …") would be left. Its vector was made from the old words,
    so it goes too: the episode is found by its remaining words until it is embedded again."""
    kept = rewrite.without(summary, holds, rewrite.EPISODE_FRAMES)
    if kept is None:
        delete_episode(conn, episode_id)
        return 1
    conn.execute("UPDATE episodes SET summary = ? WHERE episode_id = ?", (kept, episode_id))
    row = conn.execute(
        "SELECT item_id FROM memory_items WHERE kind = 'episode' AND source_id = ?", (episode_id,)
    ).fetchone()
    if row is not None:
        conn.execute("UPDATE memory_items SET text = ? WHERE item_id = ?", (kept, row[0]))
        index.remove_vectors(conn, agent_id, [row[0]])
    return 1


def checkpoint(conn: apsw.Connection) -> None:
    """After a forget, outside any transaction: the WAL's pages go into the database file and the
    -wal file is truncated, so forgotten words are not left in it."""
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def delete_messages_matching(conn: apsw.Connection, agent_id: str, needle: str) -> int:
    ids = [
        r[0]
        for r in conn.execute(
            "SELECT message_id FROM messages WHERE agent_id = ? AND instr(casefold(text), ?) > 0",
            (agent_id, needle.casefold()),
        )
    ]
    return _delete_message_rows(conn, ids)


def with_tool_exchange(conn: apsw.Connection, ids: Sequence[int]) -> list[int]:
    """``ids`` and the rest of every tool exchange one of them belongs to: an assistant message's
    tool calls and the tool messages that answer them go together, so the history left is one a
    chat template can still read (no answer without its call, no call without its answer)."""
    out = set(ids)
    for mid in ids:
        row = conn.execute(
            "SELECT session_id, role, tool_calls, tool_call_id FROM messages WHERE message_id = ?",
            (mid,),
        ).fetchone()
        if row is None:
            continue
        session_id, role, calls, answers = row
        if role == "tool" and answers is not None:
            callers: list[tuple[int, str]] = conn.execute(
                "SELECT m.message_id, m.tool_calls FROM messages m, json_each(m.tool_calls) c "
                "WHERE m.session_id = ? AND m.tool_calls IS NOT NULL "
                "AND json_extract(c.value, '$.call_id') = ?",
                (session_id, answers),
            ).fetchall()  # type: ignore[assignment]
            out.update(caller for caller, _ in callers)
            call_ids = [
                c.get("call_id")
                for _, raw in callers
                for c in json.loads(raw)
                if isinstance(c, dict)
            ]
        elif calls is not None:
            call_ids = [c.get("call_id") for c in json.loads(calls) if isinstance(c, dict)]
        else:
            continue
        for call_id in call_ids:
            out.update(
                r[0]
                for r in conn.execute(
                    "SELECT message_id FROM messages WHERE session_id = ? AND role = 'tool' "
                    "AND tool_call_id = ?",
                    (session_id, call_id),
                )
            )
    return sorted(out)


def _delete_message_rows(conn: apsw.Connection, ids: list[int]) -> int:
    if ids:
        session_sql.retire_message_ids(conn)
    for mid in ids:
        conn.execute("DELETE FROM mood_history WHERE message_id = ?", (mid,))
        conn.execute("DELETE FROM messages WHERE message_id = ?", (mid,))
    return len(ids)


# -- what the user asks to forget in conversation (xaid.memory.forget_request) ----------------------
MATCH_FUNCTION = "xaid_forget_match"


def term_matcher(terms: Sequence[str]) -> Callable[[str | None], bool]:
    """Whether a text holds every term: a Latin word as a word (ignoring case, with a plural or
    possessive ending: "ex" is in "My ex's flat", not in "next"), Chinese as it is written."""
    patterns = [
        re.compile(rf"(?<![\w]){re.escape(t)}(?:s|es|'s)?(?![\w])", re.I)
        if not cjk.has(t)
        else re.compile(re.escape(t))
        for t in terms
    ]

    def match(text: str | None) -> bool:
        return bool(text and all(p.search(text) for p in patterns))

    return match


def forget_terms(
    conn: apsw.Connection, agent_id: str, terms: Sequence[str], spare: Sequence[int] = ()
) -> tuple[int, list[int]]:
    """Everything of the agent that holds every one of ``terms`` (term_matcher), as forget_text
    deletes it; with the user messages that said it go the replies that answered them, and whatever
    was made from those messages alone (turns, facts, highlights by their provenance). ``spare``:
    user messages judged another matter (forget_topic's resolution: the same person in another
    conversation), which stay with their replies and whatever quotes them, although they hold the
    words. The count deleted and the ids of the messages."""
    if not terms:  # no words: nothing is named (every text holds all of no terms)
        return 0, []
    named = term_matcher(terms)
    kept = [t for m in spare for t in _with_replies(conn, agent_id, m)]
    spared = forget_topic.holding(kept) if kept else None

    def match(text: str | None) -> bool:
        return named(text) and (spared is None or not spared(text))

    def matches(text: str) -> int:
        return int(match(text))

    conn.create_scalar_function(MATCH_FUNCTION, matches, 1, deterministic=True)  # type: ignore[arg-type]
    said = [
        (mid, sid)
        for mid, sid, text in conn.execute(
            "SELECT message_id, session_id, text FROM messages WHERE agent_id = ? AND role = 'user'",
            (agent_id,),
        )
        if match(text)
    ]
    replies = [r for mid, sid in said for r in _replies_to(conn, sid, mid)]
    count = _forget_where(conn, agent_id, MATCH_FUNCTION + "({col})", (), match)
    count += _delete_message_rows(
        conn,
        [
            r
            for r in replies
            if conn.execute(  # those the terms did not take
                "SELECT 1 FROM messages WHERE message_id = ?", (r,)
            ).fetchone()
        ],
    )
    doomed = sorted({mid for mid, _ in said} | set(replies))
    return count + _delete_derived(conn, agent_id, doomed), doomed


def forget_previous(
    conn: apsw.Connection, agent_id: str, session_id: str, before_id: int
) -> tuple[int, list[int]]:
    """The last user message of the session before message ``before_id`` (the request), the replies
    to it, the "Earlier" fold that quotes it and what was made of it alone. The count and the ids."""
    row = conn.execute(
        "SELECT message_id FROM messages WHERE session_id = ? AND role = 'user' AND message_id < ? "
        "ORDER BY message_id DESC LIMIT 1",
        (session_id, before_id),
    ).fetchone()
    if row is None:
        return 0, []
    doomed = [row[0], *[r for r in _replies_to(conn, session_id, row[0]) if r < before_id]]
    fold = conn.execute(
        "SELECT min(upto_message_id) FROM compressions WHERE session_id = ? AND upto_message_id >= ?",
        (session_id, row[0]),
    ).get
    if fold is not None:
        conn.execute(
            "DELETE FROM compressions WHERE session_id = ? AND upto_message_id = ?",
            (session_id, fold),
        )
    count = _delete_message_rows(conn, doomed)
    return count + _delete_derived(conn, agent_id, doomed), doomed


def candidates(
    conn: apsw.Connection, agent_id: str, now_ms: int, skip: Sequence[str] = ()
) -> list[forget_topic.Candidate]:
    """The user turns a topic may refer to: the agent's most recent ``forget_topic.MAX_CANDIDATES``
    of the last ``forget_topic.CANDIDATE_DAYS`` days before ``now_ms``, newest first, leaving out
    the ``skip`` texts (the placeholders of earlier requests)."""
    rows = conn.execute(
        "SELECT message_id, session_id, ts_ms, text FROM messages WHERE agent_id = ? AND role = 'user' "
        "AND ts_ms >= ? AND ts_ms <= ? ORDER BY ts_ms DESC, message_id DESC LIMIT ?",
        (
            agent_id,
            now_ms - forget_topic.CANDIDATE_DAYS * DAY_MS,
            now_ms,
            forget_topic.MAX_CANDIDATES,
        ),
    )
    return [forget_topic.Candidate(*row) for row in rows if row[3] not in skip]


def message_text(conn: apsw.Connection, agent_id: str, message_id: int) -> str | None:
    row = conn.execute(
        "SELECT text FROM messages WHERE message_id = ? AND agent_id = ?", (message_id, agent_id)
    ).fetchone()
    return None if row is None else str(row[0])


def forget_messages(
    conn: apsw.Connection,
    agent_id: str,
    message_ids: Sequence[int],
    also: Sequence[int] = (),
) -> tuple[int, list[int]]:
    """The user turns ``message_ids`` (what a topic was matched to by meaning, forget_topic.py), the
    replies to them, the "Earlier" folds that quote them, what was made of them alone (turns, facts,
    highlights by provenance), and wherever else their words are held: an episode's or the
    profile's sentences, a fact, a recall topic, a later message quoting them
    (``forget_topic.holding``). ``also``: further messages of the agent to delete with them (the
    question back that named the turn). The count deleted and the ids of the messages."""
    said = [
        (mid, row[0], row[1])
        for mid in message_ids
        if (
            row := conn.execute(
                "SELECT session_id, text FROM messages WHERE message_id = ? AND agent_id = ? "
                "AND role = 'user'",
                (mid, agent_id),
            ).fetchone()
        )
        is not None
    ]
    replies = [r for mid, sid, _ in said for r in _replies_to(conn, sid, mid)]
    for mid, sid, _ in said:
        conn.execute(
            "DELETE FROM compressions WHERE session_id = ? AND upto_message_id >= ?", (sid, mid)
        )
    owned = [
        m
        for m in also
        if conn.execute(
            "SELECT 1 FROM messages WHERE message_id = ? AND agent_id = ?", (m, agent_id)
        ).fetchone()
    ]
    holds = forget_topic.holding([text for _, _, text in said])
    checked_in = _check_in_replies(conn, agent_id, holds) if said else []
    doomed = sorted({mid for mid, _, _ in said} | set(replies) | set(owned) | set(checked_in))
    count = _delete_message_rows(conn, doomed)
    count += _delete_derived(conn, agent_id, doomed)

    def matches(text: str) -> int:
        return int(holds(text))

    conn.create_scalar_function(MATCH_FUNCTION, matches, 1, deterministic=True)  # type: ignore[arg-type]
    count += _forget_where(conn, agent_id, MATCH_FUNCTION + "({col})", (), holds)
    count += _forget_quoted(conn, agent_id, said)
    return count, doomed


def _check_in_replies(
    conn: apsw.Connection, agent_id: str, holds: Callable[[str | None], bool]
) -> list[int]:
    """The replies that asked after a forgotten matter: the answer to the first message of each
    session its check-in was pushed in (a recall item whose topic quotes the forgotten words). Its
    lead names the matter in words of its own ("对了，医生让你去做穿刺的事，你" of "我查出来甲状腺结节了，
    医生让我下个月去做穿刺"), which a request naming "甲状腺那事" did not find in it; the check-in was
    drawn from the matter, and goes with it."""
    out: list[int] = []
    for topic, session_id, pushed_ms in list(
        conn.execute(
            "SELECT topic, pushed_session, pushed_ms FROM recall_items WHERE agent_id = ? "
            "AND pushed_session IS NOT NULL",
            (agent_id,),
        )
    ):
        if not holds(topic):
            continue
        asked = conn.execute(
            "SELECT message_id FROM messages WHERE session_id = ? AND role = 'user' AND ts_ms <= ? "
            "ORDER BY ts_ms DESC, message_id DESC LIMIT 1",
            (session_id, pushed_ms),
        ).fetchone()
        if asked is not None:
            out += _replies_to(conn, session_id, asked[0])
    return out


def _forget_quoted(
    conn: apsw.Connection, agent_id: str, said: Sequence[tuple[int, str, str]]
) -> int:
    """The sentences of its own conversation's episode that quote a forgotten turn word for word
    (用户说："我把她拉黑了"). ``forget_topic.holding`` looks for a short turn nowhere ("好的" would be
    found in everything), so the episode of the evening it was said in kept quoting it; a quote in
    that one episode is that turn, however short (seventeenth pass)."""
    count = 0
    for _mid, session_id, text in said:
        quoted = text.strip()
        if not quoted:
            continue
        quotes = tuple(f"{a}{quoted}{b}" for a, b in ('""', "\u201c\u201d", "\u300c\u300d"))

        def holds(sentence: str, quotes: tuple[str, ...] = quotes) -> bool:
            return any(q in sentence for q in quotes)

        for episode_id, summary in list(
            conn.execute(
                "SELECT episode_id, summary FROM episodes WHERE agent_id = ? AND session_id = ?",
                (agent_id, session_id),
            )
        ):
            if holds(summary):
                count += _forget_in_episode(conn, agent_id, episode_id, summary, holds)
    return count


def said_elsewhere(
    conn: apsw.Connection,
    agent_id: str,
    holds: Callable[[str | None], bool],
    sessions: Collection[str],
) -> list[int]:
    """The agent's user messages that ``holds`` and that were said outside ``sessions``."""
    return [
        mid
        for mid, sid, text in conn.execute(
            "SELECT message_id, session_id, text FROM messages WHERE agent_id = ? AND role = 'user'",
            (agent_id,),
        )
        if sid not in sessions and holds(text)
    ]


def _with_replies(conn: apsw.Connection, agent_id: str, message_id: int) -> list[str]:
    """The texts of a user message and of the replies to it."""
    said = message_text(conn, agent_id, message_id)
    if said is None:
        return []
    replies = [message_text(conn, agent_id, r) for r in replies_to(conn, message_id)]
    return [said, *(r for r in replies if r)]


def replies_to(conn: apsw.Connection, message_id: int) -> list[int]:
    """The assistant and tool messages that answered user message ``message_id``."""
    row = conn.execute(
        "SELECT session_id FROM messages WHERE message_id = ?", (message_id,)
    ).fetchone()
    return [] if row is None else _replies_to(conn, row[0], message_id)


def _replies_to(conn: apsw.Connection, session_id: str, message_id: int) -> list[int]:
    """The assistant and tool messages after a user message, up to the next user message."""
    nxt = conn.execute(
        "SELECT min(message_id) FROM messages WHERE session_id = ? AND role = 'user' AND message_id > ?",
        (session_id, message_id),
    ).get
    return [
        r[0]
        for r in conn.execute(
            "SELECT message_id FROM messages WHERE session_id = ? AND role != 'user' AND message_id > ? "
            "AND message_id < ? ORDER BY message_id",
            (session_id, message_id, nxt if nxt is not None else 1 << 62),
        )
    ]


def _delete_derived(conn: apsw.Connection, agent_id: str, message_ids: Sequence[int]) -> int:
    """Turns copying these messages, and facts and highlights that came from them and nothing else."""
    return sum(
        delete_item(conn, agent_id, kind, i) for kind, i in derived(conn, agent_id, message_ids)
    )


def derived(
    conn: apsw.Connection, agent_id: str, message_ids: Sequence[int]
) -> list[tuple[str, int]]:
    """What was made of these messages alone, as (kind, source id): the turns copying them, then
    the facts and highlights whose every source is one of them. A yes to "forget that" deletes
    these (``_delete_derived``); a question back hides them (memory/hide.py)."""
    if not message_ids:
        return []
    marks = ",".join("?" * len(message_ids))
    found = [
        ("utterance", r[0])
        for r in conn.execute(
            f"SELECT utterance_id FROM utterances WHERE agent_id = ? AND message_id IN ({marks})",
            (agent_id, *message_ids),
        )
    ]
    for kind in ("fact", "highlight"):
        found += [
            (kind, r[0])
            for r in conn.execute(
                f"SELECT item_id FROM sources WHERE kind = ? AND agent_id = ? GROUP BY item_id "
                f"HAVING sum(message_id IN ({marks})) = count(*)",
                (kind, agent_id, *message_ids),
            )
        ]
    return found


def forget_all(conn: apsw.Connection, agent_id: str) -> int:
    """Every memory of the agent, its conversations and its mood; the agent itself stays."""
    counted = sum(
        conn.execute(f"SELECT count(*) FROM {table} WHERE agent_id = ?", (agent_id,)).get
        for table in ("episodes", "facts", "highlights", "messages", "utterances")
    )
    index.remove_agent(conn, agent_id)
    conn.execute("DELETE FROM utterances WHERE agent_id = ?", (agent_id,))
    for table in (
        "sources",
        "highlights",
        "fact_history",
        "persona",
        "jobs",
        "mood_history",
        "mood_state",
        "recall_items",
        "recall_settings",
        "participants",
    ):
        conn.execute(f"DELETE FROM {table} WHERE agent_id = ?", (agent_id,))
    conn.execute("UPDATE facts SET superseded_by = NULL WHERE agent_id = ?", (agent_id,))
    conn.execute("DELETE FROM facts WHERE agent_id = ?", (agent_id,))
    conn.execute("DELETE FROM episodes WHERE agent_id = ?", (agent_id,))
    session_sql.retire_message_ids(conn)
    conn.execute(
        "DELETE FROM sessions WHERE agent_id = ?", (agent_id,)
    )  # messages and compressions cascade
    return int(counted)


def delete_agent(conn: apsw.Connection, agent_id: str) -> bool:
    """The agent's row, and with it every row it owns (ON DELETE CASCADE); the vectors, in a virtual
    table no cascade reaches, by hand. Whether the agent existed."""
    session_sql.retire_message_ids(conn)
    index.remove_agent(conn, agent_id)
    return agent_sql.delete(conn, agent_id)


def optimize_indexes(conn: apsw.Connection) -> None:
    """Merge FTS segments so deleted entries leave the index files, not just its view."""
    conn.execute("INSERT INTO memory_fts(memory_fts) VALUES ('optimize')")
    conn.execute("INSERT INTO memory_fts_cjk(memory_fts_cjk) VALUES ('optimize')")
    conn.execute("INSERT INTO memory_fts_bigram(memory_fts_bigram) VALUES ('optimize')")
