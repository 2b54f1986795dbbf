"""Answers weighed instead of generated (providers/llama_weigh.py, GenerateRequest.choices), with the
real SmolLM2-135M: in this process, then through the runner process as consolidation asks.

What must hold: a weighed request generates nothing and returns one log-probability per choice,
each the model's own for that answer's first token (the greedy answer's token weighs most of
them); the numbers do not depend on what the live context held before (its reuse of a prefix
reads the last token again); English and Chinese alike.
"""

from __future__ import annotations

import math
import threading
from pathlib import Path

import pytest

from xaid.providers.base import ChatMessage, GenerateRequest
from xaid.providers.llama_cpp import LlamaCppProvider
from xaid.providers.runner_supervisor import RunnerProvider

from .test_llama_prewarm import _answer, cfg, provider

pytestmark = pytest.mark.llm

QUESTIONS = {
    "en": "Is the sky blue on a clear day? Answer yes or no.",
    "zh": "晴天的时候天空是蓝色的吗？只回答“是”或“否”。",
}
CHOICES = ("yes", "Yes", "no", "No", "是", "否")


def weigh(p: LlamaCppProvider | RunnerProvider, question: str) -> tuple[float, ...]:
    request = GenerateRequest((ChatMessage("user", question),), temperature=0.0, choices=CHOICES)
    pieces: list[str] = []
    out = p.generate(request, pieces.append, threading.Event())
    assert pieces == [] and out.text == "" and out.completion_tokens == 0
    assert len(out.choice_logprobs) == len(CHOICES) and out.prompt_tokens > 0
    return out.choice_logprobs


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_greedy_answers_first_token_weighs_most(tmp_path: Path, lang: str) -> None:
    p = provider(tmp_path)
    try:
        said = _answer(p, (ChatMessage("user", QUESTIONS[lang]),), "", tokens=1).text.strip()
        logprobs = dict(zip(CHOICES, weigh(p, QUESTIONS[lang]), strict=True))
        assert all(v <= 0.0 for v in logprobs.values())
        assert sum(math.exp(v) for v in logprobs.values()) <= 1.0 + 1e-6
        # SmolLM2 answers the English question "No"; in Chinese its first token is none of them
        assert said in logprobs or lang == "zh"
        if said in logprobs:  # the greedy token is one of the choices: none weighs more
            assert logprobs[said] == max(logprobs.values())
    finally:
        p.close()


def test_the_weights_do_not_depend_on_what_the_context_held(tmp_path: Path) -> None:
    p = provider(tmp_path)
    try:
        cold = weigh(p, QUESTIONS["en"])
        again = weigh(p, QUESTIONS["en"])  # the whole prompt held: its last token is read again
        _answer(p, (ChatMessage("user", "Tell me about tea."),), "", tokens=4)
        after = weigh(p, QUESTIONS["en"])  # a prefix held, the rest read
        zh = weigh(p, QUESTIONS["zh"])
    finally:
        p.close()
    assert again == pytest.approx(cold, abs=1e-3) and after == pytest.approx(cold, abs=1e-3)
    assert zh != pytest.approx(cold, abs=1e-3)


def test_the_runner_weighs_as_in_process(tmp_path: Path) -> None:
    here = provider(tmp_path / "here")
    try:
        want = weigh(here, QUESTIONS["zh"])
    finally:
        here.close()
    runner = RunnerProvider(cfg(), head_cache_dir=tmp_path / "runner")
    runner.load()
    try:
        got = weigh(runner, QUESTIONS["zh"])
    finally:
        runner.close()
    assert got == pytest.approx(want, abs=1e-3)
