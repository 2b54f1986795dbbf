"""The rule classifier against the sentences the mood has to get right, in both languages.

The thresholds are the ones the rest of the mood depends on: the tone bands read fatigue >= 0.25 / 0.5
and the update lets intensity >= 0.7 linger for days while <= 0.45 fades overnight.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from xaid.mood.classifier import NEUTRAL_READING, Reading, RuleClassifier
from xaid.mood.combined import CombinedClassifier

rules = RuleClassifier()


def read(text: str) -> Reading:
    return rules.classify(text)


# -- tiredness, negation, degree ---------------------------------------------------------------------


def test_bu_lei_is_not_tired_while_lei_is() -> None:
    assert read("不累").fatigue < 0.2
    assert read("我一点也不累").fatigue < 0.2
    assert read("我不觉得累").fatigue < 0.2
    assert read("累").fatigue >= 0.5


def test_chinese_tiredness_has_degrees() -> None:
    assert read("累死了").fatigue > read("有点累").fatigue > read("今天吃了面条").fatigue == 0.0
    assert read("累得要命").fatigue > read("累").fatigue
    assert read("不太累").fatigue < read("有点累").fatigue


def test_english_exhaustion() -> None:
    r = read("I'm exhausted")
    assert r.fatigue > 0.6
    assert r.valence < 0
    assert read("I'm not tired at all").fatigue < 0.2
    assert read("a bit tired").fatigue < read("so tired").fatigue


@pytest.mark.parametrize(
    "text",
    [
        "I'm so wiped out",
        "totally burnt out",
        "sooo tiiired",
        "熬夜到三点",
        "心累",
        "精疲力尽",
        "I'm dead on my feet",
        "running on empty since Monday",
        "最近心力交瘁",
        "整个人都被掏空了",
        "今天累成狗",
    ],
)
def test_tired_phrases(text: str) -> None:
    assert read(text).fatigue >= 0.5


def test_a_head_that_pounds_after_a_long_day_reads_as_overload_in_both_languages() -> None:
    for text in ("my head is pounding", "脑袋嗡嗡的"):
        r = read(text)
        assert r.valence < -0.2 and r.intensity >= 0.5, text
    assert read("我把钱包掏空了") == read(
        "我把钱包拿出来了"
    )  # 掏空 alone (emptied a wallet) is no feeling


# -- negation and idioms -----------------------------------------------------------------------------


def test_not_bad_at_all_is_positive() -> None:
    assert read("not bad at all").valence > 0
    assert read("not bad").valence > 0
    assert read("不错").valence > 0


def test_negated_positive_is_negative() -> None:
    assert read("I'm not happy").valence < 0
    assert read("I don't feel happy").valence < 0
    assert read("我不开心").valence < 0
    assert read("我不是很开心").valence < 0


def test_softened_denial_is_milder_than_plain_denial_and_the_feeling() -> None:
    assert read("I'm sad").valence < read("not very sad").valence
    assert -0.4 < read("不太好").valence < 0
    assert read("不太好").valence > read("难过").valence


def test_reassurances_are_not_negative() -> None:
    for text in ("没事", "没关系", "no problem", "no worries", "别担心"):
        r = read(text)
        assert r.valence >= 0, text
        assert r.intensity < 0.3, text


def test_cant_wait_is_excitement_not_negation() -> None:
    r = read("I can't wait!")
    assert r.valence > 0.4
    assert r.arousal > 0.6


def test_negator_does_not_reach_across_a_clause() -> None:
    assert read("no, I'm happy").valence > 0.3
    assert read("我不知道为什么，很难过").valence < -0.4


def test_false_friends_carry_no_feeling() -> None:
    for text in ("好多人在超市", "经验积累", "sit down please", "good morning", "你好"):
        assert read(text) == NEUTRAL_READING, text


# -- failures, mixtures --------------------------------------------------------------------------------


def test_chinese_crash_and_tiredness() -> None:
    r = read("最近项目搞崩了，很累")
    assert r.fatigue > 0.5
    assert r.valence < 0


def test_english_crash_and_tiredness() -> None:
    r = read("the project crashed, I'm exhausted")
    assert r.fatigue > 0.5
    assert r.valence < 0


def test_mixed_feelings_keep_each_dimension() -> None:
    r = read("so tired but so excited about tomorrow!!")
    assert r.fatigue > 0.4
    assert r.valence > 0
    assert r.arousal > 0.5
    zh = read("累，但是很期待明天！")
    assert zh.fatigue > 0.4 and zh.valence > 0 and zh.arousal > 0.5


def test_mixed_languages_in_one_message() -> None:
    r = read("今天加班 so tired 😫")
    assert r.fatigue > 0.6
    assert len(r.cues) >= 3


# -- intensity ------------------------------------------------------------------------------------------


def test_chinese_joy_with_exclamations() -> None:
    assert read("我好开心！！").valence > 0.5
    assert read("我好开心！！").arousal > read("我开心").arousal


def test_mild_annoyance_is_weaker_than_strong() -> None:
    mild, strong = read("有点烦"), read("烦死了")
    assert mild.valence < 0 and strong.valence < 0
    assert mild.valence > strong.valence
    assert read("I'm a bit annoyed").intensity < read("I'm furious").intensity


@pytest.mark.parametrize("text", ["I'm exhausted", "累死了", "I'm furious", "气死了", "烦死了"])
def test_strong_feelings_are_intense(text: str) -> None:
    assert read(text).intensity >= 0.7


@pytest.mark.parametrize(
    "text", ["I'm a bit annoyed", "有点烦", "有点累", "ok", "还行", "slightly worried"]
)
def test_mild_feelings_are_not(text: str) -> None:
    assert read(text).intensity <= 0.45


def test_emphasis_raises_arousal_and_intensity() -> None:
    plain, loud = read("I'm angry"), read("I'm ANGRY!!!")
    assert loud.arousal > plain.arousal
    assert loud.intensity > plain.intensity


# -- emoji, nothing at all, confidence -----------------------------------------------------------------


def test_emoji_alone() -> None:
    assert read("😭").valence < -0.3
    assert read("😴").fatigue > 0.4
    assert read("🎉").valence > 0.3


@pytest.mark.parametrize(
    ("text", "sign"),
    [
        ("🥳🥳 we closed on the house", 1),
        ("🥹🥹 女儿今天第一次叫妈妈", 1),
        ("🤩 got tickets", 1),
        ("又没抢到回家的票🙄", -1),
        ("the train again 😒", -1),
        ("☹️ 没考好", -1),
        ("🤬🤬", -1),
    ],
)
def test_faces_of_one_feeling_read_in_both_languages(text: str, sign: int) -> None:
    """The emoji whose feeling Unicode names read alone as that feeling, whatever the language
    around them (feel7: an outside author's emoji sessions read 1/3 en, 0/3 zh)."""
    r = read(text)
    assert r.confidence > 0
    assert r.valence * sign > 0.2


@pytest.mark.parametrize("text", ["🙃", "💀💀", "🥲", "just the ✨vibes✨"])
def test_faces_of_split_use_read_nothing(text: str) -> None:
    """Faces used for opposite feelings (irony, laughing "dead", smiling through pain) stay unread:
    the session's meaning decides them."""
    assert read(text) == NEUTRAL_READING


@pytest.mark.parametrize(
    "text", ["Morning", "早", "I had lunch with Tom at noon", "明天下午三点开会", "", "!!!"]
)
def test_no_cue_means_no_reading(text: str) -> None:
    r = read(text)
    assert r.confidence == 0.0
    assert r.cues == ()
    assert r == NEUTRAL_READING


def test_confidence_grows_with_cues() -> None:
    one, two = read("I'm tired"), read("I'm tired and sad and stressed")
    assert 0 < one.confidence < two.confidence <= 0.95
    assert read("ok").confidence < read("I'm exhausted").confidence


def test_cues_explain_what_fired() -> None:
    assert read("我有点累").cues == ("有点+累",)
    assert read("I'm not happy").cues == ("not+happy",)


def test_readings_stay_in_range() -> None:
    texts = [
        "累死了累死了累死了！！！",
        "HAPPY HAPPY HAPPY!!! 😄😄😄🎉",
        "sad sad sad crying 😭😭😭",
        "不不不不不",
    ]
    for text in texts:
        r = read(text)
        assert -1 <= r.valence <= 1 and 0 <= r.arousal <= 1 and 0 <= r.fatigue <= 1
        assert 0 <= r.intensity <= 1 and 0 <= r.confidence <= 1


# -- combining classifiers ----------------------------------------------------------------------------


@dataclass
class Fixed:
    """A stand-in classifier that always gives the same reading, so the weighting is visible."""

    name: str
    reading: Reading

    def classify(self, text: str) -> Reading:
        return self.reading


def test_combined_weights_by_confidence() -> None:
    sure = Fixed("a", Reading(-0.8, 0.6, 0.9, 0.8, 0.9, ("x",)))
    unsure = Fixed("b", Reading(0.8, 0.3, 0.0, 0.2, 0.1, ("y",)))
    r = CombinedClassifier([sure, unsure]).classify("anything")
    assert r.valence == pytest.approx((-0.8 * 0.9 + 0.8 * 0.1) / 1.0)
    assert r.fatigue == pytest.approx(0.81)
    assert r.cues == ("a:x", "b:y")


def test_combined_ignores_a_classifier_that_found_nothing() -> None:
    silent = Fixed("silent", NEUTRAL_READING)
    r = CombinedClassifier([rules, silent]).classify("I'm exhausted")
    assert r.fatigue == pytest.approx(read("I'm exhausted").fatigue)
    assert CombinedClassifier([silent]).classify("x") == NEUTRAL_READING


# -- a consoling clause after the news (feel9) ------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Bombed my driving test again, so upset. At least the examiner was nice about it lol",
        "考试又挂了，好难过，还好老师说下次还能补考",
        "面试又没过，很失落。算了，反正也不太想去哈哈",
    ],
)
def test_a_silver_lining_does_not_brighten_the_news(text: str) -> None:
    """What follows "at least" / 还好 / 算了 after the news is what the speaker holds on to, not how
    they feel: its "nice", "lol", 哈哈 weigh nothing, and 还好 there is "luckily", not "fine"."""
    consoled = read(text)
    assert consoled.valence < -0.2, consoled
    assert "还好" not in consoled.cues


@pytest.mark.parametrize(
    ("text", "bright"),
    [("Got the promotion today lol, still can't believe it", True), ("升职了哈哈，太开心了", True)],
)
def test_a_happy_message_with_a_laugh_stays_happy(text: str, bright: bool) -> None:
    assert (read(text).valence > 0.2) is bright


def test_a_consoler_that_opens_the_message_is_its_own_word() -> None:
    """At a message's start nothing precedes it to console: 还好 answers "how was it" (fine)."""
    assert read("还好，不算太累").valence > 0
    assert "还好" in read("还好，不算太累").cues


@pytest.mark.parametrize(
    "text",
    ["Dentist is on Thursday at 3, need to bring the forms.", "周四下午三点看牙，记得带资料。"],
)
def test_a_neutral_line_reads_nothing(text: str) -> None:
    assert read(text) == NEUTRAL_READING
