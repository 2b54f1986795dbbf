"""A new value of a one-at-a-time subject, said the way people say a change, lands on that subject."""

from __future__ import annotations

import pytest

from xaid.memory import facts
from xaid.memory.rules import extract


def subjects(text: str) -> list[tuple[str, str, bool]]:
    return [(c.subject, c.key, c.negated) for c in extract.candidates(text) if c.confidence >= 0.5]


@pytest.mark.parametrize(
    ("text", "subject", "key"),
    [
        ("I sold the Civic and now I drive a Kia EV6.", "user.car", "Kia EV6"),
        ("我把卡罗拉卖了，现在开一辆小鹏。", "user.car", "小鹏"),
        ("I retrained, I'm a paramedic now.", "user.job", "paramedic"),
        ("I quit my old place and I started at Spotify on Monday!", "user.work", "Spotify"),
        ("我跳槽去了字节。", "user.work", "字节"),
        ("Jonas and I split up. My boyfriend now is called Theo.", "user.partner", "Theo"),
        ("我和阿杰分手了，我现在的男朋友叫小林。", "user.partner", "小林"),
        (
            "We rewrote everything, these days I mainly write Kotlin.",
            "user.programming_language",
            "Kotlin",
        ),
        ("跟你说，我上周搬到厦门了。", "user.lives_in", "厦门"),
        ("I went vegan in January.", "user.diet", "vegan"),
        ("My car is an old Ford Focus.", "user.car", "Ford Focus"),
        ("我在苏州住了五年了。", "user.lives_in", "苏州"),
    ],
)
def test_a_change_lands_on_its_exclusive_subject(text: str, subject: str, key: str) -> None:
    assert (subject, key) in [(s, k) for s, k, _ in subjects(text)]
    assert subject in facts.EXCLUSIVE


@pytest.mark.parametrize("text", ["我现在不吃素了，开始吃鱼。", "I'm not vegetarian anymore."])
def test_an_ended_diet_is_the_diet_denied_not_a_dislike(text: str) -> None:
    assert [(s, n) for s, _, n in subjects(text) if s in {"user.diet", "user.likes"}] == [
        ("user.diet", True)
    ]


@pytest.mark.parametrize(
    "text", ["我开了一家店。", "我去了医院。", "I joined the gym.", "I have a cat."]
)
def test_ordinary_sentences_are_no_car_or_employer(text: str) -> None:
    assert not [s for s, _, _ in subjects(text) if s in {"user.car", "user.work"}]
