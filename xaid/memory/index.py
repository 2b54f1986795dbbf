"""The search side of memory: one ``memory_items`` row per searchable memory, with an int8 vector
in a sqlite-vec table (searched through the in-memory copy of xaid.memory.vectors) and keyword
entries in FTS5 indexes (kept exact by triggers).

The vector table is created here, not in a migration: its dimension belongs to the embedding
model. The model's name is recorded in ``meta``; a different model at start-up means every stored
text is embedded again, so vectors of two models are never compared. A table of float32 vectors
from before int8 (same model) is converted in place, without embedding anything again.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import apsw
import numpy as np

from ..embed.onnx import from_blob
from ..text import cjk
from ..text.stopwords import CJK_PAIR, ENGLISH
from . import hubs, name_forms, relatives, shown, unchanged, vectors
from . import rows as search_rows

VEC_TABLE = "memory_vectors"
_FLOAT_TABLE = "memory_vec"  # float32 vectors, before int8 (schema 4 and earlier)
COMMON_DOCS = (
    1000  # a keyword in more memories than this is too common to search by (see _rankable)
)
# A query's numbers in digits with the Chinese character after them ("3月", "22号") are searched in
# the bigram index, which holds them since migration 015: "3月22号眼看就到了" had no keyword at all for
# "3月22号我弟结婚" (pairs stop at a digit; the Latin index reads "3月22号我弟结婚" as one word), where a
# plain BM25 over the turns finds it (issue 28, associative_dev13's train half in process, Chinese
# B's words 50.0 -> 68.8 %). False: as before.
NUMBERED = True
# A search (not consolidation's pairing) looks a name the query says up in its other forms too, where
# the agent's turns say them (阿珍 for 珍姐, 周哥 for 老周, Matthew for Matt: xaid.memory.name_forms).
# False: as before.
NAME_FORMS = True
# ... and a relation word in the other words of its relation, for a relation that names one person (男朋友
# for 对象, manager for boss: xaid.memory.relatives). False: as before.
RELATIVES = True
KEYWORD_SCAN = 300  # matches per keyword index that are ranked, newest first (see keyword)
VEC_CHUNK = (
    256  # vec0 allocates a partition's rows in chunks of this many; 1024 (its default) wastes space
)


@dataclass(frozen=True, slots=True)
class Item:
    item_id: int
    agent_id: str
    kind: str
    source_id: int
    text: str
    ts_ms: int


def ensure_vector_table(conn: apsw.Connection, dim: int, model: str) -> bool:
    """Create the vector table for this model; True when vectors must be (re)built."""
    row = conn.execute("SELECT value FROM meta WHERE key = 'embed_model'").fetchone()
    recorded = row[0] if row else None
    exists = conn.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (VEC_TABLE,)).fetchone()
    if exists and recorded == f"{model}:{dim}:int8":
        return False
    old_float = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE name = ?", (_FLOAT_TABLE,)
    ).fetchone()
    if exists:
        conn.execute(f"DROP TABLE {VEC_TABLE}")
    _create_vector_table(conn, dim)
    converted = False
    if old_float and recorded == f"{model}:{dim}":
        for item_id, agent_id, blob in conn.execute(
            f"SELECT item_id, agent_id, embedding FROM {_FLOAT_TABLE}"
        ):
            conn.execute(
                f"INSERT INTO {VEC_TABLE} (item_id, agent_id, embedding) VALUES (?, ?, vec_int8(?))",
                (item_id, agent_id, vectors.quantize(from_blob(blob)).tobytes()),
            )
        converted = True
    if old_float:
        conn.execute(f"DROP TABLE {_FLOAT_TABLE}")
    conn.execute("DELETE FROM vector_generations")
    vectors.forget_cache(conn)
    conn.execute(
        "INSERT INTO meta (key, value) VALUES ('embed_model', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        (f"{model}:{dim}:int8",),
    )
    return not converted and conn.execute("SELECT count(*) FROM memory_items").get > 0


def _create_vector_table(conn: apsw.Connection, dim: int) -> None:
    conn.execute(
        f"CREATE VIRTUAL TABLE {VEC_TABLE} USING vec0(item_id INTEGER PRIMARY KEY, "
        f"agent_id TEXT PARTITION KEY, embedding int8[{dim}] distance_metric=cosine, chunk_size={VEC_CHUNK})"
    )


def compact_vectors(conn: apsw.Connection) -> int:
    """Rewrite the vector table when most of its room is holes; the slots given back (0: not needed).

    sqlite-vec 0.1 frees a chunk only once every vector in it is gone, and refills holes only in an
    agent's newest chunk. Memories of one session go in together and leave at different times (a turn's
    vector after 90 days, an episode after 180, a fact never), so old chunks end up mostly empty but
    never free: measured, the vector table held 3x the vectors alive after 1,000 days of daily
    maintenance. Rewriting it packs the live ones; done only past twice the room they need."""
    if not _has_vectors(conn):
        return 0
    slots = int(conn.execute(f"SELECT coalesce(sum(size), 0) FROM {VEC_TABLE}_chunks").get)
    live = int(conn.execute(f"SELECT count(*) FROM {VEC_TABLE}_rowids").get)
    if slots <= 2 * live + 4 * VEC_CHUNK:
        return 0
    dim = int(conn.execute("SELECT value FROM meta WHERE key = 'embed_model'").get.split(":")[-2])
    conn.execute(
        f"CREATE TEMP TABLE vec_compact AS SELECT item_id, agent_id, embedding FROM {VEC_TABLE} "
        "ORDER BY agent_id, item_id"
    )
    conn.execute(f"DROP TABLE {VEC_TABLE}")
    _create_vector_table(conn, dim)
    # No ORDER BY here: a sort drops the subtype vec_int8 gives its value; the copy is in order already.
    conn.execute(
        f"INSERT INTO {VEC_TABLE} (item_id, agent_id, embedding) SELECT item_id, agent_id, "
        "vec_int8(embedding) FROM temp.vec_compact"
    )
    agents = [r[0] for r in conn.execute("SELECT DISTINCT agent_id FROM temp.vec_compact")]
    conn.execute("DROP TABLE temp.vec_compact")
    vectors.invalidate(conn, agents)
    return slots - live


def all_items(conn: apsw.Connection) -> list[Item]:
    """Every item that has (or, for a new model, needs) a vector: turns left to keywords are not among them."""
    return [
        Item(*r)
        for r in conn.execute(
            "SELECT m.item_id, m.agent_id, m.kind, m.source_id, m.text, m.ts_ms FROM memory_items m "
            "LEFT JOIN utterances u ON m.kind = 'utterance' AND u.utterance_id = m.source_id "
            "WHERE coalesce(u.embedded, 1) = 1"
        )
    ]


def add(
    conn: apsw.Connection,
    agent_id: str,
    kind: str,
    source_id: int,
    text: str,
    ts_ms: int,
    vector: np.ndarray | None,
) -> int:
    conn.execute(
        "INSERT INTO memory_items (agent_id, kind, source_id, text, ts_ms) VALUES (?, ?, ?, ?, ?)",
        (agent_id, kind, source_id, text, ts_ms),
    )
    item_id = conn.last_insert_rowid()
    if vector is not None:
        set_vector(conn, item_id, agent_id, vector)
    return item_id


def _has_vectors(conn: apsw.Connection) -> bool:
    """False when no embedding model ever loaded: memory then lives on keywords alone."""
    return (
        conn.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (VEC_TABLE,)).fetchone()
        is not None
    )


def set_vector(conn: apsw.Connection, item_id: int, agent_id: str, vector: np.ndarray) -> None:
    vectors.put(conn, VEC_TABLE, agent_id, item_id, vector)


def remove(conn: apsw.Connection, kind: str, source_ids: Sequence[int]) -> int:
    """Delete items with their vectors and keyword entries (the triggers clear FTS)."""
    removed = 0
    for source_id in source_ids:
        row = conn.execute(
            "SELECT item_id, agent_id FROM memory_items WHERE kind = ? AND source_id = ?",
            (kind, source_id),
        ).fetchone()
        if row is None:
            continue
        if _has_vectors(conn):
            vectors.remove(conn, VEC_TABLE, row[1], [row[0]])
        conn.execute("DELETE FROM memory_items WHERE item_id = ?", (row[0],))
        shown.drop_items(conn, row[1], [row[0]])
        removed += 1
    return removed


def remove_vectors(conn: apsw.Connection, agent_id: str, item_ids: Sequence[int]) -> None:
    """Drop these items' vectors and keep the items: they are found by their words from now on."""
    if _has_vectors(conn):
        vectors.remove(conn, VEC_TABLE, agent_id, item_ids)


