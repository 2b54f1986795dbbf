"""llama.cpp in-process through llama-cpp-python: any GGUF file, by default the catalogued model
that ``llm.model`` names (xaid/catalogue.py), joined and checked by model_files.py.

The chat template comes from the GGUF file unless ``llm.chat_format`` names one. Tool calls need a
chat handler that does function calling (``chatml-function-calling``, ``functionary*``); with the
file's own template the provider reports ``supports_tools = False`` and the turn says so.

The PyPI build of llama.cpp uses OpenMP, whose worker threads spin while they wait for work; on a
machine whose other cores are busy that spinning steals the time the model needs (the 1.5B
generated 2.2 instead of 8.2 tokens/s here). ``OMP_WAIT_POLICY=PASSIVE`` makes them sleep instead.
OpenMP reads it once, when the library loads, so it is set before the first ``import llama_cpp``
unless the user chose a policy (xaid/__main__.py sets it for the daemon's process too).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import threading
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from .. import catalogue as models
from ..config import LLMConfig
from . import cpu_quirks, llama_prefix, llama_state, llama_weigh, model_files, no_copy
from .base import Completion, Emit, GenerateRequest, ProviderError, ToolCall
from .head_cache import HeadCache, HeadState, model_identity
from .llama_interrupt import Interrupt
from .llama_state import SessionStates

log = logging.getLogger(__name__)
TOOL_FORMATS = frozenset(
    {"chatml-function-calling", "functionary", "functionary-v1", "functionary-v2"}
)
# What is read ahead is read this many tokens at a time, with a look for a waiting frame in between;
# a turn that lands mid-chunk stops the chunk (llama_interrupt.py). A small batch streams every weight
# once, as a decode step does, so bigger chunks would read faster (512 tokens of the 1.5B on two
# cores: 97 tokens/s in chunks of 32, 153 in chunks of 128; perf read_chunks), but the model's calls
# of consolidation, which do not interrupt, would wait for a chunk of 128 (~0.8 s) where they wait
# for one of 32 (~0.3 s).
PREWARM_CHUNK = 32


def usable_cores() -> int:
    """The cores this process may run on (a cgroup or taskset may allow fewer than the machine has)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def passive_openmp() -> None:
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")


def embedded_model_path(name: str = "smollm2-135m") -> Path:
    """The in-package GGUF of a single-package model (the test suite's SmolLM2), unchecked."""
    spec = models.get(name)
    path = model_files.package_file(spec.packages[0])
    if path is None:
        raise ProviderError(f"model {name} is not installed; {model_files.install_hint(spec)}")
    return path


