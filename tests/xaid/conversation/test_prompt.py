"""Prompt assembly in KV-cache order: what turn N+1 shares with turn N decides how much a Pi
re-reads. No model is involved: these check the message lists the provider would receive."""

from __future__ import annotations

import dataclasses

from xaid.conversation import prompt
from xaid.providers.base import ChatMessage
from xaid.store.agents import Agent
from xaid.store.sessions import Message
from xaid.text.lang import Lang

AGENT = Agent("mei", "Mei", "A warm, curious friend.")
M1 = "Things you remember from earlier conversations:\n- (yesterday) The user's sister Anna lives in Kyoto."
M2 = "Things you remember from earlier conversations:\n- (3 days ago) 用户下周去上海见客户。"
SUGGEST = "Consider asking about: the interview."


def msg(i: int, role: str, text: str) -> Message:
    return Message("s", "mei", role, text, i * 1000, message_id=i)


def common_prefix(a: tuple[ChatMessage, ...], b: tuple[ChatMessage, ...]) -> int:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


def late(ctx: prompt.Context, lang: Lang = "en") -> str:
    return prompt.directive(AGENT, ctx, lang)


def test_next_turn_extends_this_one_and_keeps_shown_memories_in_place() -> None:
    history = [msg(1, "user", "Morning! Any news from Anna?")]
    ctx1 = prompt.Context(
        profile="The user works at Globex.", tone="Tone: easy.", memories=M1, suggestion=SUGGEST
    )
    turn1 = prompt.build(AGENT, history, 2000, ctx1)
    assert [m.content for m in turn1[1:]] == [M1, late(ctx1), history[0].text]
    assert SUGGEST in late(ctx1) and "Tone: easy." in late(ctx1)

    history += [msg(2, "assistant", "Good morning!"), msg(3, "user", "我下周要去上海。")]
    ctx2 = prompt.Context(
        profile="The user works at Globex.", tone="语气：轻松。", memories=M2, shown=((1, M1),)
    )
    turn2 = prompt.build(AGENT, history, 2000, ctx2)
    assert [m.content for m in turn2[1:]] == [
        M1,
        history[0].text,
        "Good morning!",
        late(ctx2, "zh"),
        prompt.recalled(ctx2, "zh"),
        history[2].text,
    ]
    # everything before the first turn's directive is reused as it was
    assert common_prefix(turn1, turn2) == 2

    history += [msg(4, "assistant", "好的！"), msg(5, "user", "And Anna?")]
    ctx3 = prompt.Context(
        profile="The user works at Globex.", tone="Tone: easy.", shown=((1, M1), (3, M2))
    )
    turn3 = prompt.build(AGENT, history, 2000, ctx3)
    # nothing new recalled: turn 3 parts from turn 2 at turn 2's directive, and re-reads turn 2's
    # memories (now where they were shown, without the line on using them), its user message and
    # reply (all read ahead after that reply), its directive and the new message
    assert common_prefix(turn2, turn3) == len(turn2) - 3
    assert turn3[len(turn2) - 3 :] == (
        ChatMessage("system", M2),
        ChatMessage("user", history[2].text),
        ChatMessage("assistant", "好的！"),
        ChatMessage("system", late(ctx3)),
        ChatMessage("user", "And Anna?"),
    )


def test_memories_shown_with_a_dropped_message_go_with_it() -> None:
    history = [msg(1, "user", "x" * 3000), msg(2, "assistant", "ok"), msg(3, "user", "and now?")]
    built = prompt.build(AGENT, history, 400, prompt.Context(shown=((1, M1),), memories=M2))
    contents = [m.content for m in built]
    assert M1 not in contents and history[0].text not in contents
    ctx = prompt.Context(memories=M2)
    assert contents[-3:] == [late(ctx), prompt.recalled(ctx, "en"), "and now?"]


def test_with_nothing_asked_first_the_directive_read_ahead_holds_when_new_memories_come() -> None:
    """Issue 28 item 3: after a reply the runner reads the next turn's start ahead, ending with the
    directive that turn has when it asks nothing first. New memories stand after that directive, so
    the turn that recalls them reads only them and its message, in both languages; their block ends
    with how to use them."""
    cases: tuple[tuple[Lang, str, str, str], ...] = (
        ("en", M1, "Tone: easy.", "Anna called me yesterday."),
        ("zh", M2, "语气：轻松。", "我下周要去上海。"),
    )
    for lang, memories, tone, text in cases:
        history = [msg(1, "user", text), msg(2, "assistant", "ok!")]
        read_ahead = prompt.ahead(AGENT, history, 2000, prompt.Context(tone=tone, lang=lang))
        history.append(msg(3, "user", text))
        ctx = prompt.Context(tone=tone, memories=memories, lang=lang)
        turn = prompt.build(AGENT, history, 2000, ctx)
        assert turn[: len(read_ahead)] == read_ahead
        assert turn[len(read_ahead) :] == (
            ChatMessage("system", prompt.recalled(ctx, lang) or ""),
            ChatMessage("user", text),
        )
        block = prompt.recalled(ctx, lang) or ""
        assert block.startswith(memories) and len(block) > len(memories)
        assert late(ctx, lang) == late(prompt.Context(tone=tone), lang)


