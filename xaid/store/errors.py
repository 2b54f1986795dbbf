"""What can go wrong in the store, said in the store's own words.

The store knows rows and transactions, not the protocol: these classes name what failed, and the
one place that speaks the wire (``dispatch.store_error``) gives each its error code. Whatever the
class, the transaction that raised it wrote nothing.
"""

from __future__ import annotations


class StoreError(Exception):
    """Base of the store's errors; ``message`` is a sentence a user can act on."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class StorageFailed(StoreError):
    """SQLite could not finish the transaction: a read-only file, an I/O error, a broken constraint."""


class StorageFull(StorageFailed):
    """No room to write: the disk is full, or the database reached ``storage.max_db_mb``."""


class NotFound(StoreError):
    """The row a write needs is gone (deleted since the request looked it up)."""

    def __init__(self, what: str, key: str):
        super().__init__(f"no {what} {key!r}")
        self.what = what
        self.key = key


class Conflict(StoreError):
    """The row is there but its state refuses the write (a session closed meanwhile)."""


class SchemaError(StoreError):
    """The database cannot be brought to this xaid's schema; raised while opening it."""


class SchemaTooNew(SchemaError):
    """The file was written by a newer xaid: opening it here could lose what that version stores."""
