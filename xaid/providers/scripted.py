"""A deterministic provider for tests: it stands in for a real LLM wherever the test is about
the daemon (framing, streaming, cancellation, tool round-trips, persistence), not the words.

Its behaviour, all derived from the conversation so tests can predict every byte:
- the newest message is a tool result → "tool NAME returned: RESULT";
- the newest user message holds ``[[tool:NAME {json args}]]`` and the agent declares NAME →
  a call of that tool;
- it holds ``[[fail]]`` → a ProviderError;
- it holds ``[[say:TEXT]]`` → TEXT, as a model that wrote it would (tests of what the daemon does
  with a model's words, e.g. xaid.conversation.opening); ``[[say:A||B]]`` → A, then B at the next
  generation with the same words, and so on round: a sampling model whose seed moves on with every
  call (tests of check-in candidates, xaid.conversation.candidates); a ``[[say:...]]`` in the system
  message (an agent's ``system_prompt``) is said when the user's words hold none, so that a test
  can script a reply without the user saying its words;
- otherwise → "echo: " followed by the user's text, streamed one word at a time;
- a request with a ``prefix`` gets the prefix first, then the text above, as a model continuing it;
- a request with ``choices`` is weighed: log-probability 0 for each choice the text above starts
  with (any case), ``UNLIKELY`` for the others, nothing emitted.
"""

from __future__ import annotations

import json
import re
import threading
from typing import Any

from .base import ChatMessage, Completion, Emit, GenerateRequest, ProviderError, ToolCall

_TOOL = re.compile(r"\[\[tool:(\w+)\s*(\{.*?\})?\]\]", re.S)
_SAY = re.compile(r"\[\[say:(.*?)\]\]", re.S)
UNLIKELY = -30.0  # the log-probability of a choice its reply does not start with


class ScriptedProvider:
    name = "scripted"
    continues_prefix = True  # GenerateRequest.prefix is continued, not dropped
    reads_ahead = (
        False  # no prompt cache: the daemon builds no heads to prewarm (a test may patch it)
    )

    def __init__(self, delay_ms: int = 0):
        self.delay_s = delay_ms / 1000
        self.calls = 0
        self.said: dict[str, int] = {}  # generations of each [[say:...]] with alternatives
        self.read_aheads: list[tuple[str, str, tuple[ChatMessage, ...]]] = []

    @property
    def supports_tools(self) -> bool:
        return True

    def load(self) -> None:
        pass

    def describe(self) -> dict[str, Any]:
        return {"provider": self.name, "tools": True, "delay_ms": int(self.delay_s * 1000)}

    def session_closed(self, session_id: str) -> None:
        """Nothing is kept per session here."""

    def agent_erased(self, agent_id: str) -> None:
        """Nothing is kept per agent here."""

    def prewarm(self, agent_id: str, head: str, opening: tuple[ChatMessage, ...] = ()) -> None:
        """Nothing is read ahead here (``reads_ahead`` is False: the daemon does not ask)."""

    def read_ahead(self, session_id: str, agent_id: str, messages: tuple[ChatMessage, ...]) -> None:
        """Nothing is read here; what a patched ``reads_ahead`` was handed is kept for the tests."""
        self.read_aheads.append((session_id, agent_id, messages))

    def close(self) -> None:
        pass

    def _reply(self, request: GenerateRequest) -> str | ToolCall:
        last = request.messages[-1]
        if last.role == "tool":
            name = next(
                (
                    c.name
                    for m in request.messages
                    for c in m.tool_calls
                    if c.call_id == last.tool_call_id
                ),
                "?",
            )
            return f"tool {name} returned: {last.content}"
        user = next((m.content for m in reversed(request.messages) if m.role == "user"), "")
        if "[[fail]]" in user:
            raise ProviderError("scripted failure requested by the test")
        declared = {t.name for t in request.tools}
        if (m := _TOOL.search(user)) and m.group(1) in declared:
            self.calls += 1
            return ToolCall(f"call_{self.calls}", m.group(1), json.loads(m.group(2) or "{}"))
        system = request.messages[0].content if request.messages[0].role == "system" else ""
        if m := _SAY.search(user) or _SAY.search(system):
            said = m.group(1).split("||")
            n = self.said[m.group(1)] = self.said.get(m.group(1), -1) + 1
            return said[n % len(said)]
        return "echo: " + user

    def generate(
        self, request: GenerateRequest, emit: Emit, cancelled: threading.Event
    ) -> Completion:
        reply = self._reply(request)
        prompt_tokens = sum(len(m.content.split()) for m in request.messages)
        if request.choices:  # weighed, not said: the choice its reply starts with is certain
            said = reply.strip().lower() if isinstance(reply, str) else ""
            logprobs = tuple(
                0.0 if said.startswith(c.lower()) else UNLIKELY for c in request.choices
            )
            return Completion("", [], prompt_tokens, 0, "stop", choice_logprobs=logprobs)
        if isinstance(reply, ToolCall):
            return Completion("", [reply], prompt_tokens, 1, "tool_calls")
        words = reply.split(" ")
        pieces = [w if i == 0 else " " + w for i, w in enumerate(words)][: request.max_tokens]
        if request.prefix:
            emit(request.prefix)
        sent: list[str] = [request.prefix] if request.prefix else []
        own = len(sent)  # the prefix is the daemon's words, not completion tokens
        for piece in pieces:
            if cancelled.wait(self.delay_s) if self.delay_s else cancelled.is_set():
                return Completion("".join(sent), [], prompt_tokens, len(sent) - own, "cancelled")
            emit(piece)
            sent.append(piece)
        finish = "length" if len(pieces) < len(words) else "stop"
        return Completion("".join(sent), [], prompt_tokens, len(sent) - own, finish)
