"""A request to forget, said in a turn: what it refers to, and the question back when that is unclear.

``plan`` runs before the user's words are stored: it recognises the request
(memory.forget_request) and, for a named topic, reads the user's earlier turns and resolves the
topic against them by meaning, shared words and time (memory.forget_topic), which needs the
embedder and so happens outside the write transaction. ``carry_out`` runs inside that transaction,
on the erase path (memory.erase), and does what the plan decided:

- a clear match: the matched turns go, with everything drawn from them (forget.forget_messages),
  and when the user named the topic by words those turns hold (a name: "Globex", 阿飞), whatever
  else holds those words, as a forget by words always did;
- an unclear one: nothing goes; the reply asks back about the one candidate in a few of the
  user's own words, and the session remembers the question (``Pending``, in memory like the
  other per-session state of Turns). Meanwhile a likely candidate (forget_topic.likely) is
  hidden from recall (memory.hide: a reversible fence, never an erasure). The next turn's "yes" / "对" / "是的"
  carries it out, with the question itself (which quoted the words); a "no", or a request naming
  another matter, shows it again (``settle``); anything else drops the question and keeps it
  hidden: the user asked for something to go. A request the classifier was not sure of is asked
  about the same way, its match hidden meanwhile;
- nothing near in meaning: the topic's words are matched as before (forget.forget_terms), which
  still finds a name in a fact whose transcript is long gone; nothing matched, the reply says so.

``Forgotten.to_wire`` is what ``explain`` shows: the decision and, for each matched turn, its id,
time and scores, never its words (they are what the user wants gone).
"""

from __future__ import annotations

import dataclasses
import re
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import apsw
import numpy as np

from ..memory import (
    forget,
    forget_intent,
    forget_prototypes,
    forget_request,
    forget_topic,
    hide,
    private_matters,
)
from ..memory.embeddings import Embeddings
from ..memory.forget_request import ForgetRequest
from ..memory.forget_topic import Resolution
from ..store import Database

Decision = Literal["forget", "ask", "none", "words", "confirmed", "previous"]


@dataclass(frozen=True, slots=True)
class Pending:
    """A question back waiting for its answer in one session."""

    request: ForgetRequest
    resolution: Resolution | None  # None: an unsure request about "that"
    request_message_id: int  # the request (its placeholder, or its words when unsure): the question back replies to it
    unsure: bool = False  # the question is whether they asked to forget at all


@dataclass(frozen=True, slots=True)
class Plan:
    request: ForgetRequest
    resolution: Resolution | None = None  # a named topic, resolved
    confirmed: Pending | None = None  # the user said yes to the question back
    # The classifier was not sure the message asks to forget (forget_intent.py): nothing goes, the
    # words are stored as said, and the reply asks whether they want it forgotten.
    unsure: bool = False
    probability: float | None = None  # the classifier's reading, for explain


@dataclass(frozen=True, slots=True)
class Forgotten:
    """What a forget request in the conversation did (explain's ``forgotten``)."""

    request: ForgetRequest
    deleted: int
    message_ids: tuple[int, ...]
    decision: Decision = "previous"
    resolution: Resolution | None = None
    asked: str | None = None  # the candidate in a few words, when the reply asks back
    unsure: bool = False  # asked back whether they want it forgotten at all (Plan.unsure)
    probability: float | None = None
    hidden: tuple[int, ...] = ()  # memory items held back from recall while it asks (memory.hide)

    def to_wire(self) -> dict[str, Any]:
        # The topic's words are the ones the user just typed; what "that" was is not echoed back.
        return {
            "kind": self.request.kind,
            "what": self.request.what,
            "deleted": self.deleted,
            "message_ids": list(self.message_ids),
            "decision": self.decision,
            "match": self.resolution.to_wire() if self.resolution is not None else None,
            "asked": self.asked,
            "sure": not self.unsure,
            "probability": None if self.probability is None else round(self.probability, 3),
            "hidden": list(self.hidden),
        }

    def instruction(self) -> str:
        if self.unsure:
            return forget_request.unsure_instruction(self.request)
        if self.decision == "ask" and self.asked is not None:
            return forget_request.ask_instruction(self.request.lang, self.asked)
        return forget_request.instruction(self.request, self.deleted)


