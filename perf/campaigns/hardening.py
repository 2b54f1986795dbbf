"""Area ``hardening``: the second round of attacks from outside (issue 14), each tried many times.

The same shape as ``perf.campaigns.faults`` (whose helpers it uses): every scenario drives a real daemon
(scripted provider) and stops by itself; a "tried" row says what was done and which errors the
clients saw, a "lost" row counts what must be 0 — forgotten words written back, another agent's
session taken, a message stored after its close, an agent broken by an import, an id handed out
twice, a backup snapshot left on disk, a mood frozen by a future time, a list that no longer fits
a frame, a consolidation failing at the end of year 9999, an export path outside its folder.
Kept apart from ``faults`` so these cases can run on their own (``python -m perf hardening``).
"""

from __future__ import annotations

import collections
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path, PurePosixPath
from typing import Any

import apsw
from xaiclient import Client, XaiError

from testkit import DaemonProcess
from xaid.clock import MAX_TS

from ..kit import DAY, Outcome, Section, fmt_counts, running, scratch
from . import erase_cases, hardening_loop
from .faults import run_scenarios

SMALL_TALK = (
    "the {w} thing was ok",
    "yeah {w} again",
    "hmm the {w}",
    "so {w} then",
    "ok {w}",
    "the {w}, fine",
)
SMALL_TALK_ZH = ("那个{w}还行", "嗯{w}", "又是{w}", "{w}吧", "好吧{w}", "{w}嘛")
WORDS = ("quillwort", "marrowfat", "cobnut", "saltbush", "蓝莓酱", "杏仁茶", "桂花糕", "酸梅汤")


@dataclass(frozen=True)
class Sizes:
    rounds: int
    sessions: int


FULL = Sizes(rounds=20, sessions=10_000)
QUICK = Sizes(rounds=4, sessions=1_000)


def _now() -> int:
    return int(time.time() * 1000)


def _daemon(root: Path, **env: str) -> DaemonProcess:
    return DaemonProcess(root / "d", env={"XAID_SERVER_MAX_OPEN_SESSIONS": "100000", **env}).start()


def _calls_above(c: Client, asked: int) -> bool:
    """The daemon has called the model more often than ``asked`` times."""
    return bool(c.stats()["memory"].get("llm_calls", 0) > asked)


def _wait(cond: Callable[[], bool], timeout: float = 60.0) -> bool:
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


# --- item 2: forget during a consolidation in flight ------------------------------------------------


def forget_in_flight(sizes: Sizes) -> Outcome:
    out, codes = Outcome(), collections.Counter[str]()
    back = 0
    with (
        scratch("forget") as root,
        running(_daemon(root, XAID_LLM_SCRIPTED_DELAY_MS="15")) as d,
        d.client() as c,
    ):
        for r in range(sizes.rounds):
            word = WORDS[r % len(WORDS)]
            lines = SMALL_TALK_ZH if not word.isascii() else SMALL_TALK
            agent = f"f{r}"
            c.agent_create(agent)
            sid = c.session_open(agent, ts=_now() - 60_000)["session_id"]
            c.session_ingest(
                sid,
                [
                    {"role": "user", "text": t.format(w=word), "ts": _now() - 60_000 + i}
                    for i, t in enumerate(lines)
                ],
            )
            asked = c.stats()["memory"].get("llm_calls", 0)
            c.session_close(sid, wait=False)
            _wait(partial(_calls_above, c, asked))  # now waiting for the model
            how = "all" if r % 2 else "query"
            c.memory_forget(agent, **({"all": True} if how == "all" else {"query": word}))
            codes[f"forget {how}"] += 1
            try:
                c.session_close(sid, wait=True)
            except XaiError as exc:
                codes[exc.code] += 1  # after forget all, the session itself is gone: not_found
            found = c.memory_search(agent, word)["items"]
            episodes = [
                e for e in c.memory_list(agent, kind="episode")["items"] if word in e["summary"]
            ]
            turns = [
                u for u in c.memory_list(agent, kind="utterance")["items"] if word in u["text"]
            ]
            back += bool(found or episodes or turns)
        fenced = c.stats()["memory"].get("consolidations_fenced", 0)
    out.tried(
        "forget (query or all) while that agent's consolidation waits for the model",
        sizes.rounds,
        "rounds",
        f"{fmt_counts(codes)}; jobs fenced and started over: {fenced}",
    )
    out.lost(
        "forget in flight: forgotten words written back",
        back,
        "rounds",
        "memory.search, the episodes and the utterances of the agent after the job finished",
    )
    return out


# --- item 3: an import carrying another agent's open session id -------------------------------------


