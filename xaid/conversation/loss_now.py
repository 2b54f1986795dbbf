"""Whether the user's first message of a session tells of a loss, read by meaning (issue 24 item 6).

The scheduler decides its one suggestion at a session's first user turn, before the model reads
anything. When that very message says "she left me. six years and she just packed a bag", "我们分
了。五年，说散就散了" or "奶奶住院三天，昨天夜里还是没挺过去", the rules of mood.loss read nothing (no
word of a death), the message's valence reads neutral, and a due "how are you feeling about the
pitch?" went into the same prompt. The check-in reader already says whether a short text tells of a
loss by itself (``matter.told_in_clause``: the loss prototypes and the reader agree); here it reads
the first message, so that nothing else is raised in the turn that answers a loss.

Only the session's first live turn is read (the only one the scheduler decides at), and only under
the embedder the reader was fitted on; the message's vector is the one retrieval asks for next
(``Embeddings.embed_query`` keeps it), so the turn embeds nothing twice. The prototypes are
embedded once per embedder.
"""

from __future__ import annotations

import weakref

from ..memory.embeddings import Embeddings
from ..mood import meaning
from ..scheduler import matter

_BANKS: weakref.WeakKeyDictionary[Embeddings, meaning.Prototypes] = weakref.WeakKeyDictionary()


async def _bank(embeddings: Embeddings) -> meaning.Prototypes | None:
    bank = _BANKS.get(embeddings)
    if bank is None:
        vectors = await embeddings.embed_readable(meaning.Prototypes.texts())
        if any(v is None for v in vectors):
            return None
        bank = _BANKS[embeddings] = meaning.Prototypes.from_vectors(
            [v for v in vectors if v is not None]
        )
    return bank


async def told(embeddings: Embeddings, agent_id: str, text: str, ts_ms: int) -> bool:
    """The message tells of a loss by meaning (False where it cannot be read so)."""
    reader = matter.default()
    if reader is None or reader.embedder != embeddings.profile.name:
        return False
    if not embeddings.readable(text):
        return False
    bank = await _bank(embeddings)
    vector = await embeddings.embed_query(agent_id, text)
    if bank is None or vector is None:
        return False
    return matter.told_in_clause(bank.loss(vector), reader.read(vector, text, ts_ms))
