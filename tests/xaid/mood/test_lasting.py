"""Feelings last as long as they would: grief for days, an annoyance till morning, a denied worry
reads as assurance (issue 12 item 3). Each case in English and Chinese, through the rule classifier
and the mood arithmetic on a replayed clock."""

from __future__ import annotations

import pytest

from xaid.mood.classifier import RuleClassifier
from xaid.mood.state import HOUR_MS, MoodParams, MoodState, decay, merge, neutral
from xaid.mood.tone import bands, guidance

RULES = RuleClassifier()
P = MoodParams()
NIGHT = 21 * HOUR_MS


def after(text: str, hours: float) -> MoodState:
    state = merge(neutral(0, P), RULES.classify(text), NIGHT, P)
    return decay(state, NIGHT + int(hours * HOUR_MS))


@pytest.mark.parametrize(
    "text",
    [
        "My dad passed away last night.",
        "我爸爸昨晚去世了。",
        "We lost our grandmother this morning.",
        "外婆今天走了。",
        "We had to put our dog down this morning.",
        "The doctor says it's cancer.",
        "今天被确诊了肿瘤。",
    ],
)
def test_a_loss_or_grave_news_is_still_clearly_there_two_days_later(text: str) -> None:
    assert after(text, 48).valence <= -0.25
    assert bands(after(text, 48)).valence in {"low", "very_low"}
    assert guidance(after(text, 48)) is not None


@pytest.mark.parametrize("text", ["My dad passed away last night.", "我爸爸昨晚去世了。"])
def test_but_grief_is_not_a_mood_for_ever(text: str) -> None:
    assert bands(after(text, 24 * 10)).neutral


@pytest.mark.parametrize("text", ["ugh, the bus was late again, annoying", "公交又晚点了，真烦人"])
def test_a_small_annoyance_is_gone_by_morning(text: str) -> None:
    assert after(text, 0).valence < -0.1
    assert abs(after(text, 11).valence) < 0.05
    assert guidance(after(text, 11)) is None


@pytest.mark.parametrize(
    "text",
    [
        "my phone died again",
        "I lost my keys",
        "open a terminal and run it",
        "妈妈刚走了，去超市",
        "他走了",
    ],
)
def test_ordinary_words_that_look_like_a_loss_are_none(text: str) -> None:
    r = RULES.classify(text)
    assert r.lasting <= 1.0 and r.valence > -0.3


@pytest.mark.parametrize(
    "text",
    [
        "I'm not worried at all.",
        "我一点都不紧张。",
        "I feel confident about it.",
        "我很有信心。",
        "Nothing to worry about, I've got this.",
        "没什么好担心的，我心里有底。",
        "Although I was a bit nervous this morning, I feel confident now.",
        "虽然有点紧张，但是我很有信心。",
        "虽然明天就要答辩了，但是我很平静。",
    ],
)
def test_stated_calm_or_confidence_reads_as_confidence_not_anxiety(text: str) -> None:
    r = RULES.classify(text)
    assert r.valence >= 0.2, r
    assert r.arousal <= 0.35, r
    mood = after(text, 0)
    assert mood.valence > 0 and not bands(mood).tension


@pytest.mark.parametrize("text", ["I'm not worried at all.", "我一点都不紧张。"])
def test_an_emphatic_denial_says_more_than_a_plain_one(text: str) -> None:
    plain = text.replace(" at all", "").replace("一点都不", "不")
    assert RULES.classify(text).valence > RULES.classify(plain).valence > 0


def test_the_roadmaps_chinese_example_carries_to_the_morning_like_its_english_twin() -> None:
    zh = after("忙了一整天，头都炸了，很累", 11)
    en = after("Busy all day, my head is exploding, so tired", 11)
    assert bands(zh).fatigue in {"tired", "exhausted"}
    assert zh.fatigue == pytest.approx(en.fatigue, abs=0.05)
    assert zh.fatigue >= 0.3