def import_hijack(sizes: Sizes) -> Outcome:
    out = Outcome()
    taken = 0
    with scratch("hijack") as root, running(_daemon(root)) as d, d.client() as c:
        for r in range(sizes.rounds):
            a, b = f"a{r}", f"b{r}"
            c.agent_create(a)
            c.agent_create(b)
            live = c.session_open(b)["session_id"]
            line = {
                "session_id": live,
                "started_ms": _now() - 60_000,
                "ended_ms": _now(),
                "summary": "An imported day by the lighthouse.",
            }
            c.memory_import(a, files={"x.jsonl": json.dumps(line) + "\n"})
            said = (
                "My brother Tomas repairs violins in Lyon." if r % 2 else "我哥哥在杭州修小提琴。"
            )
            c.session_ingest(live, [{"role": "user", "text": said, "ts": _now()}])
            episode = c.session_close(live, wait=True)["episode_id"]
            own = c.memory_get(b, f"episode:{episode}") if episode is not None else None
            taken += own is None or own["session_id"] != live
    out.tried(
        "memory.import into A of an episode carrying B's open session id, then B's close",
        sizes.rounds,
        "rounds",
        "none",
    )
    out.lost(
        "import: another agent's session taken",
        taken,
        "rounds",
        "B's session.close {wait} must return B's own episode of that session",
    )
    return out


# --- item 17: session.send racing session.close -----------------------------------------------------


def send_vs_close(sizes: Sizes) -> Outcome:
    out, codes = Outcome(), collections.Counter[str]()
    after = 0
    rounds = 2 * sizes.rounds
    with (
        scratch("close") as root,
        running(_daemon(root)) as d,
        d.client() as sender,
        d.client() as closer,
    ):
        closer.agent_create("mia")
        t0 = _now() - DAY
        for i in range(rounds):
            sid = closer.session_open("mia", ts=t0)["session_id"]
            result: dict[str, str] = {}

            text = "Tomorrow I move to Lyon." if i % 2 else "明天我搬去杭州。"

            def send(s: str = sid, res: dict[str, str] = result, said: str = text) -> None:
                try:
                    sender.session_send(s, said, ts=t0 + 10_000).finish()
                    res["send"] = "ok"
                except XaiError as exc:
                    res["send"] = exc.code

            t = threading.Thread(target=send)
            t.start()
            try:
                closed = closer.session_close(sid, ts=t0 + 5_000)["closed_ms"]
                codes["close ok"] += 1
            except XaiError as exc:
                codes[f"close {exc.code}"] += 1
                t.join()
                closed = closer.session_close(sid, ts=t0 + 5_000)["closed_ms"]
            t.join()
            codes[f"send {result.get('send')}"] += 1
            after += sum(m["ts"] > closed for m in closer.session_history(sid)["messages"])
    out.tried(
        "session.send racing session.close from another connection",
        rounds,
        "rounds",
        fmt_counts(codes),
    )
    out.lost(
        "write after close: messages stored after the close",
        after,
        "messages",
        "a message stored after the close would carry a ts past closed_ms (send at +10 s, close at +5 s)",
    )
    return out


# --- items 5, 16, 14: hostile imports ---------------------------------------------------------------

BAD_FACTS: tuple[tuple[str, Any], ...] = (
    ("created_ms", -70_000_000_000_000),
    ("created_ms", 2**63),
    ("created_ms", 1e300),
    ("created_ms", 10**5000),
    ("value", float("nan")),
    ("value", "0.5"),
    ("value", float("inf")),
    ("valid_from", b"2026-05-03"),
    ("valid_to", "not a date"),
    ("signals", {"intensity": float("nan")}),
    ("signals", {"user_refs": 10**400}),
    ("text", "x" * 250_000),
    ("subject", ["a"]),
    ("refs", [1, 2]),
)
BAD_LINES: tuple[str, ...] = (
    '{"summary": "x", "started_ms": 1, "ended_ms": 2, "tension": NaN}',
    '{"summary": "x", "started_ms": 1, "ended_ms": 2, "closing_mood": {"valence": 1e400}}',
    '{"summary": "x", "started_ms": 1, "ended_ms": 2, "refs": ' + "[" * 5000 + "]" * 5000 + "}",
    '{"summary": "x", "started_ms": -5, "ended_ms": 2}',
    '{"summary": "x", "started_ms": 1, "ended_ms": 2, "session_id": "a\\u0000b"}',
)


