"""The live turn's own feeling: the rules, and the message's meaning (mood/turn_feel.py).

The reply's tone is set from the mood right after the user's message, so what the turn reads is
what the reply sounds like. The rules alone read no feeling in "got ghosted after 3 dates" or
"车年检又没过，真的会谢", and grief in "I GOT IN 😭😭😭"; the learned reader the session's close uses
reads the message here too, on the default embedder (the one it was fitted on). Two steps, because
the second needs the mood right before the message, which only the transaction that stores it reads.

Imported history (``session.ingest``) is read the same way (``hear_all``): the mood it moves is the
mood it would have moved lived, and the next morning reads it. Its messages are embedded in one
batch, so an import of 1,000 messages costs batched embeddings, not 1,000 single ones.
"""

from __future__ import annotations

from collections.abc import Sequence

import apsw

from ..config import MoodConfig
from ..embed import EmbedError
from ..memory.embeddings import Embeddings
from ..mood import learned, tracker, turn_feel
from ..mood.classifier import Classifier, Reading
from . import opener

FITTED_ON = "use"  # the embedder the learned reader was fitted on (learned.py)


def by_meaning(cfg: MoodConfig, embeddings: Embeddings) -> bool:
    """Whether a user message is read by meaning too: ``mood.turn_meaning``, and the embedder the
    learned reader was fitted on."""
    return cfg.turn_meaning and embeddings.profile.name == FITTED_ON


async def hear(
    classifier: Classifier,
    embeddings: Embeddings,
    cfg: MoodConfig,
    agent_id: str,
    text: str,
    bare: bool = False,
) -> turn_feel.Heard:
    """The message read by ``classifier`` and, with ``mood.turn_meaning`` and the default embedder,
    by meaning, unless it is an opener (``bare``, conversation/opener.py: it says nothing of its
    own, and "有人没", "anyone there?", is 人没了, "gone", to the embedder). The message's vector is
    asked for as a query's (recall may ask for the same text); the words beside its tears, where it
    cries, as a message's."""
    rules = classifier.classify(text)
    if bare or not by_meaning(cfg, embeddings):
        return turn_feel.Heard(rules)
    first, *rest = turn_feel.texts(text)
    vectors = [await embeddings.embed_query(agent_id, first)]
    vectors += [await embeddings.embed_message(t) for t in rest]
    found = [v for v in vectors if v is not None]
    if len(found) != len(vectors):
        return turn_feel.Heard(rules)
    return turn_feel.read(learned.default(), text, rules, found)


async def hear_all(
    classifier: Classifier,
    embeddings: Embeddings,
    cfg: MoodConfig,
    texts: Sequence[str],
    opening: bool = False,
) -> list[turn_feel.Heard]:
    """Imported user messages read as ``hear`` reads a live one, their vectors made in one batch.
    ``opening``: the first of them is the session's first user message, so an opener ("有人没",
    "morning! slept well?") is left to the rules there, as at a live session's first turn. Without
    the default embedder, or where the embedder fails, the rules alone: an import never fails over
    a feeling."""
    rules = [classifier.classify(t) for t in texts]
    if not texts or not by_meaning(cfg, embeddings):
        return [turn_feel.Heard(r) for r in rules]
    wanted = [turn_feel.texts(t) for t in texts]
    try:
        flat = await embeddings.embed_readable([w for ws in wanted for w in ws])
    except EmbedError:
        return [turn_feel.Heard(r) for r in rules]
    bank = await opener.bank(embeddings) if opening else None
    model, at = learned.default(), 0
    out: list[turn_feel.Heard] = []
    for n, (text, reading, ws) in enumerate(zip(texts, rules, wanted, strict=True)):
        vectors, at = flat[at : at + len(ws)], at + len(ws)
        found = [v for v in vectors if v is not None]
        if len(found) != len(vectors) or (n == 0 and opening and opener.bare(text, found[0], bank)):
            out.append(turn_feel.Heard(reading))
        else:
            out.append(turn_feel.read(model, text, reading, found))
    return out


def settle(
    conn: apsw.Connection, heard: turn_feel.Heard, agent_id: str, at_ms: int, cfg: MoodConfig
) -> Reading:
    """Inside the transaction that stores the message: the reading, with tears whose words said
    nothing either way read by the mood right before (``turn_feel.settle``)."""
    if heard.joy is None:
        return heard.reading
    return turn_feel.settle(heard, tracker.current(conn, agent_id, at_ms, cfg).valence)
