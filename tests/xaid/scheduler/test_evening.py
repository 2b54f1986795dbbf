"""An ordinary evening arms nothing that meaning alone found (scheduler/evening.py, arm19, issue 25).

A session whose user lines together read ``evening.ORDINARY`` nearer an ordinary evening than
anything a friend follows up arms neither an undated matter of the check-in reader nor a feeling
only meaning read (the closing mood's tiredness with no line strong to the rules); without the
reading (another embedder) both are armed as before, and a matter a friend follows up does not
read plain.

The bank's readings are the real ones (USE-multilingual-v3); arming is the pure function. The
wordings are written for these tests, not taken from perf/scenarios/arm_dev19.json.
"""

from __future__ import annotations

import numpy as np
import pytest

from xaid.clock import HOUR_MS
from xaid.embed.use import UseEmbedder
from xaid.memory import draft
from xaid.mood.meaning import Contrast
from xaid.scheduler import arm, evening, matter
from xaid.store.mood import MoodState
from xaid.store.sessions import Message

DAY0 = 1_764_547_200_000  # Monday 2025-12-01 00:00 UTC
EVENING = DAY0 + 21 * HOUR_MS

PLAIN_EVENINGS = [
    "今天就是上班、吃饭、回家，平平常常，晚安",
    "下班回家煮了个面，看了两集纪录片，准备睡了",
]
FOLLOWED = [
    "房东说押金不退了，我明天得去跟他理论",
    "my landlord won't give the deposit back, I'm going to fight it",
    "kid's had a temperature since lunch, keeping an eye on her tonight",
    "eleven hours on my feet at the market today, my legs are done and so am I",
]


@pytest.fixture(scope="module")
def bank(use_embedder: UseEmbedder) -> Contrast:
    return evening.PLAIN.from_vectors(list(np.asarray(use_embedder.embed(evening.PLAIN.texts()))))


def drafted(text: str, intensity: float = 0.3) -> draft.Draft:
    message = Message("s", "a", "user", text, EVENING, message_id=1)
    return draft.draft([message], {1: intensity}, MoodState(), "Mia")


def test_an_ordinary_evening_reads_plain_and_what_a_friend_follows_up_does_not(
    use_embedder: UseEmbedder, bank: Contrast
) -> None:
    vectors = np.asarray(use_embedder.embed(PLAIN_EVENINGS + FOLLOWED))
    leads = [bank.lead(v) for v in vectors]
    assert all(x >= evening.ORDINARY for x in leads[:2]), leads
    assert all(x < evening.ORDINARY for x in leads[2:]), leads


@pytest.mark.parametrize("text", PLAIN_EVENINGS)
def test_an_ordinary_evening_the_reader_takes_for_a_matter_arms_nothing(
    use_embedder: UseEmbedder, bank: Contrast, text: str
) -> None:
    (vector,) = np.asarray(use_embedder.embed([text]))
    sure = {1: matter.Read(matter=0.9, loss=0.0, none=0.1)}  # the reader's misreading
    plain = matter.Readings(sure, 0.5, 0.15, ordinary=bank.lead(vector))
    assert plain.plain()
    assert arm.matters(drafted(text), MoodState(), frozenset(), plain) == []
    unread = matter.Readings(sure, 0.5, 0.15)
    items = arm.matters(drafted(text), MoodState(), frozenset(), unread)
    assert [a.scene for a in items] == ["matter"]


@pytest.mark.parametrize("text", PLAIN_EVENINGS)
def test_a_tiredness_only_meaning_read_on_an_ordinary_evening_arms_no_check_in(
    use_embedder: UseEmbedder, bank: Contrast, text: str
) -> None:
    (vector,) = np.asarray(use_embedder.embed([text]))
    tired = MoodState(valence=0.0, fatigue=0.8)  # the tiredness head carried it to the morning
    plain = matter.Readings({}, 1.0, 0.0, ordinary=bank.lead(vector))
    assert arm.matters(drafted(text), tired, frozenset(), plain) == []
    unread = arm.matters(drafted(text), tired, frozenset(), matter.NO_READINGS)
    assert [a.scene for a in unread] == ["emotion"]


def test_a_tired_evening_is_still_checked_on(use_embedder: UseEmbedder, bank: Contrast) -> None:
    text = FOLLOWED[3]
    (vector,) = np.asarray(use_embedder.embed([text]))
    read = matter.Readings({}, 1.0, 0.0, ordinary=bank.lead(vector))
    items = arm.matters(drafted(text), MoodState(valence=0.0, fatigue=0.8), frozenset(), read)
    assert [a.scene for a in items] == ["emotion"]
    # a line the rules read strongly is theirs, whatever the evening reads
    plain = matter.Readings({}, 1.0, 0.0, ordinary=evening.ORDINARY)
    strong = arm.matters(
        drafted(text, 0.8), MoodState(valence=0.0, fatigue=0.8), frozenset(), plain
    )
    assert [a.scene for a in strong] == ["emotion"]
