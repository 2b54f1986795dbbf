"""xaictl chat: a conversation at the terminal that never loses what was typed.

A REPL lives for hours while the daemon closes idle connections (``server.idle_seconds``) and idle
sessions (``memory.idle_minutes``): both are expected, so the chat reconnects or opens a new session
and sends the line anyway, as long as the daemon never saw it. Lines are read with the standard
library's ``readline`` (editing, history kept 0600 in the user's state directory); readline also
reads the terminal without the kernel's canonical-mode line limit, so a long paste arrives whole.
Without readline that limit applies, and a line that hits it is refused with a way around it
rather than sent cut.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from . import cli_explain, cli_time
from .client import Client, Stream
from .core import DaemonUnavailable
from .wire import Cancelled, Conflict, NotFound, Timeout, XaiError

TTY_LINE_MAX = 4095  # what a terminal in canonical mode delivers of one line (N_TTY_BUF_SIZE - 1)
HISTORY_LENGTH = 1000
HELP = """\
/help             this list
/quit             close the session (it is remembered) and leave; Ctrl-D does the same
/new              close this session and start a new one
/forget WHAT      delete every memory and message that mentions WHAT
/mood             the mood the agent senses now
/memories [TEXT]  what it remembers (facts), or what it would recall for TEXT
/paste            a message of several lines: end it with a line holding only "."
//TEXT            send TEXT starting with "/"
A line ending in "\\" continues on the next line. Ctrl-C stops a reply or clears the line."""


def history_path() -> Path:
    """$XAICTL_HISTORY, else the XDG state directory: what was typed is private, so not in $HOME's top."""
    if env := os.environ.get("XAICTL_HISTORY"):
        return Path(env)
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "xaid" / "xaictl_history"


def line_editor() -> ModuleType | None:
    """The standard library's readline, imported only for a terminal: once imported, ``input()`` uses it."""
    try:
        import readline
    except ImportError:  # Windows, or a Python built without it
        return None
    return readline


def _load_history(readline: ModuleType, path: Path) -> bool:
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
        os.chmod(path, 0o600)
        readline.read_history_file(path)
    except OSError as exc:
        print(f"[no history: {exc}]", file=sys.stderr)
        return False
    readline.set_history_length(HISTORY_LENGTH)
    return True


def _save_history(readline: ModuleType, path: Path) -> None:
    try:
        readline.write_history_file(path)
        os.chmod(path, 0o600)
    except OSError:
        pass


def stream_reply(args: argparse.Namespace, client: Client, stream: Stream) -> dict[str, Any]:
    """Print the reply as it arrives; Ctrl-C cancels the turn instead of killing xaictl."""
    try:
        for ev in stream:
            if ev.event == "text" and not args.json:
                print(ev.data.get("delta", ""), end="", flush=True)
            elif ev.event == "tool_call":
                client.session_tool_result(
                    args.session_id,
                    ev.data["call_id"],
                    {"error": "xaictl cannot run client-side tools"},
                )
            elif ev.event == "notice":
                print(f"\n[{ev.data.get('message')}]", file=sys.stderr)
    except KeyboardInterrupt:
        stream.cancel()
        with contextlib.suppress(Cancelled):
            stream.finish()
        print("\n[cancelled]", file=sys.stderr)
        return {}
    if not args.json:
        print()
    return dict(stream.result)


def session_for(
    client: Client, agent_id: str, new: bool, ts: int | None = None
) -> tuple[str, bool]:
    """The newest open session (unless ``new``), else a new one; and whether it was opened here."""
    if not new:
        open_sessions = client.every("session.list", "sessions", agent_id=agent_id, open_only=True)
        if open_sessions:
            return str(open_sessions[-1]["session_id"]), False
    return str(client.session_open(agent_id, ts=ts)["session_id"]), True


