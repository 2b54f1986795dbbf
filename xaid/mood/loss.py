"""A death said without a word for dying: "we lost our dog", "外婆今天走了".

Kept apart from the lexicons because these are patterns over a close person and a verb that alone
means something ordinary ("lost my keys", "他走了" = he left); only the pair says a loss.
"""

from __future__ import annotations

import re

from . import lexicon_en as en
from . import lexicon_zh as zh

_KIN_EN = "|".join(sorted(en.KIN, key=len, reverse=True))
_KIN_ZH = "|".join(sorted(zh.KIN, key=len, reverse=True))
_PATTERNS = (
    re.compile(rf"\blost (?:my|our|her|his|their) (?:\w+ )?(?:{_KIN_EN})\b", re.IGNORECASE),
    re.compile(
        rf"\bput (?:my|our|her|his|their|the) (?:\w+ )?(?:{_KIN_EN}) (?:down|to sleep)\b",
        re.IGNORECASE,
    ),
    # 刚走了 is "just left"; 走了，去超市 goes somewhere: neither is a death
    re.compile(
        rf"(?:{_KIN_ZH})(?:(?!刚)[^，。！？,.!?\s]){{0,4}}(?:走了|不在了)(?![，,]?\s*(?:去|回|出|上))"
    ),
)


def losses(text: str) -> list[str]:
    """The spans that say someone close has died (none for most messages)."""
    return [m.group() for pattern in _PATTERNS for m in pattern.finditer(text)]
