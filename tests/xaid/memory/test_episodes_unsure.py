"""The unsure fact candidates of one session go to the model in one call (issue 28 item 5).

What is judged is what consolidation does with the model's words, so the model is a scripted
``ask`` that records each prompt and answers as told; the candidates are the rules' own records,
English and Chinese.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable

import numpy as np

from xaid.embed import EmbedProfile
from xaid.embed.profiles import MINILM
from xaid.memory import episodes
from xaid.memory.rules.extract import Candidate


class Scripted:
    """episodes.Helpers with a model that answers ``reply(prompt)`` and counts its calls."""

    def __init__(self, reply: Callable[[str], str | None]) -> None:
        self.reply = reply
        self.prompts: list[str] = []
        self.counters: Counter[str] = Counter()

    @property
    def profile(self) -> EmbedProfile:
        return MINILM

    async def ask(self, prompt: str, max_tokens: int, agent_id: str) -> str | None:
        self.prompts.append(prompt)
        return self.reply(prompt)

    async def embed_readable(self, texts: list[str]) -> list[np.ndarray | None]:
        return [None for _ in texts]


def unsure(text: str, source: str) -> Candidate:
    return Candidate("preference", "user.likes", text, source, 0.3, False)


SURE = Candidate("fact", "user.work", "The user works at Stark.", "I work at Stark", 0.9, False)
CANDIDATES = [
    SURE,
    unsure("The user likes rainy days.", "rainy days are kind of nice I guess"),
    unsure("The user likes horror films.", "that horror film last night was a lot"),
    unsure("用户喜欢喝茶。", "茶还行吧"),
]


def confirm(helpers: Scripted, candidates: list[Candidate]) -> list[bool]:
    return asyncio.run(episodes._confirmed(helpers, "a", candidates))


def test_the_unsure_candidates_of_a_session_are_one_call() -> None:
    model = Scripted(lambda prompt: "1 yes\n2 no\n3 是")
    assert confirm(model, CANDIDATES) == [True, True, False, True]
    assert len(model.prompts) == 1  # one call where three were made before
    assert "rainy days" in model.prompts[0] and "茶还行吧" in model.prompts[0]
    assert "Stark" not in model.prompts[0]  # a sure candidate is not asked about
    assert model.counters["fact_unsure_asked"] == 3 and model.counters["fact_unsure_kept"] == 2


def test_a_number_the_answer_leaves_out_is_asked_on_its_own() -> None:
    def reply(prompt: str) -> str:
        if prompt.startswith("For each numbered"):
            return "1. Yes\n3: no"  # forgot the second
        return "no" if "horror" in prompt else "yes"

    model = Scripted(reply)
    assert confirm(model, CANDIDATES) == [True, True, False, False]
    assert len(model.prompts) == 2 and "horror film" in model.prompts[1]


def test_an_unreadable_answer_falls_back_to_one_question_each() -> None:
    model = Scripted(lambda prompt: "Sure! Here you go" if "numbered" in prompt else "是的")
    assert confirm(model, CANDIDATES) == [True, True, True, True]
    assert len(model.prompts) == 4


def test_no_model_drops_the_unsure_and_keeps_the_sure() -> None:
    model = Scripted(lambda prompt: None)
    assert confirm(model, CANDIDATES) == [True, False, False, False]


def test_one_unsure_candidate_is_asked_as_before_and_sure_ones_never() -> None:
    model = Scripted(lambda prompt: "yes")
    assert confirm(model, CANDIDATES[:2]) == [True, True]
    assert len(model.prompts) == 1 and model.prompts[0].startswith("The user said:")
    model = Scripted(lambda prompt: "no")
    assert confirm(model, [SURE]) == [True]
    assert model.prompts == []
