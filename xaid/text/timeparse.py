"""Relative times in what the user says, pinned to the dates they meant when they were said.

"See him next Friday" is true for a week; stored as "next Friday [2026-12-04]" it is still true in a
month. The ambiguous cases are settled once, here, so every consumer reads the same day:

* Weeks start on Monday. this/next/last week, 这周/下周/上周 are Monday–Sunday ranges; "next week" is
  the whole week after the current one.
* "next Friday" / 下周五 is Friday of next week and "last Friday" / 上周五 Friday of last week, whatever
  today is; 这周五/本周五 is Friday of the current week even when it has passed.
* "Friday", "on Friday", "this Friday", 周五/星期五/礼拜五 are the coming Friday, 0–6 days ahead (today
  counts), unless their clause has a past-tense cue ("went", "was", 了, 过) and no future cue ("will",
  要, 会, 马上): then the latest Friday, 0–6 days back. "I've got" / "she has got" is having, not a
  past tense ("I've got an exam on Friday" looks ahead). "by/until/coming Friday" always look ahead.
* A weekday as the start of something still going on looks back, whatever its tense: "since Sunday",
  "ever since Monday", 从这礼拜天开始 / 自从周日 / 周日以来 / 周日起 are the latest such day, 0–6 days
  back ("sick since Sunday" said on a Tuesday began two days ago; 这 names the week's day it began in,
  as people say it). 上周日开始 keeps its explicit week.
* "this weekend", "over the weekend", 周末 follow the same rule for Saturday–Sunday; next/last weekend,
  下个周末/上个周末 are the weekends of next/last week. Plain "weekend(s)" is not a date.
* Vague counts: "a couple" = 2, "a few" / 几 = 3, so "in a few days" / 过几天 is one day, today + 3.
* "in 2 weeks", 三个月后 land on one day; the granularity names the unit the speaker counted in.
* A countdown lands on the day it counts to: "a week left till", "two weeks away", "3 days to go",
  "T-minus 5 days", "two more sleeps", 还有十天, 只剩八天, 还差一个星期, 倒计时45天. Not a quantity
  ("10 days of PTO left", 还有十天年假) nor "took two weeks to".
  A weekend is a two-day span of granularity "week".
* Habits ("on Mondays", 每周一), idioms ("Sunday best", "Good Friday") and words that merely contain a
  time word (目前天气, 之后天气, 明白, 聪明天才, 这周围, 如今年轻人) are not dates, and 马上周末 is 周末,
  not 上周末. 最近 and other vague words are left alone.
* Month names count only next to a day number ("May 5", "5th of May", 11月5日), and "May"/"March" only
  capitalised, so "I may go" never is; a date without a year is the next one (today counts), or the
  latest one under a past-tense cue.
* A day of the month alone ("on the 12th", "by the 3rd", 12号, 下个月5号) is the next such day
  (today counts), or the latest one under a past-tense cue; a month without that day (the 31st in
  November) is skipped. "the 12th" needs on/by/until/before/after/to/for in front and no noun after
  it ("on the 12th floor" is not a date); 号 is never a house, line or seat number (5号楼, 2号线).
* A day moved to ("moved to the 15th", "pushed back to the 12th", 改到15号了, 推迟到周二了) is where a
  thing now stands: the next such day, whatever the tense of the moving (its 了 says the move is
  done, not the day); moved earlier ("moved up to the 2nd", 提前到2号) it is the nearest such day,
  before or after today.
* Direction compares the span with the local day, and a part of today ("tonight", 今早) with the local
  hour too: at 14:00 "tonight" is future and "this morning" past.
"""

from __future__ import annotations

import re
from calendar import monthrange
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date, datetime, timedelta, tzinfo

from .. import clock
from . import cjk


@dataclass(frozen=True, slots=True)
class TimeRef:
    text: str
    start: int
    end: int
    date_from: date
    date_to: date
    granularity: str  # "day" | "week" | "month" | "year" | "part_of_day"
    direction: str  # "past" | "future" | "present"
    hours: tuple[int, int] | None = None  # a part of the day's local hours [from, to) (_HOURS)


# Local hours [from, to) of each part of the day, so a part of today can be past or future.
_HOURS = {
    "morning": (5, 12), "afternoon": (12, 18), "evening": (18, 24), "night": (18, 24),
    "早上": (5, 12), "早晨": (5, 12), "上午": (5, 12), "今早": (5, 12), "今晨": (5, 12), "明早": (5, 12),
    "中午": (11, 14), "下午": (12, 18), "傍晚": (17, 19), "凌晨": (0, 5),
    "晚上": (18, 24), "夜里": (18, 24), "今晚": (18, 24), "今夜": (18, 24), "明晚": (18, 24),
    "昨晚": (18, 24), "昨夜": (18, 24),
}  # fmt: skip

# The parts of the day that make a night: from the earliest of them (傍晚, 17:00) on. A night named
# ("friday night", 那天晚上, 周五半夜) also runs on into the small hours of the next day, to
# ``NIGHT_UNTIL_HOUR``: what someone says at 01:00 after a Friday out was said "on Friday night".
_NIGHT_PARTS = ("evening", "night", "傍晚", "晚上", "夜里", "今晚", "今夜", "明晚", "昨晚", "昨夜")
NIGHT_FROM_HOUR = min(_HOURS[p][0] for p in _NIGHT_PARTS)
NIGHT_UNTIL_HOUR = 4
# Words that name a night or an evening, also where no date comes with them (那晚, 半夜, "nights").
_NIGHT_WORDS = re.compile(
    r"\b(?:night|nights|evening|evenings|tonight)\b|"
    + "|".join(sorted((p for p in _NIGHT_PARTS if not p.isascii()), key=len, reverse=True))
    + "|那晚|半夜|深夜|夜",
    re.IGNORECASE,
)


def names_night(text: str) -> bool:
    """Whether ``text`` names a night or an evening ("friday night", 那天晚上, 半夜)."""
    return bool(_NIGHT_WORDS.search(text))


def without_night(text: str) -> str:
    """``text`` with the words that name a night blanked: they say when, not what."""
    return _NIGHT_WORDS.sub(" ", text)


NIGHT_HOURS = (NIGHT_FROM_HOUR, 24)


