"""The routes: ``GET /v1/models`` and ``POST /v1/chat/completions`` (also without ``/v1``, as some
apps append only the path), and CORS preflights for the origins ``http.origins`` names. Every other
path is the memory page's (``server/web``).

A chat completion is a turn through ``Turns.run``, the very path of ``session.send``: memory,
mood, the scheduler's check-in and the model, with nothing repeated here. What this module adds is
the translation: which session (``chats``), the reply as a ``chat.completion`` or as SSE chunks.
"""

from __future__ import annotations

from typing import Any

from ...app import App
from ...clock import at
from ...conversation import prompt
from ...conversation.turns import UserTurn
from ...providers.base import ChatMessage, GenerateRequest
from ...store import agents as agent_sql
from ...store.agents import Agent
from ..methods.sessions import MAX_TEXT
from ..web.site import Site
from . import guard, openai
from .chats import Chats, Outcome, is_client_task, regenerated
from .exchange import Body, HttpRequest
from .openai import ChatRequest, HttpError
from .sse import EventStream

NO_TOOLS = "(tools cannot be answered through the HTTP surface; reply without them)"
RECENT = 16  # the session's newest messages read to tell a regenerate from a new turn
CHAT_PATHS = frozenset({"/v1/chat/completions", "/chat/completions"})
MODEL_PATHS = frozenset({"/v1/models", "/models"})


