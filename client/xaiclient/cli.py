"""xaictl: talk to xaid from a shell, one socket request per step.

Every failure is one line on stderr and a non-zero exit; a daemon that is not running is
reported as such, never as a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import cli_chat, cli_demo, cli_explain, cli_mcp, cli_memory, cli_ops, cli_time
from .client import Client
from .core import DaemonUnavailable
from .wire import DEFAULT_MAX_FRAME, BadParams, XaiError

EXIT_ERROR = 1
EXIT_UNAVAILABLE = 3


def _json_arg(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise argparse.ArgumentTypeError(f"not JSON: {exc}") from None
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError("must be a JSON object")
    return value


def _print(args: argparse.Namespace, value: Any, human: Callable[[Any], str] | None = None) -> None:
    if args.json or human is None:
        print(json.dumps(value, ensure_ascii=False, indent=2, default=str))
    else:
        print(human(value))


def _when(ms: int | None) -> str:
    return "-" if ms is None else time.strftime("%Y-%m-%d %H:%M", time.localtime(ms / 1000))


def _connect(args: argparse.Namespace, max_frame: int = DEFAULT_MAX_FRAME) -> Client:
    return Client(args.socket, client_name="xaictl", max_frame=max_frame)


def cmd_ping(args: argparse.Namespace) -> int:
    deadline = time.monotonic() + args.wait
    while True:
        try:
            with _connect(args) as client:
                start = time.perf_counter()
                client.ping()
                rtt = (time.perf_counter() - start) * 1e6
        except DaemonUnavailable:
            if time.monotonic() >= deadline:
                raise
            time.sleep(0.1)
            continue
        _print(
            args,
            {"ok": True, "rtt_us": round(rtt, 1)},
            lambda v: f"pong from {client.path} in {v['rtt_us']} µs",
        )
        return 0


def cmd_status(args: argparse.Namespace) -> int:
    with _connect(args) as client:
        st = client.status()

    def human(s: dict[str, Any]) -> str:
        m = s["model"]
        return "\n".join(
            [
                f"xaid {s['version']} pid {s['pid']} up {s['uptime_s']:.0f} s, {s['rss_kib'] // 1024} MiB",
                f"model: {m['provider']} {m['state']}"
                + (f" ({m['error']})" if m.get("error") else ""),
                *([_runner_line(m["runner"])] if m.get("runner") else []),
                f"queue: {s['queue']['waiting']} waiting, {s['queue']['generated']} generated; "
                f"{s['connections']} connection(s), {s['active_turns']} turn(s) running",
                *([_speed_line(s["llm_speed"])] if s.get("llm_speed") else []),
                f"database: {s['database']}",
            ]
        )

    _print(args, st, human)
    return 0


def _runner_line(r: dict[str, Any]) -> str:
    """The model's own process: how big, how often it died and why."""
    crashes = ", ".join(f"{n} {reason}" for reason, n in r["crashes"].items()) or "none"
    where = f"pid {r['pid']}, {(r['rss_kib'] or 0) // 1024} MiB" if r["pid"] else "not running"
    return f"model runner: {where}; {r['restarts']} restart(s), crashes: {crashes}"


def _speed_line(speed: dict[str, Any]) -> str:
    """Recent medians (p95 beside them): what a user waits for the first word, and how fast words come."""

    def fig(key: str, unit: str) -> str:
        v = speed.get(key) or {}
        return "-" if v.get("p50") is None else f"{v['p50']:g} {unit} (p95 {v['p95']:g})"

    return (
        f"speed: first token {fig('first_token_ms', 'ms')}, generation {fig('generation_tokens_per_s', 'tok/s')}, "
        f"prompt {fig('prompt_tokens_per_s', 'tok/s')}"
    )


def cmd_models(args: argparse.Namespace) -> int:
    with _connect(args) as client:
        listing = client.models_list()

    def human(v: dict[str, Any]) -> str:
        lines = [f"{'name':<20} {'size':>8} {'RAM':>7} {'languages':<10} {'license':<11} installed"]
        for m in v["models"]:
            if m["installed"]:
                where = "yes" + (", verified" if m["verified"] else ", checked at first use")
            elif m["packages_installed"] == len(m["packages"]):
                where = "packages installed, joined at first use"
            elif m["packages_installed"]:
                where = f"partly ({m['packages_installed']}/{len(m['packages'])} packages)"
            else:
                where = "no"
            if not m["installed"] and m["packages_installed"] < len(m["packages"]):
                where += f" (xaid --install-model {m['name']})"
            mark = "*" if m["configured"] else " "
            lines.append(
                f"{mark}{m['name']:<19} {m['size'] / 1e6:>6.0f}MB {m['ram_mb'] / 1000:>5.1f}GB "
                f"{','.join(m['languages']):<10} {m['license']:<11} {where}"
            )
            lines.append(f"  {m['description']}")
        if v.get("model_path"):
            lines.append(f"llm.model_path = {v['model_path']} is used instead of the catalogue")
        elif v.get("configured"):
            lines.append("* the configured model (llm.model)")
        return "\n".join(lines)

    _print(args, listing, human)
    return 0


