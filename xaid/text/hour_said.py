"""The hour of the day something is said to happen at: "interview tomorrow at 9:30", "driving test
at 2", "10am", "明天上午十点面试", "下午两点考科目三".

timeparse.py pins the day ("tomorrow", 明天) and a part of it ("tomorrow morning", 明早); the hour
itself it leaves alone. The scheduler needs it for one thing (arm.py): the evening after a morning
interview is after the interview, and a friend asks "how did it go?", not "are you ready?" (issue
25, session 12's gap: the check-in about an event stayed "before" through the event's whole day).

What people type is a small closed grammar, so it is read by structure: a clock time with am/pm,
"at" and a number (or "at ten"), a clock with minutes ("9:30"), noon; in Chinese a numeral and 点
with an optional part of the day before it (上午, 下午, 晚上) and 半 or minutes after it; "first
thing" and 一早 are the start of a working day (``EARLY``). A bare hour
from 1 to 6 ("at 2", 两点) is taken to be in the afternoon, as people mean it when they say it
without am/pm. 一点 alone is "a little" (好一点, 早一点), so it counts only with a part of the day
or 钟/半/minutes after it. Pure.
"""

from __future__ import annotations

import re

_EN_WORDS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
}
_ZH_DIGITS = {
    "一": 1,
    "二": 2,
    "两": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
AFTERNOON_UNTIL = 6  # a bare hour up to this one ("at 2", 两点) is in the afternoon

_EN_WORD = "|".join(_EN_WORDS)
_EN_MERIDIEM = re.compile(r"(?<![\d.:])\b(\d{1,2})(?:[:.]([0-5]\d))?\s*([ap])\.?m\b\.?", re.I)
_EN_AT = re.compile(
    rf"\b(?:at|by|from)\s+(?:about\s+|around\s+)?(\d{{1,2}}|{_EN_WORD})(?::([0-5]\d))?"
    r"(?:\s*o'?clock)?(?!\s*(?:%|percent|years?|days?|weeks?|months?|people|of\b|[,.]\d))\b",
    re.I,
)
_EN_CLOCK = re.compile(r"\b(\d{1,2}):([0-5]\d)\b")
_EN_NOON = re.compile(r"\b(?:noon|midday|lunchtime)\b", re.I)
# "first thing", 一早: the start of a working day, said without its hour
EARLY = 8.0
_EARLY = re.compile(r"\bfirst thing\b|\bearly (?:in the )?morning\b|一大?早|大?清早", re.I)

_LATER = frozenset({"下午", "傍晚", "晚上"})  # the hour said after these is past noon
_ZH = re.compile(
    r"(凌晨|早上|早晨|上午|中午|下午|傍晚|晚上)?"
    r"([0-9]{1,2}|十[一二]?|[一二两三四五六七八九])点(钟|半|([0-9]{1,2}|[一二三四五]十[一二三四五六七八九]?)分?)?"
)


def _zh_number(s: str) -> int:
    if s.isdigit():
        return int(s)
    if s.startswith("十"):
        return 10 + (_ZH_DIGITS[s[1]] if len(s) > 1 else 0)
    return _ZH_DIGITS[s]


# The morning said beside a bare hour: "tomorrow morning, driving her to St. Mary's at 6" is 6 am (read
# as 6 pm, the knee operation of morning_dev35's train half was still ahead that evening).
_EN_MORNING = re.compile(r"\b(?:morning|dawn|sunrise)\b", re.I)


def _bare(hour: int, text: str = "") -> int:
    """An hour said without am/pm or a part of the day: up to ``AFTERNOON_UNTIL``, the afternoon's,
    unless ``text``, where it was said, names the morning."""
    morning = _EN_MORNING.search(text) is not None
    return hour + 12 if 1 <= hour <= AFTERNOON_UNTIL and not morning else hour


def _minutes(s: str | None) -> float:
    if not s:
        return 0.0
    if s == "半":
        return 0.5
    if s.isdigit():
        return int(s) / 60
    tens, _, ones = s.partition("十")
    return ((_ZH_DIGITS[tens] if tens else 1) * 10 + (_ZH_DIGITS[ones] if ones else 0)) / 60


def _en(text: str) -> float | None:
    if m := _EN_MERIDIEM.search(text):
        hour = int(m[1]) % 12 + (12 if m[3].lower() == "p" else 0)
        return hour + int(m[2] or 0) / 60 if hour < 24 else None
    if m := _EN_AT.search(text):
        said = m[1].lower()
        hour = int(said) if said.isdigit() else _EN_WORDS[said]
        return _bare(hour, text) + int(m[2] or 0) / 60 if 1 <= hour <= 12 else None
    if m := _EN_CLOCK.search(text):
        hour = int(m[1])
        return (_bare(hour, text) if hour <= 12 else hour) + int(m[2]) / 60 if hour < 24 else None
    if _EN_NOON.search(text):
        return 12.0
    return None


def _zh(text: str) -> float | None:
    for m in _ZH.finditer(text):
        part, number, after, digits = m[1], m[2], m[3], m[4]
        if number == "一" and not part and not after:
            continue  # 好一点, 早一点: "a little"
        hour = _zh_number(number)
        if hour > 24:
            continue
        if part in _LATER:
            hour = hour + 12 if hour < 12 else hour
        elif part == "中午":
            hour = hour if hour >= 11 else hour + 12  # 中午十二点, 中午一点
        elif part is None:
            hour = _bare(hour)
        return hour + _minutes(digits if digits else after if after == "半" else None)
    return None


def _cut(m: re.Match[str]) -> str:
    return m[0] if m[2] == "一" and not m[1] and not m[3] else ""  # 好一点: "a little", no hour


def without_leading_hour(text: str) -> str:
    """The text without the Chinese clock time it starts with ("十点去银行面试" → "去银行面试"):
    the hour it was to happen, which said back another day is aside (checkin.matter_name). An
    hour later in the clause is what it says, and stays: cut, "加班到十二点" was "加班到" and
    "每天都是三四点才睡着" "每天都是三才睡着" (its range read as 四点)."""
    stripped = text.lstrip()
    m = _ZH.match(stripped)
    return text if m is None else (_cut(m) + stripped[m.end() :]).lstrip()


def hour_of(text: str) -> float | None:
    """The local hour (with minutes as a fraction) at which ``text`` says something happens, or
    None when it names no hour. The first one said wins."""
    found = [h for h in (_en(text), _zh(text)) if h is not None]
    if not found and _EARLY.search(text):
        return EARLY
    return found[0] if found else None