def _placeholders() -> tuple[str, ...]:
    return tuple(
        forget_request.placeholder(ForgetRequest("previous", lang=lang)) for lang in ("en", "zh")
    )


async def plan(
    db: Database,
    embeddings: Embeddings,
    agent_id: str,
    text: str,
    ts_ms: int,
    pending: Pending | None,
    session_id: str | None = None,
) -> Plan | None:
    """What the user's words ask to forget, resolved; None for most messages. ``pending``: the
    question back this session asked last turn, if any (it is answered now, or dropped).
    ``session_id``: the conversation the words are said in, where "that" looks for what it means."""
    if pending is not None and forget_request.confirms(text):
        return Plan(pending.request, pending.resolution, pending)
    if pending is not None and (instead := forget_request.named_instead(text)) is not None:
        return await _instead(db, embeddings, agent_id, pending, instead, text, ts_ms)
    found = await _recognise(embeddings, text)
    if found is None:
        return None
    request, unsure = found.request, not found.sure
    candidates = await db.run(forget.candidates, agent_id, ts_ms, _placeholders())
    here = sorted((c for c in candidates if c.session_id == session_id), key=lambda c: c.ts_ms)
    if request.kind != "topic":
        if here or session_id is None or not _says_what(text, ts_ms):
            telling = await _previous_telling(embeddings, here, ts_ms) if here else None
            if telling is not None:
                telling = await _whole(embeddings, here, telling)
            return Plan(request, telling, unsure=unsure, probability=found.probability)
        # "That" said first thing in a conversation ("the meds thing I told you about... forget
        # that"): nothing here to point back to, so it names something said before, in its own
        # words; those words are the topic, resolved like any other.
        request = ForgetRequest("topic", lang=request.lang, phrase=text)
    phrase = request.phrase or request.what or ""
    phrase_vec, matrix, private = await _read(embeddings, phrase, candidates)
    beside = text.replace(forget_intent.request_clause(text), " ")
    resolution = forget_topic.resolve(
        phrase, phrase_vec, candidates, matrix, text, ts_ms, beside=beside, private=private
    )
    if forget_topic.topic_words(resolution.rest):
        # The person it names is in two matters near the seed: its other words choose
        # (forget_topic._nearer), embedded only now that they are known.
        rest = await embeddings.embed_readable([resolution.rest])
        if rest and rest[0] is not None:
            resolution = forget_topic.resolve(
                phrase,
                phrase_vec,
                candidates,
                matrix,
                text,
                ts_ms,
                rest_vec=rest[0],
                beside=beside,
                private=private,
            )
    if resolution.decision != "forget" and here and not _says_what(text, ts_ms):
        # Read as a topic, but it names nothing of its own ("这个其实你不用留着", "unsay that
        # please"): it points at what was just said in this conversation, as "that" does.
        telling = await _whole(embeddings, here, await _previous_telling(embeddings, here, ts_ms))
        that = ForgetRequest("previous", lang=request.lang)
        return Plan(that, telling, unsure=unsure, probability=found.probability)
    if unsure and resolution.decision == "none":
        # Not sure it asks to forget, and nothing said comes near what it names ("forget the pasta,
        # let's do tacos"): the memory is the second opinion, and it says this is not about it.
        return None
    if unsure and _clear_either_way(text, resolution):
        # Not sure from the words alone, but they point at something said and the memory finds
        # one matter clearly ("吃药那个事你别存着了" after one telling of the pills): asking "do you
        # want me to forget…?" would only ask what the user just said. The same bar as a sure
        # request's match (forget_topic.CLEAR and MARGIN), never a weak one.
        unsure = False
    resolution = await _whole(embeddings, candidates, resolution)
    return Plan(request, resolution, unsure=unsure, probability=found.probability)


