"""What both test daemons share: a scratch directory laid out as a user's would be, the settings
that point the daemon at it, and the wait until its socket answers.

``DaemonProcess`` (a process of its own) and ``InProcessDaemon`` (a thread of the test's process)
differ only in how they run xaid; a test moves from one to the other by changing the class.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from pathlib import Path

from xaiclient import Client, DaemonUnavailable, XaiError

READY_TIMEOUT_S = 30.0


class ScratchDaemon:
    def __init__(self, root: Path, env: Mapping[str, str] | None = None, config: str | None = None):
        self.root = root
        self.state_dir = root / "state"
        self.socket = root / "xaid.sock"
        self.log_path = root / "xaid.log"
        self.config_path: Path | None = None
        if config is not None:
            root.mkdir(parents=True, exist_ok=True)
            self.config_path = root / "xaid.toml"
            self.config_path.write_text(config, encoding="utf-8")
        # The XAID_* settings of this daemon: the scratch paths, the scripted model, and the test's own.
        self.settings = {
            "XAID_STORAGE_STATE_DIR": str(self.state_dir),
            "XAID_SERVER_SOCKET": str(self.socket),
            "XAID_LLM_PROVIDER": "scripted",
            "XAID_MEMORY_TIMEZONE": "UTC",  # the tests' dates are days of UTC, whatever this machine's zone
            **(env or {}),
        }

    @property
    def db_path(self) -> Path:
        return self.state_dir / "xaid.db"

    def client(self, **kwargs: object) -> Client:
        return Client(self.socket, **kwargs)  # type: ignore[arg-type]

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def _await_answer(
        self, timeout: float, still_running: Callable[[], None], pause: float
    ) -> None:
        """Until the socket answers a ping; a refusal (``forbidden``) is an answer too: the daemon is
        up. ``still_running`` raises when the daemon ended before it answered."""
        deadline = time.monotonic() + timeout
        while True:
            still_running()
            try:
                with self.client() as c:
                    c.ping()
                return
            except DaemonUnavailable:
                if time.monotonic() > deadline:
                    raise RuntimeError(
                        f"xaid did not answer within {timeout} s:\n{self.log()}"
                    ) from None
                time.sleep(pause)
            except XaiError as exc:
                if exc.code != "forbidden":
                    raise
                return
