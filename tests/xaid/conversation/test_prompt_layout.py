"""The prompt's layout through the daemon: what stays put across a session's turns.

The scripted provider stands in for the LLM (llama.cpp and its KV cache): what is checked is the
context a model would read (``explain``), turn after turn, on a real daemon and database.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import apsw
import pytest

from testkit.inproc import InProcessDaemon
from xaid.providers.base import Completion, GenerateRequest
from xaid.providers.scripted import ScriptedProvider

T0 = 1_764_579_600_000  # some morning, 09:00 UTC
MINUTE = 60_000
DAY = 24 * 60 * MINUTE


def test_the_head_stays_byte_identical_when_the_mood_crosses_a_band(tmp_path: Path) -> None:
    """Regression: the tone used to be in the head, so this turn re-read the whole prompt."""
    with InProcessDaemon(tmp_path / "d") as proc, proc.client() as c:
        c.agent_create("mia", name="Mia")
        sid = c.session_open("mia", ts=T0)["session_id"]
        texts = [
            "hi there",
            "I'm completely exhausted, worst day ever, so so tired",
            "thanks",
            "累死了，真的好累",
        ]
        turns = [
            c.session_send(sid, t, ts=T0 + i * MINUTE, explain=True).finish()["context"]
            for i, t in enumerate(texts)
        ]
    assert turns[0]["tone"] is None and turns[1]["tone"] is not None
    assert len({t["system_prompt"] for t in turns}) == 1
    assert turns[1]["tone"] in turns[1]["directive"] and "Tone:" not in turns[1]["system_prompt"]
    # one line in Chinese in an English session: the directive's steady part stays the session's
    # (read ahead), its tail is the user's language (xaid.conversation.prompt.directive)
    assert turns[3]["lang"] == "zh" and turns[3]["directive"].startswith("You are Mia")
    assert turns[3]["directive"].endswith("用中文回复。")
    assert turns[3]["tone"] and turns[3]["tone"].startswith("语气：")
    assert turns[3]["tone"] in turns[3]["directive"]


def test_layer_a_folds_reach_the_prompt_only_when_the_context_is_full(tmp_path: Path) -> None:
    env = {"XAID_MEMORY_COMPRESS_EVERY": "6"}
    with InProcessDaemon(tmp_path / "d", env=env) as proc:
        with proc.client() as c:
            c.agent_create("mia", name="Mia")
            sid = c.session_open("mia", ts=T0)["session_id"]
            contexts = [
                c.session_send(
                    sid, f"my plant number {i} needs water", ts=T0 + i * MINUTE, explain=True
                ).finish()["context"]
                for i in range(8)
            ]
        proc.stop()
        conn = apsw.Connection(str(proc.db_path))
        chunks = conn.execute("SELECT count(*) FROM compressions WHERE session_id = ?", (sid,)).get
        conn.close()
    assert chunks >= 2  # Layer A folded as before ...
    # ... but 16 short messages fit 4,096 tokens: the prompt kept them verbatim
    assert [(ctx["earlier"], ctx["folded_upto"]) for ctx in contexts] == [([], 0)] * 8


def test_once_the_context_is_full_chunks_stand_in_and_stay(tmp_path: Path) -> None:
    env = {"XAID_MEMORY_COMPRESS_EVERY": "6", "XAID_LLM_N_CTX": "700"}
    with InProcessDaemon(tmp_path / "d", env=env) as proc, proc.client() as c:
        c.agent_create("mia", name="Mia", config={"max_tokens": 16})
        sid = c.session_open("mia", ts=T0)["session_id"]
        line = (
            "today I repotted the fern, watered the basil and moved the orchid to the sunny window"
        )
        contexts = [
            c.session_send(sid, f"{line} ({i})", ts=T0 + i * MINUTE, explain=True).finish()[
                "context"
            ]
            for i in range(14)
        ]
    uptos = [ctx["folded_upto"] for ctx in contexts]
    assert uptos[0] == 0 and uptos[-1] > 0  # verbatim first, chunks once the budget is reached
    assert uptos == sorted(uptos)  # and a chunk that stood in once stays
    assert (
        len(set(uptos)) < len(uptos) - 4
    )  # the prompt's middle changed at a few turns, not at every one


def test_a_forget_takes_the_profile_out_of_the_head_at_once(tmp_path: Path) -> None:
    """The head keeps the profile of the session's start, except that what the user had deleted leaves it."""
    env = {"XAID_MEMORY_PERSONA_EVERY": "1"}
    with InProcessDaemon(tmp_path / "d", env=env) as proc, proc.client() as c:

        def head(sid: str, text: str, minute: int) -> str:
            return c.session_send(sid, text, ts=T0 + minute * MINUTE, explain=True).finish()[
                "context"
            ]["system_prompt"]

        sessions = {}
        for agent in ("by-api", "in-chat"):
            c.agent_create(agent, name="Mia")
            first = c.session_open(agent, ts=T0)["session_id"]
            c.session_send(first, "I work at Globex.", ts=T0).finish()
            c.session_close(first, ts=T0 + 10 * MINUTE, wait=True)
            sessions[agent] = c.session_open(agent, ts=T0 + 60 * MINUTE)["session_id"]
            assert "Globex" in head(sessions[agent], "hello", 61)
        c.call("memory.forget", agent_id="by-api", query="globex")
        assert "Globex" not in head(sessions["by-api"], "how are you", 62)
        head(sessions["in-chat"], "forget what I told you about Globex", 62)
        assert "Globex" not in head(sessions["in-chat"], "thanks", 63)


