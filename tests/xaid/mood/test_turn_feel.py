"""The turn's own feeling (xaid/mood/turn_feel.py) with the packaged learned reader and the real
default embedder (USE-multilingual-v3), both languages: a feeling said without a feeling word is
read at the turn, tears on good news read good, tears on bad news and plain errands do not."""

from __future__ import annotations

import numpy as np
import pytest

from xaid.embed.use import UseEmbedder
from xaid.mood import learned, turn_feel
from xaid.mood.classifier import RuleClassifier

RULES = RuleClassifier()


@pytest.fixture(scope="module")
def embedder() -> UseEmbedder:
    return UseEmbedder()


def heard(embedder: UseEmbedder, text: str) -> turn_feel.Heard:
    vectors = list(np.asarray(embedder.embed(turn_feel.texts(text)), dtype=np.float32))
    return turn_feel.read(learned.default(), text, RULES.classify(text), vectors)


@pytest.mark.parametrize("text", ["got ghosted after 3 dates", "车年检又没过，真的会谢"])
def test_a_setback_without_a_feeling_word_reads_low(embedder: UseEmbedder, text: str) -> None:
    """The rules read nothing; the reader reads a low, and says so in the cues."""
    assert RULES.classify(text).confidence == 0
    reading = heard(embedder, text).reading
    assert reading.valence < -learned.LIGHT
    assert "meaning:low" in reading.cues


@pytest.mark.parametrize("text", ["I GOT IN 😭😭😭", "cried so much lol 😭"])
def test_tears_beside_good_news_read_good(embedder: UseEmbedder, text: str) -> None:
    assert RULES.classify(text).valence < 0
    h = heard(embedder, text)
    assert h.reading.valence > 0 and "tears of joy" in h.reading.cues
    assert turn_feel.settle(h, 0.0) is h.reading


@pytest.mark.parametrize("text", ["flight got cancelled 😭😭", "航班取消了😭😭"])
def test_tears_beside_bad_news_stay_sad(embedder: UseEmbedder, text: str) -> None:
    """Whatever the mood before: good news earlier does not make these tears glad."""
    h = heard(embedder, text)
    assert h.joy is None
    assert turn_feel.settle(h, 0.5).valence < -learned.RULES_FIRST


def test_tears_the_words_do_not_explain_follow_the_mood_before(embedder: UseEmbedder) -> None:
    """ "上岸了😭😭😭": the reader is not sure of 上岸了 alone; after good news it is joy, on a neutral
    evening the rules' reading stands (the session's close reads the rest: test_tears)."""
    h = heard(embedder, "上岸了😭😭😭")
    assert h.joy is not None
    assert turn_feel.settle(h, 0.3).valence > 0
    assert turn_feel.settle(h, 0.0).valence < 0


@pytest.mark.parametrize(
    "text",
    [
        "picking up the dry cleaning then heading to the gym",
        "去取个干洗的衣服，然后去健身房",
        "they want to publish my short story",
        "杂志要发我的小说",
    ],
)
def test_plain_lines_the_reader_is_not_sure_of_read_nothing(
    embedder: UseEmbedder, text: str
) -> None:
    """Calm errands stay calm; good news the reader is not sure of is left to the rules (nothing):
    a turn is not given a feeling on a guess."""
    assert heard(embedder, text).reading.confidence == 0


@pytest.mark.parametrize("text", ["I'm devastated", "我好难过"])
def test_a_strong_rule_reading_stands(embedder: UseEmbedder, text: str) -> None:
    assert heard(embedder, text).reading == RULES.classify(text)


def test_without_vectors_the_rules_alone_read() -> None:
    """Another embedder, or none: the turn reads as the rules read it, tears included."""
    text = "I GOT IN 😭😭😭"
    assert turn_feel.read(learned.default(), text, RULES.classify(text), None).reading == (
        RULES.classify(text)
    )