async def _read(
    embeddings: Embeddings, phrase: str, candidates: Sequence[forget_topic.Candidate]
) -> tuple[np.ndarray | None, np.ndarray | None, np.ndarray | None]:
    """What forget_topic.resolve reads of a topic and the earlier turns: the phrase's vector, the
    turns' (``_matrix``) and each turn's lead toward a private matter (``_private_leads``)."""
    vectors = await embeddings.embed_readable([phrase, *(c.text for c in candidates)])
    phrase_vec, matrix = _matrix(vectors)
    return phrase_vec, matrix, await _private_leads(embeddings, matrix)


async def _private_leads(embeddings: Embeddings, matrix: np.ndarray | None) -> np.ndarray | None:
    """Each candidate's lead toward a private matter over an everyday one (private_matters.py),
    read from the vectors already made; None under an embedder the cuts were not read under."""
    if matrix is None or embeddings.profile.name != private_matters.FITTED_ON:
        return None
    bank = await embeddings.bank(private_matters.BANK.texts(), private_matters.BANK.from_vectors)
    if bank is None:
        return None
    return np.array([bank.lead(row) if row.any() else 0.0 for row in matrix], dtype=np.float32)


# "The other one", 另一件: what the question offered is not it, the request's words name the rest.
_ELSE = re.compile(r"\b(?:other|another|else)\b|另一|另外|别的")


async def _instead(
    db: Database,
    embeddings: Embeddings,
    agent_id: str,
    pending: Pending,
    instead: str,
    text: str,
    ts_ms: int,
) -> Plan | None:
    """A "no" to the question back that names the matter meant instead ("no, the one about his
    job", "不是，是他换工作那件", "no, the other one"): the request again, its topic the words it
    named before with these, resolved against the earlier turns but the ones the question offered.
    None where there is no such question (one asking whether they meant to forget at all is
    answered no) or nothing comes near: then the no only shows the offered turns again (settle).
    The topic names no words to take elsewhere (``terms``): only what the resolution matched goes."""
    asked = pending.resolution
    if asked is None or pending.unsure or pending.request.kind != "topic":
        return None
    if not set(forget_topic.topic_words(instead)) - {"one", "ones"} and not _ELSE.search(instead):
        return None  # "I meant it", "no, the one": nothing named, nothing else pointed at
    declined = set(forget_topic.seed_telling(asked))
    said = await db.run(forget.candidates, agent_id, ts_ms, _placeholders())
    candidates = [c for c in said if c.message_id not in declined]
    lang = pending.request.lang
    phrase = ("" if lang == "zh" else " ").join((pending.request.phrase, instead)).strip()
    phrase_vec, matrix, private = await _read(embeddings, phrase, candidates)
    resolution = forget_topic.resolve(
        phrase, phrase_vec, candidates, matrix, text, ts_ms, beside=instead, private=private
    )
    if resolution.decision == "none":
        return None
    resolution = await _whole(embeddings, candidates, resolution)
    return Plan(ForgetRequest("topic", lang=lang, phrase=phrase), resolution)


def _clear_either_way(text: str, resolution: Resolution) -> bool:
    """Whether a request the classifier was not sure of is one all the same: it points at words
    the user said (forget_intent.points_at_words) and its topic matches one matter clearly, told in
    one conversation (a retelling taken from another is a guess on top of the reading's doubt, as
    for what a question back hides: forget_topic.seed_telling)."""
    return (
        resolution.decision == "forget"
        and not resolution.tied
        and len(forget_topic.seed_telling(resolution)) == len(resolution.matches)
        and forget_intent.points_at_words(text)
    )


SAYS_WHAT_WORDS = 2  # content words beside the request that say what "that" is ("the meds thing")


