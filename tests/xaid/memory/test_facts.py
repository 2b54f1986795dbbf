"""The fact value function and the consistency decision, without a model: pure rules.

Cosines given as numbers are the ones measured with the default embedder (facts' module
docstring); test_thresholds_fit_the_default_embedder checks that they still hold.
"""

from __future__ import annotations

import anyio
import numpy as np
import pytest

from xaid.config import MemoryConfig
from xaid.embed.onnx import OnnxEmbedder
from xaid.memory import facts
from xaid.memory.facts import Claim
from xaid.store.memory import Fact, Signals

CFG = MemoryConfig()


def fact(fact_id: int, subject: str, text: str) -> Fact:
    return Fact(
        fact_id,
        "a",
        subject,
        "preference",
        text,
        "current",
        None,
        None,
        0.5,
        Signals(),
        None,
        None,
        "fast",
        0,
        0,
        0,
    )


def test_value_follows_the_weights_and_keeps_signals() -> None:
    s = facts.signals("preference", 0.1, 0.8, 3, ts_ms=0, now_ms=0)
    assert s.specificity == 0.5  # a stated preference is specific by nature
    assert facts.value(s, CFG) == 0.2 * 1 + 0.3 * 0.5 + 0.3 * 0.8 + 0.2 * 1.0
    old = facts.signals("other", 0.0, 0.0, 0, ts_ms=0, now_ms=60 * facts.DAY_MS)
    assert old.recency == 0.25 and facts.value(old, CFG) < CFG.promote_threshold


def test_mem0_fast_path_nothing_close_and_no_exclusive_subject_taken() -> None:
    python = fact(1, "user.programming_language", "The user likes Python.")
    tea = Claim("The user likes tea.", "user.likes", key="tea")
    assert facts.settle(tea, [(python, 0.3)], [], CFG) == facts.Decision("ADD", None, "fast")
    rust = Claim("The user mainly writes Rust now.", "user.programming_language", key="Rust")
    assert (
        facts.settle(rust, [(python, 0.2)], [python], CFG) is None
    )  # an exclusive subject: maybe an UPDATE


@pytest.mark.parametrize(
    ("known", "said", "subject"),
    [
        ("The user works at Stark.", "the user works at  Stark", "user.work"),
        ("The user is allergic to gluten.", "The user is allergic to gluten!", "user.allergy"),
        ("用户在百度当编辑。", "用户在百度当编辑", "user.work"),
        ("用户对花生过敏。", "用户对花生过敏！", "user.allergy"),
        ("用户喜欢Ｐｙｔｈｏｎ。", "用户喜欢python", "user.programming_language"),
    ],
)
def test_an_exact_restatement_is_noop_on_the_fast_path(known: str, said: str, subject: str) -> None:
    old = fact(7, subject, known)
    decision = facts.settle(Claim(said, subject), [(old, 0.99)], [old], CFG)
    assert decision == facts.Decision("NOOP", 7, "fast")  # even for an exclusive subject
    twin = fact(-1, subject, known)  # planned earlier in the same session: no row, so no target
    assert facts.settle(Claim(said, subject), [], [twin], CFG) == facts.Decision(
        "NOOP", None, "fast"
    )
    assert (
        facts.settle(Claim(said, "user.other"), [(old, 0.99)], [], CFG) is None
    )  # another subject


@pytest.mark.parametrize(
    ("said", "key", "negated", "certain"),
    [
        ("用户在Globex上班。", "Globex", False, True),  # the same employer, the other language
        ("The user works at Globex in Berlin.", "Globex", False, True),  # the same one, more words
        ("The user works at Globex now.", "Globex", False, False),  # "now": maybe a change of role
        ("The user no longer works at Globex.", "Globex", True, False),  # a denial
        (
            "The user works at Initech.",
            "Initech",
            False,
            False,
        ),  # another employer: maybe an UPDATE
    ],
)
def test_an_exclusive_subject_named_again_in_other_words(
    said: str, key: str, negated: bool, certain: bool
) -> None:
    globex = fact(3, "user.work", "The user works at Globex.")
    decision = facts.settle(
        Claim(said, "user.work", negated=negated, key=key), [(globex, 0.8)], [globex], CFG
    )
    assert decision == (facts.Decision("NOOP", 3, "fast") if certain else None)


def test_plans_on_different_dates_are_two_events() -> None:
    monday = fact(
        1, "user.plan", "The user has a dentist appointment next Monday [2026-02-09] at 4pm."
    )
    thursday = Claim(
        "The user has a dentist appointment next Thursday [2026-03-12] at 10am.", "user.plan"
    )
    assert facts.settle(thursday, [(monday, 0.988)], [monday], CFG) == facts.Decision(
        "ADD", None, "fast"
    )
    doctor = Claim(
        "The user has a doctor's appointment next Wednesday [2026-02-18] at 2pm.", "user.plan"
    )
    assert facts.settle(doctor, [(monday, 0.77)], [monday], CFG) == facts.Decision(
        "ADD", None, "fast"
    )
    moved = Claim(
        "The user's dentist appointment got moved to Wednesday [2026-02-11].",
        "user.plan",
        source="My dentist appointment got moved to Wednesday.",
    )
    assert facts.settle(moved, [(monday, 0.75)], [monday], CFG) is None  # its words say it replaces
    month = fact(2, "user.plan", "The user is going to Kyoto next month [2026-03-01..2026-03-31].")
    day = Claim("The user is going to Kyoto on March 3 [2026-03-03].", "user.plan")
    assert (
        facts.settle(day, [(month, 0.966)], [month], CFG) is None
    )  # overlapping: maybe a refinement


