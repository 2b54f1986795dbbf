"""Lines put straight into an agent's keyword index, and what ``index.keyword`` finds of them: the
tests of the index, name forms and relatives read the index without a daemon in between."""

from __future__ import annotations

import itertools

from xaid.memory import index
from xaid.store.db import Database

SOURCE = itertools.count(1)  # a source id of its own for every line, as rows of a real table have


def add(db: Database, agent_id: str, texts: list[str], kind: str = "utterance") -> list[int]:
    return db.call(
        lambda c: [index.add(c, agent_id, kind, next(SOURCE), t, 0, None) for t in texts]
    )


def found(db: Database, query: str, forms: bool, agent_id: str = "a") -> list[int]:
    return [i for i, _ in db.call(index.keyword, agent_id, query, 20, forms)]
