"""Faults and load, short versions for CI: many clients at once, SIGKILLs, a full disk, agents side
by side, a refused peer. perf/campaigns/faults.py runs the full-size versions and writes the table in
perf/RESULTS.md.

Every check is on behaviour: which errors the clients see, that nothing acknowledged is lost,
what the database holds afterwards. None is on timing. Defects these scenarios once found are
reproduced at the end of the file, so they stay fixed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import subprocess
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import apsw
import pytest
from xaiclient import AsyncClient, Client, XaiError

from testkit import DaemonProcess
from testkit.faults import (
    REFUSED,
    MountError,
    check_db,
    fill,
    intrude,
    session_to_consolidate,
    tmpfs,
    wait_memory_ready,
)
from testkit.inproc import InProcessDaemon

T0 = 1_764_536_400_000
DAY = 86_400_000
needs_root = pytest.mark.skipif(
    os.geteuid() != 0, reason="mounting a tmpfs and changing uid need root"
)


# --- load ---------------------------------------------------------------------------------------

OPS = (
    "ping",
    "status",
    "agent.get",
    "session.send",
    "session.history",
    "memory.search",
    "mood.get",
)


async def mixed_calls(
    path: Path, clients: int, seconds: float
) -> tuple[Counter[str], Counter[str], dict]:
    done: Counter[str] = Counter()
    errors: Counter[str] = Counter()
    acked: dict[str, list[str]] = {}
    stop_at = time.monotonic() + seconds

    async def one(i: int) -> None:
        rng = random.Random(i)
        agent = f"load{i % 3}"
        async with AsyncClient(path) as c:
            sid = (await c.call("session.open", agent_id=agent))["session_id"]
            acked[sid] = []
            for n in range(100_000):
                if time.monotonic() > stop_at:
                    break
                op = rng.choice(OPS)
                try:
                    if op == "session.send":
                        text = f"client {i} turn {n}: I like tea"
                        result = await (await c.stream(op, session_id=sid, text=text)).finish()
                        acked[sid] += [text, result["text"]]
                    elif op == "session.history":
                        await c.call(op, session_id=sid, limit=20)
                    elif op == "memory.search":
                        await c.call(op, agent_id=agent, query="where does my sister live")
                    elif op in ("agent.get", "mood.get"):
                        await c.call(op, agent_id=agent)
                    else:
                        await c.call(op)
                    done[op] += 1
                except XaiError as exc:
                    errors[exc.code] += 1
                    if exc.code == "unavailable":
                        return
                    await asyncio.sleep(0.005)

    await asyncio.wait_for(asyncio.gather(*(one(i) for i in range(clients))), seconds + 60)
    return done, errors, acked


def test_ten_clients_of_mixed_calls_see_only_back_pressure_and_lose_nothing(
    daemon: InProcessDaemon,
) -> None:
    with daemon.client() as c:
        for a in range(3):
            c.agent_create(f"load{a}")
            sid = c.session_open(f"load{a}")["session_id"]
            c.session_send(sid, "My sister Anna lives in Kyoto.").finish()
            c.session_close(sid, wait=True)
    done, errors, acked = asyncio.run(mixed_calls(daemon.socket, clients=10, seconds=5))
    assert set(errors) <= {"overloaded"}, errors  # the documented back-pressure, nothing else
    assert set(done) == set(OPS), done
    with daemon.client() as c:
        for sid, texts in acked.items():
            stored = {m["text"] for m in c.session_history(sid)["messages"]}
            assert [t for t in texts if t not in stored] == []
        assert c.ping() == {}


# --- crash --------------------------------------------------------------------------------------


def test_sigkill_during_ingest_and_consolidation_loses_nothing(tmp_path: Path) -> None:
    """Three SIGKILLs at random moments while two clients ingest and close sessions (so that
    consolidation jobs are pending); after each restart every acknowledged message is there, each
    session gets exactly one episode, every job finishes and the database is intact."""
    rng = random.Random(20)
    proc = DaemonProcess(tmp_path / "d").start()
    acked: dict[str, list[str]] = {}
    in_flight: dict[str, list[str]] = {}
    with proc.client() as c:
        c.agent_create("crash")
    try:
        for r in range(3):
            stop = threading.Event()

            def writer(w: int, r: int = r, stop: threading.Event = stop) -> None:
                """Three short sessions closed without waiting (their jobs pend), then one left open."""
                try:
                    with proc.client(timeout=30) as c:
                        for s in range(4):
                            sid = c.session_open("crash")["session_id"]
                            acked[sid] = []
                            for m in range(rng.randint(2, 6) if s < 3 else 40):
                                if stop.is_set():
                                    return
                                batch = [
                                    f"r{r} w{w} {sid} m{m}.{b}: I met Dr. Chen at 3pm about Osaka"
                                    for b in range(rng.randint(1, 3))
                                ]
                                in_flight[sid] = batch
                                c.session_ingest(sid, [{"role": "user", "text": t} for t in batch])
                                acked[sid] += batch
                                in_flight[sid] = []
                                time.sleep(0.01)
                            if s < 3:
                                c.session_close(sid)
                except XaiError:
                    return  # the daemon was killed under us

            threads = [threading.Thread(target=writer, args=(w,)) for w in range(2)]
            for t in threads:
                t.start()
            time.sleep(rng.uniform(0.1, 0.8))
            proc.kill()
            stop.set()
            for t in threads:
                t.join(30)
            proc.start()
            with proc.client(timeout=60) as c:
                for sid, texts in acked.items():
                    stored = [m["text"] for m in c.session_history(sid)["messages"]]
                    assert stored[: len(texts)] == texts
                    assert stored[len(texts) :] in (
                        [],
                        in_flight.get(sid, []),
                    )  # an ingest is all or none
                    acked[sid], in_flight[sid] = stored, []
                    episode = c.session_close(sid, wait=True)["episode_id"]
                    assert (episode is not None) == bool(
                        stored
                    )  # nothing said, nothing to remember
            assert (check := check_db(proc.db_path)).healthy, check
        proc.stop()
        conn = apsw.Connection(str(proc.db_path))
        assert conn.execute("PRAGMA integrity_check").get == "ok"
        conn.close()
    finally:
        proc.kill()


# --- disk full ----------------------------------------------------------------------------------


@contextlib.contextmanager
def tmpfs_or_skip(path: Path, size: str) -> Iterator[Path]:
    """testkit.faults.tmpfs, or a skip where no tmpfs can be mounted."""
    with contextlib.ExitStack() as stack:
        try:
            mounted = stack.enter_context(tmpfs(path, size))
        except MountError as exc:
            pytest.skip(str(exc))
        yield mounted


@needs_root
def test_a_full_disk_refuses_writes_clearly_keeps_reads_and_recovers(tmp_path: Path) -> None:
    with (
        tmpfs_or_skip(tmp_path / "state", "8m") as state,
        DaemonProcess(tmp_path) as proc,
        proc.client(timeout=60) as c,
    ):
        wait_memory_ready(c)
        c.agent_create("disk")
        first = c.session_open("disk")["session_id"]
        c.session_send(first, "My sister Anna lives in Kyoto and I work at Globex.").finish()
        c.session_close(first, wait=True)
        episodes = c.memory_list("disk", kind="episode")["items"]
        acked: dict[str, list[str]] = {}

        def write(text: str) -> XaiError | None:
            """One ingest, in a new session every 30 messages (a history must fit in one frame)."""
            try:
                sid = list(acked)[-1] if acked else ""
                if not sid or len(acked[sid]) >= 30:
                    sid = c.session_open("disk")["session_id"]  # a write too: it may be refused
                    acked[sid] = []
                c.session_ingest(sid, [{"role": "user", "text": text}])
            except XaiError as exc:
                return exc
            acked[sid].append(text)
            return None

        def fill_until_refused(label: str) -> XaiError:
            for i in range(1_000):  # some writes still fit in blocks the WAL already holds
                if (err := write(f"{label} {i}: " + "x" * 20_000)) is not None:
                    return err
            pytest.fail(f"{label}: 1,000 writes of 20 kB fit on a full 8 MiB disk")

        def all_there() -> None:
            for sid, texts in acked.items():
                stored = {m["text"] for m in c.session_history(sid)["messages"]}
                assert [t for t in texts if t not in stored] == []
            now = {
                e["episode_id"]: e["summary"]
                for e in c.memory_list("disk", kind="episode")["items"]
            }
            assert {e["episode_id"]: now.get(e["episode_id"]) for e in episodes} == {
                e["episode_id"]: e["summary"] for e in episodes
            }
            assert check_db(proc.db_path).integrity == "ok"

        for i in range(10):
            assert write(f"before the disk filled {i}") is None
        for label, free in (
            ("a filler file", "delete it"),
            ("the database itself", "remount bigger"),
        ):
            filler = fill(state) if label == "a filler file" else None
            err = fill_until_refused(label)
            assert err.code == "storage_error" and "disk" in err.message, err
            assert isinstance(write("the same again: " + "x" * 20_000), XaiError)
            # the daemon is up and every read works
            assert c.ping() == {} and c.status()["pid"] == proc.process.pid
            c.agent_get("disk")
            c.memory_search("disk", "Anna")
            c.session_list("disk")
            c.mood_get("disk")
            all_there()
            if filler is not None:
                filler.unlink()
            else:
                subprocess.run(["mount", "-o", "remount,size=64m", str(state)], check=True)
            assert write(f"after {free}") is None
        turn = c.session_open("disk")["session_id"]
        reply = c.session_send(turn, "and a turn after the recovery").finish()
        acked[turn] = ["and a turn after the recovery", reply["text"]]
        assert c.session_close(turn, wait=True)["episode_id"] is not None
        all_there()
        proc.stop()
        conn = apsw.Connection(str(proc.db_path))
        assert conn.execute("PRAGMA integrity_check").get == "ok"
        conn.close()


# --- isolation ----------------------------------------------------------------------------------


def test_agents_with_shared_words_never_see_each_others_secrets(client: Client) -> None:
    secrets = {"iso0": "pelican0", "iso1": "zanzibar1", "iso2": "quokka2"}
    for a, secret in secrets.items():
        client.agent_create(a)
        sid = client.session_open(a, ts=T0)["session_id"]
        lines = [
            "I work at Globex.",
            "My sister Anna lives in Kyoto.",
            f"My dog {secret.title()} likes tea.",
            f"My locker code word is {secret}.",
        ]
        for i, line in enumerate(lines):
            client.session_send(sid, line, ts=T0 + i * 60_000).finish()
        client.session_close(sid, ts=T0 + 3_600_000, wait=True)
    for a in secrets:
        others = [s for b, s in secrets.items() if b != a]
        seen = []
        for q in [*secrets.values(), "Globex", "sister Anna", "dog", ""]:
            seen.append(client.memory_search(a, q, k=200, budget_tokens=100_000, ts=T0 + 2 * DAY))
        seen.append(client.memory_export(a))
        seen.append(client.memory_persona(a))
        sid = client.session_open(a, ts=T0 + 2 * DAY)["session_id"]
        seen.append(
            client.session_send(
                sid, "How is my dog, and what is my code word?", ts=T0 + 2 * DAY, explain=True
            ).finish()["context"]
        )
        text = json.dumps(seen, ensure_ascii=False).lower()
        assert [s for s in others if s in text] == [], f"{a} sees another agent's memory"
        assert secrets[a] in text  # and its own is there: the check looks in the right place


# --- access -------------------------------------------------------------------------------------


@needs_root
def test_a_refused_peer_runs_no_method(tmp_path: Path) -> None:
    public = Path(
        tempfile.mkdtemp(prefix="xaid-access-")
    )  # pytest's tmp_path is closed to other uids
    public.chmod(0o755)
    env = {"XAID_SERVER_ALLOW_UIDS": "0", "XAID_SERVER_SOCKET_MODE": "0666"}
    try:
        with DaemonProcess(public / "d", env=env) as proc, proc.client() as c:
            os.chmod(proc.root, 0o755)
            c.agent_create("keeper")
            sid = c.session_open("keeper")["session_id"]
            c.session_send(sid, "My sister Anna lives in Kyoto.").finish()
            c.session_close(sid, wait=True)
            before = (c.stats(), c.memory_export("keeper"))
            assert intrude(proc.socket, attempts=1, timeout=60) == {
                REFUSED: 1
            }  # 'forbidden', then EOF
            stats = c.stats()
            assert stats["connections_refused"] == before[0]["connections_refused"] + 1
            for method in ("agent.create", "memory.forget"):
                assert stats["methods"].get(method, {}).get("calls", 0) == before[0]["methods"].get(
                    method, {}
                ).get("calls", 0)
            assert [a["agent_id"] for a in c.agent_list()["agents"]] == ["keeper"]
            assert c.memory_export("keeper") == before[1]
    finally:
        import shutil

        shutil.rmtree(public, ignore_errors=True)


# --- defects found by these scenarios ------------------------------------------------------------


def test_a_consolidation_that_hit_the_size_limit_runs_again_once_there_is_room(
    tmp_path: Path,
) -> None:
    proc = DaemonProcess(tmp_path / "d", env={"XAID_STORAGE_MAX_DB_MB": "1"}).start()
    try:
        with proc.client(timeout=60) as c:
            wait_memory_ready(c)
            c.agent_create("a")
            sid = c.session_open("a")["session_id"]
            c.session_send(sid, "My sister Anna lives in Kyoto.").finish()
            filler = c.session_open("a")["session_id"]
            with pytest.raises(XaiError):  # another conversation fills the database up to its limit
                for i in range(10_000):
                    c.session_ingest(
                        filler, [{"role": "user", "text": f"{i} " + "blah " * 300}] * 20
                    )
            with pytest.raises(
                XaiError
            ):  # its first episode and vectors need pages there are none of
                c.session_close(sid, wait=True)
        proc.stop()
        proc.env["XAID_STORAGE_MAX_DB_MB"] = "64"
        proc.start()
        with proc.client(timeout=60) as c:
            assert (
                c.session_close(sid, wait=True)["episode_id"] is not None
            )  # now: internal, job 'failed'
    finally:
        proc.kill()


@needs_root
def test_a_consolidation_on_a_full_disk_neither_kills_the_daemon_nor_is_lost(
    tmp_path: Path,
) -> None:
    for leave in (16 * 1024, 64 * 1024):
        root = tmp_path / f"left-{leave}"
        with tmpfs_or_skip(root / "state", "4m") as state, DaemonProcess(root) as proc:
            with proc.client(timeout=60) as c:
                sid = session_to_consolidate(c)
                filler = fill(state, leave)
                with contextlib.suppress(
                    XaiError
                ):  # storage_error, internal or a lost connection: see below
                    c.session_close(sid, wait=True)  # the close fits; its consolidation does not
            time.sleep(0.3)
            assert proc.proc is not None and proc.proc.poll() is None, (
                f"{leave} B left: the daemon exited"
            )
            filler.unlink()
            with proc.client(timeout=60) as c:
                assert c.session_close(sid, wait=True)["episode_id"] is not None, f"{leave} B left"


@needs_root
def test_a_daemon_started_on_a_full_disk_says_why_and_loses_nothing(tmp_path: Path) -> None:
    """SQLite cannot open a WAL database without room for its -shm file: the daemon must say so in
    one line (no traceback), and start normally, data intact, once there is room again."""
    with tmpfs_or_skip(tmp_path / "state", "4m") as state:
        proc = DaemonProcess(tmp_path)
        try:
            with proc, proc.client() as c:
                wait_memory_ready(c)
                c.agent_create("a")
            filler = fill(state)
            with pytest.raises(RuntimeError) as info:
                proc.start()
            assert "cannot open the database" in str(info.value) and "Traceback" not in str(
                info.value
            )
            filler.unlink()
            proc.start()
            with proc.client() as c:
                assert c.agent_get("a")["agent_id"] == "a"
        finally:
            proc.kill()


def test_a_database_at_its_size_limit_keeps_the_daemon_up_when_the_embedding_model_loads(
    tmp_path: Path,
) -> None:
    # the embedding model missing for a while (memory on keywords only): no vector table yet
    proc = DaemonProcess(
        tmp_path / "d",
        env={
            "XAID_STORAGE_MAX_DB_MB": "2",
            "XAID_MEMORY_EMBED_MODEL": str(tmp_path / "missing.onnx"),
        },
    )
    try:
        with proc, proc.client() as c:
            c.agent_create("a")
            sid = c.session_open("a")["session_id"]
            with pytest.raises(XaiError) as info:
                for i in range(200):
                    c.session_ingest(sid, [{"role": "user", "text": f"{i} " + "x" * 50_000}])
            assert info.value.code == "storage_error" and "size limit" in info.value.message
        del proc.env["XAID_MEMORY_EMBED_MODEL"]  # the model is back
        proc.start()
        with proc.client(timeout=60) as c:
            for _ in range(600):
                if c.stats()["memory"]["embedder"] != "loading":
                    break
                time.sleep(0.05)
            assert len(c.session_history(sid, limit=3)["messages"]) == 3  # reads still work
    finally:
        proc.kill()
