"""Assembly of what the model reads for one turn, in the order llama.cpp's KV cache rewards.

llama.cpp reuses its cache only for an unchanged prefix, and a 1.5B model on two cores reads a
prompt at ~31 tokens/s, so every re-read of the whole prompt costs tens of seconds. The parts that
never change within a session come first and everything that can change per turn comes last:

1. system (the head): who the agent is (name, persona_init, extra instructions), the rules every
   reply keeps, the user's profile (L3) and the standing block (xaid.memory.standing: the latest
   episodes) as they were when the session started. Byte-identical for the whole session: the
   caller snapshots both at the session's first turn, and the runner reads it ahead of time;
2. system: "Earlier: …" chunks of this session (Layer A; written once, only ever appended);
3. the conversation, in order, with the memories recalled at earlier turns of this session
   still in the places where they were first shown (those a turn held back past its slot's cap
   stand after its reply, before the next user message; at the turn that shows them, after its
   directive's steady part and before its tail, both read ahead with them: a turn that cannot show
   them yet still finds the steady part, one whose tone or language moved re-reads only the tail);
4. system: the turn's directive, in the user's language: the tone (the mood's band), the
   scheduler's suggestion or how to confirm a forget request, the language, the agent's name and
   the length of the reply. At a later turn with nothing asked first it is a steady part (the
   name, the tone's rule, the length; in the session's steady language) and then a tail of the
   few words that move with the message (the tone's band, the reply's language), two messages
   with the memories held back at the turn before between them: ``directive``;
5. system: the memories this turn recalls that are not shown yet, ending with how to use them;
   when the directive carries a suggestion or a forget to confirm, 4 and 5 change places
   (``late_parts``);
6. the newest user message.

Turn N+1's prompt therefore extends turn N's up to turn N's directive (which is not kept), so the
model re-reads the previous user message, its reply, any newly recalled memories and the new
message: a mood crossing a band or a new profile no longer re-reads everything. All of that but
the turn's own part is known once the reply is stored (``ahead``), and is read then, with the
directive the next turn has when it asks nothing first: such a turn reads only its new memories (if
any) and its message, and where its tone or language moved, the directive's short tail too.
History that does not fit the budget is dropped oldest-first; so are the
oldest "Earlier" chunks beyond a third of it.

Small models (0.5-1.5B) follow a short imperative placed right before the message much better
than a description placed far away in the system prompt, hence the directive of step 4, and
the memories' own instruction at the end of step 5.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from ..mood.tone import unsaid
from ..providers.base import ChatMessage, ToolCall
from ..store.agents import Agent
from ..store.sessions import Message
from ..text.lang import Lang, language
from ..text.tokens import estimate_tokens

# The context window is a hard limit and the count (xaid.text.tokens) is within a few per cent of the
# model's over a whole prompt, either way: a twentieth of the budget is left unfilled.
HEADROOM = 20

# Ends a reply where a small model starts writing the user's next line itself; the chat template's
# own end-of-turn token stops it otherwise.
STOP = ("<|im_end|>", "<|im_start|>", "<|endoftext|>", "\nUser:", "\nuser:", "\n用户：")


@dataclass(frozen=True, slots=True)
class Context:
    """Everything besides the conversation itself that goes into one turn's prompt."""

    profile: str | None = None  # as of the session's start: it goes into the head
    standing: str | None = None  # xaid.memory.standing, as of the session's start: in the head too
    card: str | None = None  # a client's own system text for the session (the HTTP surface)
    tone: str | None = None  # in the user's language (xaid.mood.tone.guidance(state, lang))
    earlier: tuple[str, ...] = ()
    folded_upto: tuple[int, ...] = ()  # the last message id each chunk of ``earlier`` folded
    folds: int | None = (
        None  # None: ``history`` is what follows every chunk; else how many chunks to use
    )
    memories: str | None = None
    suggestion: str | None = (
        None  # a directive in the user's language (xaid.scheduler.fire.Verdict.directive)
    )
    forgotten: str | None = None  # the user asked to forget something: how to confirm it
    shown: tuple[
        tuple[int, str], ...
    ] = ()  # memories of earlier turns: (user message id they preceded, block)
    lang: Lang | None = None  # the user's language; None: detected from the history
    # A later turn's directive in two parts (``directive``): its steady part in this language, then
    # the tail that moves with the message (the tone, without its rule, and the reply's language).
    # None: the session's first turn, whose directive is one sentence after another as it was.
    steady: Lang | None = None
    instructions: str = ""  # the agent's own extra instructions (AgentConfig.system_prompt)
    extra: tuple[str, ...] = field(default_factory=tuple)