def remove_agent(conn: apsw.Connection, agent_id: str) -> None:
    """Everything of one agent from the search side; run before the agent's rows cascade away."""
    if _has_vectors(conn):
        vectors.remove_agent(conn, VEC_TABLE, agent_id)
    conn.execute("DELETE FROM memory_items WHERE agent_id = ?", (agent_id,))
    shown.drop_agent(conn, agent_id)
    search_rows.drop_agent(conn, agent_id)


def warm(conn: apsw.Connection, agent_id: str, dim: int) -> int:
    """Load an agent's vectors into memory now rather than at its first search, and the rows its
    searches read (``warm_rows``), in one call (the daemon runs the two steps apart, see
    xaid.memory.embeddings)."""
    at: int | None = 0
    while at is not None:
        at = warm_rows(conn, agent_id, at)
    return warm_vectors(conn, agent_id, dim)


def warm_vectors(conn: apsw.Connection, agent_id: str, dim: int) -> int:
    """The agent's vectors in memory (~0.4 s at 100k memories the first time, the new ones only
    after that) and ready to rank; how many it has."""
    if not _has_vectors(conn):
        return 0
    near = vectors.load(conn, VEC_TABLE, agent_id, dim)
    near.warm()
    return len(near)


def warm_hubs(
    conn: apsw.Connection, agent_id: str, dim: int, start: int, afresh: bool = False
) -> int | None:
    """The hubness of a chunk of the agent's vectors, measured now (at start-up) rather than at
    the searches that first meet them (xaid.memory.hubs.warm); where the next chunk starts, None
    when done. ``afresh``: after a consolidation (``rewarm_hubs``)."""
    near = vectors_of(conn, agent_id, dim)
    return hubs.warm(near, start, afresh) if near is not None and len(near) else None


