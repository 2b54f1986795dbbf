"""Where connections come from: a systemd-activated socket, or our own at a private path,
and who is allowed to use them (SO_PEERCRED against an allow-list)."""

from __future__ import annotations

import logging
import os
import socket
import struct
from pathlib import Path

from .config import Config
from .paths import socket_path

log = logging.getLogger(__name__)
SD_LISTEN_FDS_START = 3
_UCRED = struct.Struct("3i")
SO_PEERGROUPS = getattr(socket, "SO_PEERGROUPS", 59)


class ListenError(Exception):
    pass


def activated_sockets() -> list[socket.socket]:
    """Sockets handed over by systemd (LISTEN_FDS), meant for this very process."""
    if os.environ.get("LISTEN_PID") != str(os.getpid()):
        return []
    try:
        count = int(os.environ.get("LISTEN_FDS", "0"))
    except ValueError:
        return []
    for name in ("LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"):
        os.environ.pop(name, None)  # children must not think they were activated
    socks = []
    for fd in range(SD_LISTEN_FDS_START, SD_LISTEN_FDS_START + count):
        os.set_inheritable(fd, False)
        socks.append(socket.socket(fileno=fd))
    return socks


def _remove_stale(path: Path) -> None:
    if not path.exists() and not path.is_symlink():
        return
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.connect(str(path))
    except OSError:
        path.unlink()  # a socket left behind by a daemon that died
    else:
        raise ListenError(f"another xaid already listens at {path}")
    finally:
        probe.close()


def bind(cfg: Config) -> tuple[list[socket.socket], Path | None]:
    """The listening sockets and the path we created (None under socket activation)."""
    if socks := activated_sockets():
        log.info("using %d socket(s) from systemd", len(socks))
        return socks, None
    path = socket_path(cfg)
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o750)
    _remove_stale(path)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    old = os.umask(0o177)  # never expose the socket, even for a moment, beyond its final mode
    try:
        sock.bind(str(path))
    except OSError as exc:
        sock.close()
        raise ListenError(f"cannot bind {path}: {exc.strerror}") from None
    finally:
        os.umask(old)
    os.chmod(path, int(cfg.server.socket_mode, 8))
    sock.listen(128)
    return [sock], path


def peer_credentials(sock: socket.socket) -> tuple[int, int, int]:
    """(pid, uid, gid) of the process at the other end, as the kernel saw it connect."""
    raw = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, _UCRED.size)
    pid, uid, gid = _UCRED.unpack(raw)
    return pid, uid, gid


def peer_groups(sock: socket.socket) -> set[int]:
    """Supplementary groups of the peer (SO_PEERGROUPS, Linux 4.13+); empty where unsupported."""
    try:
        raw = sock.getsockopt(socket.SOL_SOCKET, SO_PEERGROUPS, 4 * 256)
    except OSError:
        return set()
    return set(struct.unpack(f"{len(raw) // 4}I", raw[: len(raw) // 4 * 4]))


def allowed(cfg: Config, uid: int, gids: set[int]) -> bool:
    uids = set(cfg.server.allow_uids) or {os.geteuid(), 0}
    return uid in uids or bool(gids & set(cfg.server.allow_gids))