def in_part(hour: int, hours: tuple[int, int]) -> bool:
    """Whether a local hour falls in a part of the day (``TimeRef.hours``). A part that runs to
    midnight (evening, night, 晚上) runs on into the small hours before ``NIGHT_UNTIL_HOUR``, which
    belong to the night before."""
    start, end = hours
    return start <= hour < end or (end == 24 and hour < NIGHT_UNTIL_HOUR)


def at_night(hour: int) -> bool:
    """Whether a local hour belongs to a night: from ``NIGHT_FROM_HOUR`` on, or in the small hours."""
    return in_part(hour, NIGHT_HOURS)


_EN_WORDS = (
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
)
_EN_NUMS = {w: i for i, w in enumerate(_EN_WORDS, 1)}
_EN_NUMS |= {"a": 1, "an": 1, "a couple": 2, "a couple of": 2, "a few": 3}
_ZH_DIGITS = {c: i for i, c in enumerate("零一二三四五六七八九")} | {"两": 2, "几": 3}
_EN_DAYS = {
    "monday": 0,
    "tuesday": 1,
    "wednesday": 2,
    "thursday": 3,
    "friday": 4,
    "saturday": 5,
    "sunday": 6,
}
_ZH_DAYS = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}
_MONTHS = {
    m: i
    for i, m in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1
    )
}
_ZH_SHIFT = {"上上": -2, "上": -1, "这": 0, "本": 0, "下": 1, "下下": 2}

# Characters that, just before a Chinese time word, make its first character part of another word.
_GUARD = {
    "前": "(?<![目之以当提眼面跟事此空生从向往日睡饭门])",
    "后": "(?<![之以然最今背午随落过饭事此往日前])",
    "今": "(?<![如至迄现古当而])",
    "明": "(?<![聪光证表声鲜透发精文清分高英黎])",
    "去": "(?<![过回出进失离死上下来])",
}
_BREAKS = ".!?;,\n。！？；，、"
# What makes "in N years" a stretch looked back on (_Ctx.looks_back), and what keeps it a time ahead.
_LOOKS_BACK = re.compile(
    r"\b(?:first|best|worst|longest|only|ever|never|(?:have|has|had)(?:n'?t| not))\b", re.IGNORECASE
)
_DUE = re.compile(r"\b(?:due|starts?|begins?|ends?|expires?|left|away|from now|until|till)\b", re.I)
_PAST = re.compile(
    r"\b(?:was|were|did|didn't|went|had|saw|met|(?<!'ve\s)(?<!\u2019ve\s)(?<!have\s)(?<!'s\s)(?<!has\s)got|came|"
    r"told|said|left|spent|visited|called|talked|finished|started|lost|died|buried|ago)\b|(?<![为除])了(?!解)|(?<![不难经通])过(?![来去])|刚才",
    re.I,
)
_FUTURE = re.compile(
    r"\b(?:will|won't|shall|gonna|going\s+to|plan|planning|want|wants|need|hope)\b|'ll\b|"
    r"(?<![重主只])要|(?<![开聚约晚宴大机])会|将|打算|准备|想|马上|快要|就要"
    # 就…了 after a time still ahead is the near future ("明天就走了", "这周日就跑了"), as 就要 is
    r"|(?:明天|明早|明晚|后天|下周|下星期|下礼拜|下个?月|明年|这周[一二三四五六日天末]|这个?星期[一二三四五六日天]"
    r"|这个?礼拜[一二三四五六日天])[^，。！？,.!?\s]{0,6}?就",
    re.I,
)


def past_tense(clause: str) -> bool:
    """The clause tells what happened: a cue of the past ("had", "did", 了, 过) and none of the future."""
    return bool(_PAST.search(clause)) and not _FUTURE.search(clause)


# What would follow a supposition: after "if"/"unless" in English ("if I fail I'd have to retake it
# in two weeks"), after a 就 that answers 如果/要是/假如/万一 or 再 in Chinese ("这次再挂就要重新约一个月
# 后了": fail again and it is a month's wait). A time there is what would follow, not a day set for
# something. A time in the supposition itself (如果明天不下雨就去爬山, 明天再不交就要扣分了) or
# before "if" (the scan is Wednesday morning, they're checking if it has grown) is left as it was.
_SUPPOSED = re.compile(
    r"\b(?:if|unless)\b|(?:如果|要是|假如|假设|万一|再)[^\s，。,！？]*?就",
    re.I,
)
# Where a clause ends for a supposition: a mark, or a space in Chinese typed without marks ("之前挂过
# 一次 灯光那块紧张到打错了 这次再挂就要重新约一个月后了").
_CLAUSE_BREAKS = re.compile(
    rf"[{re.escape(_BREAKS)}]|(?<=[{cjk.IDEOGRAPHS}])\s+(?=[{cjk.IDEOGRAPHS}])"
)


# A thing put off to a time, not set for it: "今晚先睡了明天再说吧" (the interview was on Thursday;
# "明天" read as the day of the plan, and the lead said "睡了再说的事", morning_dev2), "回头再说";
# "I'll worry about it tomorrow", "deal with that later".
_DEFERRED_AFTER = re.compile(r"\s*(?:[^\s，。,！？]{0,2}?再说)")
_DEFERRED_BEFORE = re.compile(
    r"\b(?:worry about|deal with|think about|figure out|sort out)\s+(?:it|that|this)\s*$", re.I
)


def supposed(text: str, ref: TimeRef) -> bool:
    """``ref`` is named in a clause of ``text`` after a supposition (``_SUPPOSED``): what would
    follow, not a day set; or something is put off to it (``_DEFERRED_AFTER``, "明天再说"). The
    scheduler arms no plan for it (arm.ahead_of)."""
    lo = max((m.end() for m in _CLAUSE_BREAKS.finditer(text, 0, ref.start)), default=0)
    return bool(
        _SUPPOSED.search(text[lo : ref.start])
        or _DEFERRED_AFTER.match(text, ref.end)
        or _DEFERRED_BEFORE.search(text[lo : ref.start])
    )


