"""The Chinese pieces every fact rule shares: pattern fragments (the adverbs between 我 and the verb,
negation), cleaning an object of trailing particles and date notes, and ``statement``, the user's
words in the third person ("要去见我的导师" → "用户要去见自己的导师。")."""

from __future__ import annotations

import re

from ...text import cjk
from .lexicon_zh import ADVERBS

CJK = cjk.IDEOGRAPHS
ADV = "(?:" + "|".join(ADVERBS) + ")*"
NEG = (
    r"(?P<neg>不太|不怎么|不是很|不是太|没那么|并不|从不|从来不|一点也不|一点都不|不再|已经不|再也不|根本不|"
    r"不|没有|没)?"
)
PARTICLES = re.compile(r"[了啦呀啊哦哈呢吧嘛喔噢哟诶~～\s.。!！,，…]+$")
ANNOTATION = re.compile(r"\s*\[\d{4}-\d{2}-\d{2}(?:\.\.\d{4}-\d{2}-\d{2})?\]")
PRONOUN_OBJECT = re.compile(r"^(?:你|他|她|它|这个|那个|这样|那样|这|那|自己|一切|什么|谁|哪)")
END_WORDS = re.compile(r"(?:了|啦|哈哈+|呢|而已|就是了)$")


def clean(obj: str) -> str:
    obj = ANNOTATION.sub("", obj)
    prev = None
    while prev != obj:
        prev = obj
        obj = PARTICLES.sub("", obj.strip())
        obj = END_WORDS.sub("", obj)
    return obj.strip(" “”\"'《》")


def statement(lead: str, rest: str) -> str:
    """("明天", "要去见我的导师") → "用户明天要去见自己的导师。": the user's words, in the third person."""
    rest = (
        rest.replace("我们", "\0")
        .replace("我的", "自己的")
        .replace("我", "自己")
        .replace("\0", "我们")
    )
    body = PARTICLES.sub("", (lead.strip(" ，,") + rest).strip())
    return f"用户{body}。"