def hostile_imports(sizes: Sizes) -> Outcome:
    out, codes = Outcome(), collections.Counter[str]()
    broken = wrong = 0
    with scratch("imports") as root, running(_daemon(root)) as d, d.client() as c:
        c.agent_create(
            "warm"
        )  # the embedding model loaded and used once: RSS from here on is the imports'
        c.memory_import(
            "warm",
            facts=[{"text": "The user keeps bees in Umbria."}, {"text": "用户在云南养蜜蜂。"}],
        )
        rss_before = c.status()["rss_kib"]
        for n, (key, value) in enumerate(BAD_FACTS):
            agent = f"i{n}"
            c.agent_create(agent)
            for text in ("The user keeps bees in Umbria.", "用户在云南养蜜蜂。"):
                try:
                    c.memory_import(agent, facts=[{"text": text, key: value}])
                    codes["ok"] += 1
                except XaiError as exc:
                    codes[exc.code] += 1
                    wrong += exc.code != "bad_params"
            try:
                c.memory_import(agent, facts=[{"text": "The user keeps bees in Umbria."}])
                broken += not c.memory_search(agent, "bees Umbria")["items"]
            except XaiError:
                broken += 1
        for n, line in enumerate(BAD_LINES):
            try:
                c.memory_import("i0", files={f"{n}.jsonl": line + "\n"})
                codes["ok"] += 1
            except XaiError as exc:
                codes[exc.code] += 1
                wrong += exc.code != "bad_params"
        for _ in range(sizes.rounds):  # long turns: embedded by their head
            long_line = {
                "session_id": "s_long",
                "utterances": [{"role": "user", "text": "风筝 kites " * 9_000, "ts": _now()}],
            }
            c.memory_import(
                "i1", files={"long.jsonl": json.dumps(long_line, ensure_ascii=False) + "\n"}
            )
        rss_after = c.status()["rss_kib"]
        alive = c.ping() == {}
    out.tried(
        f"memory.import with hostile values ({len(BAD_FACTS)} fact fields × 2 languages, {len(BAD_LINES)} "
        f"episode lines), then {sizes.rounds} imports of a 90,000-character turn",
        2 * len(BAD_FACTS) + len(BAD_LINES) + sizes.rounds,
        "imports",
        f"{fmt_counts(codes)}; daemon answers ping after: {'yes' if alive else 'NO'}; RSS after a warm-up "
        f"import {rss_before / 1024:.0f} MiB, after all of these {rss_after / 1024:.0f} MiB (the issue saw "
        "~125 MiB kept per 1 MB fact; such a fact is now refused before it is embedded)",
    )
    out.lost(
        "import: replies other than bad_params for a bad value, or an agent whose search fails after",
        wrong + broken,
        "replies",
        f"wrong codes {wrong}, broken agents {broken}",
    )
    return out


# --- item 13: ids after forget -----------------------------------------------------------------------


def ids_after_forget(sizes: Sizes) -> Outcome:
    out = Outcome()
    repeats = 0
    with scratch("ids") as root, running(_daemon(root)) as d, d.client() as c:
        c.agent_create("mia")
        seen: set[int] = set()
        for r in range(sizes.rounds):
            text = f"The user's locker number is {r}." if r % 2 else f"用户的柜子号码是{r}。"
            c.memory_import("mia", facts=[{"text": text}])
            fact = max(f["fact_id"] for f in c.memory_list("mia", kind="fact")["items"])
            repeats += fact in seen
            seen.add(fact)
            c.memory_forget("mia", id=f"fact:{fact}")
    out.tried("import a fact, forget it by id, import the next", sizes.rounds, "rounds", "none")
    out.lost(
        "ids: a fact id handed out twice",
        repeats,
        "ids",
        "every new fact's id compared with all before",
    )
    return out


# --- item 7: backups ----------------------------------------------------------------------------------


