"""The role judge: whether a reply is written as the user (their opener, their feeling or their
matter in the first person) instead of as the companion. Shared by the Morning and the replies
benchmarks (perf/eval/morning.py, replies.py), each of which imports it; kept apart from the
product's own check (xaid/conversation/voice.py) so the judge does not grade itself.
"""

from __future__ import annotations

import re

_HAN = re.compile(r"[\u3400-\u9fff]")


_FEELINGS_EN = (
    r"tired|exhausted|wiped|nervous|anxious|scared|terrified|stressed|awful|worried|sick|better|"
    r"back|home|ready|so sorry about"
)
_FIRST_PERSON_EN = re.compile(
    rf"\bI(?:'m| am| feel| was| got)(?: so| a bit| really| very| much| totally| finally| just)? (?:{_FEELINGS_EN})\b",
    re.I,
)
_FIRST_PERSON_ZH = re.compile(
    r"我(?:也|还|今天|现在|终于|已经)?(?:很|好|有点|特别|太|真)?(?:累|困|紧张|难受|害怕|焦虑|担心死|慌|好多了|回来了|到家了|感觉好多了)"
)


# A state said as the speaker's own without a "我": a sentence that opens with a degree complement
# ("累得要死！", `make demo`'s evening reply) and neither addresses the listener nor asks.
_OWN_STATE_ZH = re.compile(
    r"(?:^|[。！？!?\n])\s*[\u3400-\u9fff]{1,3}(?:得要死|得要命|得不行|死了|坏了|瘫了|死我了)[^。！？!?\n你您吧吗呢]*[。！!]"
)


def opener_clauses(opener: str) -> list[str]:
    """The opener's own first-person words ("我回来了", "i'm back"), which a reply must not repeat."""
    out = [m.group(0) for m in re.finditer(r"我[\u3400-\u9fff]{1,5}", opener)]
    out += [m.group(0).lower() for m in re.finditer(r"\bI(?:'m| am) \w+", opener, re.I)]
    return out


def speaks_as_user(text: str, opener: str, matter: list[str]) -> bool:
    """The reply is written as the user: their opener, their feeling or their matter in the first person."""
    low = text.lower().replace("’", "'")
    if any(c in text or c in low for c in opener_clauses(opener)):
        return True
    if _FIRST_PERSON_EN.search(low) or _FIRST_PERSON_ZH.search(text):
        return True
    if _OWN_STATE_ZH.search(text):
        return True
    for word in matter:
        if _HAN.search(word):
            if f"我的{word}" in text or f"我{word}" in text:
                return True
        elif re.search(rf"\bmy {re.escape(word.lower())}", low):
            return True
    return False