Span = tuple[date, date, str, tuple[int, int] | None]
# The start of a span still going on, just before or after a weekday: "since", 从 … 开始/起, 以来.
_SINCE = re.compile(r"(?:\bsince\s+|自从\s*)$", re.I)
_SINCE_AFTER = re.compile(r"\s*以来")
_FROM = re.compile(r"(?:从|自)\s*$")
_FROM_AFTER = re.compile(r"\s*(?:开始|起(?![来床飞]))")
# The verbs of moving a thing to another time, in English and (with their 到) in Chinese: read here
# for the day moved to, and by the scheduler for a matter moved, not off (scheduler/retire.py).
MOVE_VERBS_EN = (
    r"\b(?:moved|moving|move|pushed|pushing|postponed|rescheduled|changed|delayed|bumped|put off"
    r"|shifted|brought)\b"
)
MOVE_VERBS_ZH = r"(?:改|挪|调|推迟|推|延期|延|换|提前)到"
# A move just before the day it names: a verb of moving (and its 到; the English "to"/"for" is in the
# rule's own match), or one of moving earlier ("up", "forward", 提前).
_MOVED = re.compile(
    rf"(?:{MOVE_VERBS_EN}[^.!?;\n]{{0,30}}?|{MOVE_VERBS_ZH}\s*)$",
    re.I,
)
_EARLIER = re.compile(r"\b(?:up|forward|earlier)\b|提前", re.I)
# The English move reaches its day through "to"/"till"/"until"/"for" ("moved to the 15th", "pushed
# it to friday"), just before the day or as the start of the rule's own match: "I was moved to the
# ward on the 1st" moved something else, on a day of its own.
_TO = re.compile(r"\b(?:to|till|until|for)\s*$|^(?:to|till|until|for)\b", re.I)
_GOING_ON = re.compile(r"一直|就|还|没|了|老是|总是|天天|每天")


class _Ctx:
    """What a resolver needs: the local day and hour, and the clause around the match for tense cues."""

    __slots__ = ("end", "hour", "start", "text", "today")

    def __init__(self, text: str, now: datetime):
        # The small hours belong to the day before, as people count them: "明天下午路演" said at 01:00
        # is this afternoon's pitch ("tomorrow" is after they sleep), "今天好累" the day just ended.
        # Resolved against the calendar, the pitch was a day late and the check-in before it
        # asked nothing that evening (morning_dev36's train half). Its hour runs on past 24.
        small = now.hour < NIGHT_UNTIL_HOUR
        self.text, self.today = text, (now - timedelta(days=1) if small else now).date()
        self.hour = now.hour + now.minute / 60 + (24 if small else 0)
        self.start = self.end = 0

    def clause(self) -> str:
        """The clause around the match, without the match: where its tense cues are."""
        text, start, end = self.text, self.start, self.end
        lo = max(text.rfind(c, 0, start) for c in _BREAKS) + 1
        hi = min((i for c in _BREAKS if (i := text.find(c, end)) >= 0), default=len(text))
        return text[lo:start] + " " + text[end:hi]

    def looks_back(self) -> bool:
        """The match ("in three years") measures a stretch up to now, not a time ahead: the words of
        its clause before it say a first, a best or worst, or what has not happened since ("first date
        in three years", "the best sleep I've had in weeks", "haven't played a gig in four years"),
        and nothing says it is due ("the first payment is due in 3 months")."""
        text, start = self.text, self.start
        before = text[max(text.rfind(c, 0, start) for c in _BREAKS) + 1 : start]
        return bool(_LOOKS_BACK.search(before)) and not _DUE.search(before)

    def past(self) -> bool:
        return past_tense(self.clause())

    def since(self) -> bool:
        """The match is where something still going on began: "since Sunday", 自从周日, 周日以来; or
        从周日开始/起 with a cue of going on (一直, 就, 还, 没, 了) and no future cue in its clause:
        从周一开始我要早起 and 从周五起放假 are starts ahead."""
        before, after = self.text[: self.start], self.text[self.end :]
        if _SINCE.search(before) or _SINCE_AFTER.match(after):
            return True
        return bool(
            _FROM.search(before)
            and _FROM_AFTER.match(after)
            and _GOING_ON.search(clause := self.clause())
            and not _FUTURE.search(clause)
        )

    def moved(self) -> str | None:
        """The match is the day a thing is moved to: "later" or "earlier" ("moved up to", 提前到),
        None when no move is said just before it."""
        lo = max(self.text.rfind(c, 0, self.start) for c in _BREAKS) + 1
        before = self.text[lo : self.start]
        m = _MOVED.search(before)
        if m is None:
            return None
        if not m.group().endswith("到") and not (
            _TO.search(before) or _TO.search(self.text[self.start : self.end])
        ):
            return None
        return "earlier" if _EARLIER.search(m.group()) else "later"

    @property
    def monday(self) -> date:
        return self.today - timedelta(self.today.weekday())


def _num(s: str) -> int:
    s = " ".join(s.lower().split())
    if s.isascii() and s.isdigit():
        return int(s)
    if s in _EN_NUMS:
        return _EN_NUMS[s]
    tens, ten, ones = s.partition("十")
    if ten:
        return (_ZH_DIGITS[tens] if tens else 1) * 10 + (_ZH_DIGITS[ones] if ones else 0)
    return _ZH_DIGITS[s]


def _add_months(d: date, n: int) -> date:
    y, m = divmod(d.month - 1 + n, 12)
    y += d.year
    return date(y, m + 1, min(d.day, monthrange(y, m + 1)[1]))


def _day(d: date, part: str | None = None) -> Span:
    return (d, d, "part_of_day", _HOURS[part]) if part else (d, d, "day", None)


def _span(c: _Ctx, unit: str, k: int) -> Span:
    if unit == "week":
        first = c.monday + timedelta(7 * k)
        return first, first + timedelta(6), "week", None
    if unit == "month":
        first = _add_months(c.today.replace(day=1), k)
        return first, first.replace(day=monthrange(first.year, first.month)[1]), "month", None
    year = c.today.year + k
    return date(year, 1, 1), date(year, 12, 31), "year", None


def _weekend(c: _Ctx, k: int | None) -> Span:
    """k None: the current weekend if it has begun, else the coming one, or the last one if said in the past."""
    if k is None:
        k = -1 if c.today.weekday() < 5 and c.past() else 0
    sat = c.monday + timedelta(7 * k + 5)
    return sat, sat + timedelta(1), "week", None


