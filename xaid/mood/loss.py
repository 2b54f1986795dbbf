"""A death said without a word for dying: "we lost our dog", "外婆今天走了".

Kept apart from the lexicons because these are patterns over a close person and a verb that alone
means something ordinary ("lost my keys", "他走了" = he left); only the pair says a loss.
"""

from __future__ import annotations

import re

from ..text import cjk
from . import lexicon_en as en
from . import lexicon_zh as zh
from .meaning import LOSS_MARGIN

_KIN_EN = "|".join(sorted(en.KIN, key=len, reverse=True))
_KIN_ZH = "|".join(sorted(zh.KIN, key=len, reverse=True))
_PATTERNS = (
    # not a thing of theirs: "lost my grandma's ring" (morning_dev39: kept company as a death)
    re.compile(
        rf"\blost (?:my|our|her|his|their) (?:\w+ )?(?:{_KIN_EN})\b(?!['’]s?\b)", re.IGNORECASE
    ),
    re.compile(
        rf"\bput (?:my|our|her|his|their|the) (?:\w+ )?(?:{_KIN_EN}) (?:down|to sleep)\b",
        re.IGNORECASE,
    ),
    # "she didn't make it", "grandad didn't make it through the night": a death; "I didn't make it
    # to the gym" and "we didn't make it in time" are not (a person other than "I", nowhere after it)
    re.compile(
        rf"\b(?:he|she|they|(?:my|our|her|his|their) (?:\w+ )?(?:{_KIN_EN}))\s+(?:just\s+)?"
        r"(?:didn'?t|did not|never)\s+make it\b(?!\s+(?:to|in|on|back|out|there|here|home|for|up)\b)",
        re.IGNORECASE,
    ),
    # "passed" without "away", said of a close person with when or how it happened: "grandpa Walt
    # passed this morning", "my nan passed peacefully in her sleep" (morning_dev38's train half: armed
    # as grave news still open). "my sister passed!!" (an exam) and "dad passed the bar" are not.
    re.compile(
        rf"\b(?:{_KIN_EN})(?: [A-Z][a-z]+)? (?:just |finally |quietly )?passed\s+"
        r"(?:on\b(?!\s+(?:the|a|an|my|his|her|their|our|that|this|it)\b)|peacefully|quietly"
        r"|in (?:her|his|their) sleep|overnight|this (?:morning|afternoon|evening)"
        r"|last night|yesterday|today|early this|on (?:mon|tues|wednes|thurs|fri|satur|sun)day)",
        re.IGNORECASE,
    ),
    # 刚走了 is "just left"; 走了，去超市 goes somewhere: neither is a death. Up to six characters
    # between: a day and a manner ("奶奶礼拜天安详地走了", feel12's dev set) is how it is told gently
    re.compile(
        rf"(?:{_KIN_ZH})(?:(?!刚)[^，。！？,.!?\s]){{0,6}}(?:走了|不在了)(?![，,]?\s*(?:去|回|出|上))"
    ),
)


# A being called by its name, where the verb is what is done after a death or said of one: "we lost
# Whiskers on sunday", "buried Noodle under the apple tree", "had to say goodbye to Biscuit", "had
# to put Max down"; 把团子埋在了树下, 我家小黑周日没了 (losses_dev17's pets said softly). A capitalised
# word may be a thing ("lost Google Drive access"): these are read by ``ruled``, which meaning may
# veto, not by ``losses``, which it never does.
_NOT_A_NAME = (  # a capitalised word that is no being's name: a pronoun, an article, a day, a month
    r"(?!I\b|The\b|An?\b|(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day"
    r"|Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)"
)
_NAMED = (
    re.compile(rf"\b(?:[Ll]ost|[Bb]uried|[Bb]urying)\s+{_NOT_A_NAME}[A-Z][a-z]{{2,}}\b"),
    re.compile(
        rf"\b(?:had to|have to|we|I) (?:say goodbye to|let|put) {_NOT_A_NAME}[A-Z][a-z]{{2,}}"
        r"(?: go\b| down\b| to sleep\b|(?= (?:this|last|today|yesterday|on)\b))"
    ),
    re.compile(f"把[{cjk.IDEOGRAPHS}]{{1,3}}埋(?:在|了|到)"),
    re.compile(
        f"(?:我家|我们家)的?[{cjk.IDEOGRAPHS}]{{1,3}}?"
        f"(?:周[一二三四五六日天]|昨天|昨晚|前天|今天|今早|上周|上个月)[{cjk.IDEOGRAPHS}]{{0,3}}?没了"
    ),
)