class Router:
    def __init__(self, app: App, token: str = ""):
        self.chats = Chats(app)
        self.site = Site(token)

    async def __call__(self, app: App, req: HttpRequest, out: Body) -> None:
        path = req.path.rstrip("/") or "/"
        if req.method == "OPTIONS":
            await self._preflight(app, req, out)
        elif path in MODEL_PATHS or path.startswith(("/v1/models/", "/models/")):
            out.route = "GET /v1/models"
            if req.method != "GET":
                raise HttpError(
                    405, f"{req.method} is not allowed on {path}; use GET", "method_not_allowed"
                )
            await self._models(app, path, out)
        elif path in CHAT_PATHS:
            out.route = "POST /v1/chat/completions"
            if req.method != "POST":
                raise HttpError(
                    405, f"{req.method} is not allowed on {path}; use POST", "method_not_allowed"
                )
            await self._chat(app, req, out)
        elif not guard.is_api(path):
            await self.site(app, req, out)
        else:
            raise HttpError(
                404,
                f"no route {path!r}: xaid serves /v1/models and /v1/chat/completions",
                "unknown_url",
            )

    async def _preflight(self, app: App, req: HttpRequest, out: Body) -> None:
        if req.headers.get("origin") not in app.config.http.origins:
            raise HttpError(403, "no CORS for this origin (http.origins)", "origin_not_allowed")
        await out.whole(
            204,
            b"",
            b"text/plain",
            (
                ("access-control-allow-methods", "GET, POST, OPTIONS"),
                (
                    "access-control-allow-headers",
                    "authorization, content-type, idempotency-key, x-xaid-session, x-xaid-memory",
                ),
                ("access-control-max-age", "600"),
            ),
        )

    async def _models(self, app: App, path: str, out: Body) -> None:
        agents = await app.db.run(agent_sql.list_all)
        listed = openai.models([(a.agent_id, a.created_ms // 1000) for a in agents])
        if path in MODEL_PATHS:
            await out.json(200, listed)
            return
        wanted = path.rpartition("/")[2]
        for model in listed["data"]:
            if model["id"] == wanted:
                await out.json(200, model)
                return
        raise HttpError(
            404, f"no model {wanted!r}: a model is an agent id", "model_not_found", "model"
        )

    async def _chat(self, app: App, req: HttpRequest, out: Body) -> None:
        if app.shutting_down:
            raise HttpError(503, "xaid is shutting down; retry after it restarts", "shutting_down")
        chat = openai.parse_chat(req.body)
        agent = await app.db.run(agent_sql.get, chat.model)
        if agent is None:
            raise HttpError(
                404,
                f"no model {chat.model!r}: a model is an agent id (GET /v1/models)",
                "model_not_found",
                "model",
            )
        newest = chat.newest_user
        if newest is None:
            raise HttpError(
                400,
                "'messages' holds no user message: there is no turn to answer",
                "invalid_value",
                "messages",
            )
        text = chat.messages[newest].text
        if not text.strip():
            raise HttpError(400, "the newest user message is empty", "invalid_value", "messages")
        if len(text) > MAX_TEXT:
            raise HttpError(
                400,
                f"the newest user message is longer than {MAX_TEXT} characters",
                "invalid_value",
                "messages",
            )
        app.queue.check_capacity(agent.agent_id)  # refuse before anything is stored or streamed
        if is_client_task(req.headers, chat, newest):
            await self._task(app, agent, chat, out)
            return
        key = req.headers.get("idempotency-key", "").strip()[:200] or None
        if key is not None and (prior := await self.chats.claim(req.peer, key)) is not None:
            await self._replay(chat, prior, out)
            return
        outcome = None
        try:
            outcome = await self._turn(app, agent, chat, newest, req, out)
        finally:
            if key is not None:
                self.chats.settle(req.peer, key, outcome)

    async def _turn(
        self, app: App, agent: Agent, chat: ChatRequest, newest: int, req: HttpRequest, out: Body
    ) -> Outcome:
        session, stored = await self.chats.session_for(
            agent.agent_id, req.peer, req.headers, RECENT
        )
        sid = session.session_id
        card = chat.system_text
        headers: tuple[tuple[str, str], ...] = (("x-xaid-session", sid),)
        if card is not None and len(card) > app.config.http.card_chars:
            card = card[: app.config.http.card_chars]
            headers += (
                (
                    "x-xaid-warning",
                    f"the system message was cut to http.card_chars ({app.config.http.card_chars})",
                ),
            )
        turn = UserTurn(
            text=chat.messages[newest].text,
            ts_ms=at(app.clock, None),
            replaces=regenerated(chat, newest, stored),
            card=card,
        )
        cid, created = openai.new_id(), app.clock.now_ms() // 1000
        model = agent.agent_id
        with_usage = chat.include_usage

        async def no_tools(data: dict[str, Any]) -> None:
            app.turns.tool_result(sid, data["call_id"], NO_TOOLS)

        if not chat.stream:

            async def quiet(event: str, data: dict[str, Any]) -> None:
                if event == "tool_call":
                    await no_tools(data)

            reply = await app.turns.run(agent, session, turn, quiet)
            outcome = Outcome.of(cid, created, reply)
            await out.json(200, _completion(model, outcome), headers)
            return outcome
        out.headers += [(k.encode(), v.encode()) for k, v in headers]
        async with EventStream(out, app.config.http.keepalive_seconds) as events:
            await events.send(
                openai.chunk(
                    cid, created, model, {"role": "assistant", "content": ""}, with_usage=with_usage
                )
            )

            async def emit(event: str, data: dict[str, Any]) -> None:
                if event == "text":
                    await events.send(
                        openai.chunk(
                            cid, created, model, {"content": data["delta"]}, with_usage=with_usage
                        )
                    )
                elif event == "tool_call":
                    await no_tools(data)

            reply = await app.turns.run(agent, session, turn, emit)
            outcome = Outcome.of(cid, created, reply)
            await _finish(events, model, outcome, with_usage)
        return outcome

    async def _replay(self, chat: ChatRequest, prior: Outcome, out: Body) -> None:
        """The first outcome of a retried ``Idempotency-Key``, in the shape this request asked for."""
        headers = (("idempotent-replayed", "true"),)
        if not chat.stream:
            await out.json(200, _completion(chat.model, prior), headers)
            return
        out.headers += [(k.encode(), v.encode()) for k, v in headers]
        async with EventStream(out, 3600.0) as events:
            first = {"role": "assistant", "content": ""}
            await events.send(
                openai.chunk(
                    prior.cid, prior.created, chat.model, first, with_usage=chat.include_usage
                )
            )
            await events.send(
                openai.chunk(
                    prior.cid,
                    prior.created,
                    chat.model,
                    {"content": prior.text},
                    with_usage=chat.include_usage,
                )
            )
            await _finish(events, chat.model, prior, chat.include_usage)

    async def _task(self, app: App, agent: Agent, chat: ChatRequest, out: Body) -> None:
        """The client's own request (a title, tags): the model answers the client's messages as they
        are, with no session, no memory and nothing stored."""
        cfg = app.config.llm
        messages = tuple(
            ChatMessage("system" if m.role in openai.SYSTEM_ROLES else m.role, m.text)
            for m in chat.messages
            if m.role in openai.SYSTEM_ROLES or m.role in ("user", "assistant")
        )
        request = GenerateRequest(messages, (), cfg.max_tokens, cfg.temperature, stop=prompt.STOP)
        cid, created = openai.new_id(), app.clock.now_ms() // 1000
        job = app.queue.submit(f"task:{agent.agent_id}", request)
        try:
            if not chat.stream:
                async with job:
                    async for _ in job.pieces:
                        pass
                done = await job.result()
                outcome = Outcome.of(cid, created, done)
                await out.json(
                    200, _completion(agent.agent_id, outcome), (("x-xaid-memory", "off"),)
                )
                return
            out.headers.append((b"x-xaid-memory", b"off"))
            async with EventStream(out, app.config.http.keepalive_seconds) as events:
                first = {"role": "assistant", "content": ""}
                await events.send(
                    openai.chunk(cid, created, agent.agent_id, first, with_usage=chat.include_usage)
                )
                async with job:
                    async for piece in job.pieces:
                        await events.send(
                            openai.chunk(
                                cid,
                                created,
                                agent.agent_id,
                                {"content": piece},
                                with_usage=chat.include_usage,
                            )
                        )
                done = await job.result()
                outcome = Outcome.of(cid, created, done)
                await _finish(events, agent.agent_id, outcome, chat.include_usage)
        except BaseException:
            job.cancelled.set()
            raise


def _completion(model: str, o: Outcome) -> dict[str, Any]:
    return openai.completion(
        o.cid,
        o.created,
        model,
        o.text,
        o.finish_reason,
        openai.usage(o.prompt_tokens, o.completion_tokens),
    )


async def _finish(events: EventStream, model: str, o: Outcome, with_usage: bool) -> None:
    await events.send(
        openai.chunk(
            o.cid,
            o.created,
            model,
            {},
            openai.finish_reason(o.finish_reason),
            with_usage=with_usage,
        )
    )
    if with_usage:
        used = openai.usage(o.prompt_tokens, o.completion_tokens)
        await events.send(openai.chunk(o.cid, o.created, model, None, used=used, with_usage=True))
    await events.finish()
