"""Telling English from Chinese: the reply's language and the phrasing the prompt and memory use."""

from __future__ import annotations

from xaid.text import lang


def test_language_is_the_newest_messages_unless_it_says_too_little() -> None:
    assert lang.language(["早。"]) == "zh"
    assert lang.language(["Morning."]) == "en"
    assert lang.language(["我今天用iPhone拍了很多照片"]) == "zh"
    assert lang.language(["I learned to say 你好 today"]) == "en"
    assert lang.language(["今天好累", "ok"]) == "zh"  # one Latin word decides nothing
    assert lang.language(["今天好累", "ok thanks"]) == "en"
    assert lang.language(["👍"]) == "en"


def test_a_brand_name_keeps_a_chinese_sentence_chinese() -> None:
    assert (
        lang.cjk_share("我今天用iPhone拍了很多照片")
        > 0.5
        > lang.cjk_share("I learned to say 你好 today")
    )
    assert lang.cjk_share("👍") == 0.0