def _weekday(c: _Ctx, wd: int, mode: str | int, part: str | None) -> Span:
    """mode: a week shift (-1 last, +1 next), "week" for this week's, "ahead", or "cue" (ahead unless
    past); any but an explicit shift looks back when the day is where something going on began."""
    if not isinstance(mode, int) and c.since():
        d = c.today - timedelta((c.today.weekday() - wd) % 7)
    elif isinstance(mode, int):
        d = c.monday + timedelta(7 * mode + wd)
    elif mode == "week":
        d = c.monday + timedelta(wd)
    elif mode == "cue" and c.past() and c.moved() is None:
        d = c.today - timedelta((c.today.weekday() - wd) % 7)
    else:
        # Today's own name said ahead ("starts monday" on a Monday) is the coming one: today is
        # "today" to whoever speaks, unless a part of it still to come is named ("monday night").
        d = c.today + timedelta((wd - c.today.weekday()) % 7 or (0 if part else 7))
    return _day(d, part)


def _offset(c: _Ctx, n: int, unit: str, sign: int) -> Span:
    if unit in ("day", "week"):
        d = c.today + timedelta(sign * n * (7 if unit == "week" else 1))
    else:
        d = _add_months(c.today, sign * n * (12 if unit == "year" else 1))
    return d, d, unit, None


def _calendar(c: _Ctx, month: int, day: int, year: int | None) -> Span | None:
    if year is None:
        year = c.today.year
        if c.past():
            year -= (month, day) > (c.today.month, c.today.day)
        else:
            year += (month, day) < (c.today.month, c.today.day)
    try:
        return _day(date(year, month, day))
    except ValueError:  # 2月30日, or "Feb 29" in a year without one: not a date
        return None


def _month_part(c: _Ctx, shift: int | None, part: str) -> Span:
    """A part of a month: its first week (1st-7th), its middle (11th-20th), its last seven days;
    of the month ``shift`` months away, or (None) this month's, the next's when this month's part
    is over and the clause is not in the past ("月初" said on the 25th, "月底要搬家")."""
    first = _add_months(c.today.replace(day=1), shift or 0)
    last = monthrange(first.year, first.month)[1]
    lo, hi = {"start": (1, 7), "mid": (11, 20), "end": (last - 6, last)}[part]
    if shift is None and c.today.day > hi and not c.past():
        return _month_part(c, 1, part)
    return first.replace(day=lo), first.replace(day=hi), "week", None


def _mid_month(c: _Ctx, month: int) -> Span:
    """The middle of a named month (11th-20th): the nearest one in the clause's tense."""
    year = c.today.year
    if c.past():
        year -= month > c.today.month
    else:
        year += month < c.today.month
    return date(year, month, 11), date(year, month, 20), "week", None


def _month_day(c: _Ctx, day: int, shift: int | None) -> Span | None:
    """The day-th of a month: of the month ``shift`` months away, or the nearest one in the clause's tense."""
    if not 1 <= day <= 31:
        return None
    if shift is not None:
        first = _add_months(c.today.replace(day=1), shift)
        return (
            _day(first.replace(day=day)) if day <= monthrange(first.year, first.month)[1] else None
        )
    moved = c.moved()
    if moved == "earlier":  # the nearest such day, on either side of today
        sides = [d for d in (_nth(c.today, day, -1), _nth(c.today, day, 1)) if d is not None]
        return _day(min(sides, key=lambda d: abs((d - c.today).days))) if sides else None
    found = _nth(c.today, day, -1 if c.past() and moved is None else 1)
    return _day(found) if found is not None else None


def _nth(today: date, day: int, step: int) -> date | None:
    """The next (``step`` 1, today counts) or latest (-1) day-th of a month from ``today``."""
    first = today.replace(day=1)
    for k in range(13):  # a 31st is never more than a few months away
        month = _add_months(first, step * k)
        if day <= monthrange(month.year, month.month)[1]:
            d = month.replace(day=day)
            if (d >= today) if step == 1 else (d <= today):
                return d
    return None


# -- English ------------------------------------------------------------------------------------------

_EN_OFFSET = {
    "day before yesterday": -2,
    "yesterday": -1,
    "today": 0,
    "tomorrow": 1,
    "day after tomorrow": 2,
}
# How people type the days in a hurry (a plan said as "gym tmrw" is still tomorrow's).
_EN_TYPED = {
    "tmrw": "tomorrow",
    "tmr": "tomorrow",
    "tmrow": "tomorrow",
    "tomorow": "tomorrow",
    "tommorow": "tomorrow",
    "tommorrow": "tomorrow",
    "2moro": "tomorrow",
    "2morrow": "tomorrow",
    "yday": "yesterday",
    "yesterdy": "yesterday",
}
_PART = r"(?:\s+(morning|afternoon|evening|night))?"
_NUM = r"([0-9]{1,3}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a\s+couple(?:\s+of)?|a\s+few|an?)"
_UNIT = r"(day|week|month|year)s?"
# What a countdown counts: the units, and the nights a child counts ("two more sleeps").
_COUNTED = r"((?:day|week|month|year)s?|sleeps|nights)"


def _counted(word: str) -> str:
    """The unit of a countdown's word: a sleep or a night is a day."""
    unit = word.lower().rstrip("s")
    return "day" if unit in ("sleep", "night") else unit


