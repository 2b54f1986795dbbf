"""``xaictl mcp`` as an MCP app runs it: the official ``mcp`` client starts it over stdio against a
real daemon (real socket, real SQLite, real embedder) and calls every tool. No language model is
involved: the daemon's rules consolidate what ``remember`` stores."""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import anyio
import pytest
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.types import CallToolResult, TextContent
from xaiclient import cli_mcp
from xaiclient.cli import build_parser

from testkit import one_line_error, xaictl
from testkit.inproc import InProcessDaemon

TOOLS = {"recall", "remember", "forget", "mood", "check_in", "profile"}
Scenario = Callable[[ClientSession], Awaitable[None]]


def _server(socket: Path, agent: str) -> StdioServerParameters:
    env = {k: v for k, v in os.environ.items() if k != "XAID_SOCKET"}
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "xaiclient.cli", "--socket", str(socket), "mcp", "--agent", agent],
        env=env,
    )


def run(socket: Path, agent: str, scenario: Scenario) -> None:
    async def main() -> None:
        async with (
            stdio_client(_server(socket, agent)) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            with anyio.fail_after(120):
                await scenario(session)

    anyio.run(main)


def text(result: CallToolResult) -> str:
    return "\n".join(c.text for c in result.content if isinstance(c, TextContent))


async def ok(session: ClientSession, tool: str, **arguments: object) -> str:
    result = await session.call_tool(tool, arguments)
    assert not result.is_error, f"{tool}: {text(result)}"
    return text(result)


async def refused(session: ClientSession, tool: str, **arguments: object) -> str:
    result = await session.call_tool(tool, arguments)
    assert result.is_error, f"{tool} was not refused: {text(result)}"
    return text(result)


def test_every_tool_through_stdio(daemon: InProcessDaemon) -> None:
    with daemon.client() as c:
        c.agent_create("mia", name="Mia")

    async def scenario(s: ClientSession) -> None:
        listed = (await s.list_tools()).tools
        assert {t.name for t in listed} == TOOLS
        for tool in listed:
            assert tool.description and len(tool.description) < 600
            assert "agent" not in tool.input_schema.get("properties", {})  # fixed by --agent
        assert {t.name for t in listed if "Chinese" in (t.description or "")} == TOOLS

        assert "Nothing remembered" in await ok(s, "recall", query="Kyoto")
        assert "No profile yet" in await ok(s, "profile")
        said = await ok(s, "remember", text="My sister Anna moved to Kyoto last week.")
        assert said.startswith("Remembered (episode:")
        await ok(s, "remember", text="我下周五有驾照考试，好紧张。")
        await ok(s, "remember", text="Lena loves climbing on Sundays.", speaker="Lena")

        found = await ok(s, "recall", query="Where does Anna live?")
        assert "Kyoto" in found and found.splitlines()[1].startswith("1. [fact:")
        assert "驾照" in await ok(s, "recall", query="驾照考试什么时候？", limit=3)
        assert "Lena" in await ok(s, "recall", query="climbing")
        assert "Anna" in await ok(s, "profile")
        assert (await ok(s, "mood")).startswith("Mood: ")

        # forget by words, then by an id that recall gave
        gone = await ok(s, "forget", what="Kyoto")
        assert gone.startswith("Forgot 'Kyoto':")
        assert "Kyoto" not in await ok(s, "recall", query="Where does Anna live? Kyoto")
        hit = (await ok(s, "recall", query="climbing")).splitlines()[1]
        memory_id = hit.split("[", 1)[1].split(",", 1)[0]
        assert "1 memory deleted" in await ok(s, "forget", what=memory_id)
        assert "nothing was deleted" in await ok(s, "forget", what="Atlantis")

    run(daemon.socket, "mia", scenario)
    with daemon.client() as c:  # what the tools did, as the daemon holds it
        assert not any("Kyoto" in i["text"] for i in c.memory_search("mia", "Kyoto")["items"])
        assert c.memory_search("mia", "驾照")["items"]


def test_remember_keeps_speaker_time_and_side(daemon: InProcessDaemon) -> None:
    with daemon.client() as c:
        c.agent_create("mia")

    async def scenario(s: ClientSession) -> None:
        await ok(
            s,
            "remember",
            text="I'll run the Berlin marathon.",
            speaker="Tom",
            when="2026-03-01T09:00",
        )
        await ok(s, "remember", text="我答应了周末提醒你去看牙医。", who="companion")

    run(daemon.socket, "mia", scenario)
    with daemon.client() as c:
        sessions = c.every("session.list", "sessions", agent_id="mia")
        assert len(sessions) == 2 and not any(x["open"] for x in sessions)  # consolidated at once
        first, second = (c.session_history(x["session_id"])["messages"][0] for x in sessions)
        assert (first["role"], first["speaker"]) == ("user", "Tom")
        local = dt.datetime.fromisoformat("2026-03-01T09:00").astimezone()  # a naive time is local
        assert first["ts"] == int(local.timestamp() * 1000)
        assert second["role"] == "assistant" and "牙医" in second["text"]


def test_check_in_gives_a_question_once(daemon: InProcessDaemon) -> None:
    with daemon.client() as c:
        c.agent_create("mia")

    async def scenario(s: ClientSession) -> None:
        assert (await ok(s, "check_in")).startswith("Nothing to ask about now (nothing is due)")
        # said last night, worn out: the next conversation opens with one caring question
        await ok(s, "remember", text="I'm so tired today, the project crashed.", when="-20h")
        question = await ok(s, "check_in")
        assert question.startswith("Greet them, then ask one caring question")
        assert "the project crashed" in question
        assert (await ok(s, "check_in")).startswith("Nothing to ask about now")

    run(daemon.socket, "mia", scenario)


def test_bad_arguments_are_tool_errors(daemon: InProcessDaemon) -> None:
    with daemon.client() as c:
        c.agent_create("mia")

    async def scenario(s: ClientSession) -> None:
        assert "limit" in await refused(s, "recall", query="Anna", limit=0)
        assert "query" in await refused(s, "recall")
        assert "text" in await refused(s, "remember", text="")
        assert "text" in await refused(s, "remember", text="   ")
        assert "cannot read the time" in await refused(
            s, "remember", text="我养了一只猫。", when="someday"
        )
        assert "who" in await refused(s, "remember", text="hi there", who="narrator")
        future = await refused(s, "remember", text="I see the dentist.", when="tomorrow 08:00")
        assert "'when' is in the future" in future
        assert "bad_params" in await refused(s, "forget", what="x")  # the daemon's words
        assert await refused(s, "no_such_tool")
        # and the server still serves, with nothing stored by the refused calls
        assert "Nothing remembered" in await ok(s, "recall", query="猫")

    run(daemon.socket, "mia", scenario)
    with daemon.client() as c:
        assert c.every("session.list", "sessions", agent_id="mia") == []


def test_the_agent_is_fixed_by_the_command_line(daemon: InProcessDaemon) -> None:
    with daemon.client() as c:
        c.agent_create("mia")
        c.agent_create("kai")
        sid = c.session_open("kai")["session_id"]
        c.session_ingest(sid, [{"role": "user", "text": "My password hint is Bluebird."}])
        c.session_close(sid, wait=True)

    async def scenario(s: ClientSession) -> None:
        # an agent named in the arguments is no argument of the tool: mia's memory is searched
        result = await s.call_tool("recall", {"query": "Bluebird", "agent_id": "kai"})
        assert text(result) == "Nothing remembered about 'Bluebird'."
        assert (await ok(s, "recall", query="password hint Bluebird")).startswith("Nothing")

    run(daemon.socket, "mia", scenario)


def test_daemon_errors_are_tool_errors(daemon: InProcessDaemon, tmp_path: Path) -> None:
    async def unknown_agent(s: ClientSession) -> None:
        assert "not_found" in await refused(s, "recall", query="Anna")
        assert "not_found" in await refused(s, "mood")

    run(daemon.socket, "nobody", unknown_agent)

    async def no_daemon(s: ClientSession) -> None:
        for tool in ("recall", "profile"):
            message = await refused(s, tool, **({"query": "Anna"} if tool == "recall" else {}))
            assert "not reachable" in message and "not running" in message

    run(tmp_path / "nothing.sock", "mia", no_daemon)


def test_without_the_mcp_extra(tmp_path: Path) -> None:
    blocked = (
        "import sys; sys.modules['mcp'] = None; from xaiclient.cli import main; "
        f"sys.exit(main(['--socket', {str(tmp_path / 'x.sock')!r}, 'mcp', '--agent', 'mia']))"
    )
    out = subprocess.run(
        [sys.executable, "-c", blocked], capture_output=True, text=True, timeout=60
    )
    one_line_error(out)
    assert "pip install 'xaiclient[mcp]'" in out.stderr


@pytest.mark.parametrize("args", [["mcp"], ["mcp", "--agent"]])
def test_the_agent_is_required(tmp_path: Path, args: list[str]) -> None:
    out = xaictl(*args, socket=tmp_path / "x.sock")
    assert out.returncode == 2 and "--agent" in out.stderr


def test_only_xaictl_mcp_loads_the_sdk() -> None:
    """The daemon and the rest of xaictl stay lean: the SDK (and pydantic) load with `xaictl mcp` only."""
    probe = (
        "import sys, xaiclient, xaiclient.cli, xaid.lifespan, xaid.server.methods; "
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'mcp', 'mcp_types', 'pydantic'}))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


DOC = (Path(__file__).resolve().parents[2] / "docs" / "mcp.md").read_text(encoding="utf-8")


def _blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", DOC, re.S)


def test_the_docs_recipes_are_real() -> None:
    """docs/mcp.md: every config recipe is JSON whose command line xaictl accepts as `mcp`, its
    tools table names the server's tools, and its Python example is valid Python."""
    configs = [json.loads(b) for b in _blocks("json")]
    assert len(configs) >= 2
    for config in configs:
        for server in config["mcpServers"].values():
            assert server["command"].endswith("xaictl")
            args = build_parser().parse_args(server["args"])
            assert args.fn is cli_mcp.cmd_mcp and args.agent == "mia"
    assert set(re.findall(r"^\| `(\w+)` \|", DOC, re.M)) == TOOLS
    (example,) = _blocks("python")
    compile(example, "docs/mcp.md", "exec")
    for line in _blocks("sh"):
        assert "mcp --agent mia" in line
