"""What each MCP tool of ``xaictl mcp`` does with the daemon, and the words it answers with.

The MCP SDK stays out of this module (mcp_server.py registers these), so the behaviour is plain
asyncio over the CBOR socket: one short connection per tool call. An app keeps an MCP server
running for hours between calls, longer than the daemon keeps an idle connection open
(``server.idle_seconds``); a fresh connection per call costs one ``hello`` (well under a
millisecond on a Unix socket) and never meets a connection the daemon has already closed.

The answers are short plain text, because a small model reads them: what was found, with the ids
``forget`` takes, or one sentence saying that nothing was. The agent is the one given to
``xaictl mcp --agent``; no tool takes an agent, so the model can never reach another agent's
memories, and the daemon checks the peer of the socket as for any client.
"""

from __future__ import annotations

import re
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass
from typing import Any, Literal

from . import cli_time
from .client import AsyncClient
from .wire import BadParams, XaiError

MEMORY_ID = re.compile(r"^(fact|episode|highlight|utterance):[1-9][0-9]{0,17}$")
MAX_RECALL = 20
FUTURE_SLACK_MS = 60_000  # clocks of app and daemon may differ a little
Who = Literal["user", "companion"]
_ROLE = {"user": "user", "companion": "assistant"}


@dataclass(frozen=True, slots=True)
class Bridge:
    """The daemon as the tools see it: one agent, one socket (None: xaiclient's usual search)."""

    agent_id: str
    socket_path: str | None = None

    @asynccontextmanager
    async def _daemon(self) -> AsyncIterator[AsyncClient]:
        async with AsyncClient(self.socket_path, client_name="xaictl-mcp") as client:
            yield client

    async def recall(self, query: str, limit: int = 5) -> str:
        """memory.search, counted as a reference (``touch``) as a turn's own recall is, since the
        app recalls in order to use what it finds."""
        if not 1 <= limit <= MAX_RECALL:
            raise BadParams(f"'limit' must be from 1 to {MAX_RECALL}")
        async with self._daemon() as daemon:
            found = await daemon.memory_search(self.agent_id, query, k=limit, touch=True)
        items = found["items"]
        if not items:
            return f"Nothing remembered about {query!r}."
        lines = [f"{len(items)} memories, best first (the id in brackets is what forget takes):"]
        lines += [_hit_line(n, hit) for n, hit in enumerate(items, 1)]
        return "\n".join(lines)

    async def remember(
        self, text: str, speaker: str | None = None, when: str | None = None, who: Who = "user"
    ) -> str:
        """The words as a conversation of their own, consolidated at once: session.open,
        session.ingest (role, speaker, time as the app gave them), session.close with ``wait``.
        So what the daemon learns from a turn it learns from these words too (facts, the episode,
        the profile, a matter to ask about later), and recall finds them as soon as this returns."""
        if not text.strip():
            raise BadParams("'text' is empty: give the words to remember")
        if who not in _ROLE:
            raise BadParams("'who' must be 'user' or 'companion'")
        ts = cli_time.parse_when(when) if when else None
        if ts is not None and ts > time.time() * 1000 + FUTURE_SLACK_MS:
            # A model mixes up when words were said with when the event they name happens; stored
            # in the future they would stay out of every search until then.
            raise BadParams(
                f"'when' is in the future ({when!r}): give when the words were said, or leave it "
                "out; put the event's own date in the text ('I see the dentist tomorrow at 8')"
            )
        message: dict[str, Any] = {"role": _ROLE[who], "text": text}
        if speaker:
            message["speaker"] = speaker
        if ts is not None:
            message["ts"] = ts
        async with self._daemon() as daemon:
            session_id = (await daemon.session_open(self.agent_id, ts=ts))["session_id"]
            try:
                await daemon.session_ingest(session_id, [message])
            except XaiError:
                # Closed empty, the session leaves no episode; the ingest's error is the one to say.
                with suppress(XaiError):
                    await daemon.session_close(session_id, ts=ts)
                raise
            closed = await daemon.session_close(session_id, ts=ts, wait=True)
        if closed["episode_id"] is None:
            return "Not remembered: memory is off for this companion (its config.memory is false)."
        return f"Remembered (episode:{closed['episode_id']}). recall finds it from now on."

    async def forget(self, what: str) -> str:
        """memory.forget by id when ``what`` is one (``fact:12``), else by the words: everything
        that mentions them. Never ``all``: wiping a companion's whole memory is for the user at
        a shell (``xaictl memory forget ID --all --yes``), not for a model."""
        target = what.strip()
        async with self._daemon() as daemon:
            if MEMORY_ID.match(target):
                done = await daemon.memory_forget(self.agent_id, id=target)
            else:
                done = await daemon.memory_forget(self.agent_id, query=target)
        n = done["deleted"]
        if n == 0:
            return f"Nothing held {target!r}; nothing was deleted."
        return f"Forgot {target!r}: {n} {'memory' if n == 1 else 'memories'} deleted for good."

    async def mood(self) -> str:
        async with self._daemon() as daemon:
            m = await daemon.mood_get(self.agent_id)
        if not m["enabled"]:
            return "Mood sensing is off for this companion."
        bands = m["bands"]
        line = (
            f"Mood: spirits {bands['valence']}, tiredness {bands['fatigue']}"
            f"{', tense' if bands['tension'] else ''} "
            f"(valence {m['valence']:+.2f}, fatigue {m['fatigue']:.2f}, "
            f"confidence {m['confidence']:.2f})."
        )
        return line + "\n" + (m["guidance"] or "No tone guidance: talk as usual.")

    async def check_in(self) -> str:
        """scheduler.check_in: the daemon records the suggestion as given, so the next
        conversation does not open with the same question."""
        async with self._daemon() as daemon:
            got = await daemon.scheduler_check_in(self.agent_id)
        if got["suggestion"] is None:
            return f"Nothing to ask about now ({got['reason']}). Just greet them."
        return str(got["suggestion"])

    async def profile(self) -> str:
        async with self._daemon() as daemon:
            p = await daemon.memory_persona(self.agent_id)
        if not p["text"]:
            return "No profile yet: it is written after a few remembered conversations."
        return str(p["text"])


def _hit_line(n: int, hit: dict[str, Any]) -> str:
    """One hit; its text already says whose words a turn holds ("you:" is the companion)."""
    return f"{n}. [{hit['kind']}:{hit['id']}, {hit['when']}] {hit['text']}"
