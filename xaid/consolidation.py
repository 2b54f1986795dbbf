"""One consolidation job, from a closed session to its episode, facts and armed scheduler items.

Exactly once: the episode row is unique per session and is written in the same transaction that
marks the job done, so a crash anywhere before the commit leaves a pending job and no episode,
and a rerun after the commit finds the episode and stops.

This is where memory, mood and the scheduler meet after a session: memory.episodes plans and
writes what is remembered, mood.tracker gives the mood at the session's last word, and
scheduler.arm / scheduler.fire turn what was left open into recall items, in the same transaction.
Keeping that here, above the three, is what lets each of them stay ignorant of the others.
"""

from __future__ import annotations

import logging
from collections import Counter
from contextvars import ContextVar
from dataclasses import dataclass, replace

import apsw
import numpy as np
from xaiclient.wire import XaiError

from . import cpu
from .clock import DAY_MS, Clock
from .conversation import agent_config, first_words, opener
from .conversation.generation import GenerationQueue
from .embed import EmbedProfile
from .memory import draft, episodes, fence, hide, persona, supersede, utterances
from .memory.embeddings import Embeddings
from .memory.episodes import PlannedFact
from .mood import asked, learned, meaning, tracker
from .providers.base import ChatMessage, Completion, GenerateRequest
from .scheduler import arm, ended, evening, fire, matter, occasion, retire, telling, weighed
from .settings import Settings
from .store import Database
from .store import agents as agent_sql
from .store import memory as sql
from .store import recall as recall_sql
from .store import sessions as session_sql
from .store.mood import MoodState
from .store.recall import RecallItem
from .store.utterances import NewUtterance
from .text.clauses import clauses
from .text.lang import language

log = logging.getLogger(__name__)
FENCE_RETRIES = (
    20  # forgets arriving faster than a consolidation finishes: give up, the job is retried later
)
# The vectors of one session's consolidation, by text: the feeling, the check-in and the change
# readers and the turns' own vectors all read the same messages and sentences (a user line was
# embedded three times before). Scoped to one attempt of one job, so nothing outlives what it read.
_SESSION_VECTORS: ContextVar[dict[str, np.ndarray | None] | None] = ContextVar(
    "session_vectors", default=None
)


# How far back closed items are read for a line that settles them (consolidation._retiring).
RECENT_ITEMS_MS = 30 * DAY_MS


@dataclass(frozen=True, slots=True)
class _Felt:
    closing: MoodState  # the mood at the session's last word, with what meaning read
    losses: frozenset[int]  # the user's messages that meaning read as a loss
    grieving: bool  # carried as a strong low: a loss meaning read is not doubted (learned.grieving)
    told: frozenset[int]  # the user's messages one clause of which tells of a loss by itself
    # the user's messages meaning reads as far from a loss (mood.loss.is_loss's veto): "my phone
    # died", a rule word used for a thing
    unlike: frozenset[int] = frozenset()
    # the user's messages meaning reads near a loss but nearer a worry still open (meaning.OPEN)
    open: frozenset[int] = frozenset()


