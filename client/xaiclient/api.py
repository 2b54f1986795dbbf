"""Named methods over the generic ``call``/``stream`` of either client.

The same mixin serves both twins: on the blocking client each method returns the result, on the
asyncio client it returns an awaitable (or an async stream), because it only forwards to the
client's own ``call``/``stream``.
"""

from __future__ import annotations

from typing import Any


class Api:
    def call(self, method: str, **params: Any) -> Any:  # pragma: no cover - overridden
        raise NotImplementedError

    def stream(self, method: str, **params: Any) -> Any:  # pragma: no cover - overridden
        raise NotImplementedError

    def ping(self) -> Any:
        return self.call("ping")

    def status(self) -> Any:
        return self.call("status")

    def stats(self, format: str | None = None) -> Any:
        """Counters and latencies; ``format="prometheus"`` gives ``{text}`` in the Prometheus text format."""
        return self.call("stats", format=format)

    def models_list(self) -> Any:
        """The model catalogue: ``{configured, model_path, models_dir, models: [{name, installed, ...}]}``."""
        return self.call("models.list")

    def backup(self) -> Any:
        """A consistent snapshot of the database, streamed: ``chunk`` events ``{data: bytes, offset}``,
        then the result ``{bytes}``. Write the chunks in order; ``offset`` says where each one goes."""
        return self.stream("admin.backup")

    def agent_create(
        self,
        agent_id: str,
        name: str | None = None,
        persona_init: str | None = None,
        config: dict[str, Any] | None = None,
    ) -> Any:
        return self.call(
            "agent.create", agent_id=agent_id, name=name, persona_init=persona_init, config=config
        )

    def agent_get(self, agent_id: str) -> Any:
        return self.call("agent.get", agent_id=agent_id)

    def agent_list(self, limit: int | None = None, cursor: str | None = None) -> Any:
        """One page of agents: ``{agents, next_cursor}``; pass ``next_cursor`` back for the next page."""
        return self.call("agent.list", limit=limit, cursor=cursor)

    def agent_update(
        self,
        agent_id: str,
        name: str | None = None,
        persona_init: str | None = None,
        config: dict[str, Any] | None = None,
    ) -> Any:
        return self.call(
            "agent.update", agent_id=agent_id, name=name, persona_init=persona_init, config=config
        )

    def agent_delete(self, agent_id: str) -> Any:
        return self.call("agent.delete", agent_id=agent_id)

    def session_open(self, agent_id: str, ts: int | None = None) -> Any:
        return self.call("session.open", agent_id=agent_id, ts=ts)

    def session_send(self, session_id: str, text: str, **extra: Any) -> Any:
        """A streamed turn: iterate the returned stream for ``text``/``tool_call`` events."""
        return self.stream("session.send", session_id=session_id, text=text, **extra)

    def session_tool_result(self, session_id: str, call_id: str, result: Any) -> Any:
        return self.call(
            "session.tool_result", session_id=session_id, call_id=call_id, result=result
        )

    def session_ingest(self, session_id: str, messages: list[dict[str, Any]]) -> Any:
        return self.call("session.ingest", session_id=session_id, messages=messages)

    def session_close(
        self, session_id: str, ts: int | None = None, wait: bool | None = None
    ) -> Any:
        return self.call("session.close", session_id=session_id, ts=ts, wait=wait)

    def session_list(
        self,
        agent_id: str,
        open_only: bool | None = None,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> Any:
        """One page of sessions: ``{sessions, next_cursor}``; pass ``next_cursor`` back for the next page."""
        return self.call(
            "session.list", agent_id=agent_id, open_only=open_only, limit=limit, cursor=cursor
        )

    def mood_get(self, agent_id: str, ts: int | None = None) -> Any:
        return self.call("mood.get", agent_id=agent_id, ts=ts)

    def mood_history(
        self, agent_id: str, limit: int | None = None, since: int | None = None
    ) -> Any:
        return self.call("mood.history", agent_id=agent_id, limit=limit, since=since)

    def mood_reset(self, agent_id: str, ts: int | None = None) -> Any:
        return self.call("mood.reset", agent_id=agent_id, ts=ts)

    def session_history(self, session_id: str, limit: int | None = None) -> Any:
        return self.call("session.history", session_id=session_id, limit=limit)

    def memory_search(
        self,
        agent_id: str,
        query: str,
        k: int | None = None,
        budget_tokens: int | None = None,
        ts: int | None = None,
        kinds: list[str] | None = None,
        touch: bool | None = None,
    ) -> Any:
        """Memories relevant to ``query``: ``{items: [{kind, id, text, score, ts, when, refs}], tokens}``."""
        return self.call(
            "memory.search",
            agent_id=agent_id,
            query=query,
            k=k,
            budget_tokens=budget_tokens,
            ts=ts,
            kinds=kinds,
            touch=touch,
        )

    def memory_list(
        self,
        agent_id: str,
        kind: str | None = None,
        status: str | None = None,
        limit: int | None = None,
    ) -> Any:
        return self.call("memory.list", agent_id=agent_id, kind=kind, status=status, limit=limit)

    def memory_get(self, agent_id: str, id: str) -> Any:
        """One memory by id (``"fact:12"``, ``"episode:3"``, ``"highlight:7"``) with its provenance."""
        return self.call("memory.get", agent_id=agent_id, id=id)

    def memory_forget(
        self,
        agent_id: str,
        id: str | None = None,
        query: str | None = None,
        all: bool | None = None,
    ) -> Any:
        """Delete one memory, everything matching ``query``, or (``all=True``) everything. Give exactly one."""
        return self.call("memory.forget", agent_id=agent_id, id=id, query=query, all=all)

    def memory_export(self, agent_id: str) -> Any:
        return self.call("memory.export", agent_id=agent_id)

    def memory_import(
        self,
        agent_id: str,
        files: dict[str, str] | None = None,
        facts: list[dict[str, Any]] | None = None,
        mood: dict[str, Any] | None = None,
        scheduler: dict[str, Any] | None = None,
    ) -> Any:
        return self.call(
            "memory.import",
            agent_id=agent_id,
            files=files,
            facts=facts,
            mood=mood,
            scheduler=scheduler,
        )

    def memory_persona(self, agent_id: str) -> Any:
        return self.call("memory.persona", agent_id=agent_id)

    def memory_maintain(self, ts: int | None = None) -> Any:
        return self.call("memory.maintain", ts=ts)

    def scheduler_list(
        self,
        agent_id: str,
        states: list[str] | None = None,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> Any:
        """One page of the agent's recall items (default: pending only): ``{items, next_cursor}``."""
        return self.call(
            "scheduler.list", agent_id=agent_id, states=states, limit=limit, cursor=cursor
        )

    def scheduler_arm(
        self,
        agent_id: str,
        topic: str,
        not_before: int | None = None,
        not_after: int | None = None,
        priority: float | None = None,
        keywords: list[str] | None = None,
        ts: int | None = None,
    ) -> Any:
        """Arm a matter to ask about between ``not_before`` and ``not_after`` (ms); returns the item."""
        return self.call(
            "scheduler.arm",
            agent_id=agent_id,
            topic=topic,
            not_before=not_before,
            not_after=not_after,
            priority=priority,
            keywords=keywords,
            ts=ts,
        )

    def scheduler_cancel(self, agent_id: str, item_id: int) -> Any:
        return self.call("scheduler.cancel", agent_id=agent_id, item_id=item_id)

    def scheduler_check_in(
        self, agent_id: str, ts: int | None = None, peek: bool | None = None
    ) -> Any:
        """A conversation is opening: ``{suggestion, item, reason}``, the first question worth
        asking, recorded as given unless ``peek``."""
        return self.call("scheduler.check_in", agent_id=agent_id, ts=ts, peek=peek)

    def scheduler_config(
        self,
        agent_id: str,
        enabled: bool | None = None,
        quiet: bool | None = None,
        min_gap_hours: float | None = None,
        allow: list[str] | None = None,
        avoid: list[str] | None = None,
    ) -> Any:
        """Read (no other arguments) or change the agent's proactive-recall controls; returns the settings.
        ``allow=[]`` clears the allow-list (every scene and topic allowed); ``avoid`` lists the
        topics never to bring up (``[]`` clears it)."""
        return self.call(
            "scheduler.config",
            agent_id=agent_id,
            enabled=enabled,
            quiet=quiet,
            min_gap_hours=min_gap_hours,
            allow=allow,
            avoid=avoid,
        )

    def scheduler_feedback(self, agent_id: str, item_id: int, feedback: str) -> Any:
        """The user's verdict on a suggestion they were given: ``"welcome"`` or ``"annoying"``."""
        return self.call(
            "scheduler.feedback", agent_id=agent_id, item_id=item_id, feedback=feedback
        )