_MONTH = (
    r"(jan(?:uary)?|feb(?:ruary)?|(?-i:Mar(?:ch)?)|apr(?:il)?|(?-i:May)|june?|july?|aug(?:ust)?|sept?(?:ember)?|"
    r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
_ORDINAL = r"([0-9]{1,2})(?:st|nd|rd|th)?"
_WEEKDAY = (
    r"(?<!good\s)(?<!black\s)(?<!cyber\s)(?<!easter\s)(?<!palm\s)(?<!ash\s)"
    r"(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b"
    r"(?!\s+(?:best|school|blues|roast|funday|feeling|vibes?|mood|papers?)\b)"
)
# What may follow "on the 12th" for it to be a date: the clause goes on, or it ends. A noun ("the 12th
# floor", "the 3rd time") may not, and neither may a month ("the 12th of May" is the rule above's).
_AFTER_DAY = (
    r"(?=\s*(?:$|[.,!?;:)\n]|(?:at|in|and|or|but|so|then|when|because|for|to|with|i|we|you|he|she|they|it|"
    r"my|our|is|was|will|morning|afternoon|evening|night|instead|now|then|btw|anyway)\b))"
)
_EN_SHIFT = {"last": -1, "this": 0, "next": 1}
_EN_PART_OF_MONTH = {
    "end": "end",
    "late": "end",
    "start": "start",
    "beginning": "start",
    "early": "start",
    "middle": "mid",
    "mid": "mid",
}
_EN_MODES: dict[str | None, str | int] = {
    "last": -1,
    "next": 1,
    "this": "cue",
    "on": "cue",
    None: "cue",
}


def _en_day(g: tuple, c: _Ctx) -> Span:
    return _day(
        c.today
        + timedelta(
            _EN_OFFSET[_EN_TYPED.get(w := " ".join(g[0].lower().split()), w).removeprefix("the ")]
        ),
        g[1] and g[1].lower(),
    )


def _en_part(g: tuple, c: _Ctx) -> Span:
    if g[0].lower() in ("tonight", "tonite", "2nite"):
        return _day(c.today, "evening")
    return _day(c.today, g[1].lower()) if g[1] else _day(c.today - timedelta(1), "night")


def _en_weekday(g: tuple, c: _Ctx) -> Span:
    mode = _EN_MODES.get(g[0] and " ".join(g[0].lower().split()), "ahead")
    return _weekday(c, _EN_DAYS[g[1].lower()], mode, g[2] and g[2].lower())


def _en_weekend(g: tuple, c: _Ctx) -> Span:
    return _weekend(c, {"last": -1, "next": 1}.get((g[0] or "").lower()))


def _en_month_part(g: tuple, c: _Ctx) -> Span:
    """ "the end of next month", "early this month": the part (g[0]) of the month named (g[1]; "the"
    is this month's, or the next's when its part is over)."""
    return _month_part(c, _EN_SHIFT.get(g[1].lower()), _EN_PART_OF_MONTH[g[0].lower()])


def _en_date(g: tuple, c: _Ctx) -> Span | None:
    month, day = (g[0], g[1]) if g[0] else (g[3], g[2])
    return _calendar(c, _MONTHS[month[:3].lower()], int(day), None)


_EN_RULES: list[tuple[str, Callable[[tuple, _Ctx], Span | None]]] = [
    (
        r"\b((?:the\s+)?day\s+before\s+yesterday|(?:the\s+)?day\s+after\s+tomorrow|yesterday|today|"
        r"tomorrow|" + "|".join(_EN_TYPED) + ")" + _PART + r"\b",
        _en_day,
    ),
    (r"\b(tonight|tonite|2nite|this\s+(morning|afternoon|evening)|last\s+night)\b", _en_part),
    (
        r"\b(last|this|next)\s+(week|month|year)\b",
        lambda g, c: _span(c, g[1].lower(), _EN_SHIFT[g[0].lower()]),
    ),
    (
        r"\b(?:(last|next)|this\s+coming|this|coming|(?:on|over|at|for|during)\s+the)\s+weekend\b",
        _en_weekend,
    ),
    (
        r"\b(?:(last|next|this\s+coming|this|coming|on|by|until|till)\s+)?"
        + _WEEKDAY
        + _PART
        + r"\b",
        _en_weekday,
    ),
    (
        r"(?<!once\s)(?<!twice\s)\bin\s+" + _NUM + r"\s+" + _UNIT + r"\b(?!-)",
        lambda g, c: None if c.looks_back() else _offset(c, _num(g[0]), g[1].lower(), 1),
    ),
    # A countdown names the day counted down to: "a week left till my defense", "6 weeks to go",
    # "the recital is 3 days away", "we're 20 days out", "25 days till vacation", "T-minus 5 days",
    # "two more sleeps". Not "10 days of PTO left" (a quantity: something comes between), "took two
    # weeks to come through", "two weeks out of hospital" (since), "a week away from home".
    (
        r"\b(?:t-?\s?minus\s+)?"
        + _NUM
        + r"\s+(?:more\s+)?"
        + _COUNTED
        + r"\s+(?:left\s+(?:till|til|until|before|to)\b|left\b(?!\s+(?:of|over|in\s+the))|to\s+go\b"
        r"|till\b|til\b|until\b)",
        lambda g, c: _offset(c, _num(g[0]), _counted(g[1]), 1),
    ),
    (
        r"\b(?:is|are|was|'s|'re|only|just|still|now)\s+"
        + _NUM
        + r"\s+"
        + _COUNTED
        + r"\s+(?:away|out)\b(?!\s+(?:of|from\s+(?:home|work)))",
        lambda g, c: _offset(c, _num(g[0]), _counted(g[1]), 1),
    ),
    (
        r"\bt-?\s?minus\s+" + _NUM + r"\s+" + _COUNTED + r"\b",
        lambda g, c: _offset(c, _num(g[0]), _counted(g[1]), 1),
    ),
    (
        r"\b" + _NUM + r"\s+" + _UNIT + r"\s+(ago|from\s+now|from\s+today)\b",
        lambda g, c: _offset(c, _num(g[0]), g[1].lower(), -1 if g[2].lower() == "ago" else 1),
    ),
    (
        rf"\b(?:on\s+)?(?:{_MONTH}\s+{_ORDINAL}|{_ORDINAL}\s+(?:of\s+)?{_MONTH})\b",
        _en_date,
    ),
    (
        r"\b(?:on|by|until|till|before|after|to|for)\s+the\s+([0-9]{1,2})(?:st|nd|rd|th)\b"
        + _AFTER_DAY,
        lambda g, c: _month_day(c, int(g[0]), None),
    ),
    (
        r"\b(?:the\s+)?(end|start|beginning|middle)\s+of\s+(the|this|next|last)\s+month\b",
        _en_month_part,
    ),
    (r"\b(early|mid|late)[\s-]+(this|next|last)\s+month\b", _en_month_part),
    (r"\bmid[\s-]+" + _MONTH + r"\b", lambda g, c: _mid_month(c, _MONTHS[g[0][:3].lower()])),
    (r"\b(?:in|within)\s+a\s+fortnight\b", lambda g, c: _offset(c, 2, "week", 1)),
    (r"\ba\s+fortnight\s+ago\b", lambda g, c: _offset(c, 2, "week", -1)),
]

# -- Chinese ------------------------------------------------------------------------------------------

_ZH_OFFSET = {
    "大前天": -3,
    "前天": -2,
    "昨天": -1,
    "昨日": -1,
    "今天": 0,
    "今日": 0,
    "明天": 1,
    "明日": 1,
    "后天": 2,
}
_ZH_OFFSET |= {"大后天": 3}
_ZH_OFFSET |= {"明儿": 1, "今儿": 0, "昨儿": -1}  # 北方口语: 明儿个去体检
_ZH_PARTS = {
    "今早": 0,
    "今晨": 0,
    "今晚": 0,
    "今夜": 0,
    "明早": 1,
    "明晚": 1,
    "昨晚": -1,
    "昨夜": -1,
}
_ZH_PART = r"(早上|早晨|上午|中午|下午|傍晚|晚上|夜里|凌晨)?"
_ZH_NUM = r"([0-9]{1,3}|[一二两三四五六七八九]?十[一二三四五六七八九]?|[一二两三四五六七八九几])"
_ZH_DNUM = r"([0-9]{1,2}|[一二三]?十[一二三四五六七八九]?|[一二三四五六七八九])"
# 马上, 晚上, 早上, 一下 are no week before 周; 这 and 本 after those characters are ("半马这周日就跑了":
# the half marathon is this Sunday, read as last Sunday with only 周日 matched, morning_dev36)
_ZH_PRE = r"((?<![马晚早一])(?:上上|下下|上|下)|这|本)个?"
_ZH_WEEK = r"(?:周|星期|礼拜)"
# The parser's own weekday names (English in full, as ``_WEEKDAY`` reads them; 周/星期/礼拜 + a day)
_A_WEEKDAY = re.compile(rf"{_WEEKDAY}|{_ZH_WEEK}[{''.join(_ZH_DAYS)}]", re.IGNORECASE)


def names_weekday(text: str) -> bool:
    """Whether ``text`` names a day of the week ("friday night", 周五, 礼拜天), not a day counted
    from today ("tomorrow", 明天)."""
    return bool(_A_WEEKDAY.search(text))


_ZH_NOT_YI = r"(?![起下样般直点些次定])"  # 下周一起去 is "next week, together", not next Monday
# 天天 is "every day": "这周天天加班" is this week, overtime every day, not this Sunday (which armed a
# plan for Sunday); the weather, the sky or daybreak after it keep Sunday ("星期天天气好").
_ZH_DAILY = r"天(?![气空色亮黑晴阴一])"
_ZH_UNITS = {
    "天": "day",
    "日": "day",
    "周": "week",
    "星期": "week",
    "礼拜": "week",
    "月": "month",
    "年": "year",
}


def _zh_words(words: Iterable[str]) -> str:
    return "|".join(_GUARD.get(w[0], "") + w for w in sorted(words, key=len, reverse=True))


def _zh_day(g: tuple, c: _Ctx) -> Span:
    if g[0] == "明后天":
        return c.today + timedelta(1), c.today + timedelta(2), "day", None
    return _day(c.today + timedelta(_ZH_OFFSET[g[0]]), g[1])


def _zh_weekday(g: tuple, c: _Ctx) -> Span:
    mode: str | int = "cue" if g[0] is None else "week" if g[0] in "这本" else _ZH_SHIFT[g[0]]
    return _weekday(c, _ZH_DAYS[g[1]], mode, g[2])


def _zh_date(g: tuple, c: _Ctx) -> Span | None:
    return _calendar(c, _num(g[1]), _num(g[2]), int(g[0]) if g[0] else None)


_ZH_RULES: list[tuple[str, Callable[[tuple, _Ctx], Span | None]]] = [
    (rf"({_zh_words([*_ZH_OFFSET, '明后天'])}){_ZH_PART}", _zh_day),
    (rf"({_zh_words(_ZH_PARTS)})", lambda g, c: _day(c.today + timedelta(_ZH_PARTS[g[0]]), g[0])),
    (
        rf"(?:{_ZH_PRE}|(?<![个每一两三几第])){_ZH_WEEK}(一{_ZH_NOT_YI}|[二三四五六日]|天(?!{_ZH_DAILY}))"
        rf"{_ZH_PART}",
        _zh_weekday,
    ),
    (
        rf"{_ZH_PRE}{_ZH_WEEK}(?![二三四五六日末围边到期年全刊岁转报]|天(?!{_ZH_DAILY})|一{_ZH_NOT_YI})",
        lambda g, c: _span(c, "week", _ZH_SHIFT[g[0]]),
    ),
    (
        rf"(?:{_ZH_PRE}|(?<![每个一两几]))周末",
        lambda g, c: _weekend(c, None if g[0] is None else _ZH_SHIFT[g[0]]),
    ),
    (
        rf"(?:(上个?月|这个?月|本月|下个?月)|(?<![0-9月第几一二三四五六七八九十])){_ZH_DNUM}号"
        r"(?![线楼床门口位座机房院车窗台店馆厅仓码鞋球选箱柜])",
        lambda g, c: _month_day(c, _num(g[1]), None if g[0] is None else _ZH_SHIFT[g[0][0]]),
    ),
    (
        rf"(?:{_ZH_PRE}|(?<![0-9一二三四五六七八九十岁年日个正腊满每]))月(底|初|中)(?![间央心秋])",
        lambda g, c: _month_part(
            c,
            None if g[0] is None else _ZH_SHIFT[g[0]],
            {"底": "end", "初": "start", "中": "mid"}[g[1]],
        ),
    ),
    (rf"{_ZH_PRE}月(?![亮光饼球色])", lambda g, c: _span(c, "month", _ZH_SHIFT[g[0]])),
    (
        rf"({_zh_words({'前年': -2, '去年': -1, '今年': 0, '明年': 1, '后年': 2})})(?![轻纪龄级代])",
        lambda g, c: _span(
            c, "year", {"前年": -2, "去年": -1, "今年": 0, "明年": 1, "后年": 2}[g[0]]
        ),
    ),
    (
        rf"(?<![第这那]){_ZH_NUM}(天|日|周|个?星期|个?礼拜|个月|年)(以后|之后|以前|之前|前|后)",
        lambda g, c: _offset(
            c, _num(g[0]), _ZH_UNITS[g[1].lstrip("个")], -1 if "前" in g[2] else 1
        ),
    ),
    # A countdown: "CFA还有十天", "离答辩只剩八天", "还差一个星期", "倒计时45天", "三天倒计时". Not a
    # quantity of something else ("还有十天年假没休", "还剩两天班"): the unit is not followed by a noun.
    (
        rf"(?:还有|还剩下?|只剩下?|就剩下?|仅剩下?|剩下?|还差|只差|倒计时)\s*{_ZH_NUM}"
        rf"(天|日|周|个?星期|个?礼拜|个月|年)(?![假年班课活工的钱份])",
        lambda g, c: _offset(c, _num(g[0]), _ZH_UNITS[g[1].lstrip("个")], 1),
    ),
    (
        rf"{_ZH_NUM}(天|日|周|个?星期|个?礼拜|个月|年)倒计时",
        lambda g, c: _offset(c, _num(g[0]), _ZH_UNITS[g[1].lstrip("个")], 1),
    ),
    (
        rf"(?<![不经超度难通路错])过{_ZH_NUM}(天|周|个星期|个月)",
        lambda g, c: _offset(c, _num(g[0]), _ZH_UNITS[g[1].lstrip("个")], 1),
    ),
    (_GUARD["前"] + r"前([两几])天", lambda g, c: _offset(c, _num(g[0]), "day", -1)),
    (
        r"(?:(?<![不经超度难通路错])(过))?半个月(以后|之后|以前|之前|前|后)?",
        lambda g, c: (
            None
            if not (g[0] or g[1])
            else _offset(c, 2, "week", -1 if g[1] and "前" in g[1] else 1)
        ),
    ),
    (rf"(?:([0-9]{{4}})年)?{_ZH_DNUM}月{_ZH_DNUM}[日号]", _zh_date),
]


def _compile() -> tuple[
    re.Pattern[str], dict[str, tuple[Callable[[tuple, _Ctx], Span | None], int, int]]
]:
    """One alternation over every rule, so a message is scanned once and overlaps resolve leftmost-first."""
    parts, dispatch = [], {}
    for i, (pattern, resolve) in enumerate(_EN_RULES + _ZH_RULES):
        parts.append(f"(?P<r{i}>{pattern})")
        dispatch[f"r{i}"] = (resolve, re.compile(pattern).groups)
    combined = re.compile("|".join(parts), re.I)
    return combined, {k: (f, combined.groupindex[k], n) for k, (f, n) in dispatch.items()}


_PATTERN, _DISPATCH = _compile()
# The English rules alone, numbered as in _PATTERN (they come first): for a text in which no Chinese
# rule can match, the same matches at a third of the cost (the scan tries every alternative at every
# position).
_PATTERN_EN = re.compile(
    "|".join(f"(?P<r{i}>{pattern})" for i, (pattern, _) in enumerate(_EN_RULES)), re.I
)


def _direction(f: date, t: date, hours: tuple[int, int] | None, c: _Ctx) -> str:
    if t < c.today:
        return "past"
    if f > c.today:
        return "future"
    if hours and f == t:
        return "future" if c.hour < hours[0] else "past" if c.hour >= hours[1] else "present"
    return "present"


_MAYBE_ZH = "[天日今明昨周期拜末号月年过前]"  # every Chinese rule's match holds one of these
# What every rule above needs somewhere in its match (read off the rules: a digit, an English day,
# week, month, year or part-of-day word, or one of the Chinese characters every Chinese rule holds).
# Most turns have none of them, and one search over this short alternation costs a few µs where the
# full alternation of every rule costs ~0.3 ms per turn (measured on LoCoMo's turns; 86 % have none).
# A text without any of them can hold no time expression, so it is answered without the scan. Kept
# with the rules: a new rule whose match can miss all of these must add what it needs here
# (tests/xaid/text/test_timeparse.py checks every rule's vocabulary against it).
_HAS_ZH = re.compile(_MAYBE_ZH)
_MAYBE = re.compile(
    r"[0-9]|day|week|month|year|night|sleep|morning|afternoon|evening|tomorrow|tonite|2nite|fortnight|mid[\s-]|"
    + "|".join(_EN_TYPED)
    + "|"
    + _MAYBE_ZH,
    re.I,
)


def find_times(text: str, ts_ms: int, tz: tzinfo | None = None) -> list[TimeRef]:
    """Every time expression in text, in order, resolved against the local day the message was sent."""
    if not _MAYBE.search(text):
        return []
    ctx = _Ctx(text, clock.local(ts_ms, tz))
    refs = []
    pattern = _PATTERN if _HAS_ZH.search(text) else _PATTERN_EN
    for m in pattern.finditer(text):
        resolve, index, n = _DISPATCH[m.lastgroup]  # type: ignore[index]
        ctx.start, ctx.end = m.span()
        try:
            span = resolve(m.groups()[index : index + n], ctx)
        except (OverflowError, ValueError):  # "in 20 years" near year 9999: a day no calendar holds
            continue
        if span is not None:
            f, t, granularity, hours = span
            refs.append(
                TimeRef(
                    m.group(),
                    ctx.start,
                    ctx.end,
                    f,
                    t,
                    granularity,
                    _direction(f, t, hours, ctx),
                    hours,
                )
            )
    return refs


def without_times(text: str) -> str:
    """The text with every time expression cut out ("明天得去找中介" → "得去找中介"): what a clause
    says, the day it was said for aside (text/owed.py reads its structure, checkin.py names a matter
    by it on another day)."""
    refs = find_times(text, 0)
    out, pos = [], 0
    for i, ref in enumerate(refs):
        if i + 1 < len(refs) and _names_before(text, ref, refs[i + 1]):
            continue
        out.append(text[pos : ref.start])
        pos = ref.end
        if (relative := _RELATIVE.match(text, pos)) is not None:
            pos = relative.end()  # the time's own "before" or "after" goes with it
    out.append(text[pos:])
    return re.sub(r"\s+", " ", "".join(out)).strip()


# "before" or "after" a time, said right after it: "周五前得回人家" without its time is "得回人家", not
# "前得回人家" (a check-in's lead said "早。前得回人家的事，你", morning_dev; "中介让前回话的事",
# morning_dev18). A single 前 or 后 only before what a deadline goes on with (a modal, an adverb, a
# verb of handing in, giving back, moving, finishing) or the clause's end: "前男友", "后悔" are words.
_RELATIVE = re.compile(
    r"(?:之前|以前|之后|以后)|[前后](?=[得要必需就才再都还也交回给搬完定做办，,。.!！?？\s]|$)"
)


# What joins two times said together ("周一到周五", 明天和后天, 今天或者明天): the closed class.
_JOINS = frozenset({"和", "或", "到", "至", "跟", "与", "及", "还是", "或者", "、", "~", "-"})


def _names_before(text: str, ref: TimeRef, then: TimeRef) -> bool:
    """``ref`` is the start of a name, not a time: another time follows it after one or two
    characters of the name's own ("周一鸣明天面试": 周一 + 鸣, then 明天). Cut as a time, the name
    lost its head ("鸣面试", morning13: a lead said the matter back with the name cut)."""
    gap = text[ref.end : then.start]
    return 1 <= len(gap) <= 2 and cjk.RUN.fullmatch(gap) is not None and gap not in _JOINS


def _label(ref: TimeRef) -> str:
    return (
        ref.date_from.isoformat()
        if ref.date_from == ref.date_to
        else f"{ref.date_from}..{ref.date_to}"
    )


def annotate(text: str, ts_ms: int, tz: tzinfo | None = None) -> str:
    """The text with each expression followed by its date, so a stored memory keeps meaning the same day."""
    out, pos = [], 0
    for ref in find_times(text, ts_ms, tz):
        out += [text[pos : ref.end], f" [{_label(ref)}]"]
        pos = ref.end
    out.append(text[pos:])
    return "".join(out)


def earliest_future(refs: list[TimeRef]) -> TimeRef | None:
    """The soonest future reference (by date, then position): the scheduler asks about it once it has passed."""
    future = [r for r in refs if r.direction == "future"]
    return min(future, key=lambda r: (r.date_from, r.start), default=None)


# --- pinned times put as dates -------------------------------------------------------------------

_PINNED = re.compile(r" ?\[(\d{4}-\d{2}-\d{2})(?:\.\.(\d{4}-\d{2}-\d{2}))?\]")
_KEPT_EN = re.compile(r"^(by|until|till|before|after|since|from|for)\s+", re.I)
_BEFORE_EN = re.compile(r"\b(?:on|by|until|till|before|after|since|from|for|at|in)\s+$", re.I)
_PART_EN = {(5, 12): "morning", (12, 18): "afternoon", (18, 24): "evening", (0, 5): "night"}
_PART_ZH = {
    (5, 12): "上午",
    (11, 14): "中午",
    (12, 18): "下午",
    (17, 19): "傍晚",
    (18, 24): "晚上",
    (0, 5): "凌晨",
}
_WEEKDAY_EN = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_MONTH_EN = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip


def _dates_en(f: date, t: date, granularity: str, hours: tuple[int, int] | None) -> str:
    if granularity == "year" and f != t:
        return f"in {f.year}"
    if granularity == "month" and f != t:
        return f"in {_MONTH_EN[f.month - 1]} {f.year}"
    if f == t:
        day = f"{_WEEKDAY_EN[f.weekday()]} {f.day} {_MONTH_EN[f.month - 1]} {f.year}"
        part = _PART_EN.get(hours) if hours else None
        return f"on the {part} of {day}" if part else f"on {day}"
    if granularity == "week" and (t - f).days == 6:
        return f"in the week of {f.day} {_MONTH_EN[f.month - 1]} {f.year}"
    head = f"{f.day}" if f.month == t.month else f"{f.day} {_MONTH_EN[f.month - 1]}"
    return f"on {head}-{t.day} {_MONTH_EN[t.month - 1]} {t.year}"


def _dates_zh(f: date, t: date, granularity: str, hours: tuple[int, int] | None) -> str:
    if granularity == "year" and f != t:
        return f"{f.year}年"
    if granularity == "month" and f != t:
        return f"{f.year}年{f.month}月"
    if f == t:
        part = _PART_ZH.get(hours, "") if hours else ""
        return f"{f.year}年{f.month}月{f.day}日（周{'一二三四五六日'[f.weekday()]}）{part}"
    if granularity == "week" and (t - f).days == 6:
        return f"{f.year}年{f.month}月{f.day}日那一周"
    tail = f"{t.day}日" if f.month == t.month else f"{t.month}月{t.day}日"
    return f"{f.year}年{f.month}月{f.day}日至{tail}"


def timeless(text: str) -> str:
    """A stored text with its pinned times ("Tomorrow [2026-12-04], …", annotate's) put as the dates
    they meant ("On Friday 4 December 2026, …"; "明天 [2026-12-04]要…" as "2026年12月4日（周五）要…"):
    "tomorrow" was true on the day it was said, and the profile read the next morning said
    "Tomorrow [2026-12-04]" on the 4th (`make demo`). A text without a pinned time is returned as
    it is; one whose time words are no longer found keeps its labels."""
    labels = list(_PINNED.finditer(text))
    if not labels:
        return text
    plain, ends = "", []  # the text without its labels, and where each label stood in it
    pos = 0
    for m in labels:
        plain += text[pos : m.start()]
        ends.append(len(plain))
        pos = m.end()
    plain += text[pos:]
    found = {r.end: r for r in find_times(plain, 0)}  # the spans: any day resolves them alike
    out, pos, changed = [], 0, False
    for m, end in zip(labels, ends, strict=True):
        ref = found.get(end)
        if ref is None:
            out += [plain[pos:end], m.group(0)]
            pos = end
            continue
        f = date.fromisoformat(m.group(1))
        t = date.fromisoformat(m.group(2)) if m.group(2) else f
        words, stop = ref.text, ref.end
        if cjk.has(words):
            said = _dates_zh(f, t, ref.granularity, ref.hours)
            if plain[stop : stop + 1] == " " and cjk.has(plain[stop + 1 : stop + 2]):
                stop += 1  # the label's space, not the text's
        else:
            said = _dates_en(f, t, ref.granularity, ref.hours)
            if kept := _KEPT_EN.match(words):  # "by Friday": its own word, not "on"
                said = kept.group(1) + " " + said.split(" ", 1)[1]
            elif _BEFORE_EN.search(plain[: ref.start]):  # "since Sunday": the word before says it
                said = said.split(" ", 1)[1]
            if words[:1].isupper():
                said = said[0].upper() + said[1:]
        out += [plain[pos : ref.start], said]
        pos, changed = stop, True
    if not changed:
        return text
    out.append(plain[pos:])
    return "".join(out)
