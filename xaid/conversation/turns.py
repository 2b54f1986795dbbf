"""One conversational turn: persist the user's words, generate, stream, run tools, persist the reply.

The invariant every path keeps: what the user said is stored before the model sees it, and the
session's history is always something a chat template can read back. A cancelled or vanished
client leaves the partial reply stored as ``interrupted``; a tool call without an answer gets a
tool message saying so.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import anyio
import apsw
from xaiclient.wire import Busy, Conflict, NotFound, ProviderError, Timeout

from .. import clock
from ..clock import Clock
from ..errors import Emit
from ..live import LiveSessions
from ..memory import compress, forget_request, pack, retrieve, standing
from ..memory.cues import Cues
from ..memory.embeddings import Embeddings
from ..memory.erase import Eraser, Erasure
from ..mood import tone
from ..mood.classifier import Classifier
from ..mood.state import MoodState
from ..providers.base import ChatMessage, Completion, GenerateRequest, ToolCall, ToolSpec
from ..scheduler import fire
from ..settings import Settings
from ..store import Database
from ..store import sessions as sql
from ..store.agents import Agent
from ..store.sessions import Message, Session
from ..text import cjk
from ..text import tokens as text_tokens
from ..text.lang import Lang, language
from . import (
    agent_config,
    candidates,
    checkin,
    cheer,
    feeling,
    first_words,
    forgetting,
    opener,
    prompt,
    reaction,
    recollect,
    slot,
    voice,
    words,
)
from .agent_config import AgentConfig
from .forgetting import Forgotten
from .generation import GenerationQueue
from .opening import OpeningGuard, fix_head
from .reply import Timings, TurnReply

MAX_TOOL_ROUNDS = 4
# One check-in candidate's generation (Turns._pick): through its own voice gate, held by its window.
_Attempt = Callable[[voice.VoiceGate, candidates.Window], Awaitable[Completion]]
# A chat template's own tokens around one message (Qwen2.5's "<|im_start|>system\n" … "<|im_end|>\n")
TEMPLATE_TOKENS = 5
LATER_TURN_SHARE = 4  # memory.later_turn_tokens 0: a later turn adds at most 1/4 of the budget anew
CANCEL_GRACE_S = 5.0


@dataclass
class PendingTool:
    call: ToolCall
    done: anyio.Event = field(default_factory=anyio.Event)
    result: Any = None


@dataclass
class UserTurn:
    text: str
    ts_ms: int
    ref: str | None = None
    speaker: str | None = None
    explain: bool = False
    # The stored user message this turn answers again (a client's "regenerate"): the words are not
    # stored twice, and the reply after them is replaced.
    replaces: int | None = None
    # The client's own system text for this session (an app's character card), placed in the head.
    card: str | None = None
    started: float = field(default_factory=time.perf_counter)

    def at(self) -> int:
        """The time of a later step of this turn on the turn's own clock: its ``ts`` plus the time
        spent since, so replayed history keeps its order and its day."""
        return self.ts_ms + int((time.perf_counter() - self.started) * 1000)


@dataclass(frozen=True, slots=True)
class ShownBlock:
    """Memories shown at one turn, kept in place for the rest of the session (see xaid.conversation.prompt)."""

    message_id: int  # the user message they were shown before
    text: str
    keys: frozenset[tuple[str, int]]


@dataclass
class _Progress:
    parts: list[str] = field(default_factory=list)
    prompt_tokens: int = 0
    prompt_read_tokens: int | None = None  # None until a provider tells
    completion_tokens: int = 0
    queued_ms: float = 0.0
    first_token_ms: float | None = None


@dataclass(frozen=True, slots=True)
class _Bridge:
    """The daemon's words that turn the reply to the suggested matter after the model's first
    sentence (checkin.bridge; "" for none), and the matter's words, which that sentence may name
    already (then no bridge is needed)."""

    words: str
    matter: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class _Heard:
    """What the transaction that stores the user's words gives the rest of the turn."""

    user: Message
    mood: MoodState | None
    verdict: fire.Verdict | None
    forgotten: Forgotten | None
    asked: Cues  # what the words ask beyond their topic (the participants read with them)
    bare: bool = False  # a session's first message with nothing of its own to say (opener.py)
    sombre: bool = False  # a first message that may tell grave news (fire.FirstWords.sombre)
    # how the clauses of the suggested item's line read as reactions (reaction.py), read once
    reading: Mapping[str, float] = field(default_factory=lambda: reaction.NO_READING)


@dataclass(frozen=True, slots=True)
class _View:
    """The session as this round's prompt reads it: every "Earlier" chunk, and the messages after
    the chunks the prompt already stands in for (never the whole session again)."""

    chunks: list[tuple[int, str]]
    history: list[Message]

    @property
    def uptos(self) -> tuple[int, ...]:
        return tuple(upto for upto, _ in self.chunks)


@dataclass
class Held:
    """Memories a turn recalled past its slot's cap, waiting to be shown before the session's next
    user message (after the reply), once the provider has had the time to read them."""

    agent_id: str
    hits: list[retrieve.Hit]
    lang: Lang
    short: bool
    handed: float = 0.0  # time.monotonic() when the read-ahead holding them was handed over
    tokens: int = 0  # what that read-ahead had to read: the exchange and these

    def block(self, message_id: int) -> ShownBlock:
        return ShownBlock(
            message_id,
            retrieve.render(self.hits, self.lang, self.short),
            frozenset(k for h in self.hits for k in h.keys),
        )


@dataclass(frozen=True, slots=True)
class _Recalled:
    hits: list[retrieve.Hit]
    profile: str | None
    view: _View
    memory_ms: float
    standing: standing.Standing | None = None
    # at a later turn, the hit nearest the message by meaning, the scheduler not holding it back
    # (recollect.py): what the turn's lead may be about
    strong: recollect.Recollection | None = None


@dataclass(frozen=True, slots=True)
class _Framing:
    """What the first round decides for every round of the turn: the language, the tone and the
    memories that are new to the conversation."""

    lang: Lang
    guidance: str | None
    fresh: list[retrieve.Hit]
    standing: str | None = None  # the session's standing block (in the head)
    short: bool = False  # the head explains the memories: their block takes the short header
    # recalled, within the turn's allowance, but past its slot's cap: shown after the reply, where
    # the provider reads them while the user reads the reply (see ``Turns._read_ahead``)
    later: list[retrieve.Hit] = field(default_factory=list)
    # the tone without its rule: a later turn's directive tail (prompt.tail)
    band: str | None = None
    steady: Lang | None = None  # a later turn: the language of its directive's steady part


