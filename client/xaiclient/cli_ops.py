"""xaictl scheduler …, xaictl backup: the proactive-recall controls and a backup of the daemon's database.

Registered by cli.py, whose small helpers (connect, print, dates) arrive as a ``cli_memory.Shell``,
so that the modules do not import each other.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
from functools import partial
from pathlib import Path
from typing import Any

from .cli_memory import Shell
from .client import Client
from .wire import BadParams, BadRequest, XaiError

STATES = ("pending", "pushed", "expired", "resolved", "cancelled")


# -- human output ----------------------------------------------------------------------------------


def _item_line(shell: Shell, i: dict[str, Any]) -> str:
    line = (
        f"#{i['item_id']:<5} {i['state']:<9} {i['scene']:<8} {i['priority']:.2f}  "
        f"{shell.when(i['not_before'])} .. {shell.when(i['not_after'])}  {i['topic']}"
    )
    notes = []
    if i.get("pushed_ms") is not None:
        engaged = {True: "engaged", False: "not taken up", None: "outcome pending"}[
            i.get("engaged")
        ]
        notes.append(f"pushed {shell.when(i['pushed_ms'])} in {i['pushed_session']}, {engaged}")
    if i.get("feedback"):
        notes.append(f"feedback: {i['feedback']}")
    if i.get("closed_reason"):
        notes.append(i["closed_reason"])
    return line + (f"\n       ({'; '.join(notes)})" if notes else "")


def _settings_line(agent_id: str, s: dict[str, Any]) -> str:
    allow = ", ".join(s["allow"]) if s["allow"] else "every scene and topic"
    avoid = s.get("avoid") or []  # a daemon before "don't bring this up" sends none
    return (
        f"proactive recall for {agent_id}: {'on' if s['enabled'] else 'off'}; "
        f"quiet {'on' if s['quiet'] else 'off'}; at least {s['min_gap_hours']:g} h between suggestions; "
        f"allowed: {allow}" + (f"; never brought up: {', '.join(avoid)}" if avoid else "")
    )


def _ms(flag: str, text: str | None) -> int | None:
    """An ISO 8601 date or date-time (local time unless it names its zone) as ms since the epoch."""
    if text is None:
        return None
    try:
        when = dt.datetime.fromisoformat(text)
    except ValueError:
        raise BadParams(
            f"{flag} {text!r} is not an ISO date or date-time (e.g. 2026-03-02T09:00)"
        ) from None
    if when.tzinfo is None:
        when = when.astimezone()  # a naive time is the local time, as xaictl prints them
    return int(when.timestamp() * 1000)


# -- commands --------------------------------------------------------------------------------------


def cmd_scheduler(shell: Shell, args: argparse.Namespace) -> int:
    if args.action == "arm":
        not_before, not_after = (
            _ms("--not-before", args.not_before),
            _ms("--not-after", args.not_after),
        )
    with shell.connect(args) as client:
        if args.action == "list":
            items = client.every(
                "scheduler.list",
                "items",
                agent_id=args.agent_id,
                states=list(STATES) if args.all else None,
            )
            empty = "(no items)" if args.all else "(nothing pending; --all shows the others)"
            shell.show(args, items, lambda v: "\n".join(_item_line(shell, i) for i in v) or empty)
        elif args.action == "arm":
            item = client.scheduler_arm(
                args.agent_id,
                args.topic,
                not_before=not_before,
                not_after=not_after,
                priority=args.priority,
            )
            shell.show(args, item, partial(_item_line, shell))
        elif args.action == "cancel":
            shell.show(
                args,
                client.scheduler_cancel(args.agent_id, args.item_id),
                lambda v: f"cancelled #{v['item_id']}",
            )
        elif args.action == "config":
            allow = [] if args.allow_all else args.allow
            settings = client.scheduler_config(
                args.agent_id,
                enabled=args.enabled,
                quiet=args.quiet,
                min_gap_hours=args.min_gap_hours,
                allow=allow,
                avoid=[] if args.avoid_none else args.avoid,
            )
            shell.show(args, settings, partial(_settings_line, args.agent_id))
        elif args.action == "feedback":
            shell.show(
                args,
                client.scheduler_feedback(args.agent_id, args.item_id, args.feedback),
                lambda v: f"#{v['item_id']}: {v['feedback']}",
            )
    return 0


def _receive(client: Client, tmp: Path) -> int:
    """The streamed snapshot into ``tmp`` (created 0600: it holds every conversation); its size."""
    written = 0
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as out:
        stream = client.backup()
        for ev in stream:
            if ev.event != "chunk":
                continue
            data, offset = ev.data.get("data"), ev.data.get("offset")
            if not isinstance(data, bytes) or offset != written:
                raise BadRequest(
                    f"the backup stream broke off at byte {written} (chunk at {offset!r})"
                )
            out.write(data)
            written += len(data)
        out.flush()
        os.fsync(out.fileno())
    if stream.result.get("bytes") != written:
        raise BadRequest(
            f"the backup is incomplete: got {written} of {stream.result.get('bytes')} bytes"
        )
    return written


def cmd_backup(shell: Shell, args: argparse.Namespace) -> int:
    target = Path(args.file)
    if target.exists() and not args.force:
        raise XaiError("refused", f"{target} exists; add --force to overwrite it")
    tmp = target.with_name(target.name + ".tmp")
    done = False
    try:
        with shell.connect(args) as client:
            size = _receive(client, tmp)
        os.replace(tmp, target)
        done = True
    except OSError as exc:
        raise XaiError(
            "io_error", f"cannot write {exc.filename or target}: {exc.strerror or exc}"
        ) from None
    finally:
        if not done:
            tmp.unlink(missing_ok=True)
    shell.show(
        args,
        {"file": str(target), "bytes": size},
        lambda v: f"backed up {v['bytes']} bytes to {v['file']}",
    )
    return 0


def register(sub: Any, shell: Shell, common: list[argparse.ArgumentParser]) -> None:
    """Add ``scheduler`` and ``backup`` to xaictl's subcommands; ``common`` are the leaf parsers' parents."""
    sched = sub.add_parser(
        "scheduler", help="proactive recall: what the agent means to ask about, and its controls"
    )
    ssub = sched.add_subparsers(dest="action", required=True)
    ls = ssub.add_parser("list", parents=common, help="pending items (--all: every state)")
    ls.add_argument("agent_id")
    ls.add_argument(
        "--all", action="store_true", help="also pushed, expired, resolved and cancelled items"
    )
    arm = ssub.add_parser("arm", parents=common, help="arm a matter to ask about")
    arm.add_argument("agent_id")
    arm.add_argument("topic")
    arm.add_argument(
        "--not-before",
        metavar="ISO",
        help="earliest time to ask (default now; local time unless a zone is given)",
    )
    arm.add_argument(
        "--not-after", metavar="ISO", help="latest time to ask (default a week after --not-before)"
    )
    arm.add_argument(
        "--priority",
        type=float,
        metavar="P",
        help="0 to 1 (default 0.5); the highest due item wins",
    )
    cancel = ssub.add_parser("cancel", parents=common, help="drop a pending item")
    cancel.add_argument("agent_id")
    cancel.add_argument("item_id", type=int)
    cfg = ssub.add_parser("config", parents=common, help="show or change the agent's controls")
    cfg.add_argument("agent_id")
    on = cfg.add_mutually_exclusive_group()
    on.add_argument(
        "--on", dest="enabled", action="store_const", const=True, help="allow suggestions"
    )
    on.add_argument(
        "--off", dest="enabled", action="store_const", const=False, help="no suggestions at all"
    )
    quiet = cfg.add_mutually_exclusive_group()
    quiet.add_argument(
        "--quiet", dest="quiet", action="store_const", const=True, help="keep arming, never suggest"
    )
    quiet.add_argument("--no-quiet", dest="quiet", action="store_const", const=False)
    cfg.add_argument(
        "--min-gap-hours", type=float, metavar="H", help="least time between two suggestions"
    )
    allow = cfg.add_mutually_exclusive_group()
    allow.add_argument(
        "--allow",
        nargs="+",
        metavar="WORD",
        help="only these scenes (plan, worry, emotion, manual) or topics containing these words",
    )
    allow.add_argument("--allow-all", action="store_true", help="clear the allow-list")
    avoid = cfg.add_mutually_exclusive_group()
    avoid.add_argument(
        "--avoid",
        nargs="+",
        metavar="TOPIC",
        help="topics never to bring up (replaces the list); an item whose topic holds one is passed over",
    )
    avoid.add_argument("--avoid-none", action="store_true", help="clear the list of avoided topics")
    fb = ssub.add_parser(
        "feedback", parents=common, help="the user's verdict on a suggestion they were given"
    )
    fb.add_argument("agent_id")
    fb.add_argument("item_id", type=int)
    fb.add_argument("feedback", choices=("welcome", "annoying"))
    sched.set_defaults(fn=partial(cmd_scheduler, shell))

    b = sub.add_parser(
        "backup", parents=common, help="a consistent snapshot of the database, written to FILE"
    )
    b.add_argument("file", metavar="FILE")
    b.add_argument("--force", action="store_true", help="overwrite FILE if it exists")
    b.set_defaults(fn=partial(cmd_backup, shell))
