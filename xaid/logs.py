"""Logging: structured, one event per line, and never what the user said above debug level.

Under systemd with systemd-python installed, records go to journald with their fields
(``journalctl -u xaid -o verbose`` shows LOGGER, and any ``extra=`` keys as fields). Otherwise
each record is one logfmt line on stderr (``ts=… level=info logger=xaid.lifespan msg="…"``),
which journald also collects from a service's stderr.
"""

from __future__ import annotations

import logging
import os
import sys
import time

_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime"}


def _quote(value: object) -> str:
    text = str(value)
    if text and all(c.isalnum() or c in "._-:/@" for c in text):
        return text
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


class LogfmtFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        stamp = (
            time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z"
        )
        parts = [
            f"ts={stamp}",
            f"level={record.levelname.lower()}",
            f"logger={record.name}",
            f"msg={_quote(record.getMessage())}",
        ]
        parts += [f"{k}={_quote(v)}" for k, v in vars(record).items() if k not in _STANDARD]
        if record.exc_info:
            parts.append(f"exc={_quote(self.formatException(record.exc_info))}")
        return " ".join(parts)


def _journal_handler() -> logging.Handler | None:
    if not os.environ.get("JOURNAL_STREAM"):
        return None
    try:
        from systemd.journal import JournalHandler
    except ImportError:
        return None
    return JournalHandler(SYSLOG_IDENTIFIER="xaid")


def setup(level: str) -> None:
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    handler = _journal_handler()
    if handler is None:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(LogfmtFormatter())
    root.addHandler(handler)
    root.setLevel(level.upper())