def _says_what(text: str, ts_ms: int) -> bool:
    """Whether a request for "that" names what it means, by words of its own beside the request
    clause ("the meds thing I told you about... forget that") or by a time ("yesterday's
    messages"): a bare "forget that, thanks!" with nothing before it in the conversation names
    nothing and forgets nothing."""
    if forget_topic.window(text, ts_ms) is not None:
        return True
    rest = text.replace(forget_intent.request_clause(text), " ")
    content = forget_topic.topic_words(forget_topic.without_times(rest, ts_ms))
    return len(content) >= SAYS_WHAT_WORDS


async def _previous_telling(
    embeddings: Embeddings, turns: Sequence[forget_topic.Candidate], ts_ms: int
) -> Resolution:
    """The last user turns of this conversation that one telling holds (forget_topic.previous_telling)."""
    vectors = await embeddings.embed_readable([c.text for c in turns])
    units = None
    if vectors and all(v is not None for v in vectors):
        units = forget_topic.unit_rows(np.vstack([v for v in vectors if v is not None]))
    return forget_topic.previous_telling(turns, units, ts_ms)


async def _whole(
    embeddings: Embeddings,
    candidates: Sequence[forget_topic.Candidate],
    resolution: Resolution,
) -> Resolution:
    """``resolution`` with the lines its telling began in (forget_topic.began_at), walked back from
    the first turn taken a turn at a time: "that" said after "I think I'm going to quit my degree" /
    "My parents would kill me." takes both. Not where the request names a person in two matters,
    nor a match already asked about for its width."""
    if not resolution.matches or resolution.tied or resolution.wide:
        return resolution
    while len(resolution.matches) < forget_topic.WIDEST:
        pair = forget_topic.before_telling(resolution, candidates)
        if pair is None:
            break
        earlier, later = pair
        a, b, joined = await embeddings.embed_readable(
            [earlier.text, later.text, f"{earlier.text} {later.text}"]
        )
        if a is None or b is None or joined is None:
            break  # a line the embedder cannot read: nothing tells
        if not forget_topic.began_at(a, b, joined, later.text):
            break
        resolution = forget_topic.with_turns(resolution, [earlier])
    return resolution


# The prototypes' vectors, embedded once per embedder (a daemon has one; tests start several).
_PROTOTYPES: weakref.WeakKeyDictionary[Embeddings, forget_prototypes.Prototypes] = (
    weakref.WeakKeyDictionary()
)


async def _recognise(embeddings: Embeddings, text: str) -> forget_intent.Recognised | None:
    """Whether ``text`` asks to forget (forget_intent.recognise): the frames, the learned
    classifier and the prototypes. Only a message a frame takes or with a verb of removing is
    embedded (its text and its request clause), so most turns cost nothing here. Under an embedder
    the classifier was not trained for, or one that cannot read the message, the frames and the
    prototypes decide as before."""
    text = forget_intent.unquoted(text)  # a request someone else made, quoted, is none
    framed = forget_request.parse(text)
    if not forget_intent.worth_reading(text, framed) or forget_intent.makes_none(text):
        return None
    if not embeddings.readable(text):
        return None if framed is None else forget_intent.Recognised(framed, True, None)
    intent = forget_intent.default()
    clause = forget_intent.request_clause(text)
    found = await embeddings.embed([text, clause])
    if found is None or len(found) < 2:
        return None if framed is None else forget_intent.Recognised(framed, True, None)
    earlier = framed or await _by_meaning(embeddings, text, found[0])
    if intent.embedder != embeddings.profile.name:
        return None if earlier is None else forget_intent.Recognised(earlier, True, None)
    return forget_intent.recognise(
        text, framed, (found[0], found[1]), intent, agreed=earlier is not None
    )


async def _by_meaning(
    embeddings: Embeddings, text: str, vector: np.ndarray
) -> ForgetRequest | None:
    """A request no frame took, read by the prototypes (forget_request.unframed / by_meaning): the
    previous pass's reading, which the classifier weighs as a second opinion."""
    candidate = forget_request.unframed(text)
    if candidate is None:
        return None
    prototypes = _PROTOTYPES.get(embeddings)
    if prototypes is None:
        vectors = await embeddings.embed(forget_prototypes.texts())
        if vectors is None or len(vectors) == 0:
            return None
        prototypes = _PROTOTYPES[embeddings] = forget_prototypes.Prototypes.of(vectors)
    return forget_request.by_meaning(candidate, *prototypes.scores(vector))