def rewarm_hubs(conn: apsw.Connection, agent_id: str, dim: int, start: int) -> int | None:
    """``warm_hubs`` after a consolidation: the agent's hubness measured afresh against its rows as
    the job left them (all of them up to ``hubs.AFRESH_UP_TO``, else the new ones)."""
    return warm_hubs(conn, agent_id, dim, start, afresh=True)


WARM_ROWS = 1_000  # items read per call of ``warm_rows``: ~12 ms of the database thread


def warm_rows(conn: apsw.Connection, agent_id: str, start: int = 0) -> int | None:
    """The agent's newest items with their turns' rows, remembered now (xaid.memory.rows) instead
    of a few hundred at each of the first searches: ``WARM_ROWS`` of them below item id ``start``
    (0: from the newest), newest first; the next ``start``, None when done. Half of ``MAX_ROWS``
    at most, so searches still have room. Run a chunk per database call: the whole of two years of
    daily conversation (~10k items) was one call of 90-170 ms, which a turn arriving after a
    consolidation (xaid.memory.service) waited for. The last call, which finds nothing older, makes
    the turns around each turn (~20 ms for two years) when every item of the agent is held (none
    was written between the calls)."""
    held = search_rows.of(conn, agent_id)
    wanted = min(WARM_ROWS, search_rows.MAX_ROWS // 2 - len(held.items))
    if wanted <= 0:
        return None
    read = conn.execute(
        # the chunk's ids first, from the agent's index alone: ordering its whole rows instead
        # sorted every older item of the agent at each call
        f"{_ITEM_SAID} FROM memory_items m LEFT JOIN utterances u ON m.kind = 'utterance' "
        "AND u.utterance_id = m.source_id WHERE m.item_id IN (SELECT item_id FROM memory_items "
        "WHERE agent_id = ? AND item_id < ? ORDER BY item_id DESC LIMIT ?) ORDER BY m.item_id DESC",
        (agent_id, start or _NO_ITEM, wanted),
    )
    rows = [(r[0], _item_said(r)) for r in read]
    held.items.update(rows)
    _warm_values(conn, agent_id, [item for _, (item, said) in rows if said is None])
    if rows:
        return rows[-1][0]
    count = conn.execute(
        "SELECT COUNT(*) FROM memory_items WHERE agent_id = ?", (agent_id,)
    ).fetchone()
    # every item of the agent held: the turns around any turn are among them
    if count is not None and len(held.items) == count[0]:
        _warm_turns(held, list(held.items.values()))
    return None


_NO_ITEM = 1 << 62  # above any item id: ``warm_rows`` from the newest


def _warm_turns(held: search_rows.Rows, rows: Sequence[tuple[Item, Said | None]]) -> None:
    """``turns_around``'s two halves for every turn of the agent, made from its items and turns
    read whole (``rows``) instead of read by SQL at the first searches that link a hit to its
    neighbours (perf/RESULTS.md, search_stages: up to ~0.3 ms of each of the first ~30 searches).
    The same rows that query gives: a turn by its own id, and the turns that follow each turn in
    id order (the order of ``utterances_by_prev``)."""
    turns = [(item, said) for item, said in rows if said is not None]
    if len(held.turns) + 2 * len(turns) > search_rows.MAX_ROWS:
        return
    nexts: dict[int, list[tuple[Item, Said]]] = {said.utterance_id: [] for _, said in turns}
    for item, said in sorted(turns, key=lambda t: t[1].utterance_id):
        held.turns[said.utterance_id] = (item, said)
        if said.prev_id is not None:
            nexts.setdefault(said.prev_id, []).append((item, said))
    held.nexts.update((u, tuple(following)) for u, following in nexts.items())


WARM_KEYS = 400  # memories per read of their values and sources at start-up (bound parameters)


def _warm_values(conn: apsw.Connection, agent_id: str, items: Sequence[Item]) -> None:
    """The values and sources of the agent's facts, episodes and highlights among ``items``, read
    now (``rows.values``, ``rows.refs``) rather than a few at each of the first searches."""
    for start in range(0, len(items), WARM_KEYS):
        chunk = items[start : start + WARM_KEYS]
        by_kind: dict[str, list[int]] = {}
        for item in chunk:
            by_kind.setdefault(item.kind, []).append(item.source_id)
        for kind, source_ids in by_kind.items():
            if kind in search_rows.VALUE_KINDS:
                search_rows.values(conn, agent_id, kind, source_ids)
        search_rows.refs(conn, agent_id, [(item.kind, item.source_id) for item in chunk])


def vectors_of(conn: apsw.Connection, agent_id: str, dim: int) -> vectors.AgentVectors | None:
    """The agent's in-memory vectors, current with the database; search them off this thread."""
    return vectors.load(conn, VEC_TABLE, agent_id, dim) if _has_vectors(conn) else None


def knn(
    conn: apsw.Connection, agent_id: str, vector: np.ndarray, k: int
) -> list[tuple[int, float]]:
    """(item_id, cosine similarity) of the ``k`` nearest items of this agent only."""
    return vectors.nearest(conn, VEC_TABLE, agent_id, len(vector), vector, k)


GREETINGS = tuple(
    sorted(
        (
            "good morning",
            "good evening",
            "good afternoon",
            "good night",
            "morning",
            "evening",
            "hello",
            "hiya",
            "hi",
            "hey",
            "yo",
            "sup",
            "what's up",
            "whats up",
            "how are you",
            "how's it going",
            "how are things",
            "i'm back",
            "back again",
            "back home now",
            "again",
            "there",
            "早上好",
            "早安",
            "早",
            "你好",
            "您好",
            "在吗",
            "在不在",
            "嗨",
            "哈喽",
            "晚上好",
            "下午好",
            "中午好",
            "晚安",
            "我回来了",
            "回来了",
            "又来了",
            "呀",
            "啊",
            "呢",
            "哦",
        ),
        key=len,
        reverse=True,
    )
)


# Each English greeting as a word of its own (not inside "this" or "they're"); None: a Chinese one,
# replaced wherever it stands.
_GREETING_WORDS = tuple(
    (g, re.compile(rf"(?<![a-z']){re.escape(g)}(?![a-z'])") if g.isascii() else None)
    for g in GREETINGS
)


def is_opener(text: str) -> bool:
    """A greeting or nothing at all: a turn with nothing in it to match memories on. The greetings
    are taken out longest first; one the text does not hold is passed over before its pattern runs
    (every search asks this of its query: the 28 patterns were ~70 µs of it on a loaded machine)."""
    rest = text.lower()
    for greeting, word in _GREETING_WORDS:
        if greeting not in rest:
            continue
        rest = word.sub(" ", rest) if word is not None else rest.replace(greeting, " ")
    return content_words(rest) == 0 and not cjk.has(rest)


def mostly_cjk(text: str) -> bool:
    """More than a third Chinese characters: what an English-only embedder cannot read."""
    return cjk.count(text) > len(text) / 3


def content_words(text: str) -> int:
    """Roughly how much a text says: its non-stopword Latin words plus its Chinese characters / 2."""
    latin = [w for w in cjk.NON_CJK_WORD.findall(text.lower()) if len(w) > 1 and w not in ENGLISH]
    return len(latin) + cjk.count(text) // 2


def cjk_pairs(text: str) -> list[str]:
    """The query's Chinese character pairs worth matching: most Chinese words are two characters."""
    return cjk.pairs(text, CJK_PAIR)


def latin_words(text: str) -> list[str]:
    return list(
        dict.fromkeys(
            w for w in cjk.NON_CJK_WORD.findall(text.lower()) if len(w) > 1 and w not in ENGLISH
        )
    )


def _cjk_trigrams(text: str) -> list[str]:
    return list(
        dict.fromkeys(run[i : i + 3] for run in cjk.runs(text) for i in range(len(run) - 2))
    )


def _rankable(conn: apsw.Connection, terms_table: str, terms: list[str]) -> list[str]:
    """The terms worth matching: a term held by more than COMMON_DOCS memories is left out unless
    nothing rarer is asked for. It could not rank them anyway (BM25 gives it almost no weight),
    and every memory it matches would be scored: at 100k memories "lives" alone matched 10k and
    made a search take 10-15 ms. A term missing from the table is kept (its tokenizer may spell
    it differently, e.g. without accents)."""
    if len(terms) < 2:
        return terms
    # The Latin index holds stems ("lives" is there as "live"): look a word up by its stem.
    spelled = _stems(conn, terms) if terms_table == "memory_fts_terms" else {t: t for t in terms}
    counts = _doc_counts(conn, terms_table, list(dict.fromkeys(spelled.values())))
    docs = {t: counts[spelled[t]] for t in terms}
    kept = [t for t in terms if docs[t] <= COMMON_DOCS]
    return kept or [min(terms, key=lambda t: docs[t])]


def _doc_counts(conn: apsw.Connection, terms_table: str, keys: list[str]) -> dict[str, int]:
    """How many memories hold each of ``keys`` (0: none), remembered while the database is
    unchanged (xaid.memory.unchanged.shared): the vocabulary table counts a term's documents by
    reading its whole list, ~0.4 ms of each new query's keyword search on two years of
    conversation (perf/RESULTS.md, search_stages), and about half of a new query's words were an
    earlier query's ("最近", "推荐", "tonight"). Only the terms not remembered are read, in one query."""
    counts: dict[str, int] = unchanged.shared(conn, terms_table)
    missing = [k for k in keys if k not in counts]
    if missing:
        marks = ",".join("?" * len(missing))
        found = dict(
            conn.execute(f"SELECT term, doc FROM {terms_table} WHERE term IN ({marks})", missing)
        )
        counts.update((k, int(found.get(k, 0))) for k in missing)
    return {k: counts[k] for k in keys}


_TOKENIZERS: weakref.WeakKeyDictionary[apsw.Connection, Any] = weakref.WeakKeyDictionary()


def _stems(conn: apsw.Connection, words: list[str]) -> dict[str, str]:
    """Each word as the Latin index's tokenizer (Porter over unicode61) stores it."""
    tokenize: Any = _TOKENIZERS.get(
        conn
    )  # apsw's FTS5Tokenizer; with offsets each token is (start, end, text)
    if tokenize is None:
        tokenize = _TOKENIZERS[conn] = conn.fts5_tokenizer(
            "porter", ["unicode61", "remove_diacritics", "2"]
        )
    out = {}
    for w in words:
        tokens = tokenize(w.encode(), apsw.FTS5_TOKENIZE_QUERY, None)
        out[w] = tokens[0][2] if tokens else w
    return out


def _or(terms: list[str]) -> str | None:
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in terms) or None