def _stats_lines(s: dict[str, Any]) -> str:
    lines = [
        f"connections {s['connections_total']} ({s['connections_refused']} refused), "
        f"protocol errors {s['protocol_errors']}, replies generated {s.get('llm_generated', 0)}",
        *([_speed_line(s["llm_speed"])] if s.get("llm_speed") else []),
        f"{'method':<22} {'calls':>7} {'errors':>7} {'p50 ms':>9} {'p95 ms':>9}",
    ]
    for name, m in sorted(s["methods"].items()):
        lines.append(
            f"{name:<22} {m['calls']:>7} {m['errors']:>7} {m['p50_ms']:>9.2f} {m['p95_ms']:>9.2f}"
        )
    mem = dict(s.get("memory") or {})
    if mem:
        embedder = mem.pop("embedder", "-")
        batches, texts = mem.pop("embed_batches", 0), mem.pop("embed_texts", 0)
        lines.append(
            f"memory: embedder {embedder}; {texts} text(s) embedded in {batches} batch(es)"
        )
        if mem:
            lines.append("  " + ", ".join(f"{k} {v}" for k, v in sorted(mem.items())))
    if sched := s.get("scheduler"):
        rates = [
            f"{name} {sched[f'{name}_rate']:.0%}"
            for name in ("engagement", "annoyance")
            if sched.get(f"{name}_rate") is not None
        ]
        lines.append(
            f"scheduler: {sched['pushes']} suggestion(s), {sched['engaged']} engaged, "
            f"{sched['welcome']} welcome, {sched['annoying']} annoying, {sched['pending']} pending"
            + (f"; {', '.join(rates)}" if rates else "")
        )
    return "\n".join(lines)


def cmd_token(args: argparse.Namespace) -> int:
    """The HTTP surface's bearer token, for an app's "API key" field (TCP listeners need it)."""
    with _connect(args) as client:
        found = client.call("admin.http_token")
    _print(args, found, lambda v: v["token"])
    return 0


def cmd_stats(args: argparse.Namespace) -> int:
    with _connect(args) as client:
        if args.prometheus:
            _print(args, client.stats(format="prometheus"), lambda v: str(v["text"]).rstrip("\n"))
        else:
            _print(args, client.stats(), _stats_lines)
    return 0


def _agent_line(a: dict[str, Any]) -> str:
    tools = len(a.get("config", {}).get("tools", []))
    return f"{a['agent_id']:<20} {a['name']:<20} tools={tools} created {_when(a['created_ms'])}"


def _agent_text(a: dict[str, Any]) -> str:
    config = a.get("config") or {}
    tools = [t.get("name", "?") for t in config.get("tools", [])]
    settings = {k: v for k, v in config.items() if k != "tools"}
    return "\n".join(
        [
            f"{a['agent_id']}: {a['name']}, created {_when(a['created_ms'])}, updated {_when(a['updated_ms'])}",
            f"persona: {a['persona_init'] or '(none)'}",
            "config: "
            + (json.dumps(settings, ensure_ascii=False) if settings else "(the daemon's defaults)"),
            "tools: " + (", ".join(tools) if tools else "(none)"),
        ]
    )


def cmd_agent(args: argparse.Namespace) -> int:
    with _connect(args) as client:
        if args.action == "list":
            agents = client.every("agent.list", "agents")
            _print(args, agents, lambda v: "\n".join(_agent_line(a) for a in v) or "(no agents)")
        elif args.action == "create":
            _print(
                args,
                client.agent_create(args.agent_id, args.name, args.persona, args.config),
                _agent_line,
            )
        elif args.action == "update":
            _print(
                args,
                client.agent_update(args.agent_id, args.name, args.persona, args.config),
                _agent_line,
            )
        elif args.action == "show":
            _print(args, client.agent_get(args.agent_id), _agent_text)
        elif args.action == "delete":
            if not args.yes:
                raise XaiError(
                    "refused", f"deleting {args.agent_id} erases everything it remembers; add --yes"
                )
            _print(args, client.agent_delete(args.agent_id), lambda v: f"deleted {v['deleted']}")
    return 0


