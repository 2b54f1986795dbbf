"""What meaning reads of the session's first message before the scheduler decides (issue 24 item 6).

The scheduler decides its one suggestion at a session's first user turn, before the model reads
anything, and the rules alone missed two things that message may say:

- **a loss** without a word of the rules: "she left me. six years and she just packed a bag", "我们
  分了。五年，说散就散了", "奶奶住院三天，昨天夜里还是没挺过去" read neutral, and a due "how are you
  feeling about the pitch?" went into the same prompt. The check-in reader already says whether a
  short text tells of a loss by itself (``matter.told_in_clause``: the loss prototypes and the
  reader agree); here it reads the first message, and nothing else is raised in that turn;
- **grave news** that is no loss, or not yet one ("my nan was taken to hospital, they don't know
  if she'll make it"): the loss prototypes and the open worries (``meaning.Prototypes.grave``)
  against the ordinary lines; the reply is about it, and no matter is raised in that turn;
- **how heavy it is**, weighed with the turn's own feeling (``weigh``): grave news is not told
  laughing ("my neighbour's cat keeps sleeping on my car lol" was 0.28 nearer grave news than an
  ordinary line, near "our cat ran off"); and a message the learned reader alone reads very low
  ("traffic was insane on the way back", "回来路上堵死了": it reads annoyance as it reads grief) holds
  nothing back unless the prototypes read it nearer grave news than an ordinary line too. Either
  way the day's check-in was lost to an everyday complaint (morning_dev32: after "ugh my coffee
  machine died" or "邻居家的猫天天睡我车顶上哈哈" yesterday's surgery went unasked);
- **a matter settled** in words that share none of its keywords: "they moved our slot up to last
  night, played it already! went really well" about "first gig with the band on Friday": the
  message's vector and the pending items' quoted words go to ``retire.retired`` as consolidation's
  do, so the gig is not asked about as the user tells how it went.

Only the session's first live turn is read (the only one the scheduler decides at), only under the
embedder the reader and ``retire.SAME_MATTER`` were fitted on, and only when something is pending;
the message's vector is the one retrieval asks for next (``Embeddings.embed_query`` keeps it), so
the turn embeds nothing twice, and the items' quoted words are kept the same way for the session's
consolidation (``item_vectors``). The loss prototypes are embedded once per embedder, shared with
consolidation (which runs before anything is pending, so the first turn finds them ready).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..memory.embeddings import Embeddings
from ..mood import meaning, turn_feel
from ..mood.classifier import Reading
from ..mood.tone import VERY_LOW_VALENCE
from ..scheduler import matter, retire
from ..scheduler.fire import FirstWords
from ..store import Database
from ..store import recall as recall_sql
from ..store.recall import RecallItem


def prototypes_ready(embeddings: Embeddings) -> meaning.Prototypes | None:
    """The prototypes when something embedded them already (conversation.banks at start,
    consolidation, a first turn with matters pending), else None: a reader that may go without
    them never pays for them on a turn's way to the first token."""
    return embeddings.bank_made(meaning.Prototypes.from_vectors)


async def prototypes(embeddings: Embeddings) -> meaning.Prototypes | None:
    """mood/meaning.py's prototypes under ``embeddings``, embedded once per embedder (a daemon has
    one; tests start several) and shared with consolidation; conversation.banks embeds them at
    start."""
    return await embeddings.bank(meaning.Prototypes.texts(), meaning.Prototypes.from_vectors)


async def item_vectors(
    embeddings: Embeddings, agent_id: str, items: Sequence[RecallItem]
) -> dict[int, np.ndarray]:
    """The vectors of the words the items quote (``retire.quoted``), by item id: held among the
    agent's latest query vectors (``Embeddings.embed_query``), so the first turn's reading and the
    same session's consolidation (``retire.retired``, ``retire.moved``) embed them once, and an
    erasure of the agent's memory drops them with its queries. Read only."""
    out: dict[int, np.ndarray] = {}
    for item in items:
        vector = await embeddings.embed_query(agent_id, retire.quoted(item))
        if vector is not None:
            out[item.item_id] = vector
    return out


@dataclass(frozen=True, slots=True)
class Weight:
    """How heavy a first message reads: grave news (no check-in), sombre (no turn to another
    matter after the answer), light (a very low turn reading that holds nothing back)."""

    grave: bool
    sombre: bool
    light: bool


def weigh(margin: float, heard: Reading | None) -> Weight:
    """``margin``: how much nearer grave news than an ordinary line the message reads
    (``meaning.Prototypes.grave``); ``heard``: the turn's own feeling (mood/turn_feel.py), None
    without one. Told laughing (the rules read it glad: "lol", "哈哈", "笑死") it is no grave news;
    read very low by the learned reader alone, it is light unless the margin reaches
    ``meaning.LOSS_MARGIN``. On perf/scenarios/first_messages_dev31.json (``python -m
    perf.eval.first_gate``) the ordinary first messages held back went en 6 -> 2 and zh 8 -> 3 of 20
    on its train half, en 3 -> 0 and zh 4 -> 1 on its test half; grave ones held back 7 -> 6 of 10
    each (train), en 10 -> 8, zh 8 -> 7 (test): those the prototypes miss (a break-up said plainly,
    "he left me…"; a layoff; "I don't see the point of anything anymore") now rely on the very low
    mood's own care (no daemon turn to the matter, checkin.bridge)."""
    laughing = (
        heard is not None
        and heard.confidence > 0
        and heard.valence > 0
        and not turn_feel.by_meaning(heard)
    )
    light = (
        heard is not None
        and turn_feel.by_meaning(heard)
        and heard.valence <= VERY_LOW_VALENCE
        and margin < meaning.LOSS_MARGIN
    )
    return Weight(
        margin >= meaning.GRAVE_MARGIN and not laughing,
        margin >= meaning.SOMBRE_MARGIN and not laughing,
        light,
    )


async def read(
    db: Database,
    embeddings: Embeddings,
    agent_id: str,
    text: str,
    ts_ms: int,
    heard: Reading | None = None,
) -> FirstWords:
    """The first message read by meaning; ``FirstWords()`` where it cannot be read so. ``heard``:
    the turn's own feeling, weighed with it (``weigh``)."""
    reader = matter.default()
    if reader is None or reader.embedder != embeddings.profile.name:
        return FirstWords()
    if not embeddings.readable(text):
        return FirstWords()
    pending = await db.run(recall_sql.items, agent_id)
    if not pending:
        return FirstWords()
    bank = await prototypes(embeddings)
    vector = await embeddings.embed_query(agent_id, text)
    if bank is None or vector is None:
        return FirstWords()
    items = await item_vectors(embeddings, agent_id, pending)
    lost = matter.told_in_clause(bank.loss(vector), reader.read(vector, text, ts_ms))
    weight = weigh(bank.grave(vector), heard)
    return FirstWords(lost, vector, items, weight.grave, weight.sombre, weight.light)