def test_another_object_of_an_additive_subject_is_added_fast() -> None:
    gluten = fact(1, "user.allergy", "The user is allergic to gluten.")
    peanuts = Claim("The user is allergic to peanuts.", "user.allergy", key="peanuts")
    assert facts.settle(peanuts, [(gluten, 0.706)], [gluten], CFG) == facts.Decision(
        "ADD", None, "fast"
    )
    hiking = fact(2, "user.likes", "The user really likes hiking.")
    hikes = Claim("The user loves going on hikes.", "user.likes", key="going on hikes")
    assert (
        facts.settle(hikes, [(hiking, 0.917)], [hiking], CFG) is None
    )  # a near paraphrase outranks the key
    more = Claim("The user likes hiking a lot.", "user.likes", key="hiking")
    assert facts.settle(more, [(hiking, 0.5)], [hiking], CFG) is None  # same subject, same object
    cat = Claim("用户喜欢猫。", "user.likes", key="猫")
    assert facts.settle(cat, [], [fact(3, "user.likes", "用户特别喜欢猫。")], CFG) is None


def test_subjects_that_cannot_hold_the_same_statement_are_apart() -> None:
    friend = fact(1, "user.friend", "The user's friend is called Zoe.")
    colleague = Claim("The user's colleague is called Zoe.", "user.colleague", key="Zoe")
    assert facts.settle(colleague, [(friend, 0.905)], [], CFG) == facts.Decision(
        "ADD", None, "fast"
    )
    python = fact(2, "user.programming_language", "The user likes Python.")
    also = Claim("The user also likes Python.", "user.likes", key="Python")
    assert (
        facts.settle(also, [(python, 0.9)], [], CFG) is None
    )  # user.likes and the language overlap
    imported = fact(3, "user.other", "The user is allergic to gluten.")
    peanuts = Claim("The user is allergic to peanuts.", "user.allergy", key="peanuts")
    assert facts.settle(peanuts, [(imported, 0.7)], [], CFG) == facts.Decision("ADD", None, "fast")
    assert (
        facts.settle(Claim(peanuts.text, "user.allergy"), [(imported, 0.7)], [], CFG) is None
    )  # no key


def test_a_negation_near_a_known_fact_needs_judgment() -> None:
    hiking = fact(1, "user.likes", "The user really likes hiking.")
    no = Claim("The user doesn't like hiking.", "user.likes", negated=True, key="hiking")
    assert facts.settle(no, [(hiking, 0.804)], [hiking], CFG) is None
    cat = fact(2, "user.likes", "用户喜欢猫。")
    assert facts.settle(Claim("用户不喜欢猫。", "user.likes", True, "猫"), [], [cat], CFG) is None
    jazz = Claim("The user hates jazz.", "user.likes", negated=True, key="jazz")
    assert facts.settle(jazz, [(hiking, 0.5)], [hiking], CFG) == facts.Decision("ADD", None, "fast")


def test_llm_answers_are_parsed_strictly() -> None:
    known = {12, 13}
    assert facts.parse("UPDATE 12", known) == facts.Decision("UPDATE", 12, "llm")
    assert facts.parse("delete [13]\nbecause...", known) == facts.Decision("DELETE", 13, "llm")
    assert facts.parse("NOOP", known) == facts.Decision("NOOP", None, "llm")
    for unusable in (
        "UPDATE 99",
        "I think we should add it",
        "",
        None,
        "echo: Known facts",
        "UPDATE -1",
    ):
        assert facts.parse(unusable, known) is None


def test_rule_fallback() -> None:
    python = fact(1, "user.programming_language", "The user likes Python.")
    tea = fact(2, "user.likes", "The user likes tea.")
    lang = "user.programming_language"
    assert (
        facts.fallback(
            Claim("The user mainly writes Rust now.", lang), [(python, 0.5)], [python]
        ).action
        == "UPDATE"
    )
    assert facts.fallback(
        Claim("The user likes tea a lot.", "user.likes"), [(tea, 0.95)], [tea]
    ) == facts.Decision("NOOP", 2, "rules")
    no_tea = Claim("The user doesn't like tea.", "user.likes", negated=True)
    assert facts.fallback(no_tea, [(tea, 0.8)], [tea]) == facts.Decision("UPDATE", 2, "rules")
    assert (
        facts.fallback(Claim("The user likes coffee.", "user.likes"), [(tea, 0.7)], [tea]).action
        == "ADD"
    )


