"""Assembly of what the model reads for one turn.

Order matters for llama.cpp's KV cache, which is reused only for an unchanged prefix: the
stable system part comes first, then the conversation in order, so turn N+1's prompt extends
turn N's byte for byte. History that no longer fits the context is dropped oldest-first.
"""

from __future__ import annotations

from collections.abc import Sequence

from .providers.base import ChatMessage, ToolCall
from .store.agents import Agent
from .store.sessions import Message

CHARS_PER_TOKEN = 3  # a conservative estimate across English and Chinese; precise counting would cost a model call


def system_prompt(agent: Agent, tone: str | None = None) -> str:
    """Persona first (changes almost never), then tone (changes when the mood crosses a band)."""
    parts = [f"You are {agent.name}, a companion who talks with the user."]
    if agent.persona_init:
        parts.append(agent.persona_init.strip())
    if extra := agent.config.get("system_prompt"):
        parts.append(str(extra).strip())
    if tone:
        parts.append(tone)
    return "\n\n".join(parts)


def to_chat(msg: Message) -> ChatMessage:
    calls = tuple(ToolCall(c["call_id"], c["name"], c["arguments"]) for c in msg.tool_calls or ())
    return ChatMessage(msg.role, msg.text, calls, msg.tool_call_id)


def estimate_tokens(text: str) -> int:
    return len(text) // CHARS_PER_TOKEN + 4


def build(
    agent: Agent, history: Sequence[Message], budget_tokens: int, tone: str | None = None
) -> tuple[ChatMessage, ...]:
    """The system message and as much of the newest history as fits ``budget_tokens``."""
    system = ChatMessage("system", system_prompt(agent, tone))
    left = budget_tokens - estimate_tokens(system.content)
    kept: list[ChatMessage] = []
    for msg in reversed(history):
        cost = estimate_tokens(msg.text)
        if kept and cost > left:
            break
        kept.append(to_chat(msg))
        left -= cost
    kept.reverse()
    while kept and kept[0].role == "tool":  # a tool result without its call confuses every template
        kept.pop(0)
    return (system, *kept)