def test_each_turns_prompt_starts_with_the_previous_one_up_to_its_directive(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 28 item 3, end to end. The scripted provider stands in for llama.cpp, whose KV cache
    keeps the longest unchanged prefix of the previous prompt: it records the messages of every
    turn, and each must start with the previous turn's, up to that turn's directive (the one part
    that is not kept), with the memories recalled at turn 1 still where they were shown and the
    ones a later turn recalls anew appended after the conversation so far."""
    requests: list[GenerateRequest] = []
    real = ScriptedProvider.generate

    def recording(
        self: ScriptedProvider, request: GenerateRequest, emit: Any, cancelled: Any
    ) -> Completion:
        requests.append(request)
        return real(self, request, emit, cancelled)

    monkeypatch.setattr(ScriptedProvider, "generate", recording)
    # the slots uncapped: every memory a turn recalls goes before its message (what is held back
    # past a cap, and read ahead, is test_prewarm's)
    uncapped = {"XAID_MEMORY_FIRST_TURN_TOKENS": "0", "XAID_MEMORY_LATER_TURN_TOKENS": "0"}
    with InProcessDaemon(tmp_path / "d", env=uncapped) as proc, proc.client() as c:
        c.agent_create("mia", name="Mia")
        before = c.session_open("mia", ts=T0 - DAY)["session_id"]
        for i, text in enumerate(
            [
                "My sister Anna moved to Kyoto last spring.",
                "I work at Globex as a designer.",
                "我下周要去上海见客户。",
                "我养了一只猫，叫年糕。",
            ]
        ):
            c.session_send(before, text, ts=T0 - DAY + i * MINUTE).finish()
        c.session_close(before, ts=T0 - DAY + 10 * MINUTE, wait=True)
        sid = c.session_open("mia", ts=T0)["session_id"]
        contexts = [
            c.session_send(sid, text, ts=T0 + i * MINUTE, explain=True).finish()["context"]
            for i, text in enumerate(
                [
                    "How is Anna doing in Kyoto?",
                    "我下周去上海，有什么推荐？",
                    "Did I tell you about my cat 年糕?",
                    "Globex kept me late again today.",
                ]
            )
        ]
    # a turn's reply continued after the daemon's bridge (checkin.bridge) reads the same prompt again
    sent = [r.messages for r in requests if r.session == sid]
    prompts = [m for i, m in enumerate(sent) if i == 0 or m != sent[i - 1]]
    assert len(prompts) == 4 and all(r.agent == "mia" for r in requests if r.session == sid)
    fresh = [len(ctx["memories_new"]) for ctx in contexts]
    assert fresh[0] > 0 and sum(fresh[1:]) > 0, fresh  # memories at turn 1, and new ones later
    # each turn's directive: among its last four messages (the directive, a later turn's as its
    # steady part and its tail, then the memories new to the turn, or these the other way round when
    # it asks something first), the message last
    directives = [
        max(i for i, m in enumerate(p) if m.content and ctx["directive"].startswith(m.content))
        for p, ctx in zip(prompts, contexts, strict=True)
    ]
    assert all(
        d >= len(p) - 4 and p[-1].role == "user" for p, d in zip(prompts, directives, strict=True)
    )
    for p, d, ctx in zip(prompts, directives, contexts, strict=True):
        parts = [m.content for m in p[d : d + 2]]
        assert ctx["directive"] in (parts[0], " ".join(parts), "".join(parts))
    # turn 1's memories, as they are shown from turn 2 on (without the line on using them)
    first_block = next(m for m in prompts[1] if m.role == "system" and "Anna" in m.content)
    for n, (earlier, later) in enumerate(itertools.pairwise(prompts)):
        directive = directives[n]
        assert later[:directive] == earlier[:directive]  # nothing before it moved or changed
        rest = later[directive:]
        assert earlier[-1] in rest and rest[rest.index(earlier[-1]) + 1].role == "assistant"
        assert later.index(first_block) == prompts[1].index(
            first_block
        )  # turn 1's memories stay put