def test_fallback_supersedes_a_denied_fact_even_when_it_looks_like_a_duplicate() -> None:
    gluten = fact(3, "user.allergy", "The user is allergic to gluten.")
    denial = Claim(
        "The user is not allergic to gluten.", "user.allergy", negated=True, key="gluten"
    )
    assert facts.fallback(denial, [(gluten, 0.95)], [gluten]) == facts.Decision(
        "UPDATE", 3, "rules"
    )
    cat = fact(4, "user.likes", "用户喜欢猫。")
    assert facts.fallback(
        Claim("用户不喜欢猫。", "user.likes", True, "猫"), [], [cat]
    ) == facts.Decision("UPDATE", 4, "rules")


def test_fallback_never_targets_a_fact_planned_in_the_same_session() -> None:
    planned = fact(-1, "user.work", "The user works at Stark.")
    claim = Claim("The user works at Globex.", "user.work", key="Globex")
    assert facts.fallback(claim, [], [planned]) == facts.Decision("ADD", None, "rules")
    stored = fact(5, "user.work", "The user works at Umbrella.")
    assert facts.fallback(claim, [], [stored, planned]) == facts.Decision("UPDATE", 5, "rules")


async def _unusable(prompt: str, n: int) -> str:
    """Stands in for an LLM whose answer is garbage: the decision must still be made."""
    assert "Known facts" in prompt and len(prompt) < 1200
    return "echo: whatever"


def test_decide_falls_back_when_the_model_is_unusable() -> None:
    python = fact(1, "user.programming_language", "The user likes Python.")
    claim = Claim("The user mainly writes Rust now.", "user.programming_language", key="Rust")
    decision = anyio.run(facts.decide, claim, [(python, 0.4)], [python], CFG, _unusable)
    assert decision == facts.Decision("UPDATE", 1, "rules")


def test_decide_asks_no_model_when_the_answer_is_certain() -> None:
    prompts: list[str] = []

    async def scripted(prompt: str, n: int) -> str:
        """Stands in for an LLM and counts the calls; its answer is valid, so a call would show as 'llm'."""
        prompts.append(prompt)
        return "ADD"

    gluten = fact(1, "user.allergy", "The user is allergic to gluten.")
    again = anyio.run(
        facts.decide,
        Claim("The user is allergic to gluten.", "user.allergy", key="gluten"),
        [(gluten, 1.0)],
        [gluten],
        CFG,
        scripted,
    )
    peanuts = anyio.run(
        facts.decide,
        Claim("The user is allergic to peanuts.", "user.allergy", key="peanuts"),
        [(gluten, 0.706)],
        [gluten],
        CFG,
        scripted,
    )
    assert (again, peanuts, prompts) == (
        facts.Decision("NOOP", 1, "fast"),
        facts.Decision("ADD", None, "fast"),
        [],
    )
    planned = fact(-2, "user.work", "The user works at Stark.")
    globex = anyio.run(
        facts.decide,
        Claim("The user works at Globex.", "user.work", key="Globex"),
        [],
        [planned],
        CFG,
        scripted,
    )
    assert globex == facts.Decision("ADD", None, "llm")
    assert "(said earlier today) The user works at Stark." in prompts[0]


@pytest.fixture(scope="module")
def embedder() -> OnnxEmbedder:
    return OnnxEmbedder()


def test_thresholds_fit_the_default_embedder(embedder: OnnxEmbedder) -> None:
    """The measurements behind PARAPHRASE and the date rule, with the real model: other objects of one
    subject stay below PARAPHRASE, paraphrases reach it, and same-kind plans on other days look alike."""
    other_objects = [
        ("The user really likes hiking.", "The user really likes climbing."),
        ("The user is allergic to gluten.", "The user is allergic to peanuts."),
        ("The user's friend is called Zoe.", "The user's friend is called Sam."),
    ]
    paraphrases = [
        ("The user really likes hiking.", "The user loves going on hikes."),
        ("The user likes Python.", "The user loves Python."),
        ("The user works at Stark.", "The user works at Stark Industries."),
    ]
    plans = [
        (
            "The user has a dentist appointment next Monday [2026-02-09] at 4pm.",
            "The user has a dentist appointment next Thursday [2026-03-12] at 10am.",
        )
    ]

    def cos(pairs: list[tuple[str, str]]) -> list[float]:
        vectors = embedder.embed([t for pair in pairs for t in pair])
        return [float(np.dot(vectors[2 * i], vectors[2 * i + 1])) for i in range(len(pairs))]

    assert all(CFG.fast_path_cosine <= c < facts.PARAPHRASE for c in cos(other_objects))
    assert all(c >= facts.PARAPHRASE for c in cos(paraphrases))
    assert all(
        c >= facts.NEAR_DUPLICATE for c in cos(plans)
    )  # why dates, not cosine, tell plans apart
