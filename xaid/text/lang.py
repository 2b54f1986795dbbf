"""Which language a text is in, for the reply, the prompt's phrasing and the memory's own frames.

Only English and Chinese are told apart: they are the languages xaid's rules are written for, and
every other text is answered with the English phrasing (the model itself still replies in the
user's language, as the head of the prompt asks).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Literal

from .cjk import count as cjk_count

Lang = Literal["en", "zh"]
_LATIN_WORD = re.compile(r"[A-Za-z\u00c0-\u024f]{2,}")
LANG_MIN_SIGNAL = (
    2  # Latin words a message needs to decide alone; with fewer, earlier user messages decide too
)
LANG_LOOKBACK = 4


def cjk_share(text: str) -> float:
    """CJK characters against CJK characters + Latin words: a Chinese sentence with a brand name
    in it stays Chinese, an English one with a Chinese word in it stays English."""
    cjk = cjk_count(text)
    latin = len(_LATIN_WORD.findall(text))
    return cjk / (cjk + latin) if cjk + latin else 0.0


def language(user_texts: Sequence[str]) -> Lang:
    """The language to reply in: the newest user message's, with the few before it deciding when
    it says too little ("ok", "👍", "?")."""
    cjk = latin = 0
    for text in reversed(user_texts[-LANG_LOOKBACK:]):
        cjk += cjk_count(text)
        latin += len(_LATIN_WORD.findall(text))
        if (
            cjk or latin >= LANG_MIN_SIGNAL
        ):  # one Chinese character says more than one Latin word ("ok")
            break
    return "zh" if cjk and cjk >= latin else "en"