def backups(sizes: Sizes) -> Outcome:
    out, codes = Outcome(), collections.Counter[str]()
    most = 0
    with scratch("backup") as root:
        d = _daemon(root)
        with running(d):
            with d.client() as c:
                c.agent_create("big")
                sid = c.session_open("big")["session_id"]
                line = "我们聊了很多关于旅行和音乐的事情。 We talked about trains and rivers. " * 20
                for batch in range(16):
                    c.session_ingest(
                        sid,
                        [
                            {"role": "user", "text": f"{batch}-{i} {line}", "ts": _now()}
                            for i in range(200)
                        ],
                    )
            stop = threading.Event()

            def watch() -> None:
                nonlocal most
                while not stop.is_set():
                    most = max(most, len(list(d.state_dir.glob("backup-*.tmp"))))
                    time.sleep(0.005)

            def take() -> None:
                try:
                    with d.client() as cc:
                        stream = cc.stream("admin.backup")
                        for _ in stream:
                            pass
                    codes["ok"] += 1
                except XaiError as exc:
                    codes[exc.code] += 1

            watcher = threading.Thread(target=watch)
            watcher.start()
            takers = [threading.Thread(target=take) for _ in range(2 * sizes.rounds)]
            for t in takers:
                t.start()
            for t in takers:
                t.join()
            stop.set()
            watcher.join()
            left = 0
            for _ in range(sizes.rounds // 2 or 1):  # SIGKILL mid-backup, then a restart
                reader = d.client()
                next(iter(reader.stream("admin.backup")))
                d.kill()
                reader.close()
                d.start()
                left += len(list(d.state_dir.glob("backup-*")))
    out.tried(
        f"{2 * sizes.rounds} concurrent admin.backup calls on a ~8 MB database, then SIGKILLs mid-backup",
        2 * sizes.rounds,
        "calls",
        f"{fmt_counts(codes)}; most snapshots on disk at once: {most}",
    )
    out.lost(
        "backup: snapshots on disk beyond one, or left after a kill and restart",
        max(0, most - 1) + left,
        "files",
        "state directory sampled every 5 ms during the calls, and after each restart",
    )
    return out


# --- item 11: a future ts ----------------------------------------------------------------------------


def future_ts(sizes: Sizes) -> Outcome:
    out = Outcome()
    frozen = 0
    with scratch("future") as root, running(_daemon(root)) as d, d.client() as c:
        for r in range(sizes.rounds):
            agent = f"m{r}"
            c.agent_create(agent)
            sid = c.session_open(agent)["session_id"]
            text = (
                "the project crashed, I'm exhausted and so sad"
                if r % 2
                else "项目搞崩了，很累，好难过"
            )
            c.session_send(sid, text, ts=_now() + 3650 * DAY).finish()
            fresh, later = (
                c.mood_get(agent)["valence"],
                c.mood_get(agent, ts=_now() + 7 * DAY)["valence"],
            )
            frozen += abs(later) >= abs(fresh) / 4
    out.tried(
        "one message dated 10 years ahead, then the mood a week later",
        sizes.rounds,
        "agents",
        "none",
    )
    out.lost(
        "future ts: moods that no longer fade",
        frozen,
        "agents",
        "valence a week later must be below a quarter of the valence just after",
    )
    return out


# --- item 12: long lists ------------------------------------------------------------------------------


def long_lists(sizes: Sizes) -> Outcome:
    out, codes = Outcome(), collections.Counter[str]()
    missing = 0
    with scratch("lists") as root, running(_daemon(root)) as d, d.client() as c:
        c.agent_create(
            "mia", config={"system_prompt": "你是一个温柔的陪伴者。Speak gently. " * 600}
        )
        opened = set()
        for i in range(sizes.sessions):
            opened.add(c.session_open("mia", ts=_now() - DAY + i)["session_id"])
        pages = 0
        cursor = None
        listed: list[str] = []
        while True:
            try:
                page = c.session_list("mia", limit=1000, cursor=cursor)
            except XaiError as exc:
                codes[exc.code] += 1
                break
            pages += 1
            listed += [s["session_id"] for s in page["sessions"]]
            if (cursor := page["next_cursor"]) is None:
                break
        missing = len(opened ^ set(listed)) + (len(listed) - len(set(listed)))
        for i in range(40):
            c.agent_create(f"big{i}", config={"system_prompt": "x" * 20_000})
        agents = len(c.every("agent.list", "agents"))
    out.tried(
        f"session.list of {sizes.sessions:,} sessions, agent.list of 41 agents with 20,000-character "
        "system prompts",
        sizes.sessions,
        "sessions",
        f"{fmt_counts(codes)}; {pages} pages of sessions; {agents} agents listed",
    )
    out.lost(
        "lists: sessions missing or repeated across pages, or frame_too_large",
        missing + codes["frame_too_large"],
        "records",
        "every opened session id compared with the ids of all pages",
    )
    return out


# --- item 15 and 18: the end of year 9999, export paths -----------------------------------------------


def calendar_and_paths(sizes: Sizes) -> Outcome:
    out, codes = Outcome(), collections.Counter[str]()
    failed = unsafe = 0
    with (
        scratch("edges") as root,
        running(_daemon(root, XAID_MEMORY_TIMEZONE="Pacific/Kiritimati")) as d,
        d.client() as c,
    ):
        for r in range(sizes.rounds):
            agent = f"y{r}"
            c.agent_create(agent)
            sid = c.session_open(agent, ts=MAX_TS - 1000)["session_id"]
            for text in (
                "My sister Anna arrives tomorrow, next week we fly to Kyoto.",
                "明天我妹妹来，下周去杭州。",
            ):
                c.session_send(sid, text, ts=MAX_TS - 1000).finish()
            try:
                failed += c.session_close(sid, wait=True)["episode_id"] is None
                c.memory_search(agent, "Anna", ts=MAX_TS)
            except XaiError as exc:
                codes[exc.code] += 1
                failed += 1
            for hostile in ("../../x", "/etc/passwd", "..", "杭州/西湖"):
                line = {
                    "session_id": hostile,
                    "started_ms": _now(),
                    "ended_ms": _now(),
                    "summary": f"kites {r}",
                }
                c.memory_import(agent, files={"a.jsonl": json.dumps(line) + "\n"})
            for path in c.memory_export(agent)["files"]:
                parts = PurePosixPath(path).parts
                unsafe += PurePosixPath(path).is_absolute() or any(
                    p in ("", ".", "..") for p in parts
                )
        d.stop()
        db = apsw.Connection(str(d.db_path))
        with db:
            db.execute("PRAGMA defer_foreign_keys = ON")
            db.execute(
                "INSERT INTO agents (agent_id, name, persona_init, config, created_ms, updated_ms) "
                "VALUES ('..', 'old', '', '{}', 0, 0)"
            )
        db.close()
        d.start()
        with d.client() as c2:
            line = {
                "session_id": "s_1",
                "started_ms": _now(),
                "ended_ms": _now(),
                "summary": "an old agent",
            }
            c2.memory_import("..", files={"a.jsonl": json.dumps(line) + "\n"})
            unsafe += any(".." in PurePosixPath(p).parts for p in c2.memory_export("..")["files"])
    out.tried(
        "sessions at the end of year 9999 in UTC+14 (turns, consolidation, search); imports with session "
        "ids ../../x, /etc/passwd, .., 杭州/西湖; an agent stored as '..'",
        sizes.rounds,
        "rounds",
        fmt_counts(codes),
    )
    out.lost(
        "year 9999 and paths: consolidations failed, or export paths outside the folder",
        failed + unsafe,
        "cases",
        f"consolidations failed {failed}, unsafe paths {unsafe}",
    )
    return out


SCENARIOS: tuple[tuple[str, Callable[[Sizes], Outcome]], ...] = (
    ("forget in flight", forget_in_flight),
    ("import hijack", import_hijack),
    ("send vs close", send_vs_close),
    ("hostile imports", hostile_imports),
    ("ids", ids_after_forget),
    ("backups", backups),
    ("future ts", future_ts),
    ("long lists", long_lists),
    ("calendar and paths", calendar_and_paths),
    ("erase paths (issue 22)", lambda sizes: erase_cases.erase_paths(sizes.rounds)),
    ("export round trip (issue 22)", lambda sizes: erase_cases.round_trip(sizes.rounds // 2)),
    # issue 22, the server side (perf.campaigns.hardening_loop)
    ("loop during a consolidation", lambda s: hardening_loop.loop_during_consolidation(1_000)),
    (
        "stalled readers",
        lambda s: hardening_loop.stalled_readers(8, 32 if s is FULL else 8),
    ),
    ("fairness", lambda s: hardening_loop.fairness(max(2, s.rounds // 2))),
    ("cursors", lambda s: hardening_loop.cursors(s.rounds)),
)


def run(quick: bool) -> Section:
    sizes = QUICK if quick else FULL
    notes = [
        "The cases of issue 14 not covered by the faults area above, each as a real daemon (scripted provider) "
        "attacked over its socket; 'lost' rows must be 0. Run alone with `python -m perf hardening`.",
        "Found by this area's first run (fixed since, regression test in tests/xaid/memory/test_fence.py): after "
        "a forget {all} deleted an agent's consolidation jobs, the next job took the id of the one still in "
        "flight, which then marked it done: that session was never consolidated and its close {wait} never "
        "answered (every forget-all round waited out its 60 s). Job ids no longer repeat (migration 010).",
        "Issue 22's cases (perf/campaigns/erase_cases.py), measured on the code before its fix (a099f48) in the "
        "same way: the word stayed in the db or -wal bytes in 15 of 20 erase rounds (every path but "
        "forget {all}: the tool call's arguments, the follow-up's keywords, the speaker, the -wal file "
        "after agent.delete), and the round trip could not run (forget {all} failed on meta.value; the "
        "import took no mood or follow-ups).",
    ]
    rows, notes = run_scenarios("hardening", SCENARIOS, sizes, notes)
    return Section(
        title="Faults, round two: the hardening cases of issue 14", rows=rows, notes=notes
    )
