"""Where connections come from: a systemd-activated socket, or our own at a private path,
and who is allowed to use them (SO_PEERCRED against an allow-list)."""

from __future__ import annotations

import logging
import os
import socket
import stat
import struct
from pathlib import Path

from ..config import Config
from ..paths import socket_path

log = logging.getLogger(__name__)
SD_LISTEN_FDS_START = 3
_UCRED = struct.Struct("3i")
SO_PEERGROUPS = getattr(socket, "SO_PEERGROUPS", 59)


class ListenError(Exception):
    pass


HTTP_FD_NAME = "http"  # FileDescriptorName= of xaid-http.socket


def activated_sockets() -> list[tuple[str, socket.socket]]:
    """Sockets handed over by systemd (LISTEN_FDS), meant for this very process, each with its
    name (LISTEN_FDNAMES: ``http`` for the HTTP surface's socket unit; anything else is CBOR)."""
    if os.environ.get("LISTEN_PID") != str(os.getpid()):
        return []
    try:
        count = int(os.environ.get("LISTEN_FDS", "0"))
    except ValueError:
        return []
    names = os.environ.get("LISTEN_FDNAMES", "").split(":")
    for name in ("LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"):
        os.environ.pop(name, None)  # children must not think they were activated
    socks = []
    for i, fd in enumerate(range(SD_LISTEN_FDS_START, SD_LISTEN_FDS_START + count)):
        os.set_inheritable(fd, False)
        socks.append((names[i] if i < len(names) else "", socket.socket(fileno=fd)))
    return socks


def _check_directory(directory: Path) -> None:
    """Refuse a directory where someone else could put their own socket in place of ours (a
    /tmp/xaid-UID another user created first, say): it must be ours and not writable by others."""
    uid = os.geteuid()
    if not directory.is_dir():
        raise ListenError(f"refusing the socket directory {directory}: it is not a directory")
    for st in (
        os.lstat(directory),
        os.stat(directory),
    ):  # a symbolic link itself, then what it names
        if st.st_uid != uid:
            raise ListenError(
                f"refusing the socket directory {directory}: it belongs to uid {st.st_uid}, "
                f"not to this daemon's uid {uid}"
            )
        if not stat.S_ISLNK(st.st_mode) and st.st_mode & 0o022:
            raise ListenError(
                f"refusing the socket directory {directory}: its mode "
                f"{stat.S_IMODE(st.st_mode):04o} lets others replace the socket (chmod go-w it)"
            )


def _remove_stale(path: Path) -> None:
    """Make room for our socket: only a socket nobody answers on is removed, nothing else."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    if not stat.S_ISSOCK(mode):
        kind = (
            "directory" if stat.S_ISDIR(mode) else "symbolic link" if stat.S_ISLNK(mode) else "file"
        )
        raise ListenError(
            f"cannot bind {path}: a {kind} is in the way (only a stale socket is replaced)"
        )
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.connect(str(path))
    except ConnectionRefusedError:
        path.unlink()  # a socket left behind by a daemon that died
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise ListenError(f"cannot bind {path}: {exc.strerror}") from None
    else:
        raise ListenError(f"another xaid already listens at {path}")
    finally:
        probe.close()


def bind(
    cfg: Config, activated: list[tuple[str, socket.socket]] | None = None
) -> tuple[list[socket.socket], Path | None]:
    """The listening CBOR sockets and the path we created (None under socket activation).
    ``activated`` is what ``activated_sockets`` found (read once, it clears the environment)."""
    if activated is None:
        activated = activated_sockets()
    if socks := [sock for name, sock in activated if name != HTTP_FD_NAME]:
        log.info("using %d socket(s) from systemd", len(socks))
        return socks, None
    path = socket_path(cfg)
    return [bind_unix(path, int(cfg.server.socket_mode, 8))], path


def bind_unix(path: Path, mode: int) -> socket.socket:
    """A listening Unix socket at ``path``, in a directory only we may change, with ``mode``."""
    try:
        path.parent.mkdir(parents=True, mode=0o750)
    except FileExistsError:
        pass
    except OSError as exc:
        raise ListenError(
            f"cannot create the socket directory {path.parent}: {exc.strerror}"
        ) from None
    else:
        os.chmod(
            path.parent, 0o750
        )  # not the umask's 0700: the group reaches the socket through it
    _check_directory(path.parent)
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
    os.chmod(path, mode)
    sock.listen(128)
    return sock


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