def keyword(
    conn: apsw.Connection, agent_id: str, text: str, k: int, forms: bool = False
) -> list[tuple[int, float]]:
    """(item_id, bm25 relevance ≥ 0) from the keyword indexes, best first; remembered while the
    database is unchanged (xaid.memory.unchanged: a repeated query reads no index again). ``forms``:
    a name is searched in its other forms too (``NAME_FORMS``; a search's, not consolidation's)."""
    return list(
        unchanged.read(
            conn,
            agent_id,
            ("keyword", text, k, forms and NAME_FORMS, forms and RELATIVES),
            lambda: tuple(_keyword(conn, agent_id, text, k, forms)),
        )
    )


def _keyword(
    conn: apsw.Connection, agent_id: str, text: str, k: int, forms: bool
) -> list[tuple[int, float]]:
    """``keyword`` read from the indexes.

    Each index is read newest first and stops after KEYWORD_SCAN of the agent's matches, which are
    then ranked by bm25: ranking every match costs ~8 µs each, and at 100k memories a name can
    be in a thousand of them. Older matches are still reached through their vectors.
    """
    scores: dict[int, float] = {}
    latin, pairs, trigrams = latin_words(text), cjk_pairs(text), _cjk_trigrams(text)
    if forms and NAME_FORMS:
        names = name_forms.capitalised_names(text)
        if names:
            stems = _stems(conn, [n.lower() for n in names])
            latin += name_forms.english(conn, agent_id, names, stems)
        pairs += name_forms.chinese(conn, pairs)
    if forms and RELATIVES:
        latin += relatives.english(conn, latin, lambda words: _stems(conn, words))
        other_pairs, other_trigrams = relatives.chinese(conn, text)
        pairs += other_pairs
        trigrams += other_trigrams
    for table, terms in (
        ("memory_fts", latin),
        ("memory_fts_cjk", trigrams),
        ("memory_fts_bigram", pairs + (cjk.numbered(text) if NUMBERED else [])),
    ):
        query = _or(_rankable(conn, f"{table}_terms", terms))
        if not query:
            continue
        rows = conn.execute(
            f"SELECT item_id, score FROM (SELECT f.rowid AS item_id, -bm25({table}) AS score FROM {table} f "
            f"JOIN memory_items m ON m.item_id = f.rowid WHERE {table} MATCH ? AND m.agent_id = ? "
            f"ORDER BY f.rowid DESC LIMIT ?) ORDER BY score DESC LIMIT ?",
            (query, agent_id, KEYWORD_SCAN, k),
        )
        for item_id, score in rows:
            scores[item_id] = max(scores.get(item_id, 0.0), float(score))
    return sorted(scores.items(), key=lambda kv: -kv[1])[:k]