def _matrix(
    vectors: Sequence[np.ndarray | None],
) -> tuple[np.ndarray | None, np.ndarray | None]:
    """The phrase's vector and the candidates' as one matrix (zeros for a text the embedder cannot
    read: it then counts by its words and time only); None without a vector for the phrase."""
    if not vectors or vectors[0] is None:
        return None, None
    dim = len(vectors[0])
    rows = [v if v is not None else np.zeros(dim, dtype=np.float32) for v in vectors[1:]]
    return vectors[0], (np.vstack(rows) if rows else np.zeros((0, dim), dtype=np.float32))


def carry_out(
    conn: apsw.Connection,
    agent_id: str,
    session_id: str,
    request_id: int,
    planned: Plan,
    now_ms: int,
) -> Forgotten:
    """Inside the erase path's transaction (memory.erase): do what ``planned`` decided.
    ``request_id`` is the stored message that made the request (its placeholder, its words when
    unsure, or the "yes"). A question back holds its candidate back from recall meanwhile."""
    done = _carry_out(conn, agent_id, session_id, request_id, planned)
    hidden: tuple[int, ...] = ()
    asking = done.resolution if done.decision == "ask" else None
    if asking is not None and forget_topic.likely(asking):
        told = forget_topic.seed_telling(asking)
        hidden = hide.hide(conn, agent_id, told, request_id, now_ms)
    return dataclasses.replace(done, probability=planned.probability, hidden=hidden)


async def settle(
    db: Database, agent_id: str, pending: Pending | None, text: str, planned: Plan | None
) -> bool:
    """The question back ``pending`` answered by ``text`` (read as ``planned``): a no, or a request
    naming another matter, shows again what the question held back; a yes forgets it (carry_out);
    anything else leaves it hidden. Whether something was shown again."""
    if pending is None or (planned is not None and planned.confirmed is pending):
        return False
    if not forget_request.declines(text) and planned is None:
        return False
    return bool(await db.run(hide.lift, agent_id, pending.request_message_id))


def _carry_out(
    conn: apsw.Connection, agent_id: str, session_id: str, request_id: int, planned: Plan
) -> Forgotten:
    request, resolution = planned.request, planned.resolution
    if planned.unsure:  # nothing goes until they say yes (the words are stored as said)
        return Forgotten(request, 0, (), "ask", resolution, _topic(request), True)
    if (pending := planned.confirmed) is not None and pending.unsure:
        return _confirmed_unsure(conn, agent_id, session_id, pending)
    if pending is not None and resolution is not None:
        asked = forget.replies_to(conn, pending.request_message_id)
        deleted, ids = _matched(conn, agent_id, request, _asked_about(resolution), asked)
        return Forgotten(request, deleted, tuple(ids), "confirmed", resolution)
    if request.kind == "previous" and resolution is not None and resolution.message_ids:
        deleted, ids = forget.forget_messages(conn, agent_id, resolution.message_ids)
        return Forgotten(request, deleted, tuple(ids), "previous", resolution)
    if request.kind == "previous" or resolution is None:
        deleted, ids = forget.forget_previous(conn, agent_id, session_id, request_id)
        return Forgotten(request, deleted, tuple(ids), "previous")
    if resolution.decision == "forget":
        deleted, ids = _matched(conn, agent_id, request, resolution)
        return Forgotten(request, deleted, tuple(ids), "forget", resolution)
    if resolution.decision == "ask":
        seed = forget.message_text(conn, agent_id, resolution.message_ids[0])
        if seed is not None:
            gist = forget_topic.gist(seed)
            if resolution.wide:  # a yes forgets all of it: the question says how much that is
                gist = forget_topic.wider(request.lang, gist, resolution)
            return Forgotten(request, 0, (), "ask", resolution, gist)
    # The words named, not the time: "what I said the other night" names no words to match.
    deleted, ids = forget.forget_terms(conn, agent_id, forget_topic.untimed(request.terms))
    return Forgotten(request, deleted, tuple(ids), "words" if deleted else "none", resolution)


