"""Crying read by the words beside it (xaid/mood/tears.py), in both languages: the rules read every
cry as grief; tears on good news are joy, tears on bad news stay sad, and where the words say
nothing the mood right before decides."""

from __future__ import annotations

import pytest

from xaid.mood import learned, tears
from xaid.mood.classifier import RuleClassifier

RULES = RuleClassifier()


@pytest.mark.parametrize(
    ("text", "rest"),
    [
        ("I GOT IN 😭😭😭", "I GOT IN"),
        ("cried so much lol 😭", "so much lol"),
        ("上岸了😭😭😭", "上岸了"),
        ("我哭成狗😭", "我 成狗"),
        ("😭😭", ""),
        ("呜呜", ""),
    ],
)
def test_crying_is_taken_out_of_the_words(text: str, rest: str) -> None:
    assert tears.without(text) == rest


@pytest.mark.parametrize("text", ["Picked up the dry cleaning", "大家都笑了", "scrying is a hobby"])
def test_text_that_does_not_cry_has_no_tears(text: str) -> None:
    """Nor does a word that only contains "cry"."""
    assert tears.without(text) is None
    assert tears.by_words(text, RULES.classify(text)) is None


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        (
            "cried so much lol 😭",
            "unsure",
        ),  # "lol" reads mildly glad: the reader decides (turn_feel)
        ("so happy 😭😭😭", "joy"),
        ("好开心😭😭😭", "joy"),
        ("I'm so sad, I cried all night", "sad"),
        ("好难过，哭了一晚上", "sad"),
        ("I GOT IN 😭😭😭", "unsure"),
        ("上岸了😭😭😭", "unsure"),
    ],
)
def test_the_words_beside_the_tears_say_which_they_are(text: str, verdict: str) -> None:
    assert tears.by_words(text, RULES.classify(text)) == verdict


@pytest.mark.parametrize("text", ["ugly crying in arrivals rn", "在出口直接哭出来了"])
def test_tears_that_say_nothing_else_follow_the_mood_before(text: str) -> None:
    """After good news told a turn earlier they are joy; on a neutral evening the rules' sadness
    is kept, but no longer strong enough to stand against the session's meaning at its close."""
    rules = RULES.classify(text)
    assert rules.valence < 0
    assert tears.in_mood(text, rules, 0.3).valence > 0
    calm = tears.in_mood(text, rules, 0.0)
    assert rules.valence < calm.valence < 0
    assert abs(calm.valence) < learned.RULES_FIRST


def test_a_session_of_tears_on_good_news_is_not_a_strong_low() -> None:
    """At the close: "I GOT IN 😭😭😭" then good news is not a strong rule reading that stands
    (learned.decide); the rules alone read it strongly low."""
    lines = ["I GOT IN 😭😭😭", "full scholarship too"]
    own = learned.own_reading(lines)
    assert abs(own.valence) < learned.RULES_FIRST
    assert RULES.classify(lines[0]).valence <= -learned.RULES_FIRST
