"""Prompt assembly in KV-cache order: what turn N+1 shares with turn N decides how much a Pi
re-reads. No model is involved: these check the message lists the provider would receive."""

from __future__ import annotations

from xaid import prompt
from xaid.providers.base import ChatMessage
from xaid.store.agents import Agent
from xaid.store.sessions import Message

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


def test_next_turn_extends_this_one_and_keeps_shown_memories_in_place() -> None:
    ctx = prompt.Context(profile="The user works at Globex.", tone="Tone: easy.")
    history = [msg(1, "user", "Morning! Any news from Anna?")]
    turn1 = prompt.build(AGENT, history, 2000, prompt.Context(
        profile=ctx.profile, tone=ctx.tone, memories=M1, suggestion=SUGGEST))
    assert [m.content for m in turn1[1:]] == [M1, SUGGEST, history[0].text]

    history += [msg(2, "assistant", "Good morning!"), msg(3, "user", "我下周要去上海。")]
    turn2 = prompt.build(AGENT, history, 2000, prompt.Context(
        profile=ctx.profile, tone=ctx.tone, memories=M2, shown=((1, M1),)))
    assert [m.content for m in turn2[1:]] == [M1, history[0].text, "Good morning!", M2, history[2].text]
    # everything before the first turn's suggestion is reused as it was
    assert common_prefix(turn1, turn2) == 2

    history += [msg(4, "assistant", "好的！"), msg(5, "user", "And Anna?")]
    turn3 = prompt.build(AGENT, history, 2000, prompt.Context(
        profile=ctx.profile, tone=ctx.tone, shown=((1, M1), (3, M2))))
    # nothing new recalled: turn 3 re-reads only the last reply and the new message
    assert common_prefix(turn2, turn3) == len(turn2) and turn3[len(turn2):] == (
        ChatMessage("assistant", "好的！"), ChatMessage("user", "And Anna?"))


def test_memories_shown_with_a_dropped_message_go_with_it() -> None:
    history = [msg(1, "user", "x" * 3000), msg(2, "assistant", "ok"), msg(3, "user", "and now?")]
    built = prompt.build(AGENT, history, 400, prompt.Context(shown=((1, M1),), memories=M2))
    contents = [m.content for m in built]
    assert M1 not in contents and history[0].text not in contents
    assert contents[-2:] == [M2, "and now?"]


def test_no_memories_means_no_extra_messages() -> None:
    history = [msg(1, "user", "hi")]
    built = prompt.build(AGENT, history, 2000)
    assert [m.role for m in built] == ["system", "user"]
