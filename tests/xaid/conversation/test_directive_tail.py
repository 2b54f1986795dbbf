"""A later turn's directive in two parts (issue 28 item 3): a steady part, the same whatever the user
says next and read ahead after the previous reply, then a short tail that moves with the message
(the tone's words and the reply's language). No model is involved in the first tests: they check
the message lists a provider would receive; the last one runs a real daemon and database with the
scripted provider standing in for llama.cpp (what it is handed to read ahead is recorded)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from testkit.inproc import InProcessDaemon
from xaid.conversation import prompt
from xaid.mood import tone
from xaid.mood.state import MoodState
from xaid.providers.base import ChatMessage, Completion, GenerateRequest
from xaid.providers.scripted import ScriptedProvider
from xaid.store.agents import Agent
from xaid.store.sessions import Message
from xaid.text import tokens
from xaid.text.lang import Lang

AGENT = Agent("mei", "Mei", "A warm, curious friend.")
TIRED = MoodState(valence=-0.1, arousal=0.3, fatigue=0.6, confidence=0.8)
LOW = MoodState(valence=-0.4, arousal=0.3, fatigue=0.0, confidence=0.8)
T0 = 1_764_579_600_000
MINUTE = 60_000


def msg(i: int, role: str, text: str) -> Message:
    return Message("s", "mei", role, text, i * 1000, message_id=i)


def shared_chars(a: str, b: str) -> int:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


@pytest.mark.parametrize(
    ("steady", "lang", "before", "after", "text"),
    [
        ("en", "en", TIRED, LOW, "Honestly the whole week has been a mess."),
        ("zh", "zh", TIRED, LOW, "这周真是一团糟，什么都不顺。"),
        (
            "en",
            "zh",
            LOW,
            LOW,
            "算了，不说这个了，晚上吃什么？",
        ),  # an English session, one line in Chinese
        (
            "zh",
            "en",
            None,
            TIRED,
            "ok sorry, long day at work",
        ),  # a Chinese session, one line in English
    ],
)
def test_a_moved_tone_or_language_rereads_only_the_tail(
    steady: Lang, lang: Lang, before: MoodState | None, after: MoodState, text: str
) -> None:
    """The read-ahead guessed the previous turn's tone and language; the turn's tone or language
    moved. Its prompt agrees with the read-ahead up to the directive's tail, and what it reads from
    there before the message is the tail (a few words) and its memories, not the whole directive."""
    was: Lang = steady
    history = [msg(1, "user", "hey / 你好"), msg(2, "assistant", "hi!")]
    guessed = prompt.Context(
        tone=tone.guidance(before, was, rule=False) if before else None, lang=was, steady=steady
    )
    read_ahead = prompt.ahead(AGENT, history, 2000, guessed)
    history.append(msg(3, "user", text))
    now = prompt.Context(tone=tone.guidance(after, lang, rule=False), lang=lang, steady=steady)
    turn = prompt.build(AGENT, history, 2000, now)
    # everything up to the directive's tail, its steady part included, is what was read ahead
    assert turn[: len(read_ahead) - 1] == read_ahead[:-1]
    assert read_ahead[-2].content == prompt.steady(AGENT, steady)
    guess, said = read_ahead[-1].content, turn[len(read_ahead) - 1].content
    assert guess != said and said == prompt.tail(now, lang)
    assert prompt.directive(AGENT, now, lang).endswith(said)
    reread = tokens.count(said)
    whole = tokens.count(
        prompt.directive(AGENT, prompt.Context(tone=tone.guidance(after, lang)), lang)
    )
    assert reread * 2 < whole, (said, reread, whole)
    # the tail says the reply's language and the tone in the user's language
    assert said.endswith("Reply in English." if lang == "en" else "用中文回复。")
    assert (tone.guidance(after, lang, rule=False) or "") in said
    assert turn[-1] == ChatMessage("user", text)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_session_first_turn_keeps_its_directive_as_it_was(lang: Lang) -> None:
    """The first turn (no steady language) reads the one directive it always did: friend, tone with
    its rule, then the length and language in one sentence (the Morning scene's first reply)."""
    guidance = tone.guidance(TIRED, lang)
    assert guidance is not None
    said = prompt.directive(AGENT, prompt.Context(tone=guidance, lang=lang), lang)
    friend, length = (
        ("你是Mei，对方的朋友。", "用中文回复，一到三句话，简短自然。")
        if lang == "zh"
        else (
            "You are Mei, their friend.",
            "Reply in English, in one to three short sentences.",
        )
    )
    joiner = "" if lang == "zh" else " "
    assert said == joiner.join((friend, guidance, length))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_later_turn_that_asks_first_keeps_the_whole_directive_last(lang: Lang) -> None:
    """A forget to confirm at a later turn: the directive stays one whole, right before the message,
    with the tone's rule in it (such a directive was never guessed ahead)."""
    guidance = tone.guidance(TIRED, lang)
    forgot = "Confirm you will forget it." if lang == "en" else "确认你会忘掉这件事。"
    ctx = prompt.Context(tone=guidance, forgotten=forgot, lang=lang, steady="en")
    said = prompt.directive(AGENT, ctx, lang)
    assert forgot in said and guidance is not None and guidance in said
    assert prompt.steady(AGENT, "en") not in said
    built = prompt.build(AGENT, [msg(1, "user", "forget it / 忘了吧")], 2000, ctx)
    assert built[-2].content == said


@pytest.mark.parametrize(
    ("lines", "langs"),
    [
        (["I'm so tired today.", "Work was a disaster.", "Anyway, what should I cook?"], "en"),
        (["今天好累啊。", "工作一团糟。", "算了，晚上做什么吃？"], "zh"),
        (
            [
                "Morning! Slept badly.",
                "老板又加了任务。",
                "Any ideas for the weekend?",
                "明天要面试。",
            ],
            "both",
        ),
    ],
)
def test_read_ahead_holds_the_steady_part_of_the_next_directive(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lines: list[str], langs: str
) -> None:
    """End to end: a daemon on a real database, the scripted provider standing in for llama.cpp and
    recording what it is handed to read ahead. At every later turn, the directive it reads starts
    with the directive's steady part read ahead after the previous reply, whatever the tone did and
    even when the user writes in the other language (the steady part keeps the session's)."""
    requests: list[GenerateRequest] = []
    aheads: list[tuple[ChatMessage, ...]] = []
    real = ScriptedProvider.generate

    def recording(
        self: ScriptedProvider, request: GenerateRequest, emit: Any, cancelled: Any
    ) -> Completion:
        requests.append(request)
        return real(self, request, emit, cancelled)

    monkeypatch.setattr(ScriptedProvider, "generate", recording)
    monkeypatch.setattr(ScriptedProvider, "reads_ahead", True)
    monkeypatch.setattr(
        ScriptedProvider, "read_ahead", lambda self, sid, agent, msgs: aheads.append(msgs)
    )
    with InProcessDaemon(tmp_path / "d") as proc, proc.client() as c:
        c.agent_create("mei", name="Mei")
        sid = c.session_open("mei", ts=T0)["session_id"]
        contexts = [
            c.session_send(sid, text, ts=T0 + i * MINUTE, explain=True).finish()["context"]
            for i, text in enumerate(lines)
        ]
    prompts = [r.messages for r in requests if r.session == sid]
    assert len(aheads) == len(lines)
    first_lang: Lang = contexts[0]["lang"]
    # the first turn's directive is the whole one, as before
    assert contexts[0]["directive"].startswith(prompt.steady(AGENT, first_lang)) is False
    for n in range(1, len(lines)):
        ahead, turn, ctx = aheads[n - 1], prompts[n], contexts[n]
        # the exchange, what stood before it and the directive's steady part
        assert turn[: len(ahead) - 1] == ahead[:-1]
        stable = prompt.steady(AGENT, first_lang)  # no two turns in a row switched the session
        assert ahead[-2].content == stable, ahead
        said = turn[len(ahead) - 1].content  # the tail, guessed or not
        assert ctx["directive"].startswith(stable) and ctx["directive"].endswith(said)
        assert said.endswith("Reply in English." if ctx["lang"] == "en" else "用中文回复。")


@pytest.mark.parametrize(
    ("lang", "held", "text"),
    [
        (
            "en",
            "You remember:\n- (last May) The user's sister Anna moved to Kyoto.",
            "So, any plans?",
        ),
        ("zh", "你记得：\n- （去年五月）用户的妹妹安娜搬去了京都。", "周末有什么安排吗？"),
    ],
)
def test_a_held_back_block_stands_between_the_steady_part_and_the_tail(
    lang: Lang, held: str, text: str
) -> None:
    """The memories a turn held back past its slot are read ahead after its reply and shown before
    the next message only if the provider had the time to read them. The read-ahead is the steady
    part of the directive, that block, then the guessed tail, so the next turn agrees with it:
    through the tail when the block is shown and the tail holds (it reads its new memories and
    message); through the block when the tone or the language moved (it reads the tail again, not
    the block: LoCoMo's turn 2 re-read 109 tokens when the block stood after the whole directive);
    through the steady part when the block is not shown. Its new memories still end the prompt with
    the line on using them."""
    other: Lang = "zh" if lang == "en" else "en"
    history = [msg(1, "user", "hey / 你好"), msg(2, "assistant", "hi!")]
    context = prompt.Context(lang=lang, steady=lang, shown=((prompt.AHEAD_ID, held),))
    read_ahead = prompt.ahead(AGENT, history, 2000, context)
    assert [m.content for m in read_ahead[-3:]] == [
        prompt.steady(AGENT, lang),
        held,
        prompt.tail(context, lang),
    ]
    history.append(msg(3, "user", text))
    new = "- (2 days ago) 用户下周去上海。"
    cases: tuple[tuple[tuple[tuple[int, str], ...], Lang, int], ...] = (
        (((3, held),), lang, len(read_ahead)),  # shown, the tail as guessed
        (((3, held),), other, len(read_ahead) - 1),  # shown, a line in the other language
        ((), lang, len(read_ahead) - 2),  # not read in time: not shown
    )
    for shown, said_in, agreed in cases:
        ctx = prompt.Context(lang=said_in, steady=lang, shown=shown, memories=new)
        turn = prompt.build(AGENT, history, 2000, ctx)
        assert turn[:agreed] == read_ahead[:agreed]
        rest = [m.content for m in turn[agreed:]]
        tail = [] if agreed == len(read_ahead) else [prompt.tail(ctx, said_in)]
        assert rest == [*tail, prompt.recalled(ctx, said_in), text], rest
        assert held not in rest


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_directive_that_asks_first_still_stands_last(lang: Lang) -> None:
    """A forget to confirm stands right before the message, after a held-back block too."""
    held = "You remember:\n- (last May) Anna moved to Kyoto."
    history = [msg(1, "user", "hi"), msg(2, "assistant", "hi!"), msg(3, "user", "forget Anna")]
    ctx = prompt.Context(lang=lang, steady=lang, shown=((3, held),), forgotten="Confirm it.")
    turn = prompt.build(AGENT, history, 2000, ctx)
    assert [m.content for m in turn[-3:]] == [
        held,
        prompt.directive(AGENT, ctx, lang),
        "forget Anna",
    ]
