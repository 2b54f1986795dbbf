"""The SQLite connection: opened through apsw, WAL mode, one worker thread at a time.

apsw rather than the stdlib module because it carries its own SQLite with extension loading
(sqlite-vec), FTS5 and the trigram tokenizer. All statements run through ``Database.run`` in a
worker thread behind a limiter of one, so the event loop never blocks on disk and writes are
serialised without SQLITE_BUSY dances.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import anyio
import apsw
import sqlite_vec

from ..text import cjk
from .errors import StorageFailed, StorageFull
from .migrate import migrate

T = TypeVar("T")
log = logging.getLogger(__name__)


def storage_error(exc: apsw.Error) -> StorageFailed:
    """Turn SQLite's failure into something a user can act on; the stored data is untouched."""
    if isinstance(exc, apsw.FullError):
        return StorageFull("the disk is full: nothing was written; free space and retry")
    if isinstance(exc, apsw.ReadOnlyError):
        return StorageFailed("the database is read-only: nothing was written")
    if isinstance(exc, apsw.IOError):
        return StorageFailed(f"disk I/O error: nothing was written ({exc})")
    return StorageFailed(f"storage error: {exc}")


def cjk_bigrams(text: str | None) -> str:
    """The CJK character pairs of a text as space-separated words, for the bigram keyword index,
    and its numbers in digits with the character after them ("3月", "22号": ``cjk.numbered``),
    which no pair holds (migration 015 indexed the rows stored before)."""
    if not text:
        return ""
    pairs = [run[i : i + 2] for run in cjk.runs(text) for i in range(max(1, len(run) - 1))]
    return " ".join(pairs + cjk.numbered(text))


def cjk_runs(text: str | None) -> str:
    """The Chinese runs of a text, one per line, for the trigram keyword index."""
    return "\n".join(cjk.runs(text)) if text else ""


def casefold(text: str | None) -> str | None:
    """Unicode case folding for SQL (``lower()`` folds ASCII only): forgetting "münchen" must find
    "MÜNCHEN", and "zoë" must find "ZOË"."""
    return text.casefold() if isinstance(text, str) else text


def _root(exc: apsw.Error) -> apsw.Error:
    """The first SQLite error in the chain: after SQLITE_FULL, SQLite has already rolled back and
    the context manager's own rollback fails with a message that would hide the real cause."""
    cause: BaseException | None = exc
    while cause is not None:
        if isinstance(cause, apsw.FullError | apsw.IOError | apsw.ReadOnlyError):
            return cause
        # sqlite-vec reports a full database from inside its virtual table in its own words
        if isinstance(cause, apsw.Error) and any(
            s in str(cause) for s in ("disk is full", "new vector chunk")
        ):
            return apsw.FullError(str(cause))
        cause = cause.__context__
    return exc


def connect(
    path: Path, synchronous: str = "NORMAL", max_db_mb: int | None = None
) -> apsw.Connection:
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    conn = apsw.Connection(str(path))
    conn.setbusytimeout(5000)
    conn.enable_load_extension(True)
    conn.load_extension(sqlite_vec.loadable_path())  # vec0 tables for memory vectors
    conn.enable_load_extension(False)
    conn.create_scalar_function("cjk_bigrams", cjk_bigrams, 1, deterministic=True)  # type: ignore[arg-type]
    conn.create_scalar_function("cjk_runs", cjk_runs, 1, deterministic=True)  # type: ignore[arg-type]
    conn.create_scalar_function("casefold", casefold, 1, deterministic=True)  # type: ignore[arg-type]
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute(f"PRAGMA synchronous = {synchronous}")
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute(
        "PRAGMA secure_delete = ON"
    )  # forgotten text is overwritten, not left in free pages
    migrate(conn)
    if max_db_mb is not None:
        page = conn.execute("PRAGMA page_size").get
        conn.execute(f"PRAGMA max_page_count = {max(1, max_db_mb * 1024 * 1024 // page)}")
    return conn


class Database:
    def __init__(self, path: Path, synchronous: str = "NORMAL", max_db_mb: int | None = None):
        self.path = path
        self.conn = connect(path, synchronous, max_db_mb)
        self._limiter = anyio.CapacityLimiter(1)

    def call(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(conn, *args)`` in one transaction, on the calling thread."""
        try:
            with self.conn:
                result = fn(self.conn, *args)
            return result
        except apsw.Error as exc:
            cause = _root(exc)
            if isinstance(cause, apsw.FullError) and self._at_size_limit():
                raise StorageFull(
                    "the database reached its size limit (storage.max_db_mb): "
                    "nothing was written; forget old memories or raise the limit"
                ) from exc
            raise storage_error(cause) from exc

    def _at_size_limit(self) -> bool:
        """SQLITE_FULL means either the disk or max_page_count; a disk with room left means the limit."""
        try:
            st = os.statvfs(self.path.parent)
        except OSError:
            return False
        return st.f_bavail * st.f_frsize > 16 * 1024 * 1024

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        return await anyio.to_thread.run_sync(self.call, fn, *args, limiter=self._limiter)

    async def run_outside_transaction(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(conn, *args)`` with no transaction open: what SQLite refuses inside one (a WAL checkpoint)."""

        def bare() -> T:
            try:
                return fn(self.conn, *args)
            except apsw.Error as exc:
                raise storage_error(_root(exc)) from exc

        return await anyio.to_thread.run_sync(bare, limiter=self._limiter)

    def integrity_ok(self) -> bool:
        return self.conn.execute("PRAGMA integrity_check").fetchall()[0][0] == "ok"

    def close(self) -> None:
        try:
            self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except apsw.Error as exc:
            log.warning("checkpoint at close failed: %s", exc)
        self.conn.close()
