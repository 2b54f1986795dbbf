"""The live turn's own feeling: the rules, and the message's meaning (mood/turn_feel.py).

The reply's tone is set from the mood right after the user's message, so what the turn reads is
what the reply sounds like. The rules alone read no feeling in "got ghosted after 3 dates" or
"车年检又没过，真的会谢", and grief in "I GOT IN 😭😭😭"; the learned reader the session's close uses
reads the message here too, on the default embedder (the one it was fitted on). Two steps, because
the second needs the mood right before the message, which only the transaction that stores it reads.
"""

from __future__ import annotations

import apsw

from ..config import MoodConfig
from ..memory.embeddings import Embeddings
from ..mood import learned, tracker, turn_feel
from ..mood.classifier import Classifier, Reading

FITTED_ON = "use"  # the embedder the learned reader was fitted on (learned.py)


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
    if bare or not cfg.turn_meaning or embeddings.profile.name != FITTED_ON:
        return turn_feel.Heard(rules)
    first, *rest = turn_feel.texts(text)
    vectors = [await embeddings.embed_query(agent_id, first)]
    vectors += [await embeddings.embed_message(t) for t in rest]
    found = [v for v in vectors if v is not None]
    if len(found) != len(vectors):
        return turn_feel.Heard(rules)
    return turn_feel.read(learned.default(), text, rules, found)


def settle(
    conn: apsw.Connection, heard: turn_feel.Heard, agent_id: str, at_ms: int, cfg: MoodConfig
) -> Reading:
    """Inside the transaction that stores the message: the reading, with tears whose words said
    nothing either way read by the mood right before (``turn_feel.settle``)."""
    if heard.joy is None:
        return heard.reading
    return turn_feel.settle(heard, tracker.current(conn, agent_id, at_ms, cfg).valence)
