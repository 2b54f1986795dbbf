"""The feeling a session carries to the next morning, read by meaning (issue 24 item 5, feel12), in
both languages: a death said with a euphemism, an understatement, a mixed day that ends well and a
neutral day, through the pure functions consolidation runs (xaid/mood/learned.py with the packaged
weights and the real default embedder) and, for one of each language, through a real daemon.

The sentences were written for these tests, apart from perf/scenarios/feelings_dev12.json and from
anything the reader was fitted on."""

from __future__ import annotations

import numpy as np
import pytest
from xaiclient import Client

from xaid.embed.use import UseEmbedder
from xaid.mood import learned, meaning
from xaid.mood.classifier import RuleClassifier
from xaid.mood.state import HOUR_MS, MoodParams, decay, merge, neutral

CASES = [
    # a death said softly: no word for dying
    (["Nan went peacefully on Sunday. We were all with her."], -1),
    # a day and a manner between the person and 走了 (the loss pattern's gap, up to six)
    (["奶奶礼拜天安详地走了，我们都守在身边"], -1),
    # an understatement: a low said small
    (["Not the greatest day. We didn't get the flat in the end."], -1),
    (["今天不太行，看好的那套房子没租成"], -1),
    # a mixed day: the one it ends on carries
    (
        [
            "Awful commute and the meeting ran over.",
            "But the kids made me a card and I'm grinning now.",
        ],
        1,
    ),
    (["路上堵了两个小时，会还拖堂了", "不过回家孩子给我画了张卡片，现在心里美滋滋的"], 1),
    # a neutral day: nothing carried
    (["Did the weekly shop and booked the car in for Friday."], 0),
    (["买了一周的菜，顺便把车约到周五保养"], 0),
]


@pytest.fixture(scope="module")
def embedder() -> UseEmbedder:
    return UseEmbedder()


@pytest.fixture(scope="module")
def bank(embedder: UseEmbedder) -> meaning.Prototypes:
    return meaning.Prototypes.build(lambda t: np.asarray(embedder.embed(t), dtype=np.float32))


def morning_valence(embedder: UseEmbedder, bank: meaning.Prototypes, lines: list[str]) -> float:
    """The session's lines read by the rules a minute apart from 21:00 (the live turns), what
    consolidation stores merged at the last word (learned.read, lost and carry), 12 hours of fading."""
    params = MoodParams()
    at = 21 * HOUR_MS
    closing = neutral(at, params)
    for line in lines:
        at += 60_000
        closing = merge(closing, RuleClassifier().classify(line), at, params)
    whole, last, *each = embedder.embed([learned.whole(lines), learned.tail(lines), *lines])
    lost = learned.lost(lines, [bank.loss(np.asarray(v)) for v in each])
    session = learned.read(learned.default(), lines, whole, last, bank.feel(whole), lost)
    reading = learned.carry(closing, session.own, session.label, lost, None, session.strength)
    state = merge(closing, reading, at, params) if reading is not None else closing
    return decay(state, at + 12 * HOUR_MS).valence


@pytest.mark.parametrize(("lines", "sign"), CASES)
def test_the_feeling_a_session_ends_on_is_there_the_next_morning(
    embedder: UseEmbedder, bank: meaning.Prototypes, lines: list[str], sign: int
) -> None:
    valence = morning_valence(embedder, bank, lines)
    if sign == 0:
        assert abs(valence) <= 0.02, (lines, valence)  # nothing carried, not even a trace
    else:
        assert valence * sign > 0.02, (lines, valence)


NIGHT = 1_764_536_400_000  # day 0, 21:00 UTC
MORNING = NIGHT + 12 * HOUR_MS


@pytest.mark.parametrize(("lines", "sign"), [CASES[0], CASES[5], CASES[6], CASES[7]])
def test_through_the_daemon_a_death_said_softly_is_low_a_day_ending_well_good_an_errand_nothing(
    client: Client, lines: list[str], sign: int
) -> None:
    """The same sessions sent as live turns to a real daemon (scripted provider, whose echo names
    no feeling, so the reader alone decides; the default embedder), closed and consolidated:
    ``mood.get`` the next morning at 09:00."""
    client.agent_create("mia")
    sid = client.session_open("mia", ts=NIGHT)["session_id"]
    for i, line in enumerate(lines):
        client.session_send(sid, line, ts=NIGHT + i * 60_000).finish()
    client.session_close(sid, ts=NIGHT + 10 * 60_000, wait=True)
    mood = client.mood_get("mia", ts=MORNING)
    if sign == 0:
        assert mood["bands"]["valence"] == "neutral" and abs(mood["valence"]) <= 0.02, mood
    else:
        assert mood["valence"] * sign > 0.02, mood
