"""A tired evening is checked on, an ordinary one is not, and tiredness is no loss (arm19, issue 25).

- scheduler/worn.py: a session whose closing tiredness only meaning read (no line strong to the
  rules) is armed as a feeling check-in only when its lines together do not read nearer an ordinary
  evening than ``worn.FLOOR``; a session that closed low and reads ``worn.SURE`` nearer a worn-out
  evening is checked on as worn out though the tiredness head missed it;
- arm._lost: a loss read by meaning alone in a line the mood rules read as tired ("累得要死") is no
  loss, and a real death said softly stays one;
- worn.PLAIN: a session that reads ``worn.ORDINARY`` nearer an ordinary evening than anything a
  friend follows up arms neither an undated matter of the reader nor a feeling only meaning read.

The banks' readings are the real ones (USE-multilingual-v3); arming is the pure function. The
wordings are written for these tests, not taken from perf/scenarios/arm_dev19.json.
"""

from __future__ import annotations

import numpy as np
import pytest

from xaid.clock import HOUR_MS
from xaid.embed.use import UseEmbedder
from xaid.memory import draft
from xaid.mood import meaning
from xaid.mood.meaning import Contrast
from xaid.scheduler import arm, matter, worn
from xaid.store.mood import MoodState
from xaid.store.sessions import Message

DAY0 = 1_764_547_200_000  # Monday 2025-12-01 00:00 UTC
EVENING = DAY0 + 21 * HOUR_MS

ORDINARY = [
    "下班回家煮了个面，看了两集纪录片，准备睡了",
    "had a sandwich, tidied the desk, same old day. bed",
]
WORN_OUT = [
    "今天连轴转了十几个小时，人都快散架了",
    "eleven hours on my feet at the market today, my legs are done and so am I",
]


@pytest.fixture(scope="module")
def bank(use_embedder: UseEmbedder) -> Contrast:
    return worn.BANK.from_vectors(list(np.asarray(use_embedder.embed(worn.BANK.texts()))))


def drafted(*texts: str, intensity: float = 0.3) -> draft.Draft:
    messages = [
        Message("s", "a", "user", t, EVENING + n * 60_000, message_id=n + 1)
        for n, t in enumerate(texts)
    ]
    return draft.draft(messages, {n + 1: intensity for n in range(len(texts))}, MoodState(), "Mia")


def test_an_ordinary_evening_reads_below_the_floor_and_a_worn_out_one_above(
    use_embedder: UseEmbedder, bank: Contrast
) -> None:
    vectors = np.asarray(use_embedder.embed(ORDINARY + WORN_OUT))
    leads = [worn.lead(bank, v) for v in vectors]
    assert all(x < worn.FLOOR for x in leads[:2]), leads
    assert all(x > worn.FLOOR + 0.1 for x in leads[2:]), leads


@pytest.mark.parametrize("text", ORDINARY)
def test_a_tiredness_only_meaning_read_on_an_ordinary_evening_arms_no_check_in(
    use_embedder: UseEmbedder, bank: Contrast, text: str
) -> None:
    (vector,) = np.asarray(use_embedder.embed([text]))
    tired = MoodState(valence=0.0, fatigue=0.8)  # the tiredness head carried it to the morning
    read = matter.Readings({}, 1.0, 0.0, worn=worn.lead(bank, vector))
    assert arm.matters(drafted(text), tired, frozenset(), read) == []
    # without the bank's reading (another embedder) the feeling is armed as before
    unread = arm.matters(drafted(text), tired, frozenset(), matter.NO_READINGS)
    assert [a.scene for a in unread] == ["emotion"]


def test_a_tired_evening_meaning_read_is_still_checked_on() -> None:
    text = WORN_OUT[0]
    read = matter.Readings({}, 1.0, 0.0, worn=worn.FLOOR)
    items = arm.matters(drafted(text), MoodState(valence=0.0, fatigue=0.8), frozenset(), read)
    assert [a.scene for a in items] == ["emotion"]
    assert "很疲惫" in items[0].topic