def system_prompt(agent: Agent, context: Context = Context()) -> str:
    """The head: nothing in it may change during a session (see the module docstring)."""
    parts = [
        f"You are {agent.name}, the user's friend and companion, not an assistant: talk like a close "
        f"friend texting back, warmly and briefly, and never offer help like a service. Your name is "
        f"{agent.name}; never call yourself by any other name, and never call the user {agent.name}. Reply "
        f"in the language the user writes in."
    ]
    if agent.persona_init:
        parts.append(agent.persona_init.strip())
    if context.instructions:
        parts.append(context.instructions.strip())
    if context.card:
        parts.append(context.card.strip())
    if context.profile:
        parts.append(context.profile)
    if context.standing:
        parts.append(context.standing)
    return "\n\n".join(parts)


@dataclass(frozen=True, slots=True)
class _Phrasing:
    friend: str  # formats {name}
    recall: str  # without this a small model reads the memories and ignores them
    length: str
    joiner: str
    # a later turn's directive says the length and the language apart: the length in its steady
    # part, the language in its tail (the user may switch languages from one message to the next)
    sentences: str
    language: str


_PHRASING: dict[Lang, _Phrasing] = {
    "zh": _Phrasing(
        "你是{name}，对方的朋友。",
        "如果你记得的事和对方现在说的有关，就自然地提一句，表示关心。",
        "用中文回复，一到三句话，简短自然。",
        "",
        "回复一到三句话，简短自然。",
        "用中文回复。",
    ),
    "en": _Phrasing(
        "You are {name}, their friend.",
        "If something you remember matters to what they say now, bring it up with a caring word.",
        "Reply in English, in one to three short sentences.",
        " ",
        "Reply in one to three short sentences.",
        "Reply in English.",
    ),
}


def asks_first(context: Context) -> bool:
    """Whether the turn has something to do before anything else: the scheduler's suggestion or
    the confirmation of a forget request."""
    return bool(context.forgotten or context.suggestion)


def directive(agent: Agent, context: Context, lang: Lang) -> str:
    """The turn's instruction, in the user's language: who speaks, what to do first, then how to
    say it. It does not say how to use the turn's memories: that line closes their own block
    (``recalled``), so with nothing to do first the directive is the same whether or not the turn
    recalls anything, and the one read ahead after the previous reply still holds.

    At a later turn with nothing to do first (``context.steady``) it is a steady part and a tail:
    what does not depend on the message first (who speaks, that the tone is shown and never named,
    the length; in the session's steady language), then the tone's few words and the reply's
    language. The read-ahead after the previous reply holds the steady part whatever the user says
    next, so a turn whose tone or language moved reads only the tail again (5-20 tokens), not the
    whole directive (53-72 on a LoCoMo-size agent, 1.2-1.6 s on the 1.5B on two cores). The prompt
    holds the two as separate messages (``late_parts``); this is their text joined (``explain``)."""
    if context.steady is not None and not asks_first(context):
        return f"{steady(agent, context.steady)}{_PHRASING[context.steady].joiner}{tail(context, lang)}"
    words = _PHRASING.get(lang, _PHRASING["en"])
    first = context.forgotten or context.suggestion
    parts = [words.friend.format(name=agent.name)]
    if first:
        parts.append(first)
    if context.tone:
        parts.append(context.tone)
    parts.append(words.length)
    return words.joiner.join(parts)


def steady(agent: Agent, lang: Lang) -> str:
    """A later turn's directive up to its tail, the same for every message of the session in
    ``lang``: who speaks, that the tone is shown and never named, the length."""
    words = _PHRASING[lang]
    return words.joiner.join((words.friend.format(name=agent.name), unsaid(lang), words.sentences))


