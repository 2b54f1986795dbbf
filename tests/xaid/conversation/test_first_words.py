"""conversation/first_words.py ``weigh``: how heavy a session's first message reads, from meaning's
margin to grave news and the turn's own feeling. Pure: the readings are built here; the daemon's
readers on real wordings are in tests/xaid/scheduler/test_occasion.py."""

from __future__ import annotations

import pytest

from xaid.conversation.first_words import weigh
from xaid.mood import meaning, turn_feel
from xaid.mood.classifier import Reading


def reading(valence: float, by_meaning: bool = False) -> Reading:
    cues = (f"{turn_feel.MEANING_CUE}low",) if by_meaning else ("ugh",)
    return Reading(valence, 0.5, 0.0, abs(valence), 0.6, cues, 1.0)


GRAVE = meaning.GRAVE_MARGIN + 0.05


@pytest.mark.parametrize(
    ("margin", "heard", "grave", "sombre", "light"),
    [
        (GRAVE, None, True, True, False),
        (GRAVE, reading(-0.8, by_meaning=True), True, True, False),
        # grave news is not told laughing: the rules read it glad
        (GRAVE, reading(0.22), False, False, False),
        # ...but a glad reading by meaning alone is no laugh
        (GRAVE, reading(0.38, by_meaning=True), True, True, False),
        # very low by meaning alone and no nearer grave news than an ordinary line: light
        (meaning.LOSS_MARGIN - 0.01, reading(-0.75, by_meaning=True), False, False, True),
        # the prototypes agree it is heavy: not light
        (meaning.LOSS_MARGIN, reading(-0.75, by_meaning=True), False, False, False),
        # very low by the rules' own words: never light
        (-0.05, reading(-0.82), False, False, False),
        # not very low: nothing to lighten
        (-0.05, reading(-0.4, by_meaning=True), False, False, False),
    ],
)
def test_weigh(
    margin: float, heard: Reading | None, grave: bool, sombre: bool, light: bool
) -> None:
    w = weigh(margin, heard)
    assert (w.grave, w.sombre, w.light) == (grave, sombre, light)
