"""Where the daemon keeps its socket and its state, following systemd's and XDG's conventions,
and the state directory made safe to use: private, and used by one daemon at a time."""

from __future__ import annotations

import fcntl
import logging
import os
import stat
from pathlib import Path

from .config import Config

log = logging.getLogger(__name__)
LOCK_NAME = "xaid.lock"


class StateDirError(Exception):
    """The state directory cannot be used; the message is the one line to show."""


def state_dir(cfg: Config) -> Path:
    if cfg.storage.state_dir:
        return Path(cfg.storage.state_dir)
    if env := os.environ.get("STATE_DIRECTORY"):
        return Path(env.split(":")[0])
    if os.geteuid() == 0:
        return Path("/var/lib/xaid")
    xdg = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(xdg) / "xaid"


def head_cache_dir(cfg: Config) -> Path:
    """Where the model runner keeps the agents' prompt heads (xaid/providers/head_cache.py): in the
    state directory, since a head holds the user's profile."""
    return state_dir(cfg) / "head_cache"


def socket_path(cfg: Config) -> Path:
    if cfg.server.socket:
        return Path(cfg.server.socket)
    if env := os.environ.get("RUNTIME_DIRECTORY"):
        return Path(env.split(":")[0]) / "xaid.sock"
    if env := os.environ.get("XDG_RUNTIME_DIR"):
        return Path(env) / "xaid" / "xaid.sock"
    if os.geteuid() == 0:
        return Path("/run/xaid/xaid.sock")
    return Path(f"/tmp/xaid-{os.geteuid()}") / "xaid.sock"


def prepare_state_dir(cfg: Config) -> Path:
    """The state directory, created 0700 when missing. The database in it holds what users said:
    one that group or others may enter is made 0700 when it is ours, and refused when it is not."""
    directory = state_dir(cfg)
    try:
        directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        st = directory.stat()
    except OSError as exc:
        raise StateDirError(f"cannot use the state directory {directory}: {exc.strerror}") from None
    mode = stat.S_IMODE(st.st_mode)
    if mode & 0o077:
        uid = os.geteuid()
        if st.st_uid != uid:
            raise StateDirError(
                f"refusing the state directory {directory}: its mode {mode:04o} lets others read "
                f"it and it belongs to uid {st.st_uid}, not to this daemon's uid {uid}"
            )
        os.chmod(directory, 0o700)
        log.warning(
            "the state directory %s was mode %04o, open to others: made it 0700", directory, mode
        )
    return directory


def lock_state_dir(directory: Path) -> int:
    """Hold an exclusive lock on the state directory while this process lives; a second daemon there
    would close the first one's sessions and consolidate under its feet. Returns the fd to keep open."""
    path = directory / LOCK_NAME
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    except OSError as exc:
        raise StateDirError(f"cannot open the lock file {path}: {exc.strerror}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.read(fd, 20).decode(errors="replace").strip()
        os.close(fd)
        raise StateDirError(
            f"another xaid (pid {holder or 'unknown'}) already uses the state directory {directory}"
        ) from None
    except OSError as exc:
        os.close(fd)
        raise StateDirError(f"cannot lock {path}: {exc.strerror}") from None
    os.ftruncate(fd, 0)
    os.write(fd, f"{os.getpid()}\n".encode())
    return fd