def test_a_low_session_read_near_a_worn_out_evening_is_checked_on_as_worn_out() -> None:
    text = WORN_OUT[1]
    low = MoodState(valence=-0.2, fatigue=0.2)  # low, not tired to the head, nothing strong
    sure = matter.Readings({}, 1.0, 0.0, worn=worn.SURE)
    items = arm.matters(drafted(text), low, frozenset(), sure)
    assert [a.scene for a in items] == ["emotion"]
    assert "worn out" in items[0].topic
    below = matter.Readings({}, 1.0, 0.0, worn=worn.SURE - 0.01)
    assert arm.matters(drafted(text), low, frozenset(), below) == []
    # a line strong to the rules is the rules' to arm or not
    assert arm.matters(drafted(text, intensity=0.8), low, frozenset(), sure) == []


# A reader sure of a loss: what it reads of a line meaning puts near one.
SURE_LOSS = matter.Read(matter=0.1, loss=0.8, none=0.1)


def _sure(*ids: int) -> matter.Readings:
    return matter.Readings({i: SURE_LOSS for i in ids}, 0.5, 0.15)


@pytest.mark.parametrize(
    "text", ["搬了一下午砖，累得要死", "pulled an all-nighter for the launch, dead tired"]
)
def test_a_line_the_rules_read_as_tired_is_no_loss(text: str) -> None:
    assert matter.tired(text)
    items = arm.matters(
        drafted(text), MoodState(valence=-0.3, fatigue=0.8), frozenset({1}), _sure(1)
    )
    assert all(a.scene != "loss" for a in items), items


def test_a_death_said_softly_stays_a_loss(
    use_embedder: UseEmbedder, prototypes: meaning.Prototypes
) -> None:
    text = "we lost our grandad last night"
    (vector,) = np.asarray(use_embedder.embed([text]))
    assert prototypes.loss(vector) >= meaning.LOSS_MARGIN
    assert not matter.tired(text)
    items = arm.matters(drafted(text), MoodState(valence=-0.6), frozenset({1}), _sure(1))
    assert [a.scene for a in items] == ["loss"]


PLAIN_EVENINGS = [
    "今天就是上班、吃饭、回家，平平常常，晚安",
    "下班回家煮了个面，看了两集纪录片，准备睡了",
]
FOLLOWED = [
    "房东说押金不退了，我明天得去跟他理论",
    "my landlord won't give the deposit back, I'm going to fight it",
    "kid's had a temperature since lunch, keeping an eye on her tonight",
]


@pytest.fixture(scope="module")
def plain_bank(use_embedder: UseEmbedder) -> Contrast:
    return worn.PLAIN.from_vectors(list(np.asarray(use_embedder.embed(worn.PLAIN.texts()))))


def test_an_ordinary_evening_reads_plain_and_a_matter_does_not(
    use_embedder: UseEmbedder, plain_bank: Contrast
) -> None:
    vectors = np.asarray(use_embedder.embed(PLAIN_EVENINGS + FOLLOWED))
    leads = [worn.lead(plain_bank, v) for v in vectors]
    assert all(x >= worn.ORDINARY for x in leads[:2]), leads
    assert all(x < worn.ORDINARY for x in leads[2:]), leads


@pytest.mark.parametrize("text", PLAIN_EVENINGS)
def test_an_ordinary_evening_the_reader_takes_for_a_matter_arms_nothing(
    use_embedder: UseEmbedder, plain_bank: Contrast, text: str
) -> None:
    (vector,) = np.asarray(use_embedder.embed([text]))
    sure = {1: matter.Read(matter=0.9, loss=0.0, none=0.1)}  # the reader's misreading
    plain = matter.Readings(sure, 0.5, 0.15, ordinary=worn.lead(plain_bank, vector))
    assert arm.matters(drafted(text), MoodState(), frozenset(), plain) == []
    unread = matter.Readings(sure, 0.5, 0.15)
    assert [a.scene for a in arm.matters(drafted(text), MoodState(), frozenset(), unread)] == [
        "matter"
    ]
    # a feeling only meaning read is not armed on it either
    tired = MoodState(valence=0.0, fatigue=0.8)
    assert arm.matters(drafted(text), tired, frozenset(), plain) == []
