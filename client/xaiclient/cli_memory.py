"""xaictl memory …, xaictl persona: what an agent remembers, as its user sees and controls it.

Registered by cli.py, whose small helpers (connect, print, dates) arrive as a ``Shell`` so that the
two modules do not import each other.

``memory export --out DIR`` writes the daemon's portable layout to disk and ``memory import``
reads it back:

    DIR/<agent_id>/<YYYY-MM>/<session_id>.jsonl   one episode per line, as memory.export gives them
    DIR/facts.json                                the facts (with their history), a JSON list
    DIR/persona.txt                               the current persona, when there is one
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path, PurePosixPath
from typing import Any

from .client import Client
from .wire import BadParams, XaiError

FACTS_FILE = "facts.json"
PERSONA_FILE = "persona.txt"
STATE_FILE = "state.json"  # the mood and the scheduler's follow-ups and settings
EXPORT_MAX_FRAME = (
    1 << 30
)  # the daemon bounds its replies by server.max_frame_bytes; accept whatever it allows
FRAME_SHARE = (
    0.8  # of the daemon's frame limit one memory.import request may fill (sizes are estimated)
)


@dataclass(frozen=True)
class Shell:
    """What the memory commands borrow from cli.py."""

    connect: Callable[..., Client]
    show: Callable[[argparse.Namespace, Any, Callable[[Any], str] | None], None]
    when: Callable[[int | None], str]


# -- human output ----------------------------------------------------------------------------------


def _refs(refs: list[str]) -> str:
    return ", ".join(refs) if refs else "(none)"


def _search_lines(result: dict[str, Any]) -> str:
    items = result["items"]
    if not items:
        return "(nothing remembered about that)"
    lines = [
        f"{i['kind'] + ':' + str(i['id']):<14} {i['score']:.2f}  {i['when']:<14} {i['text']}"
        for i in items
    ]
    return "\n".join([*lines, f"({result['tokens']} tokens)"])


def _fact_line(f: dict[str, Any]) -> str:
    return (
        f"fact:{f['fact_id']:<6} {f['status']:<10} {f['subject']:<26} {f['text']}  "
        f"(value {f['value']:.2f}, {f['decided_by']})"
    )


def _episode_line(shell: Shell, e: dict[str, Any]) -> str:
    return f"episode:{e['episode_id']:<5} {shell.when(e['ended_ms'])}  {e['summary']}"


def _utterance_line(shell: Shell, u: dict[str, Any]) -> str:
    who = u["speaker"] or ("user" if u["role"] == "user" else "companion")
    old = "" if u["status"] == "current" else f" ({u['status']})"
    return f"utterance:{u['utterance_id']:<5} {shell.when(u['ts'])}  {who}: {u['text']}{old}"


def _show_fact(shell: Shell, f: dict[str, Any]) -> str:
    s = f["signals"]
    lines = [
        f"fact:{f['fact_id']}  {f['text']}",
        f"  {f['subject']} ({f['kind']}), {f['status']}, decided by {f['decided_by']}",
        f"  value {f['value']:.2f}: recency {s['recency']:.2f}, specificity {s['specificity']:.2f}, "
        f"intensity {s['intensity']:.2f}, user_refs {s['user_refs']}",
    ]
    if f.get("valid_from"):
        same = f.get("valid_to") in (None, f["valid_from"])
        lines.append(f"  about {f['valid_from']}" + ("" if same else f"..{f['valid_to']}"))
    if f.get("superseded_by") is not None:
        lines.append(f"  superseded by fact:{f['superseded_by']}")
    if f.get("episode_id") is not None:
        lines.append(f"  from episode:{f['episode_id']}")
    lines.append(f"  refs: {_refs(f['refs'])}")
    history = f.get("history") or []
    if history:
        lines.append("  history:")
        for h in history:
            other = f" (fact:{h['other_fact']})" if h.get("other_fact") is not None else ""
            lines.append(
                f"    [{shell.when(h['ts'])}] {h['action']:<10} {h['text']}  by {h['decided_by']}{other}"
            )
    return "\n".join(lines)


def _show_episode(shell: Shell, e: dict[str, Any]) -> str:
    mood = e["closing_mood"]
    lines = [
        f"episode:{e['episode_id']}  {shell.when(e['started_ms'])} to {shell.when(e['ended_ms'])}  "
        f"session {e['session_id'] or '-'}",
        f"  {e['summary']}",
    ]
    if e["highlights"]:
        lines += ["  highlights:", *(f"    - {h}" for h in e["highlights"])]
    if mood.get("valence") is not None:
        lines.append(
            f"  closing mood: valence {mood['valence']:+.2f}, arousal {mood['arousal']:.2f}, "
            f"fatigue {mood['fatigue']:.2f}"
        )
    lines.append(
        f"  tension {e['tension']:.2f}, decided by {e['decided_by']}, referenced {e['ref_count']} time(s)"
    )
    lines.append(f"  refs: {_refs(e['refs'])}")
    return "\n".join(lines)


def _show(shell: Shell, item: dict[str, Any]) -> str:
    if "fact_id" in item:
        return _show_fact(shell, item)
    if "utterance_id" in item:
        episode = (
            f"\n  from episode:{item['episode_id']}" if item.get("episode_id") is not None else ""
        )
        return (
            f"{_utterance_line(shell, item)}\n  value {item['value']:.2f}, recalled {item['ref_count']} time(s)"
            f"{episode}\n  refs: {_refs(item['refs'])}"
        )
    if "episode_id" in item and "highlight_id" not in item:
        return _show_episode(shell, item)
    return (
        f"highlight:{item['highlight_id']}  [{shell.when(item['ts'])}] {item['text']}\n"
        f"  from episode:{item['episode_id']}\n  refs: {_refs(item['refs'])}"
    )


def _persona(p: dict[str, Any]) -> str:
    if not p["text"]:
        return "(no persona yet: it is written from the facts after the first consolidated session)"
    return f"{p['text']}\n(version {p['version']}, written after {p['episodes_seen']} episode(s))"


# -- export and import on disk ---------------------------------------------------------------------


def _safe_relative(path: str) -> PurePosixPath:
    rel = PurePosixPath(path)
    if rel.is_absolute() or not rel.parts or any(part in ("", ".", "..") for part in rel.parts):
        raise XaiError(
            "refused", f"the export holds an unsafe path {path!r}; nothing written there"
        )
    return rel


def write_export(exported: dict[str, Any], out: Path) -> dict[str, Any]:
    written = []
    for path, text in exported["files"].items():
        target = out.joinpath(*_safe_relative(path).parts)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        written.append(path)
    out.mkdir(parents=True, exist_ok=True)
    (out / FACTS_FILE).write_text(
        json.dumps(exported["facts"], ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
    )
    persona = exported.get("persona")
    if persona:
        (out / PERSONA_FILE).write_text(persona + "\n", encoding="utf-8")
    state = {key: exported[key] for key in ("mood", "scheduler") if exported.get(key) is not None}
    if state:
        (out / STATE_FILE).write_text(
            json.dumps(state, ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
        )
    return {
        "out": str(out),
        "files": written,
        "facts": len(exported["facts"]),
        "persona": bool(persona),
    }


def read_export(
    folder: Path,
) -> tuple[dict[str, str], list[dict[str, Any]], dict[str, Any]]:
    """The episode files, the facts and the state (mood, scheduler) of an exported folder."""
    if not folder.is_dir():
        raise BadParams(f"{folder} is not a directory")
    files = {
        p.relative_to(folder).as_posix(): p.read_text(encoding="utf-8")
        for p in sorted(folder.rglob("*.jsonl"))
    }
    facts: list[dict[str, Any]] = []
    if (folder / FACTS_FILE).is_file():
        try:
            loaded = json.loads((folder / FACTS_FILE).read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise BadParams(f"{folder / FACTS_FILE} is not JSON: {exc}") from None
        if isinstance(loaded, dict):  # the whole memory.export reply saved as one file
            loaded = loaded.get("facts", [])
        if not isinstance(loaded, list):
            raise BadParams(f"{folder / FACTS_FILE} must hold a JSON list of facts")
        facts = loaded
    state: dict[str, Any] = {}
    if (folder / STATE_FILE).is_file():
        try:
            state = json.loads((folder / STATE_FILE).read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise BadParams(f"{folder / STATE_FILE} is not JSON: {exc}") from None
        if not isinstance(state, dict):
            raise BadParams(f"{folder / STATE_FILE} must hold a JSON map")
    if not files and not facts:
        raise BadParams(f"nothing to import: no *.jsonl files and no {FACTS_FILE} under {folder}")
    return files, facts, state


def _batches(sized: list[tuple[Any, int]], budget: int) -> Iterator[list[Any]]:
    """Consecutive groups whose estimated sizes stay within ``budget`` (a too large item goes alone)."""
    batch: list[Any] = []
    used = 0
    for item, size in sized:
        if batch and used + size > budget:
            yield batch
            batch, used = [], 0
        batch.append(item)
        used += size
    if batch:
        yield batch


def import_batches(
    client: Client,
    agent_id: str,
    files: dict[str, str],
    facts: list[dict[str, Any]],
    state: dict[str, Any] | None = None,
) -> dict[str, int]:
    """memory.import in as many requests as the daemon's frame limit needs; the sums of their results.

    Import is idempotent per session id and per fact text, so splitting it changes nothing."""
    budget = int(int(client.server.get("max_frame_bytes", 1 << 20)) * FRAME_SHARE)
    total = {"episodes": 0, "facts": 0}
    sized_files = [((p, t), len(p.encode()) + len(t.encode()) + 16) for p, t in files.items()]
    for batch in _batches(sized_files, budget):
        result = client.memory_import(agent_id, files=dict(batch))
        total["episodes"] += result["episodes"]
        total["facts"] += result["facts"]
    sized_facts = [(f, len(json.dumps(f, ensure_ascii=False).encode()) + 16) for f in facts]
    for batch in _batches(sized_facts, budget):
        result = client.memory_import(agent_id, facts=batch)
        total["episodes"] += result["episodes"]
        total["facts"] += result["facts"]
    if state and (state.get("mood") is not None or state.get("scheduler") is not None):
        result = client.memory_import(
            agent_id, mood=state.get("mood"), scheduler=state.get("scheduler")
        )
        total["follow_ups"] = result.get("follow_ups", 0)
    return total


# -- commands --------------------------------------------------------------------------------------


def cmd_memory(shell: Shell, args: argparse.Namespace) -> int:
    if args.action == "export":
        with shell.connect(args, max_frame=EXPORT_MAX_FRAME) as client:
            exported = client.memory_export(args.agent_id)
        if args.out is None:
            shell.show(args, exported, None)
        else:
            shell.show(
                args,
                write_export(exported, Path(args.out)),
                lambda v: (
                    f"exported {len(v['files'])} episode file(s), {v['facts']} fact(s)"
                    + (" and the persona" if v["persona"] else "")
                    + f" to {v['out']}"
                ),
            )
        return 0
    files, facts, state = (
        read_export(Path(args.folder)) if args.action == "import" else ({}, [], {})
    )
    if args.action == "forget" and not args.yes:
        what = (
            "everything it remembers"
            if args.all
            else (args.id or f"everything matching {args.query!r}")
        )
        raise XaiError(
            "refused", f"forgetting {what} for {args.agent_id} cannot be undone; add --yes"
        )
    with shell.connect(args) as client:
        if args.action == "search":
            found = client.memory_search(
                args.agent_id, args.query, k=args.k, budget_tokens=args.budget
            )
            shell.show(args, found, _search_lines)
        elif args.action == "list":
            status = args.status if args.kind == "fact" else None
            items = client.memory_list(
                args.agent_id, kind=args.kind, status=status, limit=args.limit
            )["items"]
            lines: dict[str, Callable[[dict[str, Any]], str]] = {
                "fact": _fact_line,
                "episode": partial(_episode_line, shell),
                "utterance": partial(_utterance_line, shell),
            }
            line = lines[args.kind]
            shell.show(args, items, lambda v: "\n".join(line(i) for i in v) or f"(no {args.kind}s)")
        elif args.action == "show":
            shell.show(args, client.memory_get(args.agent_id, args.id), partial(_show, shell))
        elif args.action == "forget":
            result = client.memory_forget(
                args.agent_id, id=args.id, query=args.query, all=args.all or None
            )
            shell.show(args, result, lambda v: f"forgot {v['deleted']} item(s)")
        elif args.action == "import":
            result = import_batches(client, args.agent_id, files, facts, state)
            shell.show(
                args,
                result,
                lambda v: (
                    f"imported {v['episodes']} episode(s) and {v['facts']} fact(s) into {args.agent_id} "
                    f"(from {len(files)} file(s); what it already had was skipped)"
                ),
            )
    return 0


def cmd_persona(shell: Shell, args: argparse.Namespace) -> int:
    with shell.connect(args) as client:
        shell.show(args, client.memory_persona(args.agent_id), _persona)
    return 0


def register(sub: Any, shell: Shell, common: list[argparse.ArgumentParser]) -> None:
    """Add ``memory`` and ``persona`` to xaictl's subcommands; ``common`` are the leaf parsers' parents."""
    memory = sub.add_parser(
        "memory", help="search, list, show, forget, export, import what an agent remembers"
    )
    msub = memory.add_subparsers(dest="action", required=True)
    s = msub.add_parser("search", parents=common, help="memories relevant to a query, best first")
    s.add_argument("agent_id")
    s.add_argument("query")
    s.add_argument("-k", type=int, help="at most this many (default 8)")
    s.add_argument(
        "--budget", type=int, metavar="TOKENS", help="token budget (default memory.budget_tokens)"
    )
    ls = msub.add_parser("list", parents=common, help="facts (default) or episodes")
    ls.add_argument("agent_id")
    ls.add_argument(
        "--kind",
        choices=("fact", "episode", "utterance"),
        default="fact",
        help="facts, episodes, or every turn kept (both sides)",
    )
    ls.add_argument(
        "--status",
        choices=("current", "superseded", "deleted", "all"),
        help="facts only (default current)",
    )
    ls.add_argument("--limit", type=int, help="at most this many (default 100)")
    sh = msub.add_parser("show", parents=common, help="one memory with its provenance and history")
    sh.add_argument("agent_id")
    sh.add_argument("id", help="fact:12, episode:3 or highlight:7")
    f = msub.add_parser("forget", parents=common, help="delete memories for good")
    f.add_argument("agent_id")
    which = f.add_mutually_exclusive_group(required=True)
    which.add_argument("--id", help="one memory: fact:12, episode:3, highlight:7")
    which.add_argument("--query", help="every memory and message that mentions this")
    which.add_argument(
        "--all", action="store_true", help="everything: memories, conversations, mood"
    )
    f.add_argument("--yes", action="store_true", help="confirm: this cannot be undone")
    ex = msub.add_parser("export", parents=common, help="episodes, facts and persona, portable")
    ex.add_argument("agent_id")
    ex.add_argument(
        "--out",
        metavar="DIR",
        help="write <agent>/<YYYY-MM>/<session>.jsonl, facts.json, persona.txt",
    )
    im = msub.add_parser(
        "import", parents=common, help="read a directory written by 'memory export --out'"
    )
    im.add_argument("agent_id")
    im.add_argument("folder", metavar="DIR")
    memory.set_defaults(fn=partial(cmd_memory, shell))

    p = sub.add_parser("persona", parents=common, help="the profile the agent keeps of its user")
    p.add_argument("agent_id")
    p.set_defaults(fn=partial(cmd_persona, shell))
