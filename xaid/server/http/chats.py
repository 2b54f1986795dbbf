"""Which xaid session an HTTP request continues, and what kind of request it is.

An OpenAI client resends the whole conversation every time; xaid holds the conversation itself.
So only the newest user message is the turn, and the rest decides three things:

- **Which session.** ``X-Xaid-Session`` (any client key, or an open xaid session id) or Open
  WebUI's ``X-OpenWebUI-Chat-Id`` pins one; without either, the agent has one current session per
  peer (the uid, or the token). A pinned or current session that has been closed (by the idle
  sweep, ``memory.idle_minutes``, and consolidated like any other) is followed by a new one.
- **A regenerate.** When xaid's newest user message has the same words as the client's newest one
  and what precedes it agrees too (the same previous message, or none on both sides), the client
  asks for that reply again: the stored words are reused and the old reply is replaced
  (``UserTurn.replaces``). "ok", then "ok" again after reading the reply, stays two turns: the
  client's history holds that reply before its newest message.
- **A task of the client's own** (a title, tags, follow-up questions, a search query): answered by
  the model without a session, so it never becomes a memory of the user. Told apart by
  ``X-Xaid-Memory: off`` from any client, and by Open WebUI's task prompts, which all begin
  with ``### Task:`` (title, tags, follow-ups, queries, autocomplete, emoji).

``Idempotency-Key`` makes a retry safe: a key seen from the same peer gets the first outcome again
(waiting for it while it runs), never a second turn. Keys are kept in memory, the newest 512.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

import anyio
import apsw

from ...app import App
from ...conversation.reply import TurnReply
from ...providers.base import Completion
from ...store import sessions as sql
from ...store.sessions import Message, Session
from ..methods.sessions import open_new
from .exchange import Peer
from .openai import ChatRequest

SESSION_HEADERS = ("x-xaid-session", "x-openwebui-chat-id")
MEMORY_HEADER = "x-xaid-memory"
TASK_PREFIXES = ("### Task:",)
KEPT_OUTCOMES = 512
CONVERSATION = frozenset({"user", "assistant"})


@dataclass(frozen=True, slots=True)
class Outcome:
    """A finished completion, as an ``Idempotency-Key`` replays it."""

    cid: str
    created: int
    text: str
    finish_reason: str
    prompt_tokens: int
    completion_tokens: int

    @classmethod
    def of(cls, cid: str, created: int, reply: TurnReply | Completion) -> Outcome:
        """From a turn's reply, or from the model's completion of a task the app sent without memory."""
        return cls(
            cid,
            created,
            reply.text,
            reply.finish_reason,
            reply.prompt_tokens,
            reply.completion_tokens,
        )


def is_client_task(headers: dict[str, str], chat: ChatRequest, newest: int) -> bool:
    if headers.get(MEMORY_HEADER, "").strip().lower() in ("off", "false", "0", "no"):
        return True
    return chat.messages[newest].text.lstrip().startswith(TASK_PREFIXES)


def session_key(headers: dict[str, str]) -> str | None:
    for name in SESSION_HEADERS:
        if value := headers.get(name, "").strip():
            return value[:200]
    return None


def _same(a: str, b: str) -> bool:
    return " ".join(a.split()) == " ".join(b.split())


def regenerated(chat: ChatRequest, newest: int, stored: Sequence[Message]) -> int | None:
    """The id of the stored user message this request asks to answer again, or None (a new turn).
    ``stored`` is the session's newest messages, in order."""
    said = [m for m in stored if m.role in CONVERSATION and m.status == "complete"]
    users = [i for i, m in enumerate(said) if m.role == "user"]
    if not users or not _same(said[users[-1]].text, chat.messages[newest].text):
        return None
    last = users[-1]
    before = said[last - 1] if last > 0 else None
    after = said[last + 1] if last + 1 < len(said) else None
    theirs = [m for m in chat.messages[:newest] if m.role in CONVERSATION]
    client_before = theirs[-1] if theirs else None
    if (
        after is not None
        and client_before is not None
        and client_before.role == "assistant"
        and _same(after.text, client_before.text)
    ):
        return None  # the client has read that reply and says the same words again: a new turn
    if before is None:  # the session begins with these words: the client asks for its reply again
        return said[last].message_id
    if (
        client_before is not None
        and before.role == client_before.role
        and _same(before.text, client_before.text)
    ):
        return said[last].message_id
    return None  # a new chat saying the same again, or a different history: a new turn


class Chats:
    """The HTTP surface's memory of its clients: pinned and current sessions, retried requests."""

    def __init__(self, app: App):
        self.app = app
        self.pinned: dict[tuple[str, str, str], str] = {}  # (peer, agent, key) -> session id
        self.current: dict[tuple[str, str], str] = {}  # (peer, agent) -> session id
        self.outcomes: OrderedDict[tuple[str, str], Outcome] = OrderedDict()
        self.running: dict[tuple[str, str], anyio.Event] = {}
        self._lock = anyio.Lock()
        app.live.on_closed(self.closed)

    def closed(self, session_id: str) -> None:
        """A closed session is nobody's current one any more; the next request opens a new one."""
        for pin in [k for k, sid in self.pinned.items() if sid == session_id]:
            del self.pinned[pin]
        for cur in [k for k, sid in self.current.items() if sid == session_id]:
            del self.current[cur]

    async def session_for(
        self, agent_id: str, peer: Peer, headers: dict[str, str], recent: int
    ) -> tuple[Session, list[Message]]:
        """The session this request continues (opened when there is none) and its ``recent`` newest
        messages, read in one trip to the database thread: the HTTP door should cost what
        ``session.send``'s own lookups cost."""
        key = session_key(headers)
        pins = (peer.identity, agent_id, key) if key is not None else None
        current = (peer.identity, agent_id)
        async with self._lock:  # two first requests of one chat must not open two sessions
            candidates = []
            if key is not None and key.startswith("s_"):  # an xaid session id named directly
                candidates.append(key)
            sid = self.pinned.get(pins) if pins is not None else self.current.get(current)
            if sid is not None:
                candidates.append(sid)

            def read(conn: apsw.Connection) -> tuple[Session, list[Message]] | None:
                for candidate in candidates:
                    found = sql.get_session(conn, candidate)
                    if found is not None and found.agent_id == agent_id and found.closed_ms is None:
                        return found, sql.messages(conn, candidate, recent)
                return None

            if candidates and (known := await self.app.db.run(read)) is not None:
                return known
            session = await open_new(self.app, agent_id, self.app.clock.now_ms())
            if pins is not None:
                self.pinned[pins] = session.session_id
            else:
                self.current[current] = session.session_id
            return session, []

    async def claim(self, peer: Peer, key: str) -> Outcome | None:
        """The outcome of an earlier request with this key, waiting while it runs; None: this request
        runs it (and must call ``settle`` either way)."""
        slot = (peer.identity, key)
        while True:
            if (done := self.outcomes.get(slot)) is not None:
                return done
            running = self.running.get(slot)
            if running is None:
                self.running[slot] = anyio.Event()
                return None
            await running.wait()

    def settle(self, peer: Peer, key: str, outcome: Outcome | None) -> None:
        """What the request with this key came to; None (it failed) lets a retry run it anew."""
        slot = (peer.identity, key)
        if outcome is not None:
            self.outcomes[slot] = outcome
            while len(self.outcomes) > KEPT_OUTCOMES:
                self.outcomes.popitem(last=False)
        if (running := self.running.pop(slot, None)) is not None:
            running.set()