def _text(args: argparse.Namespace) -> str:
    """The message: the argument, stdin for "-", or --file; refused before anything is opened when blank."""
    if args.file is not None:
        if args.text is not None:
            raise BadParams("give the message as an argument or with --file, not both")
        try:
            text = Path(args.file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise BadParams(f"cannot read {args.file}: {exc}") from None
    elif args.text == "-":
        text = sys.stdin.read()
    elif args.text is None:
        raise BadParams("no message: give TEXT, '-' to read stdin, or --file FILE")
    else:
        text = args.text
    if not text.strip():
        raise BadParams("the message is empty; nothing was sent")
    return text.rstrip("\n") if args.text == "-" or args.file is not None else text


def cmd_send(args: argparse.Namespace) -> int:
    text = _text(args)
    ts = cli_time.given(args)
    with _connect(args) as client:
        opened = False
        if args.session:
            args.session_id = args.session
        else:
            args.session_id, opened = cli_chat.session_for(client, args.agent_id, args.new, ts)
        try:
            stream = client.session_send(args.session_id, text, explain=args.explain or None, ts=ts)
            result = cli_chat.stream_reply(args, client, stream)
        except XaiError:
            if opened:
                _drop_if_empty(client, args.session_id)
            raise
        if args.json:
            _print(args, {"session_id": args.session_id, **result})
        elif args.explain and result.get("context"):
            print(cli_explain.summary(result["context"]))
    return 0


def _drop_if_empty(client: Client, session_id: str) -> None:
    """A session opened for a message that was refused holds nothing: close it rather than leave it open."""
    try:
        if client.usable() and not client.session_history(session_id)["messages"]:
            client.session_close(session_id)
    except XaiError:
        pass


def cmd_session(args: argparse.Namespace) -> int:
    with _connect(args) as client:
        if args.action == "list":
            found = client.every(
                "session.list", "sessions", agent_id=args.agent_id, open_only=args.open or None
            )
            _print(
                args,
                found,
                lambda v: (
                    "\n".join(
                        f"{s['session_id']}  {'open  ' if s['open'] else 'closed'}  {_when(s['opened_ms'])}  "
                        f"{s['messages']} messages"
                        for s in v
                    )
                    or "(no sessions)"
                ),
            )
        elif args.action == "history":
            history = client.session_history(args.session_id, args.limit)
            empty = (
                "(transcript deleted after memory.keep_transcripts_days; its episode and facts are kept: "
                "xaictl memory list)"
                if history.get("transcript_pruned")
                else "(no messages)"
            )
            _print(
                args,
                history["messages"],
                lambda v: (
                    "\n".join(
                        f"[{_when(m['ts'])}] {m['role']}: {m['text']}"
                        + (" (interrupted)" if m["status"] != "complete" else "")
                        for m in v
                    )
                    or empty
                ),
            )
        elif args.action == "open":
            opened = client.session_open(args.agent_id, ts=cli_time.given(args))
            _print(
                args,
                opened,
                lambda v: f"{v['session_id']}  opened {_when(v['opened_ms'])} with {v['agent_id']}",
            )
        elif args.action == "close":
            closed = client.session_close(
                args.session_id, ts=cli_time.given(args), wait=args.wait or None
            )
            _print(
                args,
                closed,
                lambda v: (
                    f"closed {v['session_id']}"
                    + (
                        ""
                        if not args.wait
                        else f"; episode {v['episode_id']}"
                        if v["episode_id"] is not None
                        else "; nothing to remember (no episode)"
                    )
                ),
            )
    return 0


def cmd_mood(args: argparse.Namespace) -> int:
    with _connect(args) as client:
        if args.reset:
            _print(
                args,
                client.mood_reset(args.agent_id),
                lambda v: "mood reset: " + cli_explain.mood_line(v),
            )
        elif args.history:
            items = client.mood_history(args.agent_id, args.history)["items"]
            _print(
                args,
                items,
                lambda v: (
                    "\n".join(
                        f"[{_when(m['ts'])}] {m['kind']:<7} {cli_explain.mood_line(m)}  {' '.join(m['cues'])}"
                        for m in v
                    )
                    or "(no mood changes)"
                ),
            )
        else:
            mood = client.mood_get(args.agent_id)
            _print(
                args,
                mood,
                lambda m: "\n".join(
                    [
                        cli_explain.mood_line(m)
                        + ("" if m["enabled"] else "  [mood is off for this agent]"),
                        m["guidance"] or "(neutral: no tone guidance)",
                    ]
                ),
            )
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="xaictl", description="Talk to the xaid daemon over its Unix socket."
    )
    parser.add_argument(
        "--socket",
        help="daemon socket (default: $XAID_SOCKET, $XDG_RUNTIME_DIR/xaid/xaid.sock, /run/xaid/xaid.sock)",
    )
    parser.add_argument("--json", action="store_true", help="print results as JSON")
    # --json is also accepted after the subcommand ("xaictl stats --json"); unset there, the global one holds.
    json_flag = argparse.ArgumentParser(add_help=False)
    json_flag.add_argument(
        "--json", action="store_true", default=argparse.SUPPRESS, help="print results as JSON"
    )
    common = [json_flag]
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("ping", parents=common, help="check that the daemon answers")
    p.add_argument(
        "--wait", type=float, default=0.0, metavar="SECONDS", help="keep trying this long"
    )
    p.set_defaults(fn=cmd_ping)
    sub.add_parser("status", parents=common, help="version, model state, queue").set_defaults(
        fn=cmd_status
    )
    sub.add_parser(
        "token", parents=common, help="the HTTP surface's bearer token (an app's API key)"
    ).set_defaults(fn=cmd_token)
    sub.add_parser(
        "models", parents=common, help="the model catalogue and what the daemon has installed"
    ).set_defaults(fn=cmd_models)
    st = sub.add_parser(
        "stats",
        parents=common,
        help="calls and latencies per method, memory and scheduler counters",
    )
    st.add_argument(
        "--prometheus", action="store_true", help="the same figures in the Prometheus text format"
    )
    st.set_defaults(fn=cmd_stats)

    agent = sub.add_parser("agent", help="create, list, show, update, delete agents")
    asub = agent.add_subparsers(dest="action", required=True)
    asub.add_parser("list", parents=common)
    for action in ("create", "update"):
        a = asub.add_parser(action, parents=common)
        a.add_argument("agent_id")
        a.add_argument("--name")
        a.add_argument("--persona", help="persona_init: who the agent is")
        a.add_argument(
            "--config",
            type=_json_arg,
            help="agent config as a JSON object (tools, max_tokens, ...)",
        )
    asub.add_parser("show", parents=common).add_argument("agent_id")
    d = asub.add_parser("delete", parents=common)
    d.add_argument("agent_id")
    d.add_argument(
        "--yes", action="store_true", help="confirm: everything the agent remembers is erased"
    )
    agent.set_defaults(fn=cmd_agent)

    send = sub.add_parser(
        "send", parents=common, help="one message, reply streamed (reuses the newest open session)"
    )
    send.add_argument("agent_id")
    send.add_argument("text", nargs="?", help="the message; '-' reads it from stdin")
    send.add_argument("--file", metavar="FILE", help="read the message from FILE (UTF-8)")
    send.add_argument("--session", help="session id to continue")
    send.add_argument("--new", action="store_true", help="start a new session")
    send.add_argument(
        "--explain",
        action="store_true",
        help="also print what was recalled, the mood and the "
        "suggestion (the whole prompt context with --json)",
    )
    cli_time.add_flags(send)
    send.set_defaults(fn=cmd_send)

    cli_chat.register(sub)
    cli_demo.register(sub)
    cli_mcp.register(sub)

    mood = sub.add_parser(
        "mood", parents=common, help="the mood the agent senses, its history, or a reset"
    )
    mood.add_argument("agent_id")
    mood.add_argument("--history", type=int, metavar="N", help="the last N mood changes")
    mood.add_argument("--reset", action="store_true", help="back to neutral")
    mood.set_defaults(fn=cmd_mood)

    sess = sub.add_parser("session", help="list, history, open, close")
    ssub = sess.add_subparsers(dest="action", required=True)
    sl = ssub.add_parser("list", parents=common)
    sl.add_argument("agent_id")
    sl.add_argument("--open", action="store_true", help="only open sessions")
    sh = ssub.add_parser("history", parents=common)
    sh.add_argument("session_id")
    sh.add_argument("--limit", type=int)
    so = ssub.add_parser("open", parents=common, help="a new session (--at/--ts: when it opens)")
    so.add_argument("agent_id")
    cli_time.add_flags(so)
    sc = ssub.add_parser("close", parents=common)
    sc.add_argument("session_id")
    cli_time.add_flags(sc)
    sc.add_argument(
        "--wait", action="store_true", help="wait for the session's episode and print its id"
    )
    sess.set_defaults(fn=cmd_session)

    shell = cli_memory.Shell(connect=_connect, show=_print, when=_when)
    cli_memory.register(sub, shell, common)
    cli_ops.register(sub, shell, common)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    # argparse fills an optional positional (send's TEXT) before the options that follow it are read,
    # so "send mia --new hi" leaves "hi" over: it is the text.
    if len(extra) == 1 and getattr(args, "text", "") is None and not extra[0].startswith("--"):
        args.text = extra[0]
    elif extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        return int(args.fn(args))
    except DaemonUnavailable as exc:
        print(f"xaictl: {exc.message}", file=sys.stderr)
        return EXIT_UNAVAILABLE
    except XaiError as exc:
        print(f"xaictl: {exc.code}: {exc.message}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