def test_a_suggestion_stands_last_after_the_bare_memories() -> None:
    """A suggestion or a forget to confirm is what the reply does first: its directive stands right
    before the message, where a small model follows it best, and the memories before it carry no
    line of their own on how to use them."""
    for forgot in (None, "Confirm you will not bring up Anna again."):
        ctx = prompt.Context(memories=M1, suggestion=None if forgot else SUGGEST, forgotten=forgot)
        built = prompt.build(AGENT, [msg(1, "user", "hey")], 2000, ctx)
        assert [m.content for m in built[1:]] == [M1, late(ctx), "hey"]
        assert (forgot or SUGGEST) in late(ctx)


def test_no_memories_means_only_the_directive_before_the_message() -> None:
    history = [msg(1, "user", "hi")]
    built = prompt.build(AGENT, history, 2000)
    assert [m.role for m in built] == ["system", "system", "user"]
    assert built[1].content == late(prompt.Context())


def test_a_tone_change_leaves_the_head_and_everything_before_the_last_directive_alone() -> None:
    """Regression: the tone used to sit in the head, so a mood crossing a band re-read the whole prompt."""
    profile = "What you know about the user: The user works at Globex."
    history = [msg(1, "user", "hi"), msg(2, "assistant", "hey!"), msg(3, "user", "work was fine")]
    turn_n = prompt.build(AGENT, history, 2000, prompt.Context(profile=profile))
    history += [msg(4, "assistant", "glad to hear"), msg(5, "user", "actually I'm exhausted")]
    tired = prompt.Context(profile=profile, tone="Tone: They are worn out: be gentle and brief.")
    turn_next = prompt.build(AGENT, history, 2000, tired)
    assert (
        turn_next[0] == turn_n[0]
        and "worn out" not in turn_next[0].content
        and profile in turn_n[0].content
    )
    # turn N's directive and message are its last two; everything before them is reused byte for byte
    assert turn_next[: len(turn_n) - 2] == turn_n[:-2]
    assert turn_next[len(turn_n) - 2 :] == (
        ChatMessage("user", "work was fine"),
        ChatMessage("assistant", "glad to hear"),
        ChatMessage("system", late(tired)),
        ChatMessage("user", "actually I'm exhausted"),
    )
    assert "worn out" in late(tired)


def test_the_directive_is_in_the_users_language_and_names_the_agent() -> None:
    history = [msg(1, "user", "最近怎么样？"), msg(2, "assistant", "还不错"), msg(3, "user", "ok")]
    built = prompt.build(AGENT, history, 2000, prompt.Context(suggestion="先打招呼。"))
    said = built[-2].content
    assert said.startswith("你是Mei") and "用中文回复" in said and "先打招呼。" in said
    built = prompt.build(AGENT, [msg(1, "user", "How was your day?")], 2000)
    assert built[-2].content.startswith("You are Mei") and "Reply in English" in built[-2].content


def _session(n: int) -> list[Message]:
    return [
        msg(i, "user" if i % 2 else "assistant", f"message number {i} about the garden")
        for i in range(1, n + 1)
    ]


def test_layer_a_chunks_stand_in_for_their_messages_only_once_these_do_not_fit() -> None:
    history = _session(29)  # ends with a user message, as a turn does
    ctx = prompt.Context(
        earlier=("Earlier: (12 other messages).", "Earlier: (12 other messages)."),
        folded_upto=(12, 24),
    )
    assert prompt.folds_needed(AGENT, history, 4000, ctx) == 0
    roomy = prompt.build(AGENT, history, 4000, dataclasses.replace(ctx, folds=0))
    assert (
        not any(m.content.startswith("Earlier") for m in roomy)
        and roomy[1].content == history[0].text
    )
    # the next turn extends this one: no fold happened although the chunks exist
    longer = _session(31)
    assert prompt.folds_needed(AGENT, longer, 4000, ctx) == 0
    assert (
        prompt.build(AGENT, longer, 4000, dataclasses.replace(ctx, folds=0))[: len(roomy) - 2]
        == roomy[:-2]
    )
    # once the messages do not fit, the fewest chunks that make them fit stand in for them, and stay
    k = prompt.folds_needed(AGENT, history, 300, ctx)
    assert k >= 1
    tight = prompt.build(AGENT, history, 300, dataclasses.replace(ctx, folds=k))
    assert tight[1].content.startswith("Earlier") and history[0].text not in [
        m.content for m in tight
    ]
    assert prompt.folds_needed(AGENT, history, 4000, ctx, at_least=k) == k