class Consolidation:
    """Runs the jobs that xaid.memory.service queues; meets ``episodes.Helpers``."""

    def __init__(
        self,
        db: Database,
        clock: Clock,
        settings: Settings,
        queue: GenerationQueue,
        embeddings: Embeddings,
        counters: Counter[str],
    ):
        self.db = db
        self.clock = clock
        self.settings = settings
        self.queue = queue
        self.embeddings = embeddings
        self.counters = counters

    @property
    def profile(self) -> EmbedProfile:
        return self.embeddings.profile

    async def embed_readable(self, texts: list[str]) -> list[np.ndarray | None]:
        """``Embeddings.embed_readable``, each distinct text embedded once per session's
        consolidation (``_SESSION_VECTORS``); the vectors are shared, so read only."""
        memo = _SESSION_VECTORS.get()
        if memo is None:
            return await self.embeddings.embed_readable(texts)
        fresh = list(dict.fromkeys(t for t in texts if t not in memo))
        if fresh:
            found = await self.embeddings.embed_readable(fresh)
            memo.update(zip(fresh, found, strict=True))
            self.counters["consolidation_embeds"] += len(fresh)
        self.counters["consolidation_embeds_reused"] += len(texts) - len(fresh)
        return [memo[t] for t in texts]

    async def ask(
        self, prompt: str, max_tokens: int, agent_id: str, counter: str | None = "llm_calls"
    ) -> str | None:
        """One short LLM call for the memory's own decisions (counted as ``llm_calls``) or the mood's
        (``counter``: mood_model_calls; None: the caller counts); None when the model is unavailable."""
        if counter:
            self.counters[counter] += 1
        request = GenerateRequest((ChatMessage("user", prompt),), (), max_tokens, 0.0)
        out = await self._call(request, agent_id)
        return None if out is None else out.text

    async def weigh(
        self, prompt: str, choices: tuple[str, ...], agent_id: str, counter: str | None
    ) -> tuple[float, ...] | None:
        """The log-probabilities the model gives ``choices`` as its answer to ``prompt``
        (GenerateRequest.choices); None when the model is unavailable or cannot weigh."""
        if counter:
            self.counters[counter] += 1
        request = GenerateRequest((ChatMessage("user", prompt),), (), 1, 0.0, choices=choices)
        out = await self._call(request, agent_id)
        return out.choice_logprobs if out is not None and out.choice_logprobs else None

    async def _call(self, request: GenerateRequest, agent_id: str = "") -> Completion | None:
        try:
            job = self.queue.submit(f"memory:{agent_id}", request)
            async with job:
                async for _ in job.pieces:
                    pass
            return await job.result()
        except XaiError as exc:
            log.info("memory LLM call skipped: %s", exc.message)
            return None

    async def run_job(self, job_id: int, agent_id: str, session_id: str) -> int | None:
        """Consolidate one session; the episode id, or None when the session had nothing to keep.

        A forget of the agent while the job ran (xaid.memory.fence) voids what it read: it starts over
        from what is left, so the forgotten words are never written back."""
        for _ in range(FENCE_RETRIES):
            seen = await self.db.run(fence.epoch, agent_id)
            memo = _SESSION_VECTORS.set({})
            try:
                return await self._run_once(job_id, agent_id, session_id, seen)
            except fence.Fenced:
                self.counters["consolidations_fenced"] += 1
            finally:
                _SESSION_VECTORS.reset(memo)
        raise RuntimeError(
            f"forgets of {agent_id!r} kept interrupting the consolidation of {session_id!r}"
        )

    async def _run_once(self, job_id: int, agent_id: str, session_id: str, seen: int) -> int | None:
        db, cfg = self.db, self.settings.config
        existing = await db.run(sql.episode_for_session, session_id)
        if existing is not None:
            await db.run(sql.finish_job, job_id, "done", self.clock.now_ms())
            return existing
        agent = await db.run(agent_sql.get, agent_id)
        session = await db.run(session_sql.get_session, session_id)
        if agent is None or session is None or not agent_config.memory_enabled(agent.config):
            await db.run(sql.finish_job, job_id, "done", self.clock.now_ms())
            return None
        messages, intensity = await db.run(episodes.read, session_id)
        # The conversation's own time, not the moment someone pressed "close": imported history stays recent
        # relative to itself, and the closing mood is the mood at its last word.
        ended = session.last_ms
        closing = (
            await db.run(tracker.current, agent_id, ended, cfg.mood)
            if agent_config.mood_enabled(agent.config)
            else None
        )
        felt = await self._felt(agent_id, messages, closing, ended)
        if felt is not None:
            closing = felt.closing
        # the rules and the turns' values compute for seconds on a long session: off the loop
        d = await cpu.run(draft.draft, messages, intensity, closing, agent.name)
        turns = await cpu.run(utterances.from_messages, messages, intensity)
        if (
            not d.utterances
        ):  # the companion alone spoke: no episode, but what it said is still memory
            turn_vectors = (await episodes.embed(self, [], turns))[1]
            await db.run(self._write_turns, agent_id, session_id, turns, turn_vectors, job_id, seen)
            return None
        if d.unsure:
            summary = draft.accept_summary(await self.ask(d.llm_prompt, 120, agent_id))
            if summary is not None:
                d.summary, d.decided_by = summary, "llm"
            self.counters["episodes_llm" if summary else "episodes_llm_rejected"] += 1
        else:
            self.counters["episodes_rules"] += 1
        planned = await episodes.plan_facts(self, db, cfg.memory, agent_id, d, ended)
        read = await self._matters_read(d)
        if felt is not None:
            read = replace(
                read, grieving=felt.grieving, told=felt.told, unlike=felt.unlike, open=felt.open
            )
            read = await self._still_there(agent_id, d, read, felt.losses)
        losses = felt.losses if felt is not None else frozenset()
        if await self._mourning(agent_id, d):
            read = replace(read, mourning=True)
        arms = await cpu.run(arm.matters, d, closing, losses, read)
        grief = read.mourning and all(u.message.message_id in losses for u in d.utterances)
        if not arms and not grief and await self._weighed_open(agent_id, d, read):
            read = replace(read, weighed_open=True)
            arms = await cpu.run(arm.matters, d, closing, losses, read)
        retiring, moving = await self._retiring(agent_id, d)
        # a line that settles or moves an earlier matter is not itself a new one to ask about
        settled = [t for r in retiring for t in (r.telling or (r.text,))] + [m.text for m in moving]
        arms = [a for a in arms if not retire.quotes_any(a, settled)]
        if any(a.scene == "matter" for a in arms):  # left open, though no date or feeling said so
            d.tension = max(d.tension, arm.MATTER_TENSION)
        summary_vec, turn_vectors = await episodes.embed(self, [d.summary], turns)
        changes = await self._changes(agent_id, turns, d.started_ms)
        episode_id = await db.run(
            self._write,
            agent_id,
            session_id,
            d,
            closing,
            planned,
            [*summary_vec, *turn_vectors],
            job_id,
            arms,
            turns,
            seen,
            changes,
            retiring,
            moving,
            read.felt_alone,
        )
        if agent_config.memory_enabled(agent.config):
            await db.run(
                persona.refresh,
                agent,
                self.settings.config.memory.persona_every,
                self.clock.now_ms(),
            )
        return episode_id

    async def _felt(
        self,
        agent_id: str,
        messages: list[session_sql.Message],
        closing: MoodState | None,
        ended: int,
    ) -> _Felt | None:
        """The session read by meaning: the feeling it carries to the next day (mood/learned.py, a
        model over the session's vector and the rules' own reading) and the user's messages that
        tell of a loss (mood/meaning.py's prototypes). Where the stored mood does not already say it
        (a layoff said as "被优化了", "not my best week", tiredness that should last the night), a
        reading is stored at the session's last word, so tomorrow's tone carries it; not when a
        newer reading exists (a later session already moved the mood). None without mood, or with
        an embedder the model was not fitted on."""
        said = [m for m in messages if m.role == "user" and m.text.strip()]
        if closing is None or not said or self.embeddings.profile.name != "use":
            return None
        # one bank per embedder, shared with the first turn's reading (first_words.py): warm
        # before the next session's first turn, which reads a loss by the same prototypes
        bank = await first_words.prototypes(self.embeddings)
        await opener.bank(self.embeddings)  # the next first turn's opener reading, warm too
        if bank is None:
            return None
        lines = [m.text for m in said]
        texts = [learned.whole(lines), learned.tail(lines), *lines]
        vectors = await self.embed_readable(texts)
        whole, last = vectors[0], vectors[1]
        if whole is None or last is None:
            return None
        by_id = {
            m.message_id: v
            for m, v in zip(said, vectors[2:], strict=True)
            if v is not None and m.message_id is not None
        }
        losses = frozenset(i for i, v in by_id.items() if bank.loss(v) >= meaning.LOSS_MARGIN)
        unlike = frozenset(i for i, v in by_id.items() if bank.loss(v) <= -meaning.LOSS_MARGIN)
        model = learned.default()
        margins = [bank.loss(v) if v is not None else None for v in vectors[2:]]
        told, told_open = await self._told_in_clauses(bank, said)
        told -= frozenset(i for i, v in by_id.items() if not matter.told_beside(bank.loss(v)))
        # read near a loss, but nearer a worry still open (meaning.OPEN): the whole message, or the
        # clause that told of it, or the session's lines together (what "she's never been gone
        # this long" is about is the line before, "Mochi hasn't come home since saturday"); or
        # grave news nearer an open worry than a loss; the check-in reader has the last word
        # (matter.Readings.open_worry)
        open_ = (told & told_open) | frozenset(
            i
            for i, v in by_id.items()
            if i not in told and _open_worry(bank, v, whole, i in losses)
        )
        # a loss both readers read, in the whole message or in a clause of its own ("Lost my grandad
        # yesterday, the service is next Friday": the plan pulls the whole away from the loss)
        felt = learned.read_told(
            model, lines, whole, last, bank.feel(whole), learned.lost(lines, margins), bool(told)
        )
        lost = felt.lost
        told = told if lost else frozenset()  # a session carried as good told of no loss
        felt, worn = await self._signed(agent_id, lines, felt)
        tired = learned.still_tired(model, felt.own, whole, last) or worn
        reading = learned.carry(closing, felt.own, felt.label, lost, tired, felt.strength)
        grieving = learned.grieving(felt)
        if reading is None:
            return _Felt(closing, losses, grieving, told, unlike, open_)
        cfg = self.settings.config.mood
        moved = await self.db.run(tracker.observe_if_latest, agent_id, reading, ended, cfg)
        self.counters["mood_by_meaning"] += moved is not None
        return _Felt(moved or closing, losses, grieving, told, unlike, open_)

    async def _signed(
        self, agent_id: str, lines: list[str], felt: learned.Session
    ) -> tuple[learned.Session, bool]:
        """The feeling the embedder read, with the chat model's once (mood/asked.py) when
        ``mood.ask_model`` is on and no loss decided it, and whether the model is sure they will be
        tired: the offered words weighed, which give the sign of a feeling the reader read and
        raise one it missed (``asked.weighed``); a provider that cannot weigh (an OpenAI-compatible
        endpoint) is asked for its word where the reader read a feeling (``learned.asked_sign``).
        Weights or a word that name no feeling (no model, an echo) leave it as read."""
        if not self.settings.config.mood.ask_model or felt.lost:
            return felt, False
        question = asked.prompt(lines)
        # counted when put, as the memory's own calls are (a provider that cannot weigh counts one
        # here for a calm session, where nothing is then read)
        logprobs = await self.weigh(question, asked.CHOICES, agent_id, counter="mood_model_calls")
        sign: meaning.Label | None = None
        worn = False
        if logprobs is not None:
            if (read := asked.weighed(logprobs, felt.label)) is not None:
                sign, worn = read.label, read.tired
        elif learned.asked_sign(felt):
            sign = asked.label(
                await self.ask(question, asked.ANSWER_TOKENS, agent_id, counter=None)
            )
        if sign is None:
            self.counters["mood_model_unreadable"] += 1
            return felt, False
        return learned.signed(felt, sign), worn

    async def _still_there(
        self, agent_id: str, d: draft.Draft, read: matter.Readings, losses: frozenset[int]
    ) -> matter.Readings:
        """Where the readers disagree on a low session's loss (``matter.Readings.contested``: read
        near a death, the reader sure of a matter), the chat model is asked once whether what the
        session told of is still alive and with them (mood/asked.py); a yes makes those lines a
        worry a friend asks after. Only with ``mood.ask_model``; no model, or an answer that is no
        yes, leaves the loss: asking "how is it going" after a death is the worse mistake."""
        ids = frozenset(i for i in losses if read.contested(i))
        if not ids or not self.settings.config.mood.ask_model:
            return read
        lines = [u.message.text for u in d.utterances]
        answer = await self.ask(
            asked.alive_prompt(lines), asked.ANSWER_TOKENS, agent_id, counter="loss_model_calls"
        )
        if asked.alive(answer) is not True:
            return read
        self.counters["loss_model_alive"] += 1
        return replace(read, alive=ids)

    async def _weighed_open(self, agent_id: str, d: draft.Draft, read: matter.Readings) -> bool:
        """Where nothing was armed, whether the chat model, weighing the session once, says it
        leaves a matter (scheduler/weighed.py). Not asked of an ordinary evening, a session that
        asked not to have it raised, or one the reader finds nothing near a matter in
        (``weighed.ASK_FROM``); only with ``scheduler.ask_model``. No model, or one that cannot
        weigh: nothing armed, as before."""
        lines = [u.message.text for u in d.utterances]
        if (
            not self.settings.config.scheduler.ask_model
            or read.plain()
            or read.best() < weighed.ASK_FROM
            or any(arm.do_not_ask(t) for t in lines)
        ):
            return False
        lang = language(lines)
        logprobs = await self.weigh(
            weighed.prompt(lines, lang), weighed.CHOICES, agent_id, "matter_model_calls"
        )
        if logprobs is None or not weighed.is_open(logprobs, lang):
            return False
        self.counters["matter_model_open"] += 1
        return True

    async def _matters_read(self, d: draft.Draft) -> matter.Readings:
        """The check-in reader's probabilities for the session's user messages (scheduler/matter.py:
        does this leave a matter a friend would follow up?); none under an embedder it was not
        fitted on, and then the rules alone arm."""
        reader = matter.default()
        if reader is None or reader.embedder != self.embeddings.profile.name:
            return matter.NO_READINGS
        said = {
            u.message.message_id: u.message
            for u in d.utterances
            if u.message.message_id is not None
        }
        ids = list(said)
        embedded = await self.embed_readable([said[i].text for i in ids]) if ids else []
        vectors = {i: v for i, v in zip(ids, embedded, strict=True) if v is not None}
        by_id = {
            i: reader.read(vectors[i], m.text, m.ts_ms) for i, m in said.items() if i in vectors
        }
        # Each sentence of a message that holds several, and the messages together (matter.Readings)
        split = [(i, part) for i, m in said.items() for part in _sentences(m.text)]
        whole = " ".join(m.text for m in said.values()) if len(said) > 1 else ""
        whole = whole if len(whole) <= matter.SESSION_CHARS else ""
        more = [part for _, part in split] + ([whole] if whole else [])
        read_more = await self.embed_readable(more) if more else []
        parts = tuple(
            matter.Part(i, part, reader.read(v, part, said[i].ts_ms))
            for (i, part), v in zip(split, read_more, strict=False)
            if v is not None
        )
        first = next(iter(said.values()), None)
        session = (
            reader.read(read_more[-1], whole, first.ts_ms)
            if whole and first is not None and read_more[-1] is not None
            else None
        )
        ordinary = await self._ordinary([m.text for m in said.values()])
        bank = await self._occasions()
        occasions = frozenset(
            i for i, v in vectors.items() if bank is not None and occasion.is_occasion(bank, v)
        )
        felt, tells, felt_alone = await self._told_or_felt([m.text for m in said.values()])
        asides = await self._asides([m.text for m in said.values()])
        return matter.Readings(
            by_id,
            reader.threshold,
            reader.loss_floor,
            parts=parts,
            session=session,
            occasions=occasions,
            ordinary=ordinary,
            felt=felt,
            tells=tells,
            felt_alone=felt_alone,
            asides=asides,
        )

    async def _asides(self, lines: list[str]) -> dict[str, frozenset[str]]:
        """The first clauses that only lead into each user line, and into the lines joined as
        arm.py quotes a matter told over several (telling.asides), by that text: "破防了" of
        "破防了 今天一对一 老板说我这季度绩效给C"; of the lines "破防了" / "今天一对一 老板说我这季度绩效给C" /
        …, the first line, read against them all (a clause against the lines together reads
        further the more there are: a headline first, "下班路上追尾了", read 0.34 among eight), and
        the asides of the first line that is not one. None under another embedder than the
        margins were set on."""
        if self.embeddings.profile.name != telling.FITTED_ON:
            return {}
        spoken = [(line, parts) for line in lines if (parts := telling.spoken([line]))]
        out: dict[str, frozenset[str]] = {}
        for line, parts in spoken:
            if len(parts) > 1 and (found := await self._leading(parts, line)):
                out[line] = frozenset(found)
        if len(spoken) > 1:
            together = arm.together(lines)
            leading = await self._leading([line for line, _ in spoken], together)
            skip = {c for _, parts in spoken[: len(leading)] for c in parts}
            skip |= out.get(spoken[len(leading)][0], frozenset())
            if skip:
                out[together] = frozenset(skip)
        return out

    async def _leading(self, parts: list[str], text: str) -> list[str]:
        """telling.asides of ``parts`` (clauses of ``text``, or its lines) against ``text``."""
        read = await self._with_whole(parts, text)
        return [] if read is None else telling.asides(parts, *read)

    async def _with_whole(
        self, parts: list[str], text: str
    ) -> tuple[list[np.ndarray], np.ndarray] | None:
        """The vectors of ``parts`` and of ``text`` they are read against; None when any is
        unreadable."""
        vectors = await self.embed_readable([*parts, text])
        read = [v for v in vectors if v is not None]
        return None if len(read) < len(vectors) else (read[:-1], read[-1])

    async def _told_or_felt(self, lines: list[str]) -> tuple[frozenset[str], frozenset[str], bool]:
        """The clauses of the session's user lines that say only how they feel, those that tell
        what happened, and whether the lines say nothing but how they feel (scheduler/telling.py);
        nothing under another embedder than its margins were set on."""
        parts = telling.spoken(lines)
        if not parts or self.embeddings.profile.name != telling.FITTED_ON:
            return frozenset(), frozenset(), False
        bank = await self.embeddings.bank(telling.BANK.texts(), telling.BANK.from_vectors)
        read = await self._with_whole(parts, meaning.session_text(lines))
        if bank is None or read is None:
            return frozenset(), frozenset(), False
        told = telling.read(bank, parts, *read)
        return told.felt, told.tells, told.alone

    async def _ordinary(self, lines: list[str]) -> float | None:
        """How much nearer an ordinary evening than anything followed up the session's user lines
        read together (scheduler/evening.py); None under another embedder than its margin was set on."""
        if not lines or self.embeddings.profile.name != evening.FITTED_ON:
            return None
        bank = await self.embeddings.bank(evening.PLAIN.texts(), evening.PLAIN.from_vectors)
        vector = (await self.embed_readable([meaning.session_text(lines)]))[0]
        return None if bank is None or vector is None else bank.lead(vector)

    async def _occasions(self) -> meaning.Contrast | None:
        """scheduler/occasion.py's prototypes under the daemon's embedder, embedded once; None
        under another embedder than its margin was set on."""
        if self.embeddings.profile.name != occasion.FITTED_ON:
            return None
        return await self.embeddings.bank(occasion.BANK.texts(), occasion.BANK.from_vectors)

    async def _mourning(self, agent_id: str, d: draft.Draft) -> bool:
        """Whether a loss item of the agent's, pending or asked, was armed within
        fire.FRESH_GRIEF_MS before this session began (matter.Readings.mourning)."""
        items = await self.db.run(recall_sql.items, agent_id, recall_sql.STATES)
        return any(
            i.scene == "loss"
            and i.state in ("pending", "pushed")
            and 0 <= d.started_ms - i.created_ms < fire.FRESH_GRIEF_MS
            for i in items
        )

    async def _retiring(
        self, agent_id: str, d: draft.Draft
    ) -> tuple[list[retire.Retired], list[retire.Moved]]:
        """Earlier matters this session's user lines say are off, moot or already told, and those
        they move to another day (scheduler/retire.py): by their keywords and, under the embedder
        the cosine was set on, by meaning."""
        # pending items, and those closed or asked since a month before the session: a line that
        # settles a matter the live turn already closed is not a new matter either
        # (retire.quotes_any); only pending ones are closed, only they are embedded
        since = d.started_ms - RECENT_ITEMS_MS
        items = [
            i
            for i in await self.db.run(recall_sql.items, agent_id, recall_sql.STATES)
            if i.state == "pending" or i.created_ms >= since
        ]
        if not items:
            return [], []
        pending = [i for i in items if i.state == "pending"]
        said = [u.message for u in d.utterances]
        item_vectors: dict[int, np.ndarray] = {}
        line_vectors: list[np.ndarray | None] = [None] * len(said)
        session: retire.Line | None = None
        if self.embeddings.profile.name == "use":  # the embedder retire.SAME_MATTER was set on
            # the items' words as the session's first turn read them (embedded once for both)
            item_vectors = await first_words.item_vectors(self.embeddings, agent_id, pending)
            whole = meaning.session_text([m.text for m in said])
            *line_vectors, whole_vector = await self.embed_readable(
                [*(m.text for m in said), whole]
            )
            session = retire.Line(whole, d.started_ms, whole_vector)
        lines = [retire.Line(m.text, m.ts_ms, v) for m, v in zip(said, line_vectors, strict=True)]
        retiring = retire.retired(items, lines, item_vectors, session)
        gone = {r.item_id for r in retiring}
        live = [i for i in pending if i.item_id not in gone]
        moving = retire.moved(live, lines, item_vectors)
        kept = gone | {m.item_id for m in moving}
        retiring += await self._ended(
            agent_id, [i for i in live if i.item_id not in kept], lines, item_vectors, session
        )
        return retiring, moving

    async def _ended(
        self,
        agent_id: str,
        pending: list[RecallItem],
        lines: list[retire.Line],
        item_vectors: dict[int, np.ndarray],
        session: retire.Line | None,
    ) -> list[retire.Retired]:
        """The pending matters the chat model says this session told the end of, where the rules
        read nothing settled (scheduler/ended.py): asked of a session near the matter in meaning,
        one weighed question per matter; only with ``scheduler.ask_model``."""
        if not self.settings.config.scheduler.ask_model:
            return []
        asked = retire.to_weigh(
            pending, lines, item_vectors, session, ended.ASK_FROM, ended.MAX_ITEMS
        )
        said = [line.text for line in lines]
        lang = language(said)
        out = []
        for item in asked:
            logprobs = await self.weigh(
                ended.prompt(retire.quoted(item), said, lang),
                ended.CHOICES,
                agent_id,
                "ended_model_calls",
            )
            if logprobs is not None and ended.is_ended(logprobs, lang):
                self.counters["ended_model_told"] += 1
                out.append(retire.told_by_model(item, lines, item_vectors.get(item.item_id)))
        return out

    async def _told_in_clauses(
        self, bank: meaning.Prototypes, said: list[session_sql.Message]
    ) -> tuple[frozenset[int], frozenset[int]]:
        """The user's messages one clause of which tells of a loss by itself (matter.told_in_clause:
        the loss prototypes and the check-in reader, on the clause alone): a death and its plan in
        one breath ("奶奶昨夜睡梦中走了，明天跟殡仪馆的人商量后事") read whole as a matter ahead, its
        plan was asked about and the feeling carried lightly. Only messages of more than one clause
        are embedded again, clause by clause; none under an embedder the reader was not fitted on.
        Second: those of them every telling clause of which is nearer a worry still open."""
        reader = matter.default()
        if reader is None or reader.embedder != self.embeddings.profile.name:
            return frozenset(), frozenset()
        parts = [
            (m, c)
            for m in said
            if m.message_id is not None and len(cs := clauses(m.text)) > 1
            for c in cs
        ]
        if not parts:
            return frozenset(), frozenset()
        vectors = await self.embed_readable([c for _, c in parts])
        telling = [
            (m.message_id, v)
            for (m, c), v in zip(parts, vectors, strict=True)
            if v is not None
            and m.message_id is not None
            and matter.told_in_clause(bank.loss(v), reader.read(v, c, m.ts_ms))
        ]
        told = frozenset(i for i, _ in telling)
        # a message whose telling clause is itself nearer a worry still open ("家里的猫前天跑丢了"):
        # the clause decides, not the whole ("猫咪米粒今天下午安乐了，明天埋在楼下花园里" reads 0.13
        # nearer the open worries whole, its telling clause 0.05)
        unsure = frozenset(i for i, v in telling if bank.open_lead(v) < meaning.OPEN_MARGIN)
        return told, told - unsure

    async def _changes(
        self,
        agent_id: str,
        turns: list[NewUtterance],
        started_ms: int,
    ) -> supersede.Plan:
        """Which earlier statements this session's turns replace, found by meaning (memory.supersede);
        at most one model call for all the unsure pairs of the session."""

        async def ask(prompt: str, max_tokens: int) -> str | None:
            return await self.ask(prompt, max_tokens, agent_id)

        asking = self.settings.config.memory.ask_changes
        plan = await supersede.plan(
            self.db,
            agent_id,
            turns,
            started_ms,
            self.embed_readable,
            ask if asking else None,
        )
        self.counters["change_sessions"] += 1
        counts = {
            "change_calls": plan.calls,
            "change_pairs_asked": plan.asked,
            "change_pairs_unreadable": plan.unreadable,
        }
        for p in plan.pairs:
            counts[f"change_{p.decided_by}"] = counts.get(f"change_{p.decided_by}", 0) + 1
        for key, n in counts.items():
            if n:  # stats shows a counter once it is above 0
                self.counters[key] += n
        return plan

    def _write_turns(
        self,
        conn: apsw.Connection,
        agent_id: str,
        session_id: str,
        turns: list[NewUtterance],
        vectors: list[np.ndarray | None],
        job_id: int,
        seen: int,
    ) -> None:
        fence.check(conn, agent_id, seen)
        episodes.write_turns(conn, agent_id, session_id, turns, vectors)
        hide.renew(
            conn, agent_id, session_id, self.clock.now_ms()
        )  # a question back hid some of these turns
        sql.finish_job(conn, job_id, "done", self.clock.now_ms())

    def _write(
        self,
        conn: apsw.Connection,
        agent_id: str,
        session_id: str,
        d: draft.Draft,
        closing: MoodState | None,
        planned: list[PlannedFact],
        vectors: list[np.ndarray | None],
        job_id: int,
        arms: list[arm.Arm],
        turns: list[NewUtterance],
        seen: int,
        changes: supersede.Plan,
        retiring: list[retire.Retired],
        moving: list[retire.Moved],
        felt_alone: bool = False,
    ) -> int:
        """One transaction: the episode, the scheduler's settling of the session, the job's
        completion. ``felt_alone``: the session said only how the user feels (scheduler/telling.py)."""
        fence.check(conn, agent_id, seen)
        if (existing := sql.episode_for_session(conn, session_id)) is not None:
            sql.finish_job(conn, job_id, "done", self.clock.now_ms())
            return existing
        episode_id = episodes.write_episode(
            conn, agent_id, session_id, d, closing, planned, vectors, turns
        )
        episodes.unquote(conn, supersede.apply(conn, agent_id, changes, d.ended_ms))
        fire.after_session(
            conn,
            agent_id,
            session_id,
            [u.message.text for u in d.utterances],
            episode_id,
            arms,
            d.ended_ms,
            retiring,
            moving,
            felt_alone,
        )
        hide.renew(
            conn, agent_id, session_id, self.clock.now_ms()
        )  # a question back hid some of these turns
        sql.finish_job(conn, job_id, "done", self.clock.now_ms())
        return episode_id


def _open_worry(
    bank: meaning.Prototypes, vector: np.ndarray, whole: np.ndarray, lost: bool
) -> bool:
    """A message that is a worry whose outcome is still open, not a loss (meaning.OPEN against the
    losses): read near a loss (``lost``) and, alone or with the session's lines together
    (``whole``), ``OPEN_MARGIN`` nearer an open worry; or grave news (``GRAVE_MARGIN``) that is
    itself that much nearer one. A pet gone missing, told over two lines, read as a death: "Mochi
    hasn't come home since saturday…" (grave, +0.12 nearer the open worries) then "she's never been
    gone this long" (a loss to the prototypes and the reader; the session together +0.13)."""
    near_open = bank.open_lead(vector) >= meaning.OPEN_MARGIN
    if lost:
        return near_open or bank.open_lead(whole) >= meaning.OPEN_MARGIN
    return near_open and bank.grave(vector) >= meaning.GRAVE_MARGIN


def _sentences(text: str) -> list[str]:
    """A message's sentences when it holds more than one (the search's own cut), else none."""
    parts = utterances.sentences(text)
    return parts if len(parts) > 1 else []
