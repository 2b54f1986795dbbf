"""Online backup and offline restore of the one database file.

Backup uses SQLite's online backup API (through apsw) page by page in short steps, so the daemon
keeps serving while it runs and the copy is a consistent snapshot. Restore is offline: the file is
checked (integrity, schema version) before it atomically replaces the database.
"""

from __future__ import annotations

import os
from pathlib import Path

import apsw
import sqlite_vec

from .migrate import current_version, migrations

STEP_PAGES = 256
TEMP_PREFIX = "backup-"
TEMP_SUFFIX = ".tmp"


def temp_path(database: Path, token: str) -> Path:
    return database.with_name(f"{TEMP_PREFIX}{token}{TEMP_SUFFIX}")


def sweep(database: Path) -> int:
    """Delete the snapshots a killed daemon left beside the database: each is a full copy of every
    conversation, out of reach of forget. Call at start, holding the state directory's lock."""
    swept = 0
    for leftover in database.parent.glob(f"{TEMP_PREFIX}*{TEMP_SUFFIX}*"):
        if leftover.is_file() and not leftover.is_symlink():
            leftover.unlink(missing_ok=True)
            swept += 1
    return swept


def backup_file(database: Path, target: Path) -> int:
    """Snapshot the live database into ``target`` through a connection of its own (WAL lets it read
    while the daemon writes); the size in bytes. The file is created 0600 whatever the umask: it holds
    every conversation."""
    target.unlink(missing_ok=True)
    os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600))
    source = apsw.Connection(str(database), flags=apsw.SQLITE_OPEN_READONLY)
    dest = apsw.Connection(str(target))
    try:
        with dest.backup("main", source, "main") as b:
            while not b.done:
                b.step(STEP_PAGES)
        dest.execute("PRAGMA journal_mode = DELETE")  # one self-contained file, no -wal beside it
    finally:
        dest.close()
        source.close()
    return target.stat().st_size


class RestoreError(Exception):
    pass


def check(path: Path) -> int:
    """The schema version of a backup file that is safe to restore; RestoreError otherwise."""
    if not path.is_file():
        raise RestoreError(f"{path}: no such file")
    try:
        conn = apsw.Connection(str(path), flags=apsw.SQLITE_OPEN_READONLY)
        conn.enable_load_extension(True)
        conn.load_extension(sqlite_vec.loadable_path())
        try:
            result = conn.execute("PRAGMA integrity_check").fetchall()[0][0]
            version = current_version(conn)
            has_agents = conn.execute(
                "SELECT 1 FROM sqlite_master WHERE name = 'agents'"
            ).fetchone()
        finally:
            conn.close()
    except apsw.Error as exc:
        raise RestoreError(f"{path}: not an xaid database ({exc})") from None
    if result != "ok":
        raise RestoreError(f"{path}: integrity check failed: {result}")
    if not has_agents:
        raise RestoreError(f"{path}: not an xaid database (no agents table)")
    if version > len(migrations()):
        raise RestoreError(f"{path}: schema version {version} is newer than this xaid knows")
    return version


def restore(source: Path, database: Path) -> int:
    """Replace ``database`` with ``source`` atomically; the daemon must not be running."""
    version = check(source)
    database.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    tmp = database.with_name(database.name + ".restore")
    with open(source, "rb") as src, open(tmp, "wb") as dst:
        while chunk := src.read(1 << 20):
            dst.write(chunk)
        dst.flush()
        os.fsync(dst.fileno())
    for suffix in ("-wal", "-shm"):
        Path(str(database) + suffix).unlink(missing_ok=True)
    os.replace(tmp, database)
    return version
