"""Layer A: micro-compression inside a long session, so a 300-turn conversation never overflows.

Whenever ``compress_every`` messages sit unfolded, the oldest half fold into one "Earlier: …"
chunk. Utterances worth keeping stay verbatim: the user's words at an emotional peak, with a
proper noun, a number, a date or a URL (which also catches what the user refers back to later,
since such references name the same things), or stating a fact about themselves ("I'm
vegetarian", "我对花生过敏"). The rest become a count. Chunks are written once
and never change, so they extend the prompt's stable prefix instead of rewriting it.
"""

from __future__ import annotations

import apsw

from ..store import sessions as session_sql
from ..store.sessions import Message
from ..text import features
from .rules import extract

PEAK = 0.6
QUOTE_CHARS = 200


def _marked(msg: Message, intensity: dict[int, float]) -> bool:
    if msg.role != "user":
        return False
    if intensity.get(msg.message_id or -1, 0.0) >= PEAK or features.features(msg.text).count > 0:
        return True
    return not extract.is_question(msg.text) and bool(extract.candidates(msg.text))


def fold(messages: list[Message], intensity: dict[int, float]) -> str:
    parts: list[str] = []
    quiet = 0
    for msg in messages:
        if _marked(msg, intensity):
            if quiet:
                parts.append(f"({quiet} other messages)")
                quiet = 0
            text = " ".join(msg.text.split())
            parts.append(
                'the user said "'
                + (text if len(text) <= QUOTE_CHARS else text[:QUOTE_CHARS] + "…")
                + '"'
            )
        elif msg.role in ("user", "assistant"):
            quiet += 1
    if quiet:
        parts.append(f"({quiet} other messages)")
    return "Earlier: " + "; ".join(parts) + "."


def _intensities(conn: apsw.Connection, session_id: str) -> dict[int, float]:
    rows = conn.execute(
        "SELECT h.message_id, h.intensity FROM mood_history h JOIN messages m ON m.message_id = h.message_id "
        "WHERE m.session_id = ?",
        (session_id,),
    )
    return {int(mid): float(i or 0) for mid, i in rows}


def ensure(conn: apsw.Connection, session_id: str, every: int) -> tuple[list[str], list[Message]]:
    """The session's folded chunks (oldest first) and the messages still unfolded after them."""
    chunks, unfolded = ensure_chunks(conn, session_id, every)
    return [text for _, text in chunks], unfolded


def ensure_chunks(
    conn: apsw.Connection, session_id: str, every: int
) -> tuple[list[tuple[int, str]], list[Message]]:
    """``ensure`` with each chunk's last folded message id, so a prompt can show a chunk's
    messages verbatim for as long as they still fit (xaid.conversation.prompt)."""
    chunks = _chunks(conn, session_id)
    upto = chunks[-1][0] if chunks else 0
    unfolded = session_sql.messages_after(conn, session_id, upto)
    return chunks, _fold_due(conn, session_id, chunks, unfolded, every)


def view(
    conn: apsw.Connection, session_id: str, every: int, shown_from: int
) -> tuple[list[tuple[int, str]], list[Message]]:
    """The session as a turn's prompt reads it: every chunk (folding what is due) and the messages
    after the first ``shown_from`` chunks. A prompt that already stands chunks in for their
    messages never shows those messages again, so a long session is not read whole on every turn
    and tool round; one read serves both the fold and the prompt."""
    chunks = _chunks(conn, session_id)
    cut = chunks[shown_from - 1][0] if 0 < shown_from <= len(chunks) else 0
    messages = session_sql.messages_after(conn, session_id, cut)
    upto = chunks[-1][0] if chunks else 0
    unfolded = [m for m in messages if (m.message_id or 0) > upto]
    _fold_due(conn, session_id, chunks, unfolded, every)
    return chunks, messages


def _chunks(conn: apsw.Connection, session_id: str) -> list[tuple[int, str]]:
    return [
        (int(upto), text)
        for upto, text in conn.execute(
            "SELECT upto_message_id, text FROM compressions WHERE session_id = ? ORDER BY upto_message_id",
            (session_id,),
        )
    ]


def _fold_due(
    conn: apsw.Connection,
    session_id: str,
    chunks: list[tuple[int, str]],
    unfolded: list[Message],
    every: int,
) -> list[Message]:
    """Folds the oldest half of ``unfolded`` into a new chunk (appended to ``chunks``) for as long
    as ``every`` messages sit unfolded; the messages left unfolded."""
    intensity: dict[int, float] | None = None
    while len(unfolded) >= every:
        cut = every // 2
        while (
            cut < len(unfolded) and unfolded[cut].role == "tool"
        ):  # keep a tool result with its call
            cut += 1
        head, unfolded = unfolded[:cut], unfolded[cut:]
        if intensity is None:
            intensity = _intensities(conn, session_id)
        text = fold(head, intensity)
        last = head[-1].message_id or 0
        conn.execute(
            "INSERT INTO compressions (session_id, upto_message_id, text) VALUES (?, ?, ?)",
            (session_id, last, text),
        )
        chunks.append((last, text))
    return unfolded
