"""A rule hit said with a hedge ("I think", 可能) is less sure, but never dropped to nothing."""

from __future__ import annotations

from xaid.memory.rules import MIN_CONFIDENCE, RuleHit
from xaid.memory.rules.extract import candidates


def test_hedged_lowers_confidence_and_keeps_the_rest() -> None:
    hit = RuleHit("work", "user.work", "The user works at Siemens.", 0.9, False, "Siemens")
    assert hit.hedged(0.2) == RuleHit(
        "work", "user.work", "The user works at Siemens.", 0.7, False, "Siemens"
    )
    assert hit.hedged(0.0) == hit


def test_hedged_never_goes_below_the_floor() -> None:
    assert (
        RuleHit("plan", "user.plan", "用户可能去。", 0.1, False, "").hedged(0.2).confidence
        == MIN_CONFIDENCE
    )


def test_a_hedged_statement_is_stored_less_sure() -> None:
    (sure,) = candidates("I work at Siemens")
    (hedged,) = candidates("I think I work at Siemens")
    assert (hedged.subject, hedged.key) == (sure.subject, sure.key)
    assert hedged.confidence == round(sure.confidence - 0.2, 2)
