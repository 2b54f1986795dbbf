"""From start to stop: open the store, listen, tell systemd, serve, drain, close.

Order is what makes a restart lose nothing: the database is open (and migrated) before the
socket accepts, READY is sent as soon as the socket accepts (the model keeps loading in the
background), and on SIGTERM new turns are refused, running ones get ``drain_seconds`` to finish,
and the database is checkpointed last.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import logging
import os
import signal
from pathlib import Path

import anyio
from anyio.abc import TaskGroup
from xaiclient.wire import Forbidden, Overloaded, XaiError, encode_frame

from . import config as config_mod
from . import embed, heap, providers
from .app import App
from .clock import Clock, reset_zone, resolve_zone, use_zone, zone
from .config import Config, ConfigError
from .conversation.generation import ModelState
from .logs import setup as setup_logging
from .notify import notify, watchdog_interval
from .paths import head_cache_dir, lock_state_dir, prepare_state_dir, state_dir
from .providers import Provider
from .server import methods  # noqa: F401  (registers every method)
from .server.connection import Connection
from .server.http import exchange as http_exchange
from .server.http import listener as http_listener
from .server.http import token as http_token
from .server.http.routes import Router
from .server.listen import activated_sockets, allowed, bind, peer_credentials, peer_groups
from .server.transport import Stream
from .store import backup

log = logging.getLogger(__name__)


async def _refuse(stream: Stream, err: XaiError) -> None:
    """Say why, then linger briefly: closing with unread input would reset the connection and
    could destroy the explanation before the client reads it."""
    with (
        anyio.move_on_after(1.0),
        contextlib.suppress(
            anyio.EndOfStream, anyio.BrokenResourceError, anyio.ClosedResourceError, OSError
        ),
    ):
        await stream.send(encode_frame({"id": None, "ok": False, "error": err.to_wire()}))
        await stream.send_eof()
        while await stream.receive():
            pass
    await stream.aclose()


def _handler(app: App):  # type: ignore[no-untyped-def]
    async def admit(stream: Stream) -> None:
        raw = stream.socket
        _pid, uid, gid = peer_credentials(raw)
        app.stats.connections_total += 1
        if not allowed(app.config, uid, {gid} | peer_groups(raw)):
            app.stats.connections_refused += 1
            log.warning("refused a connection from uid %d gid %d (not in the allow-list)", uid, gid)
            await _refuse(stream, Forbidden(f"uid {uid} may not use this daemon"))
            return
        if app.connections >= app.config.server.max_connections:
            app.stats.connections_refused += 1
            await _refuse(stream, Overloaded("too many connections; try again shortly"))
            return
        app.connections += 1
        try:
            await Connection(app, stream, uid).serve()
        finally:
            app.connections -= 1

    async def handle(stream: Stream) -> None:
        try:
            await admit(stream)
        except Exception:  # whatever a peer provoked ends its own connection, never the daemon
            log.exception("a connection failed; closed it")
        finally:
            await stream.aclose()

    return handle


def _reload(app: App, path: str | None) -> Provider | None:
    """Apply the config file as it reads now. A model that failed (a load error, or a runner that
    kept crashing) gets a second chance with the new ``[llm]`` section: the provider to load is
    returned; a working model keeps running with the section it started with."""
    try:
        fresh = config_mod.load(path)
    except ConfigError as exc:
        log.error("SIGHUP: keeping the running config, the new one is bad: %s", exc)
        return None
    retry: Provider | None = None
    if app.queue.state is ModelState.FAILED:
        retry = providers.build(
            fresh.llm, state_dir(app.config) / "models", head_cache_dir(app.config)
        )
    elif fresh.llm != app.config.llm:
        log.warning("SIGHUP: [llm] changes take effect at the next restart")
        fresh = dataclasses.replace(fresh, llm=app.config.llm)
    if fresh.storage != app.config.storage:
        log.warning("SIGHUP: [storage] changes take effect at the next restart")
        fresh = dataclasses.replace(fresh, storage=app.config.storage)
    app.settings.config = fresh  # every service reads it from there at its next use
    app.settings.zone.tz = resolve_zone(fresh.memory.timezone)  # every task holds this holder
    setup_logging(fresh.log.level)
    log.info("SIGHUP: configuration reloaded from %s", fresh.source)
    return retry


async def _signals(
    app: App, tg: TaskGroup, serving: anyio.CancelScope, config_path: str | None
) -> None:
    with anyio.open_signal_receiver(signal.SIGTERM, signal.SIGINT, signal.SIGHUP) as received:
        async for signum in received:
            if signum == signal.SIGHUP:
                if (provider := _reload(app, config_path)) is not None:
                    tg.start_soon(app.queue.retry, provider)
                continue
            log.info("received %s: draining", signal.Signals(signum).name)
            await _shut_down(app, tg, serving)
            return


async def _stop_when(
    stop: anyio.Event, app: App, tg: TaskGroup, serving: anyio.CancelScope
) -> None:
    await stop.wait()
    log.info("asked to stop: draining")
    await _shut_down(app, tg, serving)


async def _shut_down(app: App, tg: TaskGroup, serving: anyio.CancelScope) -> None:
    """What SIGTERM does: refuse new turns and connections, let running calls finish, then end."""
    notify("STOPPING=1")
    app.shutting_down = True
    serving.cancel()  # stop accepting
    if not await _drain(app, app.config.server.drain_seconds):
        log.warning(
            "calls still running after %.0f s: cancelling them", app.config.server.drain_seconds
        )
    tg.cancel_scope.cancel()


def _stop_listening(servers: list[asyncio.Server], path: Path | None) -> None:
    for server in servers:
        server.close()
    if path is not None:
        path.unlink(missing_ok=True)


async def _drain(app: App, timeout: float) -> bool:
    """Wait until every call has sent its reply; False when some were still running at the deadline."""
    with anyio.move_on_after(timeout):
        while app.calls_in_flight:
            await anyio.sleep(0.02)
        return True
    return False


async def _watchdog(interval: float) -> None:
    while True:
        notify("WATCHDOG=1")
        await anyio.sleep(interval)


async def serve(
    cfg: Config,
    *,
    config_path: str | None = None,
    clock: Clock | None = None,
    stop: anyio.Event | None = None,
    load_embedder: embed.Loader = embed.load,
) -> None:
    """Run the daemon until SIGTERM or SIGINT. With ``stop``, run it until that event is set
    instead, with the same drain, and install no signal handlers: they work only in the main
    thread, and a daemon hosted in a thread (the tests' in-process one) has no signals of its own.
    ``load_embedder`` reads the embedding model (the in-process daemons of a test run share one)."""
    lock = lock_state_dir(
        prepare_state_dir(cfg)
    )  # before anything is opened: one daemon per state directory
    try:
        await _serve(cfg, config_path, clock, stop, load_embedder)
    finally:
        os.close(lock)


async def _serve(
    cfg: Config,
    config_path: str | None,
    clock: Clock | None,
    stop: anyio.Event | None,
    load_embedder: embed.Loader,
) -> None:
    app = App.open(cfg, clock, load_embedder)
    # The user's zone is this daemon's, in every task and thread it starts (not the process's).
    zone_token = use_zone(app.settings.zone)
    await (
        app.memory.start()
    )  # before the socket accepts: what it notes must predate every new session
    if swept := backup.sweep(app.db.path):
        log.warning(
            "deleted %d backup snapshot(s) left by a daemon that was killed while backing up", swept
        )
    activated = activated_sockets()
    socks, path = bind(cfg, activated)
    try:
        doors = http_listener.bind(cfg, activated)
    except BaseException:
        _stop_listening([], path)
        for sock in socks:
            sock.close()
        app.close()
        raise
    token = http_token.ensure(state_dir(cfg))
    servers: list[asyncio.Server] = []
    try:
        async with anyio.create_task_group() as tg:
            serving = anyio.CancelScope()
            if stop is None:
                tg.start_soon(_signals, app, tg, serving, config_path)
            else:
                tg.start_soon(_stop_when, stop, app, tg, serving)
            tg.start_soon(app.queue.load)
            tg.start_soon(app.queue.worker)
            tg.start_soon(app.stats.loop.watch)
            tg.start_soon(app.memory.run, tg)
            tg.start_soon(app.prewarm.refresh)
            if (interval := watchdog_interval()) is not None:
                tg.start_soon(_watchdog, interval)
            notify(
                f"READY=1\nSTATUS=listening on {path or 'activated socket'}\nMAINPID={os.getpid()}"
            )
            log.info(
                "xaid %s ready on %s (database %s, time zone %s)",
                app.version,
                path or "activated socket",
                app.db.path,
                zone(),
            )
            handle = _handler(app)
            loop = asyncio.get_running_loop()
            for sock in socks:
                sock.setblocking(False)
                servers.append(
                    await loop.create_unix_server(
                        lambda: Stream(
                            lambda s: tg.start_soon(handle, s), app.config.server.max_frame_bytes
                        ),
                        sock=sock,
                    )
                )
            router = Router(app, token)
            for door in doors:
                door.sock.setblocking(False)

                def accept(s: Stream, door: http_listener.Listener = door) -> None:
                    tg.start_soon(http_exchange.admit, app, s, door, token, router)

                if door.endpoint.kind == "unix":
                    servers.append(
                        await loop.create_unix_server(
                            functools.partial(Stream, accept), sock=door.sock
                        )
                    )
                else:
                    servers.append(
                        await loop.create_server(functools.partial(Stream, accept), sock=door.sock)
                    )
            if doors:
                log.info(
                    "HTTP (OpenAI-compatible) on %s", ", ".join(str(d.endpoint) for d in doors)
                )
            with serving:
                await anyio.sleep_forever()
            _stop_listening(servers, path)  # new clients are refused at once while we drain
            http_listener.close(doors)
    finally:
        _stop_listening(servers, path)
        http_listener.close(doors)
        app.close()
        log.info("xaid stopped")
        reset_zone(zone_token)


def run(cfg: Config, config_path: str | None = None) -> None:
    heap.freeze_after_start(cfg.server.freeze_heap)  # the daemon's own process (xaid/heap.py)
    options: dict[str, bool] = {}
    if cfg.server.uvloop:
        try:
            import uvloop  # noqa: F401

            options["use_uvloop"] = True
        except ImportError:
            log.info("uvloop is not installed: running on plain asyncio")
    anyio.run(
        lambda: serve(cfg, config_path=config_path), backend="asyncio", backend_options=options
    )
