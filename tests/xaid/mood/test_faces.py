"""Faces as words (xaid.mood.faces): the embedder reads every emoji as one unknown token, so a face
is written as what it says before a session is embedded, in the text's language; the rules read
the same table (stickers such as orz included)."""

from __future__ import annotations

import pytest

from xaid.mood import faces
from xaid.mood.classifier import NEUTRAL_READING, RuleClassifier

_PICTOGRAPHS = [chr(c) for c in range(0x1F300, 0x1FAFF)] + [chr(c) for c in range(0x2600, 0x27C0)]


@pytest.mark.parametrize(
    ("text", "said", "gone"),
    [
        ("interview went nowhere 🥲", "smiling through tears", "🥲"),
        ("搬家公司放我鸽子🙃", "无奈", "🙃"),
        ("又被拒了QAQ", "又被拒了哭", "QAQ"),
        ("finally done with exams 🎉", "celebrating", "🎉"),
        ("改了一晚上论文 orz", "跪了", "orz"),
        ("dinner at 7 🍝", "spaghetti", "🍝"),  # a thing: its Unicode name
        ("great job 👍🏽", "thumbs up", "🏽"),  # a skin tone is the same face
        ("miss you ❤️", "love", "❤"),  # and so is a variation selector
    ],
)
def test_a_face_is_written_as_its_words_in_the_texts_language(
    text: str, said: str, gone: str
) -> None:
    glossed = faces.gloss(text)
    assert said in glossed and gone not in glossed, glossed


def test_a_run_of_one_face_is_said_once() -> None:
    """Three crying faces are one face said loudly: the words must not outweigh what it is about."""
    assert faces.gloss("上岸了😭😭😭").count("大哭") == 1
    assert faces.gloss("so proud 😭😭 😭").count("crying") == 1
    assert faces.gloss("😭 lost again 😭").count("crying") == 2  # two faces, words between


@pytest.mark.parametrize(
    "text", ["I had pasta for lunch", "明天下午三点开会", "Porzellan aus Meißen", "C:\\temp", ""]
)
def test_text_without_a_face_is_left_as_it_is(text: str) -> None:
    assert faces.gloss(text) == text


def test_no_pictograph_is_left_for_the_embedder() -> None:
    """Whatever the face, what is embedded holds words only: no character of the emoji blocks,
    each of which the embedder reads as the same unknown token."""
    for chinese in (False, True):
        text = "".join(_PICTOGRAPHS) + ("好" if chinese else "ok")
        glossed = faces.gloss(text)
        assert not any(c in glossed for c in _PICTOGRAPHS)


@pytest.mark.parametrize(
    ("text", "only"),
    [("🎉🎉", True), ("！！😭", True), ("passed 🎉", False), ("好", False), ("", False)],
)
def test_a_sentence_of_faces_alone(text: str, only: bool) -> None:
    assert faces.only(text) is only


@pytest.mark.parametrize(
    "text", ["deadline moved up again orz", "改到凌晨两点orz", "又没抽到票 TAT", "被拒了QwQ"]
)
def test_the_rules_read_stickers_in_both_languages(text: str) -> None:
    reading = RuleClassifier().classify(text)
    assert reading.confidence > 0 and reading.valence < -0.2, reading


@pytest.mark.parametrize("text", ["Porzellan", "the Orzo salad", "QATAR airways"])
def test_a_sticker_inside_a_word_is_no_sticker(text: str) -> None:
    assert RuleClassifier().classify(text) == NEUTRAL_READING