def items(conn: apsw.Connection, item_ids: Sequence[int]) -> dict[int, Item]:
    if not item_ids:
        return {}
    marks = ",".join("?" * len(item_ids))
    rows = conn.execute(
        f"SELECT item_id, agent_id, kind, source_id, text, ts_ms FROM memory_items WHERE item_id IN ({marks})",
        tuple(item_ids),
    )
    return {r[0]: Item(*r) for r in rows}


def items_of(conn: apsw.Connection, kind: str, source_ids: Sequence[int]) -> dict[int, Item]:
    """The items of one kind for these memories, by item id."""
    if not source_ids:
        return {}
    marks = ",".join("?" * len(source_ids))
    rows = conn.execute(
        f"SELECT item_id, agent_id, kind, source_id, text, ts_ms FROM memory_items WHERE kind = ? "
        f"AND source_id IN ({marks})",
        (kind, *source_ids),
    )
    return {r[0]: Item(*r) for r in rows}


def recent_episodes(conn: apsw.Connection, agent_id: str, since_ms: int, until_ms: int) -> set[int]:
    """The items of the agent's episodes that ended between ``since_ms`` and ``until_ms``.

    The episodes are the outer loop (``episodes_by_agent`` reads just the days asked for, then each
    one's item by ``(kind, source_id)``): left to itself the planner walked every episode item of
    the agent and looked its episode up, 730 lookups at two years of daily sessions."""
    return {
        r[0]
        for r in conn.execute(
            "SELECT m.item_id FROM episodes e CROSS JOIN memory_items m ON m.kind = 'episode' "
            "AND m.source_id = e.episode_id WHERE e.agent_id = ? AND e.ended_ms <= ? "
            "AND e.ended_ms >= ? AND m.agent_id = ?",
            (agent_id, until_ms, since_ms, agent_id),
        )
    }


