"""Feelings and losses by meaning (xaid.mood.meaning, xaid.mood.loss.is_loss) with the real default
embedder (USE-multilingual-v3), both languages: euphemism, idiom and understatement read as meant,
plain lines read as nothing, and the words of a loss used for a thing are not a loss."""

from __future__ import annotations

import numpy as np
import pytest

from xaid.embed.use import UseEmbedder
from xaid.mood import loss, meaning
from xaid.mood.classifier import RuleClassifier


@pytest.fixture(scope="module")
def model() -> UseEmbedder:
    return UseEmbedder()


@pytest.fixture(scope="module")
def bank(model: UseEmbedder) -> meaning.Prototypes:
    return meaning.Prototypes.build(lambda t: np.asarray(model.embed(t), dtype=np.float32))


def carried(model: UseEmbedder, bank: meaning.Prototypes, lines: list[str]) -> str:
    text = meaning.session_text(lines)
    reading = RuleClassifier().classify(text)
    felt = bank.feel(model.embed([text])[0])
    return meaning.band(meaning.closing_valence(reading.valence, reading.confidence, felt))


@pytest.mark.parametrize(
    ("lines", "band"),
    [
        (["今天被优化了，下午就让交工牌。"], "low"),
        (["我家狗狗昨晚人没了，陪了我十三年。"], "low"),
        (["过了！！", "驾照科目三终于过了"], "good"),
        (["Not my best week, honestly."], "low"),
        (["Our old cat crossed the rainbow bridge last night."], "low"),
        (["Scan came back clear. Huge weight off my shoulders."], "good"),
        (["中午吃了黄焖鸡。"], "neutral"),
        (["The meeting got moved to Thursday at 3."], "neutral"),
    ],
)
def test_what_a_session_carries_reads_as_meant(
    model: UseEmbedder, bank: meaning.Prototypes, lines: list[str], band: str
) -> None:
    assert carried(model, bank, lines) == band


def test_a_strong_rule_reading_stands_whatever_meaning_says() -> None:
    felt = meaning.Felt("good", 0.2)
    assert meaning.closing_valence(-0.7, 0.6, felt) == -0.7
    assert meaning.closing_valence(-0.1, 0.4, felt) == meaning.CARRIED
    assert meaning.closing_valence(-0.1, 0.4, meaning.Felt("good", 0.001)) == -0.1


@pytest.mark.parametrize(
    ("text", "is_loss"),
    [
        ("Grandpa slipped away peacefully this afternoon.", True),
        ("Sam and I broke up after six years.", True),
        ("我家狗狗昨晚人没了，陪了我十三年。", True),
        ("谈了五年，还是分了。", True),
        ("My phone died halfway through the call.", False),
        ("I lost my keys again, had to call a locksmith.", False),
        ("他刚走了，去超市买东西。", False),
        ("笑死了，今天的段子太好笑了。", False),
        ("大后天我姐姐结婚，我是伴娘。", False),  # a wedding sits near a divorce in the embedder
        ("My brother's wedding is on Saturday, I'm the best man.", False),
    ],
)
def test_a_loss_by_the_rules_and_meaning(
    model: UseEmbedder, bank: meaning.Prototypes, text: str, is_loss: bool
) -> None:
    assert loss.is_loss(text, bank.loss(model.embed([text])[0])) is is_loss


def test_without_meaning_the_rules_still_read_a_loss() -> None:
    assert loss.is_loss("My aunt passed away on Sunday.") and loss.is_loss("外公昨晚走了。")
    assert not loss.is_loss("We lost the match on Saturday.")
