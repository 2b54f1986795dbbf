"""Versioned schema migrations: numbered SQL files applied in order, tracked in user_version.

Plain SQL files keep the schema readable in one place (datasette-style); each runs inside one
transaction together with the version bump, so a crash mid-migration leaves the old version.
"""

from __future__ import annotations

import re
from importlib import resources

import apsw

from .errors import SchemaError, SchemaTooNew

_NAME = re.compile(r"^(\d{3})_[a-z0-9_]+\.sql$")


def migrations() -> list[tuple[int, str, str]]:
    found = []
    for entry in resources.files("xaid.store.migrations").iterdir():
        if m := _NAME.match(entry.name):
            found.append((int(m.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    found.sort()
    for expected, (number, name, _) in enumerate(found, start=1):
        if number != expected:
            raise RuntimeError(f"migration {name} is out of sequence (expected {expected:03d})")
    return found


def current_version(conn: apsw.Connection) -> int:
    return int(conn.execute("PRAGMA user_version").get)


def migrate(conn: apsw.Connection) -> int:
    """Bring the schema up to date; refuse a database written by a newer xaid."""
    known = migrations()
    version = current_version(conn)
    if version > len(known):
        raise SchemaTooNew(
            f"database schema version {version} is newer than this xaid knows ({len(known)}); "
            "upgrade xaid or restore a backup"
        )
    if version == len(known):
        return version
    # A table is rebuilt by copy, drop and rename; with foreign keys on, the drop would cascade to every
    # row that references it. The pragma is a no-op inside a transaction, so it is set around them, and
    # each migration proves inside its own transaction that every reference still resolves.
    enforced = conn.execute("PRAGMA foreign_keys").get
    conn.execute("PRAGMA foreign_keys = OFF")
    try:
        for number, name, sql in known[version:]:
            with conn:
                conn.execute(sql)
                broken = conn.execute("PRAGMA foreign_key_check").fetchall()
                if broken:
                    raise SchemaError(
                        f"migration {name} left {len(broken)} broken reference(s), e.g. {broken[0]}"
                    )
                conn.execute(f"PRAGMA user_version = {number}")
    finally:
        conn.execute(f"PRAGMA foreign_keys = {'ON' if enforced else 'OFF'}")
    return current_version(conn)
