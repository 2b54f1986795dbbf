"""The bearer token of the HTTP surface's TCP listeners: made once, kept in the state directory.

A TCP port has no peer credentials: any local user, and any web page's script that reaches it,
could connect. The token is what stands in for SO_PEERCRED there. It is written 0600 into the
state directory (itself 0700), so only the daemon's user (and root) can read it; ``xaictl token``
asks the daemon for it over the CBOR socket, which checks the peer's uid first.
"""

from __future__ import annotations

import hmac
import os
import secrets
from pathlib import Path

TOKEN_NAME = "http.token"


def ensure(state_dir: Path) -> str:
    """The token, created on first start (``O_EXCL``: two starts never write two tokens)."""
    path = state_dir / TOKEN_NAME
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
    except FileExistsError:
        return read(path)
    with os.fdopen(fd, "w", encoding="ascii") as f:
        f.write("xaid-" + secrets.token_urlsafe(32) + "\n")
    return read(path)


def read(path: Path) -> str:
    os.chmod(path, 0o600)  # whoever loosened it: the token is a password
    return path.read_text(encoding="ascii").strip()


def matches(expected: str, header: str | None) -> bool:
    """``Authorization: Bearer <token>``, compared in constant time."""
    if not header:
        return False
    scheme, _, given = header.partition(" ")
    if scheme.lower() != "bearer":
        return False
    return hmac.compare_digest(given.strip().encode(), expected.encode())