class LlamaCppProvider:
    name = "llama_cpp"
    continues_prefix = True  # GenerateRequest.prefix is continued, not dropped

    def __init__(
        self, cfg: LLMConfig, models_dir: Path | None = None, head_cache_dir: Path | None = None
    ):
        self.cfg = cfg
        self.models_dir = models_dir
        self.model_path = Path(cfg.model_path) if cfg.model_path else None
        self.model_name = "" if cfg.model_path else cfg.model or models.DEFAULT_MODEL
        self.n_threads = cfg.n_threads or usable_cores()
        self.states = SessionStates(cfg.state_cache_mb * 2**20)
        # The agents' prompt heads on disk (head_cache.py): without a directory, off.
        self.heads = HeadCache(
            head_cache_dir or Path(), cfg.head_cache_mb * 2**20 if head_cache_dir else 0
        )
        # (agent, head key) -> the head's tokens as saved; () when the head is not in its prompt
        self._heads_known: dict[tuple[str, bytes], tuple[int, ...]] = {}
        # (agent, head key) -> the tokens its file holds: the head, or the head and an opening
        self._head_files: dict[tuple[str, bytes], tuple[int, ...]] = {}
        self._unsaved_head: tuple[str, str] | None = None  # to save once the reply is sent
        # read_ahead: "done", "yielded" (a turn came first), "tokens" read; the openings after
        # a prewarmed head: "openings", "opening_yields", "opening_tokens"; "interrupted": reads
        # of any kind that a turn stopped mid-chunk
        self.read_aheads: Counter[str] = Counter()
        self.extra_buffers = cpu_quirks.decide(cfg.extra_buffers, cpu_quirks.cpu_flags())
        self._llm: Any = None
        self._interrupt: Interrupt | None = None  # stops a read ahead mid-chunk

    @property
    def supports_tools(self) -> bool:
        return self.cfg.chat_format in TOOL_FORMATS

    def describe(self) -> dict[str, Any]:
        return {
            "provider": self.name,
            "model": self.model_name or None,
            "model_path": str(self.model_path or ""),
            "n_ctx": self.cfg.n_ctx,
            "n_threads": self.n_threads,
            "flash_attn": self.cfg.flash_attn,
            "omp_wait_policy": os.environ.get("OMP_WAIT_POLICY", ""),
            "extra_buffers": self.extra_buffers.describe(),
            "state_cache": self.states.describe(),
            "head_cache": self.heads.describe(),
            "read_ahead": dict(self.read_aheads),
            # whether a turn stops a read ahead mid-chunk (llama_interrupt.py), or only between
            "read_ahead_interruptible": self._interrupt is not None,
            "chat_format": self.cfg.chat_format or "(from the GGUF file)",
            "tools": self.supports_tools,
        }

    def resolve(self) -> Path:
        """llm.model_path if set, else the catalogued model, joined and checked on first use."""
        if self.model_path is not None:
            if not self.model_path.is_file():
                raise ProviderError(f"model file not found: {self.model_path}")
            return self.model_path
        if self.models_dir is None:
            raise ProviderError("no models directory to keep the joined model in")
        try:
            spec = models.get(self.model_name)
        except models.UnknownModel as exc:
            raise ProviderError(str(exc)) from None
        return model_files.prepare(spec, self.models_dir, log.info)

    def load(self) -> None:
        passive_openmp()
        try:
            from llama_cpp import Llama
        except ImportError as exc:
            raise ProviderError(f"llama-cpp-python is not installed: {exc}") from None
        path = self.resolve()
        self.model_path = path
        if not self.extra_buffers.enabled:
            log.info("llama.cpp extra buffer types off: %s", self.extra_buffers.reason)
        try:
            with cpu_quirks.model_params(self.extra_buffers):
                self._llm = Llama(
                    model_path=str(path),
                    n_ctx=self.cfg.n_ctx,
                    n_threads=self.n_threads,
                    n_threads_batch=self.n_threads,
                    flash_attn=self.cfg.flash_attn,
                    chat_format=self.cfg.chat_format or None,
                    seed=self.cfg.seed if self.cfg.seed >= 0 else 0xFFFFFFFF,
                    verbose=False,
                )
        except Exception as exc:  # llama.cpp reports a bad file as ValueError or RuntimeError
            raise ProviderError(f"cannot load {path}: {exc}") from None
        self._interrupt = Interrupt.install(self._llm.ctx)
        if self.heads.capacity > 0:
            self.heads.model = model_identity(
                path,
                {
                    "n_ctx": self.cfg.n_ctx,
                    "n_batch": int(self._llm.n_batch),
                    "extra_buffers": self.extra_buffers.enabled,
                    "chat_format": self.cfg.chat_format,
                    "flash_attn": self.cfg.flash_attn,
                },
            )
            self.heads.drop_other_models()

    def session_closed(self, session_id: str) -> None:
        self.states.forget(session_id)

    def agent_erased(self, agent_id: str) -> None:
        """The agent's memory was erased: its heads on disk (they hold its profile) go."""
        self.heads.drop_agent(agent_id)
        self._heads_known = {k: v for k, v in self._heads_known.items() if k[0] != agent_id}
        self._head_files = {k: v for k, v in self._head_files.items() if k[0] != agent_id}
        if self._unsaved_head is not None and self._unsaved_head[0] == agent_id:
            self._unsaved_head = None

    def close(self) -> None:
        if self._llm is not None:
            self._llm.close()
            self._llm = None
            self._interrupt = None

    def prewarm(
        self,
        agent: str,
        head: str,
        stop: Callable[[], bool] = lambda: False,
        opening: Sequence[dict[str, Any]] = (),
    ) -> str:
        """Read ``head`` (an agent's next first message, as the chat template writes it) into the
        live context while the model is idle, and save its state in the head cache, so that the
        agent's next session reads only what follows the head. ``stop`` is asked between chunks of
        ``PREWARM_CHUNK`` tokens: when it says a turn is waiting, the prewarm leaves off
        ("yielded"; the tokens read so far stay in the context, and a prewarm of the same head
        later goes on from them). The session whose tokens the context held is saved first
        (``SessionStates``), so its next turn does not read its prompt again.

        ``opening`` (the messages a session that opens with a greeting has after the head: its
        directive) is then read after the head into the live context, not saved: the next turn
        of any session starts from it if its prompt begins with the same tokens.

        "done", "cached" (a file or the live context holds it), "yielded", or "skipped" (no cache,
        no model, a ``chat_format`` handler, whose prompt this cannot predict, or no head in it)."""
        done = self._prewarm_head(agent, head, stop)
        if done in ("done", "cached") and opening:
            read = self._read_opening(agent, head, opening, stop)
            return "yielded" if read == "yielded" else done
        return done

    def _read_opening(
        self, agent: str, head: str, opening: Sequence[dict[str, Any]], stop: Callable[[], bool]
    ) -> str:
        """The head (from the head cache if the live context lost it) and ``opening`` after it in
        the live context: "done", "cached" (held already), "yielded" or "skipped"."""
        llm = self._llm
        tokens = self._ahead_tokens([{"role": "system", "content": head}, *opening])
        if tokens is None:
            return "skipped"
        self.states.switch(llm, "")  # the session in the context keeps its state
        self._start_from_head(agent, head, turn=False)  # nothing when the context holds it
        held = llama_state.agreeing(llm, tokens)
        done = "cached"
        if held < len(tokens):
            read = self._read(tokens, held, stop)
            self.read_aheads["opening_tokens"] += llm.n_tokens - held
            self.read_aheads["openings" if read else "opening_yields"] += 1
            if not read:
                return "yielded"
            done = "done"
        key = (agent, self.heads.key(head))
        if self._head_files.get(key) != tuple(tokens):
            # into the head's file too: another agent's turn (or a restart) takes the live context,
            # and a session's first turn restores the head from disk, the opening with it
            saved = llama_state.save_prefix(llm, len(tokens))
            if saved is not None and self.heads.store(
                agent, head, HeadState(saved.tokens, saved.data)
            ):
                self._head_files[key] = saved.tokens
        return done

    def _prewarm_head(self, agent: str, head: str, stop: Callable[[], bool]) -> str:
        llm = self._llm
        if llm is None or not self.heads.enabled or self.cfg.chat_format or not head:
            return "skipped"
        key = (agent, self.heads.key(head))
        if key in self._heads_known or self.heads.path(agent, head).exists():
            return "cached"
        tokens = self._head_tokens(head)
        if not tokens or len(tokens) >= int(llm.n_ctx()):  # none, or one no turn could use
            self._heads_known[key] = ()
            return "skipped"

        self.states.switch(llm, "")  # the session in the context keeps its state
        if not self._read(tokens, llama_state.agreeing(llm, tokens), stop):
            self.heads.counters.prewarm_yields += 1
            return "yielded"
        saved = llama_state.copy_out(llm)
        if saved is None or not self.heads.store(agent, head, HeadState(saved.tokens, saved.data)):
            return "skipped"
        self._heads_known[key] = self._head_files[key] = saved.tokens
        self.heads.counters.prewarms += 1
        return "done"

    def read_ahead(
        self, session: str, messages: list[dict[str, Any]], stop: Callable[[], bool] = lambda: False
    ) -> str:
        """Read what ``session``'s next turn will start with (the chat template's rendering of
        ``messages``, without the assistant header) into the session's context while the model is
        idle: that turn then reads only its own memories, directive and message. Like ``prewarm``
        it keeps the live context's longest prefix that agrees, reads in chunks of
        ``PREWARM_CHUNK`` and leaves off when ``stop`` says a frame is waiting ("yielded"; what was
        read stays, and the next turn's prefix match uses it).

        "done", "yielded", or "skipped" (no model, a ``chat_format`` handler, or a prompt too long
        for the context)."""
        llm = self._llm
        if llm is None or self.cfg.chat_format or not messages or not session:
            return "skipped"
        tokens = self._ahead_tokens(messages)
        if tokens is None:
            return "skipped"
        self.states.switch(llm, session)
        held = llama_state.agreeing(llm, tokens)
        if held == len(tokens):
            return "done"
        done = self._read(tokens, held, stop)
        self.read_aheads["tokens"] += llm.n_tokens - held
        self.read_aheads["done" if done else "yielded"] += 1
        return "done" if done else "yielded"

    def _read(self, tokens: Sequence[int], held: int, stop: Callable[[], bool]) -> bool:
        """``_read_rest`` in the live context: True when it holds ``tokens`` now, False when a
        turn came first (``interrupted`` counts the reads it stopped mid-chunk)."""
        done = _read_rest(self._llm, tokens, held, stop, self._interrupt)
        if done == "interrupted":
            self.read_aheads["interrupted"] += 1
        return done == "done"

    def interrupt_reading(self) -> None:
        """A turn is waiting (called from the runner's reader thread): whatever is being read ahead
        stops now, not at the end of its chunk."""
        if self._interrupt is not None:
            self._interrupt.ring()

    def _ahead_tokens(self, messages: Sequence[dict[str, Any]]) -> list[int] | None:
        """The tokens of ``messages`` as the chat template starts a prompt with them (no assistant
        header), for reading ahead; None when the file's template cannot say, or when the turn
        after them could not fit the context (it reads its own prompt)."""
        text = llama_prefix.template_prompt(self._llm, list(messages), generation=False)
        if text is None:
            return None
        tokens = [int(t) for t in self._llm.tokenize(text.encode(), add_bos=False, special=True)]
        return tokens if len(tokens) < int(self._llm.n_ctx()) - PREWARM_CHUNK else None

    def _head_tokens(self, head: str) -> tuple[int, ...]:
        """The tokens a turn's prompt starts with when its first message is ``head``: the file's own
        chat template rendered and tokenized as the chat path does it, cut where the head ends."""
        text = llama_prefix.template_prompt(
            self._llm, [{"role": "system", "content": head}, {"role": "user", "content": "."}]
        )
        if text is None:
            return ()
        tokens = [int(t) for t in self._llm.tokenize(text.encode(), add_bos=False, special=True)]
        return tuple(tokens[: llama_state.head_length_in(self._llm, tokens, head)])

    def generate(
        self, request: GenerateRequest, emit: Emit, cancelled: threading.Event
    ) -> Completion:
        if self._llm is None:
            raise ProviderError("the model is not loaded")
        self.states.switch(self._llm, request.session)
        self._unsaved_head = None
        if (head := _head_of(request)) and self.heads.enabled:
            self._start_from_head(request.agent, head)
        before = self._perf()
        out = self._weigh(request) if request.choices else self._complete(request, emit, cancelled)
        after = self._perf()
        if before is not None and after is not None:
            out.prompt_eval_tokens = max(0, after[0] - before[0])
            out.prompt_eval_ms = max(0.0, after[1] - before[1])
        return out

    def _start_from_head(self, agent: str, head: str, turn: bool = True) -> None:
        """Before a turn: unless the live context already holds this agent's head, take its state
        from disk; with no file, save it once the reply is sent (``settle``). ``turn`` False: for
        an opening read ahead, which saves nothing."""
        key = (agent, self.heads.key(head))
        known = self._heads_known.get(key)
        if known is not None and (not known or llama_state.holds(self._llm, known)):
            return  # held already, or a head that cannot be cut out of its prompt
        saved = self.heads.load(agent, head)
        if saved is None:
            if turn:
                self.heads.counters.misses += 1
                self._unsaved_head = (agent, head)
            return
        self._head_files[key] = saved.tokens
        # the file may hold an opening after the head (``_read_opening``): what a later turn of the
        # session must find in the context is the head alone
        self._heads_known[key] = saved.tokens[
            : llama_state.head_length_in(self._llm, saved.tokens, head) or len(saved.tokens)
        ]
        if llama_state.holds(self._llm, saved.tokens):
            return
        if llama_state.restore(self._llm, llama_state.Saved(saved.tokens, saved.data)):
            self.heads.counters.restores += 1
        else:  # llama.cpp refused it: never offer it again
            self.heads.counters.corrupt += 1
            self.heads.path(agent, head).unlink(missing_ok=True)
            del self._heads_known[key]
            self._head_files.pop(key, None)

    def settle(self) -> None:
        """After a reply was sent: the work that need not delay it, i.e. writing the head's state
        to disk when the turn had to read it (the runner calls this after each ``done``)."""
        pending, self._unsaved_head = self._unsaved_head, None
        if pending is None or self._llm is None:
            return
        agent, head = pending
        key = (agent, self.heads.key(head))
        try:
            n = llama_state.head_length(self._llm, head)
            saved = llama_state.save_prefix(self._llm, n) if n else None
        except Exception:  # ctypes or llama.cpp: the cache only saves time; read afresh next turn
            log.exception("saving the prompt head's state failed")
            self._llm.reset()
            return
        if saved is None:
            self._heads_known[key] = ()
        elif self.heads.store(agent, head, HeadState(saved.tokens, saved.data)):
            self._heads_known[key] = self._head_files[key] = saved.tokens

    def _weigh(self, request: GenerateRequest) -> Completion:
        """The choices' log-probabilities after the prompt, nothing generated (llama_weigh.py)."""
        try:
            read, logprobs = llama_weigh.weigh(
                self._llm, [m.to_openai() for m in request.messages], request.choices
            )
        except ProviderError:
            raise
        except Exception as exc:
            raise ProviderError(f"llama.cpp failed: {exc}") from None
        return Completion(prompt_tokens=read, choice_logprobs=logprobs)

    def _complete(
        self, request: GenerateRequest, emit: Emit, cancelled: threading.Event
    ) -> Completion:
        kwargs: dict[str, Any] = {
            "messages": [m.to_openai() for m in request.messages],
            "max_tokens": request.max_tokens,
            "temperature": request.temperature,
            "stop": list(request.stop),
            "repeat_penalty": request.repeat_penalty,
        }
        if (
            block := no_copy.for_text(self._llm, request.no_copy, request.no_copy_tokens)
        ) is not None:
            import llama_cpp

            kwargs["logits_processor"] = llama_cpp.LogitsProcessorList([block])
        try:
            if request.tools and self.supports_tools:
                # Function-calling handlers decide on a call only once the whole answer is known.
                kwargs["tools"] = [t.to_openai() for t in request.tools]
                kwargs["tool_choice"] = "auto"
                return self._whole(kwargs, emit)
            if request.prefix and not self.cfg.chat_format:
                head = llama_prefix.template_prompt(self._llm, kwargs["messages"])
                if head is not None:
                    return self._continued(kwargs, head, request.prefix, emit, cancelled)
            return self._streamed(kwargs, emit, cancelled)
        except ProviderError:
            raise
        except Exception as exc:
            raise ProviderError(f"llama.cpp failed: {exc}") from None

    def _perf(self) -> tuple[int, float] | None:
        """llama.cpp's running count of prompt tokens decoded and the milliseconds they took."""
        try:
            import llama_cpp

            data = llama_cpp.llama_perf_context(self._llm.ctx)
            return int(data.n_p_eval), float(data.t_p_eval_ms)
        except (AttributeError, ImportError, OSError):
            return None

    def _streamed(
        self, kwargs: dict[str, Any], emit: Emit, cancelled: threading.Event
    ) -> Completion:
        out = Completion()
        pieces: list[str] = []
        stream = self._llm.create_chat_completion(stream=True, **kwargs)
        try:
            for chunk in stream:
                if cancelled.is_set():
                    out.finish_reason = "cancelled"
                    break
                choice = chunk["choices"][0]
                piece = choice.get("delta", {}).get("content")
                if piece:
                    pieces.append(piece)
                    emit(piece)
                if choice.get("finish_reason"):
                    out.finish_reason = choice["finish_reason"]
        finally:
            stream.close()
        out.text = "".join(pieces)
        out.completion_tokens = len(pieces)
        out.prompt_tokens = max(0, int(self._llm.n_tokens) - len(pieces))
        return out

    def _continued(
        self,
        kwargs: dict[str, Any],
        head: str,
        prefix: str,
        emit: Emit,
        cancelled: threading.Event,
    ) -> Completion:
        """The reply begun with ``prefix`` (llama_prefix.py): the prefix goes out at once, then the
        model's continuation of it as it comes."""
        out = Completion()
        emit(prefix)
        pieces: list[str] = []
        params = {k: v for k, v in kwargs.items() if k != "messages"}
        stream = self._llm.create_completion(prompt=head + prefix, stream=True, **params)
        try:
            for chunk in stream:
                if cancelled.is_set():
                    out.finish_reason = "cancelled"
                    break
                choice = chunk["choices"][0]
                if piece := choice.get("text"):
                    pieces.append(piece)
                    emit(piece)
                if choice.get("finish_reason"):
                    out.finish_reason = choice["finish_reason"]
        finally:
            stream.close()
        out.text = prefix + "".join(pieces)
        out.completion_tokens = len(pieces)
        out.prompt_tokens = max(0, int(self._llm.n_tokens) - len(pieces))
        return out

    def _whole(self, kwargs: dict[str, Any], emit: Emit) -> Completion:
        result = self._llm.create_chat_completion(stream=False, **kwargs)
        choice = result["choices"][0]
        message = choice["message"]
        usage = result.get("usage") or {}
        out = Completion(
            text=message.get("content") or "",
            prompt_tokens=int(usage.get("prompt_tokens", 0)),
            completion_tokens=int(usage.get("completion_tokens", 0)),
            finish_reason=choice.get("finish_reason") or "stop",
        )
        for i, call in enumerate(message.get("tool_calls") or []):
            fn = call["function"]
            try:
                args = json.loads(fn.get("arguments") or "{}")
            except json.JSONDecodeError:
                raise ProviderError(
                    f"the model produced unparsable arguments for {fn.get('name')}"
                ) from None
            out.tool_calls.append(ToolCall(call.get("id") or f"call_{i}", fn["name"], args))
        if out.tool_calls:
            out.finish_reason = "tool_calls"
        elif out.text:
            emit(out.text)
        return out


