"""Whom a user's line is about: someone it names, or only a pronoun that points back.

Two readers need it. A do-not-ask of "him" (refused.py) takes back the matter armed last whose words
hold a person. A line read as a loss or grave news that names its someone only by a pronoun ("he
keeps saying it's nothing but he hasn't slept properly in days", "她儿子在外地回不来，就我了") was
quoted alone, and the check-in said it back days later ("I've been thinking of you since you told me
he keeps saying it's nothing"), which names no one: the line before it in the session named them
("Sam gets his biopsy results on wednesday", "王阿姨周三下午做手术"), and that is quoted first
(arm._loss). Someone named is a proper noun (text.features) or a word of the relation lexicons
(妈, 阿姨, sister, boss).
"""

from __future__ import annotations

import re

from ..memory.rules import lexicon_en as people_en
from ..memory.rules import lexicon_zh as people_zh
from ..text import cjk, features, stopwords

# A pronoun for a person anywhere in a line (lower-cased).
PERSON_PRONOUN = re.compile(r"\b(?:him|her|them|he|she|they)\b|[他她]们?")
# A line that begins with one as its subject or its whose ("he keeps saying…", "her son…",
# "她儿子…", 它 for a pet), after what only leads in ("and", "but", "also", 可是, 但).
_LEADS_WITH_PRONOUN = re.compile(
    r"^(?:(?:and|but|so|also|plus|though|honestly|still)\s+)*"
    r"(?:he|she|they|his|her|their)(?:'s|'re|'d|'ll)?\b"
    r"|^(?:可是|但是|不过|而且|但|可)?[他她它](?!们?(?:说的|那))",
    re.I,
)
_PEOPLE = frozenset(people_en.RELATIONS) | frozenset(people_zh.RELATIONS)
# Someone called by their family name, as Chinese is spoken: 小陈, 老王, 王阿姨, 张叔, 李老师. The family
# names are the commonest (a closed class); 于 is left out (小于 is "less than"), and the one
# character after 小/老 must be one of them, so 小时, 老是, 老板 are no one.
_SURNAMES = (
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘蒋蔡余杜叶程苏魏吕丁"
    "任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武"
    "戴莫孔向汤"
)
_ZH_CALLED = re.compile(
    f"[小老阿][{_SURNAMES}](?![{cjk.IDEOGRAPHS}]?[子们])|[{_SURNAMES}](?:阿姨|叔叔|叔|大爷|大妈|奶奶|爷爷|姐|哥|总|工)"
)
# An English line that opens on a name: a capitalised word that is no common word ("Sam gets his
# biopsy results": features.py counts no word at a sentence's start, where every word has one).
_OPENS_ON_NAME = re.compile(r"^([A-Z][a-z]+)(?:'s)?\b")


def holds_person(text: str) -> bool:
    """Whether ``text`` names someone: a proper noun, a relation word (妈, sister), a Chinese family
    name said as a person is called (小陈, 王阿姨), or a name the line opens on."""
    low = text.lower()
    opens = _OPENS_ON_NAME.match(text.strip())
    return (
        bool(features.features(text).proper_nouns)
        or any((p in low if cjk.has(p) else re.search(rf"\b{p}\b", low)) for p in _PEOPLE)
        or bool(_ZH_CALLED.search(text))
        or (
            opens is not None
            and may_be_name(opens.group(1))
            and not opens.group(1).endswith("ly")  # "Honestly", "Literally"
        )
    )


def may_be_name(word: str) -> bool:
    """Whether a capitalised ``word`` may be a name where the capital says nothing (at the start of
    a line): a word of no closed class, neither features.py's (pronouns, "today", months) nor the
    stopwords."""
    return not features.common_word(word) and word.lower() not in stopwords.ENGLISH


def leads_with_pronoun(text: str) -> bool:
    """Whether ``text`` begins by naming its someone with a pronoun only, and names no one else: a
    relation word right after it is theirs ("her son", "她儿子"), no one named."""
    said = text.strip()
    m = _LEADS_WITH_PRONOUN.match(said)
    if m is None:
        return False
    rest = said[m.end() :].lstrip()
    whose = next((p for p in _BY_LENGTH if _starts(rest.lower(), p)), "")
    return not holds_person(PERSON_PRONOUN.sub(" ", rest[len(whose) :]))


_BY_LENGTH = sorted(_PEOPLE, key=len, reverse=True)


def _starts(text: str, word: str) -> bool:
    return text.startswith(word) and (
        cjk.has(word) or not text[len(word) : len(word) + 1].isalpha()
    )