@dataclass
class Chat:
    args: argparse.Namespace
    client: Client | None = None
    session_id: str | None = None
    offset_ms: int | None = None  # replaying: the chat's clock runs this far from the real one

    @property
    def agent(self) -> str:
        return str(self.args.agent_id)

    def ts(self) -> int | None:
        return None if self.offset_ms is None else int(time.time() * 1000) + self.offset_ms

    def connected(self) -> Client:
        if self.client is not None and self.client.usable():
            return self.client
        if self.client is not None:
            self.client.close()
            print("[reconnected: xaid had closed the idle connection]", file=sys.stderr)
        self.client = None
        self.client = Client(self.args.socket, client_name="xaictl")
        return self.client

    def session(self) -> str:
        if self.session_id is None:
            self.session_id = str(
                self.connected().session_open(self.agent, ts=self.ts())["session_id"]
            )
            print(f"[session {self.session_id}]", file=sys.stderr)
        return self.session_id

    def say(self, text: str) -> None:
        """Send ``text``; a closed session or connection is replaced and the text sent again,
        which is safe because the daemon refused it before storing anything."""
        for attempt in range(3):
            sent = False
            try:
                client = self.connected()
                session_id = self.args.session_id = self.session()
                print(f"{self.agent}> ", end="", flush=True)
                sent = True
                stream_reply(self.args, client, client.session_send(session_id, text, ts=self.ts()))
                return
            except XaiError as exc:
                if sent:
                    print()
                why = self._retry(exc, sent) if attempt < 2 else None
                if why is None:
                    raise
                print(f"[{why}]", file=sys.stderr)

    def _retry(self, exc: XaiError, sent: bool) -> str | None:
        """Why sending again is right, or None when it is not (the daemon may have stored the words)."""
        if isinstance(exc, Conflict | NotFound) and sent:
            old, self.session_id = self.session_id, None
            return f"session {old} was closed (idle past memory.idle_minutes, or elsewhere); continuing in a new one"
        client = self.client
        if (
            client is not None
            and client.ended is exc
            and isinstance(exc, Timeout)
            and exc.message.find("idle") >= 0
        ):
            self.client = None
            return "xaid had closed the idle connection; reconnecting"
        return None

    def command(self, line: str) -> bool:
        """Run a /command; False when the chat should end."""
        name, _, rest = line.partition(" ")
        rest = rest.strip()
        if name in ("/quit", "/exit"):
            self.quit()
            return False
        if name == "/help":
            print(HELP)
        elif name == "/new":
            self.close_session()
            self.session()
        elif name == "/forget":
            if not rest:
                print(
                    "usage: /forget WHAT (every memory and message that mentions WHAT)",
                    file=sys.stderr,
                )
            else:
                result = self.connected().memory_forget(self.agent, query=rest)
                print(f"forgot {result['deleted']} item(s) mentioning {rest!r}")
        elif name == "/mood":
            mood = self.connected().mood_get(self.agent, ts=self.ts())
            print(
                cli_explain.mood_line(mood)
                + ("" if mood["enabled"] else "  [mood is off for this agent]")
            )
            print(mood["guidance"] or "(neutral: no tone guidance)")
        elif name == "/memories":
            self.memories(rest)
        else:
            print(
                f"unknown command {name}; /help lists them (start with // to send a line beginning with /)",
                file=sys.stderr,
            )
        return True

    def memories(self, query: str) -> None:
        client = self.connected()
        if query:
            items = client.memory_search(self.agent, query, ts=self.ts())["items"]
            lines = [f"{i['kind']}:{i['id']}  {i['when']}  {i['text']}" for i in items]
        else:
            items = client.memory_list(self.agent, kind="fact", limit=50)["items"]
            lines = [f"fact:{f['fact_id']}  {f['text']}" for f in items]
        print(
            "\n".join(lines) or "(nothing remembered yet: sessions are remembered once they close)"
        )

    def close_session(self) -> None:
        if self.session_id is not None:
            closed = self.connected().session_close(self.session_id, ts=self.ts())
            print(f"[closed {closed['session_id']}]", file=sys.stderr)
            self.session_id = None

    def quit(self) -> None:
        try:
            self.close_session()
        except XaiError as exc:
            print(f"[the session stays open: {exc.message}]", file=sys.stderr)


def read_message(line_limit: bool) -> str | None:
    """One message from the prompt: continuation lines joined, /paste read; None for "nothing to send"."""
    line = input("you> ")
    if line.strip() == "/paste":
        print('[paste; end with a line holding only "."]', file=sys.stderr)
        lines: list[str] = []
        while True:
            try:
                more = input("")
            except EOFError:
                break
            if more == ".":
                break
            lines.append(more)
        return "\n".join(lines)
    while line.endswith("\\"):
        line = line[:-1] + "\n" + input("...> ")
    if line_limit and len(line) >= TTY_LINE_MAX:
        print(
            f"[not sent: the terminal cuts a line at {TTY_LINE_MAX} characters; use /paste, end lines "
            "with \\, or send a file: xaictl send AGENT --file FILE]",
            file=sys.stderr,
        )
        return None
    return line


def cmd_chat(args: argparse.Namespace) -> int:
    chat = Chat(args)
    when = cli_time.given(args)
    if when is not None:
        chat.offset_ms = when - int(time.time() * 1000)
    interactive = sys.stdin.isatty()
    readline = line_editor() if interactive else None
    history = history_path() if readline is not None and not args.no_history else None
    if readline is not None and history is not None and not _load_history(readline, history):
        history = None
    client = chat.connected()
    chat.session_id = args.session or session_for(client, chat.agent, False, chat.ts())[0]
    print(
        f"session {chat.session_id} with {chat.agent}; /help lists the commands, /quit leaves",
        file=sys.stderr,
    )
    try:
        while True:
            try:
                text = read_message(interactive and readline is None)
            except EOFError:
                print()
                chat.quit()
                return 0
            except KeyboardInterrupt:
                print("\n(/quit or Ctrl-D leaves)", file=sys.stderr)
                continue
            if text is None or not text.strip():
                continue
            text = text.strip()
            try:
                if text.startswith("/") and not text.startswith("//"):
                    if not chat.command(text):
                        return 0
                    continue
                chat.say(text[1:] if text.startswith("//") else text)
            except DaemonUnavailable as exc:
                chat.client = None
                print(
                    f"[{exc.message}. If xaid got the line it is in the session's history; if not, it is in "
                    "the input history (up arrow) to send again]",
                    file=sys.stderr,
                )
            except XaiError as exc:
                print(f"[{exc.code}: {exc.message}]", file=sys.stderr)
    finally:
        if readline is not None and history is not None:
            _save_history(readline, history)
        if chat.client is not None:
            chat.client.close()


def register(sub: Any) -> None:
    chat = sub.add_parser("chat", help="interactive conversation (/help inside lists its commands)")
    chat.add_argument("agent_id")
    chat.add_argument("--session", help="session id to continue")
    chat.add_argument(
        "--no-history", action="store_true", help="keep no history file of what is typed"
    )
    cli_time.add_flags(chat)
    chat.set_defaults(fn=cmd_chat)
