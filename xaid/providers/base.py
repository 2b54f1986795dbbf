"""What every LLM provider is: blocking calls that run in a worker thread and stream text back.

Providers are deliberately synchronous: llama.cpp and an HTTP stream are both blocking loops,
and the generation queue (xaid.conversation.generation) moves them off the event loop. Cancellation is a
``threading.Event`` checked between tokens, so a vanished client stops generation within one
token.
"""

from __future__ import annotations

import json
import math
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol


class ProviderError(Exception):
    """The model or endpoint failed; the message is safe to show to the client."""


class ProviderCrashed(ProviderError):
    """The process that held the model died during a generation (xaid/providers/runner_supervisor.py).

    Apart from ProviderError because the queue answers it with its own code (``model_crashed``)
    and then restarts the model, where a plain provider error leaves the model as it is."""


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """A client-side tool the agent declares: the model may call it, the client runs it."""

    name: str
    description: str
    parameters: dict[str, Any]

    def to_openai(self) -> dict[str, Any]:
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": self.parameters,
            },
        }


@dataclass(frozen=True, slots=True)
class ToolCall:
    call_id: str
    name: str
    arguments: dict[str, Any]

    def to_wire(self) -> dict[str, Any]:
        return {"call_id": self.call_id, "name": self.name, "arguments": self.arguments}


@dataclass(frozen=True, slots=True)
class ChatMessage:
    role: str  # system | user | assistant | tool
    content: str
    tool_calls: tuple[ToolCall, ...] = ()
    tool_call_id: str | None = None

    def to_openai(self) -> dict[str, Any]:
        """The OpenAI chat shape, which both llama-cpp-python and HTTP endpoints accept."""
        out: dict[str, Any] = {"role": self.role, "content": self.content}
        if self.tool_calls:
            out["tool_calls"] = [
                {
                    "id": c.call_id,
                    "type": "function",
                    "function": {
                        "name": c.name,
                        "arguments": json.dumps(c.arguments, ensure_ascii=False),
                    },
                }
                for c in self.tool_calls
            ]
        if self.tool_call_id is not None:
            out["tool_call_id"] = self.tool_call_id
        return out


@dataclass(frozen=True, slots=True)
class GenerateRequest:
    messages: tuple[ChatMessage, ...]
    tools: tuple[ToolSpec, ...] = ()
    max_tokens: int = 256
    temperature: float = 0.7
    # Whose conversation this is: llama_cpp keeps each session's context state apart (llama_state.py).
    session: str = ""
    # Whose prompt head messages[0] is (an agent's turn); "" for prompts that are not a turn's. The
    # runner keeps each agent's head state on disk under it (xaid/providers/head_cache.py).
    agent: str = ""
    # Against the loops a small model falls into ("Morning.\n\nMorning.\n\n..."): text that ends the
    # reply, and a penalty on tokens already in the context (1.0: none).
    stop: tuple[str, ...] = ()
    repeat_penalty: float = 1.0
    # The user's newest message, which the reply may not copy runs of ``no_copy_tokens`` tokens from
    # (llama_cpp; xaid/providers/no_copy.py). Empty for the memory's own prompts, which quote on purpose.
    no_copy: str = ""
    no_copy_tokens: int = 0
    # The first words of the reply, written by the daemon (xaid/conversation/checkin.py): the model
    # continues them after the assistant header instead of starting its reply from nothing. A
    # provider that can continue (llama_cpp, the runner, scripted) emits them first and returns
    # them as the start of Completion.text; one that cannot (openai) leaves them out.
    prefix: str = ""
    # Answers to weigh instead of generating: the provider reads the prompt and returns, in
    # Completion.choice_logprobs, the log-probability of each one's first token as the reply's first
    # token (a yes/no question asked of the model with its doubt, not only its greedy word: the 1.5B
    # answers "yes" to nearly every such question, yet ranks the answers well; perf/eval/
    # matter_judge.py). A provider that cannot weigh returns no logprobs and generates nothing.
    choices: tuple[str, ...] = ()


@dataclass(slots=True)
class Completion:
    text: str = ""
    tool_calls: list[ToolCall] = field(default_factory=list)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    finish_reason: str = "stop"  # stop | length | tool_calls | cancelled
    # Tokens the model actually read for this completion (fewer than prompt_tokens when a cached
    # prefix was reused) and the time it spent reading them; None when the provider cannot tell.
    prompt_eval_tokens: int | None = None
    prompt_eval_ms: float | None = None
    # For a request with ``choices``: one log-probability per choice, in its order; () when the
    # provider cannot weigh.
    choice_logprobs: tuple[float, ...] = ()


Emit = Callable[[str], None]


def logsumexp(values: Sequence[float]) -> float:
    """The log of the summed chances of ``values`` (log-probabilities): how the memory's questions
    pool a choice's spellings ("yes", "Yes") and choices that answer alike from
    ``Completion.choice_logprobs``."""
    top = max(values)
    return top + math.log(sum(math.exp(v - top) for v in values))


class Provider(Protocol):
    name: str

    @property
    def supports_tools(self) -> bool: ...

    def load(self) -> None:
        """Blocking: make the model ready (may take seconds; runs in the background at start)."""

    def generate(
        self, request: GenerateRequest, emit: Emit, cancelled: threading.Event
    ) -> Completion:
        """Blocking: stream text pieces through ``emit`` and return the whole completion."""
        ...

    def describe(self) -> dict[str, Any]:
        """What ``status`` shows about this provider."""
        ...

    def session_closed(self, session_id: str) -> None:
        """The session is closed for good: whatever the provider kept for it can go."""

    def agent_erased(self, agent_id: str) -> None:
        """Some or all of the agent's memory was erased (xaid.memory.erase): whatever the provider
        kept of the agent's prompts (llama_cpp: its prompt heads on disk) must go."""

    def prewarm(self, agent_id: str, head: str, opening: tuple[ChatMessage, ...] = ()) -> None:
        """The agent's next session will start with ``head`` (its first, system, message), and,
        if it opens with a greeting, with ``opening`` after it (that turn's directive, as it would
        be now): a provider that caches prompts may read them now, while idle (llama_cpp: the
        runner, the head into the head cache, the opening into the live context only); it must
        give way to any turn. Others ignore it."""

    def read_ahead(self, session_id: str, agent_id: str, messages: tuple[ChatMessage, ...]) -> None:
        """The session's next turn will start with ``messages`` (the exchange just stored, and the
        memories held back for after it): a provider that caches prompts may read them now, while the
        user reads the reply (llama_cpp: the runner, into the session's context); it must give way
        to any turn. Others ignore it."""

    def close(self) -> None: ...
