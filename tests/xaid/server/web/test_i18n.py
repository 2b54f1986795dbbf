"""Every phrase of the page in English and Chinese, and which language a request gets."""

from __future__ import annotations

from xaid.server.web import i18n
from xaid.text import cjk


def test_every_phrase_has_both_languages() -> None:
    for key, (en, zh) in i18n.TEXT.items():
        assert en.strip() and zh.strip(), key
        if key not in ("role_None", "language"):
            assert cjk.has(zh), f"{key}: {zh!r} is not Chinese"
    assert i18n.t("zh", "facts") == "事实" and i18n.t("en", "facts") == "Facts"


def test_the_language_is_asked_then_kept_then_the_browsers() -> None:
    assert i18n.choose(None, None, "") == "en"
    assert i18n.choose(None, None, "zh-CN,zh;q=0.9,en;q=0.8") == "zh"
    assert i18n.choose(None, None, "en-GB,en;q=0.9,zh;q=0.8") == "en"
    assert i18n.choose(None, None, "fr-FR, zh-TW;q=0.7, en;q=0.3") == "zh"
    assert i18n.choose(None, None, "de, fr") == "en"
    assert i18n.choose(None, None, "zh;q=0, en") == "en"
    assert i18n.choose(None, "zh", "en") == "zh"
    assert i18n.choose("en", "zh", "zh-CN") == "en"
    assert i18n.choose("xx", None, "zh-CN") == "zh"  # an unknown choice is no choice
