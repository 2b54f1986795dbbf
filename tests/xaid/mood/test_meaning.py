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
    probes = meaning.Probes.of(lines)
    felt = meaning.read(bank, probes, list(model.embed(probes.texts)))
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
        # second pass (feelings_dev2.json): negation, sarcasm over a strong rule reading, slang;
        # each was carried wrong by the first pass (the whole session's vector)
        (["The scan results weren't great."], "low"),
        (["Not exactly thrilled with how the meeting went."], "low"),
        (["Oh great, the car's dead again. Love that for me."], "low"),
        (["Didn't get the flat. Not the end of the world, but I really wanted it."], "low"),
        (["今天答辩过了，导师说我yyds 😂"], "good"),
        (["侄子的表演笑死我了哈哈哈"], "good"),
        (["家里最近不怎么样"], "low"),
        (["我办公室在三楼"], "neutral"),
        (["My brother drives a blue van."], "neutral"),
    ],
)
def test_what_a_session_carries_reads_as_meant(
    model: UseEmbedder, bank: meaning.Prototypes, lines: list[str], band: str
) -> None:
    assert carried(model, bank, lines) == band


def test_a_strong_rule_reading_stands_unless_meaning_clearly_reads_the_other_sign() -> None:
    felt = meaning.Felt("good", 0.2)
    assert meaning.closing_valence(-0.7, 0.6, felt) == -0.7
    # sarcasm: the rules read "great", meaning reads the dead car clearly
    assert (
        meaning.closing_valence(0.7, 0.6, meaning.Felt("low", meaning.OVERRULE)) == -meaning.CARRIED
    )
    assert meaning.closing_valence(0.7, 0.6, meaning.Felt("good", 0.4)) == 0.7
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


def test_sentences_split_at_the_ends_of_both_languages() -> None:
    assert meaning.sentences(["Scan came back clear. Huge relief!", "ok"]) == [
        "Scan came back clear.",
        "Huge relief!",
        "ok",
    ]
    assert meaning.sentences(["过了！！驾照终于过了。"]) == ["过了！！", "驾照终于过了。"]


def test_only_english_negations_are_taken_out_for_the_twin() -> None:
    assert meaning.without_negation("The results weren't great.") == "The results were great."
    assert meaning.without_negation("Not bad at all") == "bad at all"
    assert meaning.without_negation("The results were great.") is None
    # 不/没 live inside Chinese words (不错, 没事): no twin, the sentence is read as it is
    assert meaning.without_negation("结果不太理想") is None


def test_a_sentence_decides_over_a_whole_that_averages_it_away(
    model: UseEmbedder, bank: meaning.Prototypes
) -> None:
    """The whole reads an idiom between its parts; the clearest sentence is what the day carries.
    Both languages; the read is the function consolidation calls."""
    for lines in (
        ["I had lunch with Sam. Our old cat crossed the rainbow bridge last night."],
        ["中午吃了面。", "外公昨晚走了，陪了我二十年。"],
    ):
        probes = meaning.Probes.of(lines)
        assert probes.sentences == 2
        felt = meaning.read(bank, probes, list(model.embed(probes.texts)))
        assert felt.label == "low", lines