def _topic(request: ForgetRequest) -> str | None:
    """The topic in the user's words, for the question back; None for "that"."""
    return (request.phrase or request.what) if request.kind == "topic" else None


def _confirmed_unsure(
    conn: apsw.Connection, agent_id: str, session_id: str, pending: Pending
) -> Forgotten:
    """A yes to "do you want me to forget …?": what the request referred to goes, and the request
    itself (stored as said, since it was not sure to be one) with the question back."""
    request, resolution = pending.request, pending.resolution
    if request.kind == "previous" and resolution is not None and resolution.message_ids:
        asked = [pending.request_message_id, *forget.replies_to(conn, pending.request_message_id)]
        deleted, ids = forget.forget_messages(conn, agent_id, resolution.message_ids, asked)
        return Forgotten(request, deleted, tuple(ids), "confirmed", resolution)
    if request.kind == "previous" or resolution is None:
        deleted, ids = forget.forget_previous(
            conn, agent_id, session_id, pending.request_message_id
        )
        more, more_ids = forget.forget_messages(conn, agent_id, [pending.request_message_id])
        return Forgotten(request, deleted + more, (*ids, *more_ids), "confirmed")
    if resolution.decision == "none":
        deleted, ids = forget.forget_terms(conn, agent_id, forget_topic.untimed(request.terms))
        more, more_ids = forget.forget_messages(conn, agent_id, [pending.request_message_id])
        return Forgotten(request, deleted + more, (*ids, *more_ids), "confirmed", resolution)
    asked = [pending.request_message_id, *forget.replies_to(conn, pending.request_message_id)]
    deleted, ids = _matched(conn, agent_id, request, _asked_about(resolution), asked)
    return Forgotten(request, deleted, tuple(ids), "confirmed", resolution)


def _asked_about(resolution: Resolution) -> Resolution:
    """What a yes to the question back agrees to forget: the question named the seed's telling;
    when the person named is in two matters (``tied``), the other matter, taken along as a
    retelling, was not asked about and stays (the yes to "Do you mean when you said: Nadia is
    thinking of quitting uni?" is not a yes to her dad's rehab)."""
    if not resolution.tied:
        return resolution
    told = set(forget_topic.seed_telling(resolution))
    return dataclasses.replace(
        resolution, matches=tuple(m for m in resolution.matches if m.message_id in told)
    )


def _matched(
    conn: apsw.Connection,
    agent_id: str,
    request: ForgetRequest,
    resolution: Resolution,
    also: Sequence[int] = (),
) -> tuple[int, list[int]]:
    """The matched turns and what holds them; and when the user named the topic by words those
    turns hold ("forget what I told you about Globex", 阿飞), everything else holding those words
    too, as before (a profile line "works at Globex" restates the turn in other words), but not
    what was said in another conversation that the resolution did not take: the same person in
    another matter ("Priya and I did a pub quiz" beside "Priya's pregnant") was weighed by meaning
    and left (forget_topic._retellings); a name alone does not take it back."""
    said = [forget.message_text(conn, agent_id, mid) for mid in resolution.message_ids]
    terms = forget_topic.untimed(request.terms)
    named = forget.term_matcher(terms)
    told_in = {m.session_id for m in resolution.matches}
    deleted, ids = forget.forget_messages(conn, agent_id, resolution.message_ids, also)
    if terms and any(named(text) for text in said):
        spare = forget.said_elsewhere(conn, agent_id, named, told_in)
        more, more_ids = forget.forget_terms(conn, agent_id, terms, spare)
        deleted, ids = deleted + more, sorted(set(ids) | set(more_ids))
    return deleted, ids