class Turns:
    """The turns in flight, one per session at most, and the tool calls they wait on."""

    def __init__(
        self,
        db: Database,
        clock: Clock,
        settings: Settings,
        queue: GenerationQueue,
        live: LiveSessions,
        embeddings: Embeddings,
        classifier: Classifier,
        counters: Counter[str],
        eraser: Eraser,
    ):
        self.db = db
        self.clock = clock
        self.settings = settings
        self.queue = queue
        self.live = live
        self.embeddings = embeddings
        self.classifier = classifier
        self.counters = counters
        self.eraser = eraser
        live.on_closed(self.closed)
        eraser.on_erased(self.forgot)
        self.tools: dict[tuple[str, str], PendingTool] = {}
        # In memory only, like llama.cpp's cache that it serves: after a restart both start afresh.
        self.shown: dict[str, list[ShownBlock]] = {}
        # The profile as of a session's first turn here: it sits in the prompt's head, which stays
        # byte-identical for the session (xaid.conversation.prompt); a newer profile waits for the next session.
        # A forget request drops the snapshot at once: what the user had deleted must not stay in the head.
        self.profiles: dict[str, tuple[str, str | None]] = {}  # session id -> (agent id, profile)
        # The standing block (xaid.memory.standing) taken with the profile, and dropped with it.
        self.standings: dict[str, standing.Standing | None] = {}
        # Memories a turn recalled past its slot's cap: (agent, block) shown before the session's
        # next user message, after the reply, and read by the provider ahead of that message.
        self.deferred: dict[str, Held] = {}

        self.folds: dict[
            str, int
        ] = {}  # Layer A chunks the session's prompt shows instead of their messages
        # A client's character card per session (the OpenAI-compatible surface); in memory like the
        # profile snapshot: the client sends it with every request.
        self.cards: dict[str, str] = {}
        # A question back about what to forget, waiting for the next turn's yes (conversation.forgetting).
        self.pending: dict[str, forgetting.Pending] = {}
        # session -> (the language of its later turns' steady directive part, the last turn's
        # language): see ``_steady_after``. In memory, like the read-ahead it serves.
        self.steady: dict[str, tuple[Lang, Lang]] = {}

    def closed(self, session_id: str) -> None:
        self.cards.pop(session_id, None)
        self.pending.pop(session_id, None)
        self.shown.pop(session_id, None)
        self.profiles.pop(session_id, None)
        self.standings.pop(session_id, None)
        self.deferred.pop(session_id, None)
        self.folds.pop(session_id, None)
        self.steady.pop(session_id, None)

    def forgot(self, erased: Erasure) -> None:
        """Memory of an agent was erased (memory.erase): its open sessions take the profile afresh
        next turn, and the memories shown in them that held what went are not shown again."""
        for sid in [sid for sid, (agent, _) in self.profiles.items() if agent == erased.agent_id]:
            self.shown[sid] = [b for b in self.shown.get(sid, []) if not erased.touches(b.text)]
            del self.profiles[sid]
            self.standings.pop(sid, None)
        for sid, held in list(self.deferred.items()):
            if held.agent_id == erased.agent_id and erased.touches(held.block(0).text):
                del self.deferred[sid]

    def _prune_shown(
        self, session_id: str, uptos: Sequence[int], history: Sequence[Message]
    ) -> None:
        """Memories shown with messages that a chunk now stands in for (or that were deleted) go with
        those messages."""
        folds = self.folds.get(session_id, 0)
        cut = uptos[folds - 1] if folds and folds <= len(uptos) else 0
        live = {m.message_id for m in history if (m.message_id or 0) > cut}
        self.shown[session_id] = [b for b in self.shown.get(session_id, []) if b.message_id in live]

    def tool_result(self, session_id: str, call_id: str, result: Any) -> None:
        pending = self.tools.get((session_id, call_id))
        if pending is None:
            raise NotFound(f"no tool call {call_id!r} is waiting in session {session_id!r}")
        pending.result = result
        pending.done.set()

    async def run(self, agent: Agent, session: Session, turn: UserTurn, emit: Emit) -> TurnReply:
        if session.session_id in self.live.active:
            raise Busy(f"session {session.session_id!r} is already generating a reply")
        if session.session_id in self.live.closing:
            raise Conflict(f"session {session.session_id!r} is closed; open a new one")
        finished = self.live.begin_turn(session.session_id, agent.agent_id)
        try:
            return await self._run(agent, session, turn, emit)
        finally:
            self.live.end_turn(session.session_id)
            finished.set()

    def _view(self, conn: apsw.Connection, sid: str) -> _View:
        """Runs on the database thread: the session from the fold cut this session's prompt uses."""
        every = self.settings.config.memory.compress_every
        chunks, history = compress.view(conn, sid, every, self.folds.get(sid, 0))
        return _View(chunks, history)

    async def _recall(
        self,
        agent: Agent,
        agent_cfg: AgentConfig,
        turn: UserTurn,
        heard: _Heard,
        opened_ms: int | None = None,
    ) -> _Recalled:
        """This turn's memories (L1 by time, L2 by relevance), the user's profile (L3) when the
        session has not taken it yet, and the session's view for the first round: one read. At a
        later turn (``opened_ms``: the session's start), the hit said before it that is nearest the
        message by meaning (recollect.py), when strong enough for a lead and not held back.

        One step after another, on purpose: the embedder takes both cores of a small machine for
        its few milliseconds, and reading the keyword indexes beside it made both slower (the
        memory-on turn added 10 ms at the median instead of 8). Nothing is recalled for a request to
        forget, least of all what it names; the profile is then read afresh."""
        sid, cfg = heard.user.session_id, self.settings.config.memory
        remember, forgotten = agent_cfg.memory, heard.forgotten is not None
        start = time.perf_counter()
        about = heard.asked.topic
        search = remember and not forgotten
        vector = (
            await self.embeddings.embed_query(agent.agent_id, about)
            if search and about.strip()
            else None
        )
        with_profile = remember and (forgotten or sid not in self.profiles)
        near_enough = recollect.near_enough(
            self.embeddings.profile, turn.text, cfg.later_lead_share
        )

        def read(conn: apsw.Connection) -> _Recalled:
            # read only: the hits are marked referenced with the reply, off the path to the first token
            hits: list[retrieve.Hit] = []
            if search:
                hits, _tokens = retrieve.search(
                    conn,
                    agent.agent_id,
                    turn.text,
                    vector,
                    turn.ts_ms,
                    k=retrieve.turn_k(cfg.budget_tokens),
                    budget_tokens=cfg.budget_tokens,
                    recent_days=cfg.recent_days,
                    profile=self.embeddings.profile,
                    touch=False,
                    fill=False,
                    fusion=cfg.fusion,
                    asked=heard.asked,
                    lang=language([turn.text]),
                )
            profile, stands = (
                standing.session_head(conn, agent.agent_id, turn.ts_ms, cfg.standing_tokens)
                if with_profile
                else (None, None)
            )
            strong = None
            if opened_ms is not None and cfg.later_lead_share and hits:
                strong = recollect.nearest(conn, agent.agent_id, vector, hits, opened_ms)
                carried = heard.mood.valence if heard.mood is not None else None
                if strong is not None and (
                    strong.cosine < near_enough
                    or recollect.held(conn, agent.agent_id, strong, carried, turn.ts_ms)
                ):
                    strong = None
            return _Recalled(hits, profile, self._view(conn, sid), 0.0, stands, strong)

        recalled = await self.db.run(read)
        memory_ms = (time.perf_counter() - start) * 1000 if remember else 0.0
        return dataclasses.replace(recalled, memory_ms=memory_ms)

    async def _store_user(
        self,
        agent: Agent,
        agent_cfg: AgentConfig,
        msg: Message,
        planned: forgetting.Plan | None,
        first_live: bool,
    ) -> _Heard:
        """The user's words, the mood they moved and, on a session's first turn, the scheduler's
        verdict: one transaction, so a suggestion is recorded exactly when its turn is. A request to
        forget is stored as a placeholder and carried out in the same transaction. The words' cues
        (whose words they ask about, which days) are read there too, with the participants."""
        cfg = self.settings.config
        asked_text = msg.text
        # the scheduler decides at the first live turn: what does that message say, by meaning?
        # (``first_live``: the session as the turn read it had no live turn yet)
        deciding = planned is None and cfg.scheduler.enabled and agent_cfg.memory
        # An opener ("早上好", "u there?", "醒了") has nothing of its own to say: the lead may start
        # the reply (checkin.py), meaning reads no loss in it nor a matter it settles, and its
        # memories wait for the next message (memory.hold_for_openers), whether or not the
        # scheduler is on.
        greeting = (
            planned is None
            and first_live
            and (agent_cfg.memory or agent_cfg.mood)
            and await opener.read(self.embeddings, agent.agent_id, msg.text)
        )
        bare = greeting and agent_cfg.memory
        # an opener is not read by meaning either, memory on or off: "有人没" (anyone there?) is 人没了
        # to the embedder, and a greeting that sets a tone would miss the opening read ahead
        felt = (
            await feeling.hear(
                self.classifier, self.embeddings, cfg.mood, agent.agent_id, msg.text, greeting
            )
            if agent_cfg.mood
            else None
        )
        if deciding and first_live and not bare:
            first = await first_words.read(
                self.db,
                self.embeddings,
                agent.agent_id,
                msg.text,
                msg.ts_ms,
                felt.reading if felt is not None else None,
            )
        else:
            first = fire.FirstWords()
        # A "yes" is stored as said, and so is a request the classifier was not sure of.
        if planned is not None and planned.confirmed is None and not planned.unsure:
            msg = dataclasses.replace(msg, text=forget_request.placeholder(planned.request))

        def write(conn: apsw.Connection) -> _Heard:
            sql.require_open(conn, msg.session_id)
            at_ms = clock.for_state(msg.ts_ms, self.clock)  # the message keeps its own time
            reading = (
                feeling.settle(conn, felt, agent.agent_id, at_ms, cfg.mood)
                if felt is not None
                else None
            )
            stored, mood = words.store(conn, msg, reading, cfg.mood, self.clock)
            sql.count_live_turn(conn, msg.session_id)
            verdict = None
            forgotten = None
            if planned is not None:
                forgotten = forgetting.carry_out(
                    conn, agent.agent_id, msg.session_id, stored.message_id or 0, planned, msg.ts_ms
                )
                verdict = fire.Verdict(None, "the user asked to forget something")
            elif cfg.scheduler.enabled and agent_cfg.memory:
                said = reading.valence if reading is not None and reading.confidence > 0 else None
                verdict = fire.evaluate(
                    conn,
                    agent.agent_id,
                    msg.session_id,
                    # an opener says nothing of any matter: "下午好" shares 下午 with "明天下午两点去
                    # 腾讯面试" and closed it as brought up (morning9's dev scenes)
                    "" if bare else msg.text,
                    at_ms,
                    said,
                    mood.valence if mood is not None else None,
                    int(cfg.scheduler.min_gap_hours * clock.HOUR_MS),
                    first,
                )
            asked = retrieve.read_cues(conn, agent.agent_id, asked_text, msg.ts_ms)
            return _Heard(stored, mood, verdict, forgotten, asked, bare, first.sombre)

        if planned is None:
            with anyio.CancelScope(shield=True):
                return await self.db.run(write)
        # A request to forget takes the one erase path (memory.erase): fence, delete, indexes,
        # checkpoint, and the copies in memory (this session's profile and shown memories among
        # them; all of the agent's, since a match by meaning has no words to test them by).
        heard = await self.eraser.erase(agent.agent_id, write)
        done = heard.forgotten
        if done is not None and done.decision == "ask" and (done.resolution or done.unsure):
            self.pending[msg.session_id] = forgetting.Pending(
                done.request, done.resolution, heard.user.message_id or 0, done.unsure
            )
        return heard

    async def _reuse_user(self, sid: str, message_id: int) -> Message:
        """A regenerate: the user's stored words stay as they are, what was answered after them goes.
        Checked in the transaction that deletes, so a turn that raced in between is not lost."""

        def write(conn: apsw.Connection) -> Message:
            sql.require_open(conn, sid)
            last = sql.last_user_message(conn, sid)
            if last is None or last.message_id != message_id:
                raise Conflict(
                    f"message {message_id} is not the newest user message of session {sid!r}"
                )
            sql.delete_after(conn, sid, message_id)
            return last

        with anyio.CancelScope(shield=True):
            reused = await self.db.run(write)
        return reused

    async def _store(
        self, msg: Message, referenced: Sequence[retrieve.Hit] = (), ts_ms: int = 0
    ) -> Message:
        """Store one message of the turn; with the reply, mark the turn's memories referenced."""

        def write(conn: apsw.Connection) -> Message:
            stored = sql.insert_message(conn, msg)
            retrieve.mark_referenced(conn, referenced, ts_ms)
            return stored

        with anyio.CancelScope(shield=True):  # an acknowledged step is never half-written
            stored = await self.db.run(write)
        return stored

    async def _run(self, agent: Agent, session: Session, turn: UserTurn, emit: Emit) -> TurnReply:
        """The turn's steps in order: store the words, recall, frame, generate (with tool rounds),
        store the reply, report."""
        sid = session.session_id
        start = time.perf_counter()
        self.queue.check_capacity(
            agent.agent_id
        )  # refuse before storing, so a retry does not store the words twice
        agent_cfg = agent_config.read(agent.config)
        if turn.card is not None:
            self.cards[sid] = turn.card
        heard = await self._hear(agent, agent_cfg, sid, turn, session.live_turns == 0)
        # a later turn may begin with the daemon's lead about a memory it calls up (recollect.py)
        later = (
            session.live_turns > 0
            and heard.forgotten is None
            and (heard.verdict is None or heard.verdict.item is None)
        )
        recalled = await self._recall(
            agent, agent_cfg, turn, heard, session.opened_ms if later else None
        )
        if sid not in self.profiles:  # the session's head, as of its first turn (or a forget)
            self.profiles[sid] = (agent.agent_id, recalled.profile)
            self.standings[sid] = recalled.standing
        profile = self.profiles[sid][1]
        self.live.touch(sid)
        tools, warnings = await self._tools(agent_cfg, emit)
        # a later turn's directive: its steady part in the session's steady language (None at the
        # first turn, whose layout is as it was, and after a restart until a turn sets it)
        steady = self.steady[sid][0] if session.live_turns > 0 and sid in self.steady else None
        framing = self._frame(agent, sid, heard, recalled, steady)
        progress = _Progress()
        completion, messages, context = await self._rounds(
            agent, agent_cfg, turn, heard, recalled, framing, profile, tools, emit, progress, start
        )
        reply = await self._store(
            Message(sid, agent.agent_id, "assistant", completion.text, turn.at()),
            recalled.hits,
            turn.ts_ms,
        )
        self._keep_shown(sid, heard.user, framing)
        self._steady_after(sid, framing.lang)
        await self._read_ahead(agent, agent_cfg, heard, framing, profile, messages)
        timings = Timings(
            recalled.memory_ms,
            progress.queued_ms,
            progress.first_token_ms,
            (time.perf_counter() - start) * 1000,
        )
        self.queue.speed.turn(progress.first_token_ms)
        explained = (
            self._explain(agent, heard, recalled, framing, profile, messages, context)
            if turn.explain
            else None
        )
        return TurnReply(
            completion.text,
            reply.message_id,
            heard.user.message_id,
            completion.finish_reason,
            progress.prompt_tokens,
            progress.completion_tokens,
            timings,
            tuple(warnings),
            explained,
            progress.prompt_read_tokens,
        )

    async def _hear(
        self, agent: Agent, agent_cfg: AgentConfig, sid: str, turn: UserTurn, first: bool
    ) -> _Heard:
        """Step 1: the user's words stored (and a request to forget carried out, out of the -wal
        file too), or on a regenerate the stored words reused. Asked to forget: whatever memory is
        set to, the user decides what is kept."""
        if turn.replaces is not None:  # a regenerate: the words are stored already
            user = await self._reuse_user(sid, turn.replaces)
            asked_cues = await self.db.run(
                retrieve.read_cues, agent.agent_id, user.text, user.ts_ms
            )
            return _Heard(user, None, None, None, asked_cues)
        pending = self.pending.pop(sid, None)  # answered now, or dropped by anything but a yes
        planned = await forgetting.plan(
            self.db, self.embeddings, agent.agent_id, turn.text, turn.ts_ms, pending, sid
        )
        await forgetting.settle(self.db, agent.agent_id, pending, turn.text, planned)
        msg = Message(sid, agent.agent_id, "user", turn.text, turn.ts_ms, turn.ref, turn.speaker)
        heard = await self._store_user(agent, agent_cfg, msg, planned, first)
        if heard.forgotten is not None:  # the erase path took it out of the -wal file too
            self._count_forgotten(heard.forgotten)
        return dataclasses.replace(heard, reading=await self._reading(heard))

    async def _tools(
        self, agent_cfg: AgentConfig, emit: Emit
    ) -> tuple[tuple[ToolSpec, ...], list[str]]:
        """The agent's tools, or none (with a notice) when the provider cannot call them."""
        if not agent_cfg.tools or self.queue.provider.supports_tools:
            return agent_cfg.tools, []
        warning = (
            f"provider {self.queue.provider.name} cannot call tools with this model's chat template; "
            "the reply is generated without tools (llama_cpp: set llm.chat_format = 'chatml-function-calling')"
        )
        await emit("notice", {"code": "tools_unsupported", "message": warning})
        return (), [warning]

    def _frame(
        self, agent: Agent, sid: str, heard: _Heard, recalled: _Recalled, steady: Lang | None
    ) -> _Framing:
        """The language and tone of the reply, and which recalled memories are new to the prompt:
        memories folded into "Earlier" with their turns are no longer shown."""
        view, forgotten = recalled.view, heard.forgotten
        said = [m.text for m in view.history if m.role == "user"]
        if heard.bare and heard.verdict is not None and heard.verdict.item is not None:
            # an opener says too little of its language ("hi", "👋" from a user who writes Chinese):
            # the suggested matter's topic, the user's own words, decides when the opener cannot
            said = [heard.verdict.item.topic, *said]
        lang = forgotten.request.lang if forgotten is not None else language(said)
        guidance = tone.guidance(heard.mood, lang) if heard.mood is not None else None
        band = tone.guidance(heard.mood, lang, rule=False) if heard.mood is not None else None
        self._prune_shown(sid, view.uptos, view.history)
        held = self.deferred.get(sid)
        # the session showed memories, or held them back from its slot (an opener's: the message
        # after a greeting is a later turn, as after a greeting that showed its block)
        later = any(block.keys for block in self.shown[sid]) or bool(held and held.hits)
        if held is not None and heard.user.message_id is not None and self._read(held):
            self.shown[sid].append(held.block(heard.user.message_id))  # after the last reply
            del self.deferred[sid]
        stands = self.standings.get(sid)
        present = {key for block in self.shown[sid] for key in block.keys}
        if stands is not None:  # the head shows these already
            present |= stands.keys
        fresh = [h for h in recalled.hits if not h.keys <= present]
        short = stands is not None
        cap, allowance = self._slot(later)
        timed = self._timed_cap(agent, heard, lang, guidance, band, steady)
        if timed is not None:
            cap = min(cap, timed) if cap else timed
        header = retrieve.header_tokens(lang, short)
        if allowance:
            fresh = pack.within(fresh, allowance - header, retrieve.LINE_TOKENS)
        rest: list[retrieve.Hit] = []
        if heard.bare and self.settings.config.memory.hold_for_openers:
            # an opener's reply greets and asks after last night's matter (the suggestion, the tone,
            # the head's standing block): its memories are for the message after it, read while the
            # user reads the greeting
            rest, fresh = fresh, []
        elif cap and (allowance == 0 or cap < allowance):
            # every memory shown is prompt the model reads before its first word (~70 tokens/s for
            # the 1.5B on 2 cores): the slot is capped in tokens, header included; the rest of the
            # turn's allowance is shown after the reply, read while the user reads it
            # (the best line cut to its sentence nearest the message if it does not fit whole)
            now = slot.fill(fresh, heard.user.text, cap - header, retrieve.LINE_TOKENS)
            taken = {id(h) for h in now}  # a cut line is a copy: the whole of it is held back
            rest = [h for h in fresh if id(h) not in taken]
            fresh = now
        return _Framing(
            lang, guidance, fresh, stands.text if stands else None, short, rest, band, steady
        )

    def _steady_after(self, sid: str, lang: Lang) -> None:
        """The steady language of the session's next turns, once this turn's language is known: the
        first turn's, then another only once two turns in a row are in it. Why sticky: the steady
        part is read ahead after each reply, before the user's next language is known; a user who
        writes one line in the other language then re-reads only the tail (its "Reply in ..."),
        and one who switches for good re-reads the steady part once, at the second such turn."""
        held = self.steady.get(sid)
        steady = lang if held is None or held[1] == lang else held[0]
        self.steady[sid] = (steady, lang)

    def _read(self, held: Held) -> bool:
        """Whether the provider has had the time to read the held-back memories since the reply (at
        the median of its recent prompt-read rates). If not, they wait for the next reply rather
        than be read before this turn's first word: a user who answers at once gets the first word
        as soon, and the memories one turn later. A provider that does not tell its rate: yes."""
        rates = sorted(self.queue.speed.prompt_tps)
        if not rates or not held.tokens:
            return True
        return time.monotonic() - held.handed >= held.tokens / rates[len(rates) // 2]

    def _timed_cap(
        self,
        agent: Agent,
        heard: _Heard,
        lang: Lang,
        guidance: str | None,
        band: str | None = None,
        steady: Lang | None = None,
    ) -> int | None:
        """The slot that memory.first_word_ms leaves at the provider's recent median prompt-read
        rate, after the rest of what the turn reads before its first word (its directive, its
        message, the chat template's tokens of the three), and never below ``slot.FLOOR``; None
        when off, when the provider tells no rate (nothing is known to budget with), or when it
        reads nothing ahead (llm.prewarm or llm.head_cache_mb off): what the slot holds back would
        then be read before the next turn's first word instead.

        Why time, not a token count: the caps were off by default because a slot of 48 tokens
        halves what a session's first turn shows on a machine that could have read the whole
        block within a second; a time says what the user waits for, and the rate says what fits."""
        ms = self.settings.config.memory.first_word_ms
        rates = sorted(self.queue.speed.prompt_tps)
        if not ms or not rates or not getattr(self.queue.provider, "reads_ahead", False):
            return None  # with nothing read ahead, what is held back is read at the next turn
        suggestion, forgotten = self._asks(heard, lang)
        # the directive and the line on using memories that ends the slot's block ("-": the block);
        # of a later turn's directive only its tail: the steady part is read ahead with the exchange
        context = prompt.Context(
            tone=guidance, suggestion=suggestion, forgotten=forgotten, memories="-"
        )
        if steady is not None and not prompt.asks_first(context):
            context = dataclasses.replace(context, tone=band, steady=steady)
        parts = prompt.late_parts(agent, context, lang)
        if context.steady is not None:
            parts = parts[1:]  # the tail and the block: the steady part was read ahead
        said = "\n".join(parts)
        rest = text_tokens.count(said) + text_tokens.count(heard.user.text) + 3 * TEMPLATE_TOKENS
        return max(slot.FLOOR, int(rates[len(rates) // 2] * ms / 1000) - rest)

    @staticmethod
    def _asks(heard: _Heard, lang: Lang) -> tuple[str | None, str | None]:
        """What the turn's directive asks first: (the scheduler's suggestion, how to confirm a forget)."""
        verdict, forgotten = heard.verdict, heard.forgotten
        return (
            verdict.directive(lang, answer_first=not heard.bare) if verdict else None,
            forgotten.instruction() if forgotten is not None else None,
        )

    def _slot(self, later: bool) -> tuple[int, int]:
        """(cap, allowance): the tokens of new memories a turn reads before its first word (0: no
        cap), and those it may bring to the session in all, the rest shown after its reply (0: the
        whole budget, as recalled). A session's first turn: memory.first_turn_tokens of the whole
        budget; a later one: memory.later_turn_tokens of a quarter of it (or of the cap, if more)."""
        cfg = self.settings.config.memory
        if later:
            cap = cfg.later_turn_tokens
            return cap, max(cap, cfg.budget_tokens // LATER_TURN_SHARE)
        return cfg.first_turn_tokens, 0

    def _context(
        self,
        sid: str,
        agent_cfg: AgentConfig,
        heard: _Heard,
        framing: _Framing,
        profile: str | None,
        view: _View,
        steady: Lang | None = None,
        ahead: bool = False,
    ) -> prompt.Context:
        """The turn's prompt context; ``ahead``: the next turn's, as guessed after the reply (nothing
        asked first). ``steady``: a later turn's directive in two parts (prompt.directive), unless
        something is asked first, whose directive stays whole as it was."""
        lang = framing.lang
        suggestion, forgotten = (None, None) if ahead else self._asks(heard, lang)
        split = steady is not None and not (suggestion or forgotten)
        return prompt.Context(
            profile=profile,
            standing=framing.standing,
            card=self.cards.get(sid),
            tone=framing.band if split else framing.guidance,
            earlier=tuple(text for _, text in view.chunks),
            folded_upto=view.uptos,
            memories=retrieve.render(framing.fresh, lang, framing.short) if framing.fresh else None,
            # a first message with content of its own is answered before the matter is asked
            suggestion=suggestion,
            forgotten=forgotten,
            shown=tuple((b.message_id, b.text) for b in self.shown.get(sid, [])),
            lang=lang,
            instructions=agent_cfg.system_prompt,
            steady=steady if split else None,
        )

    def _fit(
        self,
        agent: Agent,
        sid: str,
        view: _View,
        context: prompt.Context,
        budget: int,
    ) -> tuple[tuple[ChatMessage, ...], prompt.Context]:
        """The round's messages. Layer A's chunks stand in for their messages only once these no
        longer fit, and then stay: until then the prompt keeps extending the previous one
        (xaid.conversation.prompt). When folding at all, fold down to half the budget: the next
        re-read is far off."""
        before = self.folds.get(sid, 0)
        folds = prompt.folds_needed(agent, view.history, budget, context, before)
        if folds > before:
            folds = prompt.folds_needed(agent, view.history, budget // 2, context, folds)
        self.folds[sid] = folds
        context = dataclasses.replace(context, folds=folds)
        self._prune_shown(sid, view.uptos, view.history)
        return prompt.build(agent, view.history, budget, context), context

    async def _rounds(
        self,
        agent: Agent,
        agent_cfg: AgentConfig,
        turn: UserTurn,
        heard: _Heard,
        recalled: _Recalled,
        framing: _Framing,
        profile: str | None,
        tools: tuple[ToolSpec, ...],
        emit: Emit,
        progress: _Progress,
        start: float,
    ) -> tuple[Completion, tuple[ChatMessage, ...], prompt.Context]:
        """Generate; while the model calls tools, store its call and the results and go again (the
        session read afresh from the fold cut, since the round added messages)."""
        sid, llm = heard.user.session_id, self.settings.config.llm
        reply_tokens = agent_cfg.reply_tokens(llm.max_tokens)
        budget = max(256, llm.n_ctx - reply_tokens)
        view = recalled.view
        lead = self._lead(heard, framing, recalled)
        turn_to = _Bridge("", ()) if lead else self._bridge(heard, framing)
        checking = llm.voice_check == "on" or (
            llm.voice_check == "auto" and self.queue.provider.name != "scripted"
        )
        hardship = checking and await cheer.read(self.embeddings, agent.agent_id, turn.text)
        for round_ in range(MAX_TOOL_ROUNDS + 1):
            if round_ > 0:
                view = await self.db.run(self._view, sid)
            context = self._context(sid, agent_cfg, heard, framing, profile, view, framing.steady)
            messages, context = self._fit(agent, sid, view, context, budget)
            request = GenerateRequest(
                messages,
                tools,
                reply_tokens,
                agent_cfg.sampling_temperature(llm.temperature),
                session=sid,
                agent=agent.agent_id,  # whose head the prompt starts with (the runner's head cache)
                stop=prompt.STOP,
                repeat_penalty=llm.repeat_penalty,
                no_copy=turn.text,
                no_copy_tokens=llm.no_copy_tokens,
                prefix=lead if round_ == 0 else "",
            )
            memory_texts = [context.memories or "", *(t for _, t in context.shown)]
            quoted = voice.quoted(
                heard.verdict.item.topic if heard.verdict and heard.verdict.item else None
            )
            checked = voice.Voice(
                turn.text,
                voice.names_in(memory_texts),
                checking,
                quoted,
                agent.name or "",
                hardship,
                voice.numeral_words_in([*memory_texts, *quoted]),
                tuple(memory_texts),
            )
            completion = await self._generate(
                agent,
                sid,
                request,
                emit,
                progress,
                start,
                turn,
                checked,
                self._matter(heard, lead, recalled) if round_ == 0 else (),
                turn_to if round_ == 0 else _Bridge("", ()),
                self._later_tries(heard, recalled, lead),
            )
            if not completion.tool_calls:
                return completion, messages, context
            if round_ == MAX_TOOL_ROUNDS:
                break
            await self._store(
                Message(
                    sid,
                    agent.agent_id,
                    "assistant",
                    completion.text,
                    turn.at(),
                    tool_calls=[c.to_wire() for c in completion.tool_calls],
                )
            )
            progress.parts.clear()
            for call in completion.tool_calls:
                await self._run_tool(agent, sid, call, emit, turn)
        raise ProviderError(f"the model kept calling tools after {MAX_TOOL_ROUNDS} rounds")

    async def _reading(self, heard: _Heard) -> Mapping[str, float]:
        """How the clauses of the suggested item's line read as reactions (reaction.py), for the
        lead or the bridge to say back the one that tells what happened; nothing to read when no
        check-in words are composed this turn."""
        item = heard.verdict.item if heard.verdict else None
        if (
            item is None
            or not self.settings.config.scheduler.lead
            or not getattr(self.queue.provider, "continues_prefix", False)
        ):
            return reaction.NO_READING
        return await reaction.read(self.embeddings, checkin.said_clauses(item))

    def _lead(self, heard: _Heard, framing: _Framing, recalled: _Recalled) -> str:
        """The daemon's first words of this reply, or "": a check-in's (checkin.py) at a session's
        first turn, or at a later one the lead about a memory the message calls up (recollect.py)."""
        if not getattr(self.queue.provider, "continues_prefix", False):
            return ""
        if recalled.strong is not None:  # only ever found at a later turn with nothing asked first
            return self._recollected(heard, framing, recalled)
        if heard.verdict is None or not self.settings.config.scheduler.lead:
            return ""
        hour = clock.local(heard.user.ts_ms).hour
        return checkin.lead(
            heard.verdict.item,
            heard.user.text,
            framing.lang,
            heard.mood,
            heard.bare,
            hour,
            heard.reading,
        )

    def _recollected(self, heard: _Heard, framing: _Framing, recalled: _Recalled) -> str:
        """A later turn's lead (recollect.lead), when the memory is in the prompt for the model to
        name: shown at this turn or an earlier one, or in the head's standing block."""
        rec = recalled.strong
        if rec is None:
            return ""
        shown = {k for h in framing.fresh for k in h.keys}
        shown |= {k for b in self.shown.get(heard.user.session_id, []) for k in b.keys}
        if not rec.hit.keys <= shown and not recollect.spoken_of(rec, [framing.standing or ""]):
            return ""
        said = [m.text for m in recalled.view.history if m.message_id != heard.user.message_id]
        return recollect.lead(rec, framing.lang, heard.mood, said, heard.user.text)

    def _later_tries(self, heard: _Heard, recalled: _Recalled, lead: str) -> int:
        """How many tries the words after a later turn's lead get (memory.later_lead_tries); 0 for
        any other turn (a check-in's candidates count by the scheduler's settings, ``_tries``)."""
        if not lead or recalled.strong is None:
            return 0
        return self.settings.config.memory.later_lead_tries

    def _bridge(self, heard: _Heard, framing: _Framing) -> _Bridge:
        """The daemon's turn to the suggested matter after the model's first sentence, for a first
        message with content of its own (checkin.bridge), or none: no suggestion, an opener (the lead
        begins its reply instead), a message that may tell grave news (the reply stays with it), the
        lead switched off, or a provider that cannot continue."""
        item = heard.verdict.item if heard.verdict else None
        if (
            item is None
            or heard.bare
            or heard.sombre
            or not self.settings.config.scheduler.lead
            or not getattr(self.queue.provider, "continues_prefix", False)
        ):
            return _Bridge("", ())
        return _Bridge(
            checkin.bridge(item, framing.lang, heard.mood, heard.reading), tuple(item.keywords)
        )

    def _matter(self, heard: _Heard, lead: str, recalled: _Recalled) -> tuple[str, ...]:
        """The suggested matter's words, which check-in candidates must name (candidates.py), or ()
        when this turn samples no candidates: no suggestion, a provider that cannot continue a reply
        it did not send, or ``scheduler.candidates`` at 1 and no ``lead`` that leaves the matter to
        the model (``checkin.leaves_matter``: "早。上次你说", while the mood allows asking). After a
        later turn's lead, the recalled memory's words (less the message's own) when
        ``memory.later_lead_tries`` is 2 or more."""
        if lead and recalled.strong is not None:
            if self.settings.config.memory.later_lead_tries < 2:
                return ()
            return recollect.matter(recalled.strong, heard.user.text)
        item = heard.verdict.item if heard.verdict else None
        if item is None or not getattr(self.queue.provider, "continues_prefix", False):
            return ()
        if self._tries(lead) < 2:
            return ()
        if self.settings.config.scheduler.candidates < 2 and not checkin.leaves_matter(
            item, lead, heard.mood
        ):
            return ()
        return item.keywords

    def _tries(self, lead: str) -> int:
        """How many candidates a check-in samples: ``scheduler.candidates``, or after a lead
        ``scheduler.lead_candidates`` when that is more (the lead is on screen meanwhile)."""
        cfg = self.settings.config.scheduler
        return max(cfg.candidates, cfg.lead_candidates if lead else 1)

    def _keep_shown(self, sid: str, user: Message, framing: _Framing) -> None:
        """The memories this turn showed stay in place before its user message for the session;
        those past the slot's cap wait for the next user message (``deferred``)."""
        fresh = framing.fresh
        if fresh and user.message_id is not None:
            self.shown.setdefault(sid, []).append(
                ShownBlock(
                    user.message_id,
                    retrieve.render(fresh, framing.lang, framing.short),
                    frozenset(k for h in fresh for k in h.keys),
                )
            )
        shown = {k for h in fresh for k in h.keys}
        waiting = self.deferred.pop(sid, None)  # not read in time for this turn: it waits on
        hits = [h for h in (waiting.hits if waiting else []) if not h.keys <= shown]
        hits += [h for h in framing.later if all(h.keys != w.keys for w in hits)]
        hits = pack.within(hits, self.settings.config.memory.budget_tokens, retrieve.LINE_TOKENS)
        if hits:
            self.deferred[sid] = Held(user.agent_id, hits, framing.lang, framing.short)

    async def _read_ahead(
        self,
        agent: Agent,
        agent_cfg: AgentConfig,
        heard: _Heard,
        framing: _Framing,
        profile: str | None,
        read: tuple[ChatMessage, ...] = (),
    ) -> None:
        """Once the reply is stored: hand the provider what the session's next turn will start with
        (this exchange, and the memories held back from its slot), to read while the user reads the
        reply. Without it the next turn reads them before its first word: the last user message
        and reply (what a turn's directive stood before is not kept) and any held-back memories.
        Nothing when the provider keeps no prompt cache (``reads_ahead``). ``read``: the prompt
        this turn's reply was written after, which the provider holds: the held-back memories count
        as read (``_read``) once all that follows it is (``_unread``)."""
        provider = self.queue.provider
        if not getattr(provider, "reads_ahead", False):
            return
        sid = heard.user.session_id
        view = await self.db.run(self._view, sid)
        if not view.history or view.history[-1].role != "assistant":
            return  # a tool round or an interrupted reply: the next prompt is not this one's sequel
        llm = self.settings.config.llm
        budget = max(256, llm.n_ctx - agent_cfg.reply_tokens(llm.max_tokens))
        steady = self.steady[sid][0] if sid in self.steady else None
        context = self._context(sid, agent_cfg, heard, framing, profile, view, steady, ahead=True)
        held = self.deferred.get(sid)
        block = held.block(prompt.AHEAD_ID).text if held else None
        context = dataclasses.replace(
            context,
            folds=min(self.folds.get(sid, 0), len(view.chunks)),
            shown=(*context.shown, (prompt.AHEAD_ID, block)) if block else context.shown,
        )
        messages = prompt.ahead(agent, view.history, budget, context)
        if messages:
            provider.read_ahead(sid, agent.agent_id, messages)
            if held is not None:
                held.handed = time.monotonic()
                held.tokens = _unread(read, messages)

    def _explain(
        self,
        agent: Agent,
        heard: _Heard,
        recalled: _Recalled,
        framing: _Framing,
        profile: str | None,
        messages: tuple[ChatMessage, ...],
        context: prompt.Context,
    ) -> dict[str, Any]:
        """What the model was given and why (``explain``)."""
        lang, verdict, mood, forgotten = framing.lang, heard.verdict, heard.mood, heard.forgotten
        return {
            "system_prompt": messages[0].content,
            "directive": prompt.directive(agent, context, lang),
            "lang": lang,
            "memories": [h.to_wire() for h in recalled.hits],
            "memories_new": [h.to_wire() for h in framing.fresh],
            "memories_held": [h.to_wire() for h in framing.later],
            "profile": profile,
            "earlier": list(context.earlier[: context.folds]),
            "folded_upto": context.folded_upto[context.folds - 1] if context.folds else 0,
            "mood": mood.to_wire() if mood is not None else None,
            "tone": context.tone,  # as the directive says it (a later turn's: without its rule)
            "suggestion": context.suggestion,
            "suggestion_item": verdict.item.item_id if verdict and verdict.item else None,
            "suggestion_reason": verdict.reason if verdict else "the scheduler is off",
            "lead": self._lead(heard, framing, recalled),
            "forgotten": forgotten.to_wire() if forgotten is not None else None,
        }

    def _count_forgotten(self, forgotten: Forgotten) -> None:
        counters = self.counters
        counters["forget_requests"] += 1
        counters[f"forget_requests_{forgotten.request.kind}"] += 1
        counters[f"forget_decisions_{forgotten.decision}"] += 1
        counters["forget_requests_deleted"] += forgotten.deleted
        if not forgotten.deleted:
            counters["forget_requests_unmatched"] += 1

    async def _generate(
        self,
        agent: Agent,
        sid: str,
        request: GenerateRequest,
        emit: Emit,
        progress: _Progress,
        start: float,
        turn: UserTurn,
        checked: voice.Voice,
        matter: tuple[str, ...] = (),
        turn_to: _Bridge | None = None,
        tries: int = 0,
    ) -> Completion:
        """Stream the reply through the voice check (xaid/conversation/voice.py) and the opening fix;
        a sentence that breaks the voice is not sent, and once the model is asked again. With the
        matter's words (a check-in with candidates), its first words are chosen first (``_pick``);
        with a bridge (``turn_to``), the model's first sentence answers, the daemon's words turn to
        the matter and the model goes on from them (``_answer_first``)."""
        opening = OpeningGuard(agent.name)
        continues = getattr(self.queue.provider, "continues_prefix", False)
        attempt = request
        gate = voice.VoiceGate(checked, request.prefix)
        completion: Completion | None = None
        if turn_to is not None and turn_to.words and not matter:

            async def first(gate: voice.VoiceGate) -> Completion:
                return await self._attempt(
                    agent, sid, request, emit, progress, start, turn, gate, opening
                )

            completion = await self._answer_first(gate, turn_to, first, opening, emit)
            if completion is None:
                attempt = dataclasses.replace(request, prefix=gate.continue_after())
        if matter:

            async def attempt_one(gate: voice.VoiceGate, window: candidates.Window) -> Completion:
                return await self._attempt(
                    agent, sid, request, emit, progress, start, turn, gate, opening, window
                )

            async def send(held: str) -> None:
                if out := opening.feed(held):
                    await emit("text", {"delta": out})

            picked = await self._pick(request, checked, matter, attempt_one, send, tries)
            if picked is not None:
                gate, completion = picked
                if completion is None:  # none named the matter: the chosen one goes on
                    attempt = dataclasses.replace(request, prefix=gate.continue_after())
        for tries in range(2):
            if completion is None:
                completion = await self._attempt(
                    agent, sid, attempt, emit, progress, start, turn, gate, opening
                )
            if completion.tool_calls or gate.broken is None:
                break
            self.counters["voice_dropped"] += 1
            self.counters["voice_parrot"] += gate.broken == "parrot"
            self.counters["voice_cheer"] += gate.broken == "cheer"
            self.counters["voice_assistant"] += gate.broken == "assistant"
            if tries == 0 and (continues or not gate.kept):
                self.counters["voice_retries"] += 1
                lead = "" if gate.kept.strip() else voice.listener_lead(checked.said, gate.broken)
                self.counters["voice_listener_leads"] += bool(lead and continues)
                attempt = dataclasses.replace(request, prefix=gate.retry(lead) if continues else "")
                completion = None
                continue
            if gate.kept.strip() == request.prefix.strip():
                self.counters["voice_failed"] += (
                    1  # nothing but the lead is left: the words after all
                )
                if out := opening.feed(gate.give_up()):
                    await emit("text", {"delta": out})
        assert completion is not None
        self.counters["voice_person"] += gate.turned
        if not completion.tool_calls and (close := opening.feed(gate.end())):
            await emit("text", {"delta": close})  # a reply cut after a clause ends as a sentence
        if rest := opening.finish():
            await emit("text", {"delta": rest})
        if not completion.tool_calls:
            completion = dataclasses.replace(
                completion,
                text=fix_head(gate.kept, agent.name),
                finish_reason="stop" if gate.broken else completion.finish_reason,
            )
        return completion

    async def _answer_first(
        self,
        gate: voice.VoiceGate,
        turn_to: _Bridge,
        first: Callable[[voice.VoiceGate], Awaitable[Completion]],
        opening: OpeningGuard,
        emit: Emit,
    ) -> Completion | None:
        """The model's answer (``first``), then the bridge's words when the answer ended of itself
        and did not name the matter already: the model goes on after them (None: the caller
        continues after what was sent). Cut after its first sentence, the answer was one word
        ("Sure! By the way, how did the date go?") where a request needed all of it. The completion
        when there is nothing to add: a tool call, a sentence that broke the voice (the caller's
        retry takes it), an answer cut at ``max_tokens`` or one that named the matter."""
        completion = await first(gate)
        if completion.tool_calls or gate.broken is not None or completion.finish_reason == "length":
            return completion
        said = gate.kept
        if not said.strip() or candidates.names_matter(said, turn_to.matter):
            return completion
        words = turn_to.words  # Chinese runs on without a space; English after one
        joint = words if said[-1:].isspace() or cjk.has(words) else " " + words
        if out := opening.feed(gate.insert(joint)):
            await emit("text", {"delta": out})
        self.counters["checkin_bridges"] += 1
        return None

    async def _pick(
        self,
        request: GenerateRequest,
        checked: voice.Voice,
        matter: tuple[str, ...],
        attempt: _Attempt,
        send: Callable[[str], Awaitable[None]],
        tries: int = 0,
    ) -> tuple[voice.VoiceGate, Completion | None] | None:
        """Check-in candidates (xaid/conversation/candidates.py): sample the reply's first words
        until they name the matter. The gate and the whole completion of the one taken; the gate
        of the one chosen and None when none named it (the caller continues after it); None when
        every candidate broke the voice (the caller runs the turn as without candidates). ``tries``:
        how many (0: the check-in's, ``_tries``)."""
        if candidates.names_matter(request.prefix, matter):
            return None  # the lead names it already ("早。上次说的面试")
        tried: list[tuple[candidates.Window, voice.VoiceGate, Completion]] = []
        for _ in range(tries or self._tries(request.prefix)):
            window = candidates.Window(matter, request.prefix, lead_sent=bool(tried))
            gate = voice.VoiceGate(checked, request.prefix)
            completion = await attempt(gate, window)
            self.counters["checkin_candidates"] += 1
            if completion.tool_calls:
                return None
            if window.verdict is candidates.Verdict.TAKE:
                self.counters["checkin_candidates_taken"] += 1
                return gate, completion
            tried.append((window, gate, completion))
        chosen = candidates.choose([w for w, _, _ in tried])
        if chosen is None:
            return None
        self.counters["checkin_candidates_none"] += 1
        window, gate, completion = tried[chosen]
        await send(window.release())
        return gate, completion if window.ended else None

    async def _attempt(
        self,
        agent: Agent,
        sid: str,
        request: GenerateRequest,
        emit: Emit,
        progress: _Progress,
        start: float,
        turn: UserTurn,
        gate: voice.VoiceGate,
        opening: OpeningGuard,
        window: candidates.Window | None = None,
    ) -> Completion:
        """One generation streamed through ``gate`` and ``opening``; with a ``window`` (a check-in
        candidate) what the gate passes is held until the window's verdict: sent on TAKE, and on
        DROP the generation is stopped and nothing but the lead was sent."""

        async def out(passed: str) -> None:
            if window is not None and window.open:
                passed = window.add(passed)
            if passed and (sent := opening.feed(passed)):
                await emit("text", {"delta": sent})

        async def judged(ended: bool) -> bool:
            """Whether the candidate was dropped now (its generation is to stop)."""
            if window is None or not window.open:
                return False
            verdict = window.judge(gate.broken is not None, ended)
            if verdict is candidates.Verdict.TAKE:
                await out(window.release())
            return verdict is candidates.Verdict.DROP

        job = self.queue.submit(agent.agent_id, request)
        try:
            async with job:
                async for piece in job.pieces:
                    if progress.first_token_ms is None:
                        progress.first_token_ms = (time.perf_counter() - start) * 1000
                    progress.parts.append(piece)
                    if passed := gate.feed(piece):
                        await out(passed)
                    if gate.broken is not None or await judged(False):
                        job.cancelled.set()
                        break
            completion = await job.result()
            if gate.broken is None and (last := gate.finish(completion.finish_reason == "length")):
                await out(last)
            await judged(True)
        except BaseException:
            job.cancelled.set()
            with anyio.CancelScope(shield=True), anyio.move_on_after(CANCEL_GRACE_S):
                await job.finished.wait()
                partial = fix_head(
                    job.completion.text if job.completion else "".join(progress.parts), agent.name
                )
                if partial:
                    await self.db.run(
                        sql.insert_message,
                        Message(
                            sid,
                            agent.agent_id,
                            "assistant",
                            partial,
                            turn.at(),
                            status="interrupted",
                        ),
                    )
            raise
        progress.queued_ms += (job.started_ns - job.queued_ns) / 1e6 if job.started_ns else 0.0
        progress.prompt_tokens += completion.prompt_tokens
        if completion.prompt_eval_tokens is not None:
            progress.prompt_read_tokens = (
                progress.prompt_read_tokens or 0
            ) + completion.prompt_eval_tokens
        progress.completion_tokens += completion.completion_tokens
        return completion

    async def _run_tool(
        self, agent: Agent, sid: str, call: ToolCall, emit: Emit, turn: UserTurn
    ) -> None:
        key = (sid, call.call_id)
        pending = self.tools[key] = PendingTool(call)
        outcome = "(no result: the client did not answer)"
        try:
            await emit("tool_call", call.to_wire())
            with anyio.move_on_after(self.settings.config.llm.tool_timeout):
                await pending.done.wait()
            if not pending.done.is_set():
                raise Timeout(f"no session.tool_result for {call.call_id!r} in time")
            result = pending.result
            outcome = (
                result
                if isinstance(result, str)
                else json.dumps(result, ensure_ascii=False, default=str)
            )
        finally:
            del self.tools[key]
            await self._store(
                Message(sid, agent.agent_id, "tool", outcome, turn.at(), tool_call_id=call.call_id)
            )


def _unread(held: Sequence[ChatMessage], ahead: Sequence[ChatMessage]) -> int:
    """The tokens of ``ahead`` after the longest run of whole messages it shares with ``held`` (what
    the provider's context holds), chat template included: what the read-ahead has to read. Not
    only the exchange and the held-back block: the memories the turn showed before its directive,
    which is not kept, are read again too, and so is the next directive (LoCoMo's turn 2 read 243
    tokens when the held-back block was shown on a count of the exchange and the block alone)."""
    same = 0
    for have, want in zip(held, ahead, strict=False):
        if have != want:
            break
        same += 1
    return sum(text_tokens.count(m.content) + TEMPLATE_TOKENS for m in ahead[same:])