@dataclass(frozen=True, slots=True)
class Said:
    """What ranking reads of a turn beside its item (the utterance's row), read with it."""

    utterance_id: int
    prev_id: int | None
    value: float
    status: str
    role: str
    speaker: str | None
    ref: str


_ITEM_SAID = (
    "SELECT m.item_id, m.agent_id, m.kind, m.source_id, m.text, m.ts_ms, "
    "u.utterance_id, u.prev_id, u.value, u.status, u.role, u.speaker, u.ref"
)


def _item_said(row: tuple[Any, ...]) -> tuple[Item, Said | None]:
    return Item(*row[:6]), Said(*row[6:]) if row[6] is not None else None


def items_said(
    conn: apsw.Connection, agent_id: str, item_ids: Sequence[int], until_ms: int
) -> dict[int, tuple[Item, Said | None]]:
    """The agent's items among ``item_ids`` said by ``until_ms``, each with its turn's row when it
    is one: what ``items`` and the turns' own table gave in two queries, in one (search reads a few
    hundred candidates per query), and only for the ones not remembered (xaid.memory.rows)."""
    if not item_ids:
        return {}
    held = search_rows.of(conn, agent_id)
    missing = held.missing_items(item_ids)
    if missing:
        marks = ",".join("?" * len(missing))
        read = conn.execute(
            f"{_ITEM_SAID} FROM memory_items m LEFT JOIN utterances u ON m.kind = 'utterance' "
            f"AND u.utterance_id = m.source_id WHERE m.item_id IN ({marks}) AND +m.agent_id = ?",
            (*missing, agent_id),
        )
        held.items.update((r[0], _item_said(r)) for r in read)
    # In id order, as the query over all of them gave them: ranking breaks ties in this order.
    found: dict[int, tuple[Item, Said | None]] = {}
    for item_id in sorted(set(item_ids)):
        row = held.items.get(item_id)
        if row is not None and row[0].ts_ms <= until_ms:
            found[item_id] = row
    return found