def losses(text: str) -> list[str]:
    """The spans that say someone close has died (none for most messages)."""
    return [m.group() for pattern in _PATTERNS for m in pattern.finditer(text)]


# The lexicons' words for a death or grave news (GRIEF, GRAVE), and a break-up, which the lexicons
# file under hurt: what the rules call a loss whatever else the message says.
_LOSS_CUES = (en.GRIEF, en.GRAVE)
_WORDS_EN = (
    *tuple(w for w, (cue, _) in (en.CUES | en.IDIOMS).items() if cue in _LOSS_CUES),
    "broke up",
    "break-up",
    "breakup",
    "divorce",
    "divorced",
)
_WORDS_ZH = (
    *tuple(w for w, (cue, _) in (zh.CUES | zh.IDIOMS).items() if cue in _LOSS_CUES),
    "分手",
    "离婚",
)
_WORD_EN = re.compile(
    r"\b(?:" + "|".join(re.escape(w) for w in sorted(_WORDS_EN, key=len, reverse=True)) + r")\b",
    re.IGNORECASE,
)


# A death said of the speaker is a way of speaking: "我真的会当场去世" over a speech to give, "I'm
# literally going to die", "I died laughing". No one reports their own death; the words go before
# the lexicons are read (morning_dev37's train half: a best man's nerves were kept company as a loss).
# Not "我去世的奶奶" (whose: 的 follows) nor "my grandma died" (another subject).
_SELF_DEATH = re.compile(
    r"\b(?:i|i'm|im|i am|i'll|ill|i will|i would|i'd)\s+"
    r"(?:(?:literally|actually|just|so|totally|seriously|honestly|gonna|going to|about to|will|would"
    r"|might|could|be|am|'m)\s+){0,3}(?:die|died|dead|dying)\b"
    r"|我(?:真的|简直|直接|当场|原地|马上|快要|快|就要|就|要|会|都|也|可能|估计|绝对|肯定|一定|怕是)*"
    r"(?:去世|死掉|死了|死)(?!的)",
    re.IGNORECASE,
)


def ruled(text: str) -> bool:
    """Whether the rules read a loss: a death said without a word for dying (``losses``), or a
    word of the lexicons for a death, grave news or a break-up; not a death said of the speaker
    (``_SELF_DEATH``)."""
    text = _SELF_DEATH.sub(" ", text)
    return bool(
        losses(text)
        or _WORD_EN.search(text)
        or any(w in text for w in _WORDS_ZH)
        or any(p.search(text) for p in _NAMED)
    )


# A clause that opens with a being's name (and a time) and its going: "豆豆走了", "今天下午阿黄没了".
# Alone it may be anyone leaving ("他走了" = he left), so it says a death only of words already read
# as a loss (``gone``), not as a loss of its own.
_GONE = re.compile(
    f"(?:^|[，,。.!！?？\\s])[{cjk.IDEOGRAPHS}]{{1,6}}(?:走了|没了|不在了)(?![，,]?\\s*(?:去|回|出|上))"
)


def gone(text: str) -> bool:
    """Whether words already read as a loss (by meaning) say the being is gone, not that grave news
    is still open: "豆豆走了 兽医说是心脏有问题" is a death, "我爸住院了 医生说要观察" is not. The
    check-in's lead names the second and never the first (conversation/checkin.py: after
    "一直惦记着你。上次你说豆豆走了，你" the 1.5B recited the death, morning_dev38's test half)."""
    return bool(_GONE.search(text))


def is_loss(text: str, meaning_margin: float | None = None) -> bool:
    """A loss by the rules, or by meaning: ``meaning_margin`` is ``meaning.Prototypes.loss`` of the
    text's vector (None without an embedder that reads it). Meaning also vetoes a rule word used
    for a thing ("my phone died": the word of a death, the meaning of a flat battery)."""
    if meaning_margin is None:
        return ruled(text)
    if meaning_margin >= LOSS_MARGIN:
        return True
    return ruled(text) and meaning_margin > -LOSS_MARGIN
