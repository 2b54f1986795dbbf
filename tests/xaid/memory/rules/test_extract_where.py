"""Where the user works and where their people live: facts that keep the place, in both languages.

Each case must yield a candidate strong enough to be stored by the rules alone (confidence >= 0.5,
episodes.py) whose text keeps the place: "works at a startup" without Berlin is not what was said.
"""

from __future__ import annotations

import pytest

from xaid.memory.rules.extract import candidates

STORED = 0.5

KEPT = [
    ("I work at a startup in Berlin.", "user.work", "Berlin"),
    ("I work for a small bakery in San Sebastian", "user.work", "San Sebastian"),
    ("I just started at a startup in Berlin.", "user.work", "startup"),
    ("My sister lives in Hamburg.", "user.sister", "Hamburg"),
    ("My brother works at Siemens", "user.brother", "Siemens"),
    ("My sister is a nurse. She lives in Hamburg.", "user.sister", "Hamburg"),
    ("My dad is retired. He moved to Lisbon.", "user.father", "Lisbon"),
    ("我在柏林的一家创业公司工作。", "user.work", "柏林"),
    ("我妹妹住在汉堡。", "user.sister", "汉堡"),
    ("我哥哥在西门子上班", "user.brother", "西门子"),
    ("我妹妹是护士。她住在汉堡。", "user.sister", "汉堡"),
    ("我爸爸退休了。他搬到了里斯本。", "user.father", "里斯本"),
]


@pytest.mark.parametrize(("text", "subject", "word"), KEPT)
def test_the_place_is_kept_and_stored(text: str, subject: str, word: str) -> None:
    found = [c for c in candidates(text) if c.subject == subject and word in c.text]
    assert found and max(c.confidence for c in found) >= STORED, candidates(text)


@pytest.mark.parametrize(
    "text",
    [
        "She lives in Hamburg.",  # nobody to refer to: not the user, not a known relative
        "她住在汉堡。",
        "I joined a gym in Berlin.",  # a gym is not a job
        "My friends and I live in Hamburg's old town",
    ],
)
def test_no_fact_about_an_unknown_she_or_a_gym(text: str) -> None:
    assert not [
        c
        for c in candidates(text)
        if c.confidence >= STORED
        and c.subject in ("user.work", "user.sister", "user.brother", "user.friend")
    ], candidates(text)


def test_a_pronoun_refers_only_to_the_relative_just_named() -> None:
    """ "He" after "my sister … I …" is not the sister: the reference lasts one clause."""
    texts = [c.text for c in candidates("My sister is a nurse. I live in Kyoto. He works at Sony.")]
    assert not any("sister works" in t for t in texts)