def tail(context: Context, lang: Lang) -> str:
    """A later turn's directive after its steady part, in the user's language: the tone without
    its rule (``context.tone``, ``xaid.mood.tone.guidance(..., rule=False)``), then the language."""
    words = _PHRASING.get(lang, _PHRASING["en"])
    return words.joiner.join(t for t in (context.tone, words.language) if t)


def recalled(context: Context, lang: Lang) -> str | None:
    """The turn's new memories as the model reads them, or None. With nothing to do first they end
    with the line on using them (without it a small model reads the memories and ignores them);
    with a suggestion or a forget to confirm, that instruction is what the reply does, and the
    memories stand bare."""
    if not context.memories:
        return None
    if asks_first(context):
        return context.memories
    return f"{context.memories}\n{_PHRASING.get(lang, _PHRASING['en']).recall}"


def late_parts(agent: Agent, context: Context, lang: Lang) -> tuple[str, ...]:
    """What stands between the conversation and the newest user message, in order.

    With nothing to do first: the directive, then the memories new to the turn; at a later turn
    the directive is two messages, its steady part and its tail (``directive``), so that a held-back
    block can stand between them (``_assemble``). The directive is
    what the runner read ahead after the previous reply (``ahead``), so a turn that recalls new
    memories reads only them and its message before its first word, not the directive again
    (40-80 tokens, 1.3-2.5 s on the 1.5B on two cores). With a suggestion or a forget to confirm
    the directive stands last, right before the message, where a small model follows it best
    (that directive was never guessed ahead at a later turn, so its place costs nothing)."""
    block = recalled(context, lang)
    if context.steady is not None and not asks_first(context):
        # two messages: memories held back at the turn before stand between them (``_assemble``)
        parts: tuple[str | None, ...] = (steady(agent, context.steady), tail(context, lang), block)
    else:
        said = directive(agent, context, lang)
        parts = (block, said) if asks_first(context) else (said, block)
    return tuple(text for text in parts if text)


def to_chat(msg: Message) -> ChatMessage:
    calls = tuple(ToolCall(c["call_id"], c["name"], c["arguments"]) for c in msg.tool_calls or ())
    return ChatMessage(msg.role, msg.text, calls, msg.tool_call_id)


def build(
    agent: Agent, history: Sequence[Message], budget_tokens: int, context: Context = Context()
) -> tuple[ChatMessage, ...]:
    """The messages for one generation, within ``budget_tokens`` (estimated)."""
    return _assemble(agent, history, budget_tokens, context)[0]


# The next user message's stand-in when the next turn's prompt is built ahead of it (``ahead``):
# an id after every stored one (the view keeps messages by id past the fold cut)
AHEAD_ID = 2**63 - 1


def ahead(
    agent: Agent, history: Sequence[Message], budget_tokens: int, context: Context
) -> tuple[ChatMessage, ...]:
    """What the next turn's prompt will start with, known once a reply is stored: everything
    before that turn's own memories and message (the part that depends on what the user says
    next), then the directive that turn has when it asks nothing first (this turn's tone and
    language, no suggestion: a session's later turns have none), whether or not it recalls new
    memories (they stand after it: ``late_parts``). ``context.shown`` may key blocks
    on ``AHEAD_ID``: they go where the next user message's blocks will. The provider reads these
    while the user reads the reply, so the next turn reads only its own part (llama.cpp keeps the
    longest unchanged prefix).

    Why the directive too: it stands right before the message and is not kept, so every later turn
    read it again before its first word (18-64 tokens, half or more of what a turn read in
    session_ttft: 0.6-2 s on two cores). A turn whose tone or language moved, or that asks
    something first, has another directive there: its prompt parts from the read-ahead at that
    message, and it reads what it read before; nothing is lost but idle reading."""
    if not history:
        return ()
    last = history[-1]
    stand_in = Message(last.session_id, last.agent_id, "user", "", last.ts_ms, message_id=AHEAD_ID)
    quiet = replace(context, memories=None, suggestion=None, forgotten=None)
    messages = _assemble(agent, [*history, stand_in], budget_tokens, quiet)[0]
    return messages[:-1]  # the stand-in