def _head_of(request: GenerateRequest) -> str:
    """The prompt head of an agent's turn (its first, system, message); "" for other prompts."""
    if not request.agent or not request.messages or request.messages[0].role != "system":
        return ""
    return request.messages[0].content


def _read_rest(
    llm: Any,
    tokens: Sequence[int],
    held: int,
    stop: Callable[[], bool],
    interrupt: Interrupt | None = None,
) -> str:
    """Make the live context hold exactly ``tokens``, of which it holds the first ``held``: what
    follows them goes, the rest is read in chunks of ``PREWARM_CHUNK``, and ``stop`` is asked
    between chunks; a ``ring`` of ``interrupt`` stops the chunk under way (llama_interrupt.py).
    "done", or when a turn is waiting "yielded" (between chunks) or "interrupted" (mid-chunk);
    what was read so far stays either way. Shared by ``prewarm`` (an agent's head) and
    ``read_ahead`` (a session's next turn's start)."""
    import llama_cpp

    llama_cpp.llama_memory_seq_rm(llama_cpp.llama_get_memory(llm.ctx), 0, held, -1)
    llm.n_tokens = held
    with interrupt.armed() if interrupt is not None else contextlib.nullcontext():
        while llm.n_tokens < len(tokens):
            if stop():
                return "yielded"
            try:
                llm.eval(list(tokens[llm.n_tokens : llm.n_tokens + PREWARM_CHUNK]))
            except RuntimeError:
                # an aborted decode leaves whole chunks in the KV cache and ``n_tokens`` unmoved
                if interrupt is None or not interrupt.rung:
                    raise
                return "interrupted"
            finally:
                # llama.cpp books a decode's tokens, an aborted one's too, to its prompt-eval
                # counter at the next synchronise: here, not inside the next turn, whose
                # ``prompt_eval_tokens`` would count this chunk too
                llama_cpp.llama_synchronize(llm.ctx)
    return "done"
