"""Where the daemon keeps its socket and its state, following systemd's and XDG's conventions."""

from __future__ import annotations

import os
from pathlib import Path

from .config import Config


def state_dir(cfg: Config) -> Path:
    if cfg.storage.state_dir:
        return Path(cfg.storage.state_dir)
    if env := os.environ.get("STATE_DIRECTORY"):
        return Path(env.split(":")[0])
    if os.geteuid() == 0:
        return Path("/var/lib/xaid")
    xdg = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(xdg) / "xaid"


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