def turns_around(
    conn: apsw.Connection, agent_id: str, before: Sequence[int], after: Sequence[int], until_ms: int
) -> list[tuple[Item, Said]]:
    """The agent's turns said by ``until_ms`` that are among ``before`` (utterance ids: the turns
    some hits follow) or follow one of ``after`` (utterance ids), with their items, in one query."""
    if not before and not after:
        return []
    held = search_rows.of(conn, agent_id)
    own = search_rows.room(held.turns, list(dict.fromkeys(before)))
    following = search_rows.room(held.nexts, list(dict.fromkeys(after)))
    if own or following:
        # CROSS JOIN keeps the turns as the outer loop, so each half reads its index (the turn's own
        # id, utterances_by_prev); left to itself the planner scanned all of the agent's items.
        part = (
            "SELECT {}, " + _ITEM_SAID.removeprefix("SELECT ") + " FROM utterances u CROSS JOIN "
            "memory_items m ON m.kind = 'utterance' AND m.source_id = u.utterance_id "
            "WHERE u.{} IN ({}) AND m.agent_id = ?"
        )
        read = conn.execute(
            part.format(0, "utterance_id", ",".join("?" * len(own)))
            + " UNION ALL "
            + part.format(1, "prev_id", ",".join("?" * len(following))),
            (*own, agent_id, *following, agent_id),
        )
        nexts: dict[int, list[tuple[Item, Said]]] = {u: [] for u in following}
        held.turns.update(dict.fromkeys(own))
        for r in read:
            item, said = _item_said(r[1:])
            assert said is not None
            if r[0] == 0:
                held.turns[said.utterance_id] = (item, said)
            else:
                nexts[said.prev_id].append((item, said))  # type: ignore[index]
        held.nexts.update((u, tuple(turns)) for u, turns in nexts.items())
    # One row per turn, as the UNION of the two halves gave them (a turn may be in both).
    out: dict[int, tuple[Item, Said]] = {}
    for u in before:
        if (turn := held.turns.get(u)) is not None and turn[0].ts_ms <= until_ms:
            out[turn[0].item_id] = turn
    for u in after:
        for turn in held.nexts.get(u, ()):
            if turn[0].ts_ms <= until_ms:
                out[turn[0].item_id] = turn
    return list(out.values())
