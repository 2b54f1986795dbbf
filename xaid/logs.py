"""Logging set-up: one line per event on stderr, which journald collects under systemd.

The content of what users say is never logged above debug level.
"""

from __future__ import annotations

import logging
import os
import sys


def setup(level: str) -> None:
    root = logging.getLogger()
    under_journal = bool(os.environ.get("JOURNAL_STREAM"))
    fmt = "%(levelname)s %(name)s: %(message)s" if under_journal else "%(asctime)s %(levelname)s %(name)s: %(message)s"
    if not root.handlers:
        handler = logging.StreamHandler(sys.stderr)
        root.addHandler(handler)
    for handler in root.handlers:
        handler.setFormatter(logging.Formatter(fmt))
    root.setLevel(level.upper())
