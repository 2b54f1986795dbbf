"""``xaictl mcp``: the MCP server over stdio, for apps that speak MCP (docs/mcp.md).

The SDK is an optional extra (``pip install 'xaiclient[mcp]'``), so it is imported only when the
command runs; without it the command says how to install it, in xaictl's one-line error form.
"""

from __future__ import annotations

import argparse
from typing import Any

from .wire import XaiError

INSTALL = "the MCP server needs the mcp package: pip install 'xaiclient[mcp]'"


def cmd_mcp(args: argparse.Namespace) -> int:
    try:
        from . import mcp_server
    except ImportError as exc:
        if exc.name is not None and exc.name.split(".")[0] not in {"mcp", "mcp_types", "pydantic"}:
            raise
        raise XaiError("unavailable", INSTALL) from None
    mcp_server.serve(args.agent, args.socket)
    return 0


def register(sub: Any) -> None:
    p = sub.add_parser(
        "mcp",
        help="serve one agent's memory to an MCP app over stdio (recall, remember, forget, "
        "mood, check_in, profile)",
        description="An MCP server on stdin/stdout for Claude Desktop, Cursor, Open WebUI and other "
        "MCP clients; the app starts it. The agent is fixed here: no tool can choose another.",
    )
    p.add_argument("--agent", required=True, metavar="ID", help="the agent whose memory is served")
    p.set_defaults(fn=cmd_mcp)
