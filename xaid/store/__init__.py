"""SQLite storage: the connection, the migrations, and one module of plain SQL per table group."""

from .db import Database

__all__ = ["Database"]
