"""The fact value function and the consistency decision, without a model: pure rules."""

from __future__ import annotations

from xaid.config import MemoryConfig
from xaid.memory import facts
from xaid.store.memory import Fact

CFG = MemoryConfig()


def fact(fact_id: int, subject: str, text: str) -> Fact:
    return Fact(fact_id, "a", subject, "preference", text, "current", None, None, 0.5, {}, None, None, "fast", 0, 0, 0)


def test_value_follows_the_weights_and_keeps_signals() -> None:
    s = facts.signals("preference", 0.1, 0.8, 3, ts_ms=0, now_ms=0)
    assert s.specificity == 0.5  # a stated preference is specific by nature
    assert facts.value(s, CFG) == 0.2 * 1 + 0.3 * 0.5 + 0.3 * 0.8 + 0.2 * 1.0
    old = facts.signals("other", 0.0, 0.0, 0, ts_ms=0, now_ms=60 * facts.DAY_MS)
    assert old.recency == 0.25 and facts.value(old, CFG) < CFG.promote_threshold


def test_fast_path_only_when_nothing_is_close_and_no_exclusive_subject_is_taken() -> None:
    python = fact(1, "user.programming_language", "The user likes Python.")
    assert facts.fast_path("user.likes", [(python, 0.3)], [], CFG)
    assert not facts.fast_path("user.likes", [(python, 0.7)], [], CFG)
    assert not facts.fast_path("user.programming_language", [(python, 0.2)], [python], CFG)


def test_llm_answers_are_parsed_strictly() -> None:
    known = {12, 13}
    assert facts.parse("UPDATE 12", known) == facts.Decision("UPDATE", 12, "llm")
    assert facts.parse("delete [13]\nbecause...", known) == facts.Decision("DELETE", 13, "llm")
    assert facts.parse("NOOP", known) == facts.Decision("NOOP", None, "llm")
    for unusable in ("UPDATE 99", "I think we should add it", "", None, "echo: Known facts"):
        assert facts.parse(unusable, known) is None


def test_rule_fallback() -> None:
    python = fact(1, "user.programming_language", "The user likes Python.")
    tea = fact(2, "user.likes", "The user likes tea.")
    assert facts.fallback("user.programming_language", False, [(python, 0.5)], [python]).action == "UPDATE"
    assert facts.fallback("user.likes", False, [(tea, 0.95)], [tea]) == facts.Decision("NOOP", 2, "rules")
    assert facts.fallback("user.likes", True, [(tea, 0.8)], [tea]) == facts.Decision("UPDATE", 2, "rules")
    assert facts.fallback("user.likes", False, [(tea, 0.7)], [tea]).action == "ADD"


async def _unusable(prompt: str, n: int) -> str:
    """Stands in for an LLM whose answer is garbage: the decision must still be made."""
    assert "Known facts" in prompt and len(prompt) < 1200
    return "echo: whatever"


def test_decide_falls_back_when_the_model_is_unusable() -> None:
    import anyio

    python = fact(1, "user.programming_language", "The user likes Python.")
    decision = anyio.run(facts.decide, "The user mainly writes Rust now.", "user.programming_language", False,
                         [(python, 0.4)], [python], CFG, _unusable)
    assert decision == facts.Decision("UPDATE", 1, "rules")
