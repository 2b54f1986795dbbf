"""A later turn's first words when the message calls up an older memory: the daemon begins the reply
("Wait, didn't you say", "你之前不是说"), the model names the memory and goes on.

At a session's second turn whose message calls up something the user said days before ("Thinking
of ordering takeout tonight" a week after "I went vegetarian"), the memory stands right before the
message, or in the head's standing block, or where an earlier turn of the session showed it, and
Qwen2.5-Coder-1.5B picked it up in 2 of 10 scenes per language (later_turns_dev14, session 14):
"That's great! I'll be here if you need anything." A friend would ask "Wait, didn't you go
vegetarian?". The check-in's lead (checkin.py) showed the way on a session's first turn: begun for
it, the model names what it was given. Here the daemon writes only the question's start; what was
said is the model's to say, from what it reads (the memory is in its prompt, one way or another).

A lead is composed only when
- the turn is a later one of the session, with no suggestion and no forget to confirm (a session's
  first turn has the check-in's lead and bridge), and the mood is not very low (a loss is kept
  company, not questioned: checkin.GENTLE_BELOW);
- the recalled memory nearest the message by meaning, the user's own words (a turn or a fact) from
  before this session, has a cosine with the message of at least ``memory.later_lead_share`` of the
  embedder's own cut for a real vector match (``near_enough``): its judgement of "calls it up", not
  a list of phrases, so a message that calls nothing up ("found a twenty in my old jeans") gets no
  lead;
- the session has not spoken of it yet: none of its words (``arm.keywords``) in what was said in
  the session so far (a memory already on the table is not brought up again);
- the scheduler would not hold it back: the agent's check-ins are on and not quiet, the user did
  not ask not to have it brought up (``fire.avoided``'s rule on its words) and no loss is fresh
  (``fire.held_back``'s window). A forgotten memory is no hit at all (recall never returns it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import apsw
import numpy as np

from ..embed.profiles import EmbedProfile
from ..memory import hide, index
from ..memory.pack import Hit
from ..scheduler import arm, fire
from ..store import recall as recall_sql
from ..store.mood import MoodState
from ..text.lang import Lang
from .candidates import names_matter
from .checkin import GENTLE_BELOW

LEADS: dict[Lang, str] = {"en": "Wait, didn't you say the other day", "zh": "你前几天不是说"}
_OWN_KINDS = frozenset({"utterance", "fact"})  # what the user said, not an episode's summary


@dataclass(frozen=True, slots=True)
class Recollection:
    """The recalled memory nearest the message, and how near: what a later turn's lead is about."""

    hit: Hit
    cosine: float
    words: tuple[str, ...]  # arm.keywords of its words: what naming it means (candidates.py)


def nearest(
    conn: apsw.Connection,
    agent_id: str,
    vector: np.ndarray | None,
    hits: Sequence[Hit],
    before_ms: int,
) -> Recollection | None:
    """Of ``hits``, the user's own words said before ``before_ms`` (the session's start), the one
    whose stored vector is nearest ``vector`` (the message's), with its cosine; None without a
    vector or such a hit. Runs on the database thread, inside the turn's recall read."""
    if vector is None or not hits:
        return None
    vectors = index.vectors_of(conn, agent_id, len(vector))
    if vectors is None:
        return None
    norm = float(np.linalg.norm(vector))
    hidden = hide.items(conn, agent_id)
    best: Recollection | None = None
    for hit in hits:
        if hit.kind not in _OWN_KINDS or hit.role != "user" or hit.ts_ms >= before_ms:
            continue
        for item_id in _item_ids(conn, agent_id, hit.kind, hit.ids or (hit.id,)):
            stored = vectors.vector(item_id)
            if item_id in hidden or stored is None or not norm:
                continue
            cos = float(stored @ vector) / (float(np.linalg.norm(stored)) * norm)
            if best is None or cos > best.cosine:
                best = Recollection(hit, cos, arm.keywords(hit.content or hit.text))
    return best


def _item_ids(
    conn: apsw.Connection, agent_id: str, kind: str, source_ids: Sequence[int]
) -> list[int]:
    marks = ",".join("?" * len(source_ids))
    return [
        int(row[0])
        for row in conn.execute(
            f"SELECT item_id FROM memory_items WHERE agent_id = ? AND kind = ? "
            f"AND source_id IN ({marks})",
            (agent_id, kind, *source_ids),
        )
    ]


def held(
    conn: apsw.Connection, agent_id: str, rec: Recollection, carried: float | None, now_ms: int
) -> bool:
    """Whether the scheduler would hold this memory back: check-ins off or quiet for the agent, a
    topic the user asked not to have brought up among its words (``fire.avoided``'s rule), or said
    before a loss that is still fresh (``fire.held_back``'s window; ``carried``: the mood's valence
    before this message, None: the days alone count). Runs on the database thread."""
    s = recall_sql.settings(conn, agent_id, 0)
    if not s.enabled or s.quiet:
        return True
    words = set(rec.words)
    text = (rec.hit.content or rec.hit.text).casefold()
    for entry in s.avoid:
        said = set(arm.keywords(entry))
        if entry.casefold().strip() in text or (said and said <= words):
            return True
    sore = fire.sore_until_recovered(conn, agent_id, carried, now_ms)
    return sore is not None and rec.hit.ts_ms < sore


def spoken_of(rec: Recollection, said: Sequence[str]) -> bool:
    """The session has named the memory already (one of its words in what either side said)."""
    return any(names_matter(text, rec.words) for text in said)


def near_enough(profile: EmbedProfile, message: str, share: float) -> float:
    """The cosine a memory needs for a later turn's lead: ``share`` (``memory.later_lead_share``)
    of the embedder's own cut for a real vector match, the Chinese one for a Chinese message; inf
    when off. Measured on the train halves (later_turns_dev14, dev15; USE-multilingual): probes that
    call a memory up ranged 0.08-0.43 from it, controls that call nothing up 0.10-0.25; at 0.9 of
    the cut (0.216 en, 0.27 zh) no control reached it and 7 of 18 probes did (docs/memory.md)."""
    if share <= 0:
        return float("inf")
    cut = profile.min_cosine_cjk if index.mostly_cjk(message) else profile.min_cosine
    return share * cut


def matter(rec: Recollection, message: str) -> tuple[str, ...]:
    """The memory's words less those the message says itself: naming "dad" after "Dad's birthday is
    Saturday" does not name "My dad was diagnosed with diabetes"."""
    return tuple(w for w in rec.words if not names_matter(message, (w,)))


def lead(
    rec: Recollection | None, lang: Lang, mood: MoodState | None, said: Sequence[str], message: str
) -> str:
    """The reply's first words for a later turn, or "" when the model starts alone (module
    docstring). ``rec``: the nearest memory, found near enough (``near_enough``) and not held back;
    ``said``: the session's messages before this turn; ``message``: this turn's."""
    if rec is None:
        return ""
    if mood is not None and mood.valence <= GENTLE_BELOW:
        return ""
    words = matter(rec, message)
    if not words or any(names_matter(text, words) for text in said):
        return ""
    return LEADS.get(lang, LEADS["en"])
