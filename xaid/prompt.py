"""Assembly of what the model reads for one turn, in the order llama.cpp's KV cache rewards.

llama.cpp reuses its cache only for an unchanged prefix, and on a Pi re-reading a prompt costs
seconds. So the parts that change rarely come first and the per-turn parts come last:

1. system: who the agent is (persona_init, extra instructions), the user's profile (L3), and
   the tone guidance (changes only when the mood crosses a band);
2. system: "Earlier: …" chunks of this session (Layer A; written once, only ever appended);
3. the conversation, in order, with the memories recalled at earlier turns of this session
   still in the places where they were first shown;
4. system: the memories this turn recalls that are not shown yet, then the scheduler's
   suggestion, then (when the user asked to forget something) how to confirm it, just before the
   newest user message.

Turn N+1's prompt therefore extends turn N's up to its suggestion (a first turn's only), so the
model re-reads only the last reply, any newly recalled memories and the new message: memories
shown once stay put instead of being re-read every turn. History that does not fit the budget is
dropped oldest-first; so are the oldest "Earlier" chunks beyond a third of it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .providers.base import ChatMessage, ToolCall
from .store.agents import Agent
from .store.sessions import Message

CHARS_PER_TOKEN = 3  # a conservative estimate across English and Chinese; precise counting would cost a model call


@dataclass(frozen=True, slots=True)
class Context:
    """Everything besides the conversation itself that goes into one turn's prompt."""

    profile: str | None = None
    tone: str | None = None
    earlier: tuple[str, ...] = ()
    memories: str | None = None
    suggestion: str | None = None
    forgotten: str | None = None  # the user asked to forget something: how to confirm it
    shown: tuple[tuple[int, str], ...] = ()  # memories of earlier turns: (user message id they preceded, block)
    extra: tuple[str, ...] = field(default_factory=tuple)


def system_prompt(agent: Agent, context: Context = Context()) -> str:
    parts = [f"You are {agent.name}, a companion who talks with the user."]
    if agent.persona_init:
        parts.append(agent.persona_init.strip())
    if extra := agent.config.get("system_prompt"):
        parts.append(str(extra).strip())
    if context.profile:
        parts.append(context.profile)
    if context.tone:
        parts.append(context.tone)
    return "\n\n".join(parts)


def to_chat(msg: Message) -> ChatMessage:
    calls = tuple(ToolCall(c["call_id"], c["name"], c["arguments"]) for c in msg.tool_calls or ())
    return ChatMessage(msg.role, msg.text, calls, msg.tool_call_id)


def estimate_tokens(text: str) -> int:
    return len(text) // CHARS_PER_TOKEN + 4


def build(agent: Agent, history: Sequence[Message], budget_tokens: int, context: Context = Context()
          ) -> tuple[ChatMessage, ...]:
    """The messages for one generation, within ``budget_tokens`` (estimated)."""
    head = ChatMessage("system", system_prompt(agent, context))
    left = budget_tokens - estimate_tokens(head.content)
    late = [ChatMessage("system", text) for text in (context.memories, context.suggestion, context.forgotten)
            if text]
    left -= sum(estimate_tokens(m.content) for m in late)
    earlier = list(context.earlier)
    while earlier and sum(estimate_tokens(e) for e in earlier) > budget_tokens // 3:
        earlier.pop(0)
    earlier_msg = ChatMessage("system", "\n".join(earlier)) if earlier else None
    if earlier_msg:
        left -= estimate_tokens(earlier_msg.content)
    shown = dict(context.shown)
    kept: list[ChatMessage] = []
    for msg in reversed(history):
        block = shown.get(msg.message_id) if msg.message_id is not None else None
        cost = estimate_tokens(msg.text) + (estimate_tokens(block) if block else 0)
        if kept and cost > left:
            break
        kept.append(to_chat(msg))
        if block:
            kept.append(ChatMessage("system", block))
        left -= cost
    kept.reverse()
    while kept and kept[0].role == "tool":  # a tool result without its call confuses every template
        kept.pop(0)
    if late:
        last_user = max((i for i, m in enumerate(kept) if m.role == "user"), default=len(kept))
        kept[last_user:last_user] = late
    return (head, *([earlier_msg] if earlier_msg else []), *kept)
