"""``xaictl mcp --agent ID``: the companion's memory as an MCP server over stdio.

Claude Desktop, Cursor, Open WebUI and llama-server's web UI start MCP servers as subprocesses and
speak JSON-RPC on their stdin and stdout; this is such a server, built on the official ``mcp``
SDK (the ``mcp`` extra of xaiclient, so neither the daemon nor a plain client install carries it).
Each tool is a few CBOR calls to the daemon (mcp_tools.py). Nothing but the protocol may reach
stdout, so every message for a person goes to stderr.

The descriptions are written for small local models as much as for large ones: what the tool is
for, when to call it, what to pass, what comes back, in a handful of short sentences. A failure
(a bad argument, the daemon's error, the daemon not running) comes back as a tool error with one
clear sentence, which the model can read and the user can act on; the server keeps serving.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Annotated, Any

from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, InputRequiredResult, ToolAnnotations
from pydantic import Field, ValidationError

from . import __version__
from .core import DaemonUnavailable
from .mcp_tools import MAX_RECALL, Bridge, Who
from .wire import XaiError

CHINESE = "Chinese text works as well as English."

INSTRUCTIONS = (
    "Long-term memory of your companion role, kept on this device by xaid. When a conversation "
    "opens, call check_in (one question worth asking) and profile (who the user is). Before you "
    "answer about the user's life, people, plans or past, call recall. When they tell you something "
    "worth keeping, call remember. When they ask you to forget something, call forget. " + CHINESE
)

RECALL = (
    "Search what you remember about the user. Call it before answering whenever the user mentions "
    "a person, place, plan or past event, or asks 'do you remember...'. query: a short question or "
    "a few keywords. Returns up to `limit` memories, best first, one per line, each starting with "
    "its id and age, like [fact:12, yesterday]. " + CHINESE + " Example query: 妹妹住在哪里"
)
REMEMBER = (
    "Save one thing worth keeping: a fact about the user's life, a plan with its date, a feeling, "
    "a promise. Call it once per thing, with the words as they were said. speaker: the person's "
    "name, only when it is not the user (a friend in a group chat). when: when it was said, like "
    "2026-12-02T08:00, only if not just now. who: 'companion' when you said it yourself. Returns "
    "'Remembered' with its id; recall finds it at once. " + CHINESE
)
FORGET = (
    "Delete memories for good. Call it only when the user asks you to forget something. what: a "
    "memory id from recall (like fact:12) to delete that one, or words (like Globex) to delete "
    "everything that mentions them. Returns how many were deleted. " + CHINESE
)
MOOD = (
    "How the user has seemed to feel lately (sensed from what they said) and how to pitch your "
    "tone. No arguments. Call it when a conversation opens or when unsure how to respond. Returns "
    "one line of mood and one line of tone guidance. Let it shape how you talk; never tell the "
    "user what it says. Chinese and English conversations are read alike."
)
CHECK_IN = (
    "Call once when a conversation opens, before your first reply. No arguments. Returns one "
    "caring question to ask about something the user told you before (like how their exam went), "
    "or says there is nothing to ask. Ask at most that one question. The question may be in Chinese."
)
PROFILE = (
    "A short summary of what you know about the user: their name, people, work, likes. No "
    "arguments. Call it when a conversation opens. Returns one paragraph, or says there is none "
    "yet. It may be in Chinese."
)


async def _answer(step: Awaitable[str]) -> str:
    """The daemon's refusals as tool errors: the model reads one sentence, the server lives on."""
    try:
        return await step
    except DaemonUnavailable as exc:
        raise ToolError(f"The memory daemon is not reachable: {exc.message}") from None
    except XaiError as exc:
        raise ToolError(f"{exc.code}: {exc.message}") from None


class _Server(MCPServer[Any]):
    """The SDK's server, with argument errors said in one line a model can act on ("limit: Input
    should be greater than or equal to 1") instead of pydantic's report with its links."""

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> CallToolResult | InputRequiredResult:
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            invalid = exc.__cause__
            if not isinstance(invalid, ValidationError):
                raise
            said = "; ".join(
                f"{'.'.join(str(part) for part in err['loc'])}: {err['msg']}"
                for err in invalid.errors()
            )
            raise ToolError(f"bad arguments for {name}: {said}") from invalid


def build(bridge: Bridge) -> MCPServer[Any]:
    """The server with its six tools, bound to one agent: no tool takes an agent id."""
    server = _Server(
        name="xaid",
        title=f"xaid memory ({bridge.agent_id})",
        instructions=INSTRUCTIONS,
        version=__version__,
        log_level="WARNING",
    )
    reading = ToolAnnotations(read_only_hint=True, open_world_hint=False)

    @server.tool(description=RECALL, annotations=reading, structured_output=False)
    async def recall(
        query: Annotated[str, Field(description="what to look for", max_length=10_000)],
        limit: Annotated[
            int, Field(description="most memories to return", ge=1, le=MAX_RECALL)
        ] = 5,
    ) -> str:
        return await _answer(bridge.recall(query, limit))

    @server.tool(
        description=REMEMBER,
        annotations=ToolAnnotations(destructive_hint=False, open_world_hint=False),
        structured_output=False,
    )
    async def remember(
        text: Annotated[
            str, Field(description="the words to keep, as said", min_length=1, max_length=100_000)
        ],
        speaker: Annotated[
            str | None, Field(description="who said it, if not the user", max_length=200)
        ] = None,
        when: Annotated[
            str | None, Field(description="when it was said, e.g. 2026-12-02T08:00")
        ] = None,
        who: Annotated[Who, Field(description="'user' or 'companion'")] = "user",
    ) -> str:
        return await _answer(bridge.remember(text, speaker, when, who))

    @server.tool(
        description=FORGET,
        annotations=ToolAnnotations(destructive_hint=True, open_world_hint=False),
        structured_output=False,
    )
    async def forget(
        what: Annotated[
            str, Field(description="a memory id like fact:12, or words", max_length=1000)
        ],
    ) -> str:
        return await _answer(bridge.forget(what))

    @server.tool(description=MOOD, annotations=reading, structured_output=False)
    async def mood() -> str:
        return await _answer(bridge.mood())

    @server.tool(
        description=CHECK_IN,
        annotations=ToolAnnotations(destructive_hint=False, open_world_hint=False),
        structured_output=False,
    )
    async def check_in() -> str:
        return await _answer(bridge.check_in())

    @server.tool(description=PROFILE, annotations=reading, structured_output=False)
    async def profile() -> str:
        return await _answer(bridge.profile())

    return server


def serve(agent_id: str, socket_path: str | None) -> None:
    """Serve until the app closes stdin."""
    build(Bridge(agent_id, socket_path)).run("stdio")
