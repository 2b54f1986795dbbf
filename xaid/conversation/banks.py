"""The meaning banks a live turn reads, embedded once when the daemon starts.

A turn reads some things by meaning only when their bank is embedded already, so that no turn
pays for a whole bank on its way to the first token: the feeling and loss prototypes
(``first_words.prototypes``, which cheer.py's hardship reading needs) and the opener bank
(``opener.bank``). Before this module they were embedded by the first consolidation or the first
session's opener, so a fresh daemon read its first evening by the rules alone: in ``make demo``
the English "…I just want to sleep" went unread as a hardship and "That's great!" passed. Warming
them right after the embedder starts (xaid.app, with the model's own loading under way) leaves no
such window but the few seconds of start-up.
"""

from __future__ import annotations

import weakref

from ..memory.embeddings import Embeddings
from . import first_words, opener

_WARMED: weakref.WeakSet[Embeddings] = weakref.WeakSet()


async def warm(embeddings: Embeddings) -> None:
    """Embed the banks (each once per embedder; a second call costs nothing). A bank the embedder
    cannot make (not the one it was fitted on, or no embedder) is left out, as a turn would."""
    await first_words.prototypes(embeddings)
    await opener.bank(embeddings)
    _WARMED.add(embeddings)


def ready(embeddings: Embeddings) -> bool:
    """Whether the start-up warm-up is done (``stats``: memory.meaning), so that what a test counts
    from then on is the turns' own embedding."""
    return embeddings in _WARMED