def folds_needed(
    agent: Agent,
    history: Sequence[Message],
    budget_tokens: int,
    context: Context,
    at_least: int = 0,
) -> int:
    """How many of the session's "Earlier" chunks (``context.folded_upto``) must stand in for their
    messages so that every later message fits the budget: the fewest, and never fewer than last
    turn's ``at_least``, so the prompt's middle changes only when the context is full."""
    for k in range(min(at_least, len(context.earlier)), len(context.earlier)):
        if not _assemble(agent, history, budget_tokens, replace(context, folds=k))[1]:
            return k
    return len(context.earlier)


def _assemble(
    agent: Agent, history: Sequence[Message], budget_tokens: int, context: Context
) -> tuple[tuple[ChatMessage, ...], bool]:
    """The messages, and whether any message had to be dropped for the budget."""
    head = ChatMessage("system", system_prompt(agent, context))
    left = budget_tokens - budget_tokens // HEADROOM - estimate_tokens(head.content)
    earlier = list(context.earlier)
    if (
        context.folds is not None
    ):  # ``history`` is the whole session: show chunks[:folds], then what follows them
        cut = context.folded_upto[context.folds - 1] if context.folds else 0
        earlier = earlier[: context.folds]
        history = [m for m in history if (m.message_id or 0) > cut]
    lang = context.lang or language([m.text for m in history if m.role == "user"])
    late = [ChatMessage("system", text) for text in late_parts(agent, context, lang)]
    left -= sum(estimate_tokens(m.content) for m in late)
    while earlier and sum(estimate_tokens(e) for e in earlier) > budget_tokens // 3:
        earlier.pop(0)
    earlier_msg = ChatMessage("system", "\n".join(earlier)) if earlier else None
    if earlier_msg:
        left -= estimate_tokens(earlier_msg.content)
    shown: dict[int, list[str]] = {}
    for message_id, text in context.shown:  # a message may carry more than one block, in order
        shown.setdefault(message_id, []).append(text)
    kept: list[ChatMessage] = []
    taken = 0
    for msg in reversed(history):
        blocks = shown.get(msg.message_id, []) if msg.message_id is not None else []
        cost = estimate_tokens(msg.text) + sum(estimate_tokens(b) for b in blocks)
        if kept and cost > left:
            break
        kept.append(to_chat(msg))
        taken += 1
        kept.extend(ChatMessage("system", b) for b in reversed(blocks))
        left -= cost
    kept.reverse()
    while kept and kept[0].role == "tool":  # a tool result without its call confuses every template
        kept.pop(0)
    last_user = max((i for i, m in enumerate(kept) if m.role == "user"), default=len(kept))
    kept[last_user:last_user] = late
    if late and not asks_first(context):
        # the directive (a later turn's: its steady part) goes before the blocks the newest
        # message carries (the memories held back at the turn before; ``ahead``'s stand-in's), and
        # a later turn's tail after them. The read-ahead ends with the steady part, the held-back
        # block and the guessed tail: a turn whose block is not shown (not read in time) still
        # finds the steady part read and reads from its tail on, and one whose tone or language
        # moved re-reads only the tail, not the block before it (LoCoMo's turn 2 in session_ttft
        # read 109 tokens, the block again, when it stood after the whole directive; issue 28
        # item 3)
        at = last_user
        while at > 0 and kept[at - 1].role == "system" and _carried(kept[at - 1], history, shown):
            at -= 1
        kept.insert(at, kept.pop(last_user))
    return (head, *([earlier_msg] if earlier_msg else []), *kept), taken < len(history)


def _carried(message: ChatMessage, history: Sequence[Message], shown: dict[int, list[str]]) -> bool:
    """Whether ``message`` is one of the memory blocks the newest user message carries."""
    newest = next((m for m in reversed(history) if m.role == "user"), None)
    if newest is None or newest.message_id is None:
        return False
    return message.content in shown.get(newest.message_id, [])
