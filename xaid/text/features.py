"""Hard features: what makes an utterance specific enough to keep verbatim and worth remembering.

A name, a number, a date or a link is what a summary loses first and what the user notices when it is
gone ("you forgot my sister's name"), so micro-compression keeps utterances that carry them and the
fact value (DESIGN.md §2) reads ``specificity`` as one of its four signals. Everything here is cheap
regular expressions, not a tagger: it has to run on every message on a Pi, in both languages, in well
under a millisecond, and a missed entity only costs a little value, never a wrong fact.

Dates are explicit ones only (2026-12-04, May 5th, 3pm, 周五, 12月4日, weekday names). "Today" and
"明天" are deliberately not counted: "I'm tired today" is not a message worth keeping word for word,
and timeparse resolves relative expressions separately when a memory is stored.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from .cjk import HAN as _HAS_CJK
from .cjk import IDEOGRAPHS as _CJK


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


@dataclass(frozen=True, slots=True)
class Features:
    proper_nouns: tuple[str, ...]
    numbers: tuple[str, ...]
    dates: tuple[str, ...]
    urls: tuple[str, ...]

    @property
    def count(self) -> int:
        return len(self.proper_nouns) + len(self.numbers) + len(self.dates) + len(self.urls)


# -- links ---------------------------------------------------------------------------------------------

_URL = re.compile(
    r"https?://[^\s<>\"'，。、）》]+"
    r"|www\.[^\s<>\"'，。、）》]+"
    r"|[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+"
    r"|(?<![A-Za-z0-9.@-])[a-z0-9-]+\.(?:com|org|net|io|dev|ai|cn|edu|gov|app)(?![A-Za-z0-9])(?:/[^\s，。]*)?",
    re.I,
)
_URL_TAIL = ".,;:!?)]}'\""

# -- dates and times -----------------------------------------------------------------------------------

_MONTHS = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sept?(?:ember)?"
    r"|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)"
)
_ORD = r"(?:st|nd|rd|th)?"
_ZH_NUM = "零一二两三四五六七八九十"
_EN_DATE = re.compile(
    r"\b\d{4}[-/.]\d{1,2}[-/.]\d{1,2}\b"  # 2026-12-04
    rf"|\b{_MONTHS}\.?\s+\d{{1,2}}{_ORD}\b(?:,?\s+\d{{4}}\b)?"  # May 5th, 2026
    rf"|\b\d{{1,2}}{_ORD}\s+(?:of\s+)?{_MONTHS}\b(?:,?\s+\d{{4}}\b)?"  # 5 May, 5th of May
    rf"|\b{_MONTHS}\s+\d{{4}}\b"  # May 2026
    r"|\b(?:January|February|April|June|July|August|September|October|November|December)\b"
    r"|(?:(?<=\bin )|(?<=\bby )|(?<=\bof )|(?<=\bsince )|(?<=\buntil )|(?<=\bearly )|(?<=\blate ))(?:March|May)\b"
    r"|\b\d{1,2}/\d{1,2}(?:/\d{2,4})?\b"  # 12/4, 12/4/2026
    r"|\b\d{1,2}(?::\d{2})?\s?(?:[ap]\.m\.|[ap]m\b)"  # 3pm, 3:30 p.m.
    r"|\b[0-2]?\d:[0-5]\d\b"  # 15:30
    r"|\b\d{1,2}\s?o'clock\b|\b(?:noon|midnight)\b"
    r"|\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b"
    r"|(?:(?<=\bin )|(?<=\bsince )|(?<=\buntil )|(?<=\bfrom )|(?<=\byear ))(?:19|20)\d{2}\b",
    re.I,
)
# Month and weekday names are dates even when capitalised mid-sentence, so never proper nouns.
_CALENDAR_WORDS = _words(
    "january february march april may june july august september october november december jan feb mar apr "
    "jun jul aug sep sept oct nov dec monday tuesday wednesday thursday friday saturday sunday mon tue tues wed "
    "thu thur thurs fri sat sun mondays tuesdays wednesdays thursdays fridays saturdays sundays"
)
_ZH_PERIOD = r"(?:凌晨|早上|早晨|上午|中午|下午|傍晚|晚上|今晚|明早|明晚|夜里|半夜)"
_ZH_DATE = re.compile(
    r"\d{4}年(?:\d{1,2}月(?:\d{1,2}[日号])?)?"
    r"|\d{1,2}月(?:份|\d{1,2}[日号]?)?"
    rf"|[一二三四五六七八九十]{{1,3}}月(?:[{_ZH_NUM}]{{1,3}}[日号])?"
    r"|(?<!\d)\d{1,2}[日号](?![线楼房门床机位球码\d])"
    rf"|{_ZH_PERIOD}\s*(?:\d{{1,2}}|[{_ZH_NUM}]{{1,3}})[点时](?:半|一刻|三刻|整|\d{{1,2}}分?|[{_ZH_NUM}]{{1,3}}分)?"
    rf"|(?:\d{{1,2}}|[二两三四五六七八九十]{{1,3}}|十[一二])点(?:半|一刻|三刻|整|钟|\d{{1,2}}分?|[{_ZH_NUM}]{{1,3}}分)?"
    rf"|一点(?:半|一刻|钟|整|\d{{1,2}}分|[{_ZH_NUM}]{{1,3}}分)"
    r"|(?:下个?|上个?|这个?|本)?(?:周|星期|礼拜)[一二三四五六日天]"
)

# -- numbers -------------------------------------------------------------------------------------------

_NUMBER = re.compile(
    r"[$¥￥€£]\s?\d+(?:[.,]\d+)*(?:\s?[kKmM万千亿])?"
    r"|\d+(?:[.,]\d+)*(?:\s?(?:%|％|块钱|块|元|美元|美金|万|千|百|亿|k\b|K\b|kg\b|km\b|个月|个|次|天|年|岁|周|小时|分钟"
    r"|公里|斤|米|人|杯|本|页|遍|倍|层|张|只|条|件))?"
    rf"|[{_ZH_NUM}百千万半]+(?:个月|个|次|天|年|岁|周|星期|小时|分钟|公里|斤|只|本|条|件|张|位|家|份|杯|瓶|遍|台|辆|块钱|块|元"
    r"|倍|人|层|首|部|篇|门|节|场|趟|顿)"
)
# "一个人", "一下", "半天": a lone 一 or 半 with a counting word is an article or a shrug, not a number;
# with a unit of time or measure ("一年", "一公里") it still says how much.
_ZH_ARTICLE_UNITS = frozenset("个次只本条件张位家份杯瓶遍台辆块元人层首部篇门节场趟顿")
_ZH_UNIT_CHARS = (
    "个月次天年岁周星期小时分钟公里斤只本条件张位家份杯瓶遍台辆块钱元倍人层首部篇门节场趟顿"
)

# -- proper nouns --------------------------------------------------------------------------------------

_TITLE = r"(?:Dr|Mr|Mrs|Ms|Prof|St|Mt|Sr|Jr)\."
_CAP = r"[A-Z][A-Za-z0-9'’&+#-]*|[a-z]+[A-Z][A-Za-z0-9]*"  # Google, C++, O'Brien, iPhone, eBay
_LINK = r"(?:of|de|del|van|von|da|la|le|the)"
_RUN = re.compile(rf"(?<![A-Za-z0-9])(?:{_TITLE}\s+)?(?:{_CAP})(?:\s+(?:{_LINK}\s+)?(?:{_CAP}))*")
_TITLE_WORD = re.compile(_TITLE)
_SENTENCE_START = re.compile(r"(?:^|[.!?…]+\s+|[。！？\n:;]\s*)[\s\"'“‘(\[*-]*")
_LINK_WORDS = frozenset(_LINK[3:-1].split("|"))
_STOP = _words(
    "i i'm i’m im i'll i've i'd ok okay lol lmao haha hi hey hello thanks thank thx yes yeah yep yup no "
    "nope oh ah wow well so and but or the a an my me we us you your he she they it its this that these "
    "those what where when why how who whom which do does did is are am was were be been can could would "
    "will should shall may might must just maybe perhaps please also then today tomorrow yesterday "
    "tonight good great morning night afternoon evening sorry sure not very really omg btw idk tbh imo "
    "hmm um uh ugh love like happy if because since after before in on at to for of with from by about as "
    "let let's it's that's there's what's don't can't won't didn't isn't i'd here there now again all "
    "some any every never always still anyway mom mum dad dear sir guys everyone nothing something "
    "everything yay meh fine cool nice last next"
)

# -- Chinese names by cheap cues -----------------------------------------------------------------------

_ZH_QUOTED = re.compile(r"《([^》]{1,30})》|“([^”]{1,30})”|「([^」]{1,30})」")
_ZH_SUFFIXED = re.compile(rf"[{_CJK}]{{1,8}}?(?:公司|大学|医院|老师|先生|女士|市|省|路)")
_ZH_PERSON_SUFFIXES = ("老师", "先生", "女士")
# A character at which a name cannot continue leftward: "我在北京大学" is 北京大学, not 在北京大学.
_ZH_BOUNDARY = frozenset(
    "我你他她它们的在去到是和跟与从自给叫了个家位这那一把被对向往"
    "来回说找见于为让请要想会能就也都还很条"
)
_ZH_LATIN = re.compile(r"[A-Za-z][A-Za-z0-9+#.'-]*[A-Za-z0-9+#]|[A-Za-z]")


def common_word(word: str) -> bool:
    """Whether a capitalised ``word`` is still no name: a word of the closed classes above (pronouns,
    greetings, "today", "anyway") or a month or a weekday."""
    low = word.lower()
    return low in _STOP or low in _CALENDAR_WORDS


def _strip_url(s: str) -> str:
    return s.rstrip(_URL_TAIL)


def _mask(text: str, spans: list[tuple[int, int]]) -> str:
    """The text with the found spans blanked, so a date is not also counted as two numbers."""
    if not spans:
        return text
    chars = list(text)
    for a, b in spans:
        chars[a:b] = " " * (b - a)
    return "".join(chars)


def _english_nouns(text: str, out: list[str]) -> None:
    starts = {m.end() for m in _SENTENCE_START.finditer(text)}
    for m in _RUN.finditer(text):
        group: list[str] = []
        first_group = True
        words = m.group().split()
        for i, raw in enumerate([*words, ""]):
            word = raw if raw.endswith(".") and _TITLE_WORD.fullmatch(raw) else raw.rstrip(".")
            word = word.removesuffix("'s").removesuffix("’s")
            low = word.lower()
            if raw and (
                (low in _LINK_WORDS and group) or (low not in _STOP and low not in _CALENDAR_WORDS)
            ):
                group.append(word)
                continue
            while group and group[-1].lower() in _LINK_WORDS:
                group.pop()
            if group:
                at_start = first_group and i == len(group) and m.start() in starts
                if not (at_start and len(group) == 1):
                    out.append(" ".join(group))
                first_group = False
            elif raw:
                first_group = False
            group = []


def _chinese_nouns(text: str, out: list[str]) -> None:
    for m in _ZH_QUOTED.finditer(text):
        out.append(next(g for g in m.groups() if g))
    for m in _ZH_SUFFIXED.finditer(text):
        s = m.group()
        suffix = next(
            x
            for x in ("公司", "大学", "医院", "老师", "先生", "女士", "市", "省", "路")
            if s.endswith(x)
        )
        head = s[: -len(suffix)]
        cut = max((i for i, ch in enumerate(head) if ch in _ZH_BOUNDARY), default=-1)
        head = head[cut + 1 :][-6:]
        if len(head) >= (1 if suffix in _ZH_PERSON_SUFFIXES else 2):
            out.append(head + suffix)
    for m in _ZH_LATIN.finditer(text):
        before = text[: m.start()].rstrip()[-1:]
        after = text[m.end() :].lstrip()[:1]
        if (_HAS_CJK.match(before) or _HAS_CJK.match(after)) and m.group().lower() not in _STOP:
            out.append(m.group())


def _dedupe(items: list[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(s.strip() for s in items if s.strip()))


def features(text: str) -> Features:
    urls = [(m.start(), m.start() + len(_strip_url(m.group()))) for m in _URL.finditer(text)]
    url_texts = [text[a:b] for a, b in urls]
    work = _mask(text, urls)
    date_spans: list[tuple[int, int]] = []
    dates: list[str] = []
    for m in _EN_DATE.finditer(work):
        s = m.group()
        if "/" in s and not _plausible_slash_date(s):
            continue
        if ":" in s and s[0].isdigit() and int(s.split(":")[0]) > 24:
            continue
        date_spans.append(m.span())
        dates.append(s)
    if _HAS_CJK.search(work):
        for m in _ZH_DATE.finditer(work):
            date_spans.append(m.span())
            dates.append(m.group())
    work = _mask(work, date_spans)
    numbers = [m.group().strip() for m in _NUMBER.finditer(work) if not _vague(m.group())]
    nouns: list[str] = []
    if not _shouted(work):
        _english_nouns(work, nouns)
    if _HAS_CJK.search(work):
        _chinese_nouns(work, nouns)
    return Features(_dedupe(nouns), _dedupe(numbers), _dedupe(dates), _dedupe(url_texts))


def _vague(s: str) -> bool:
    """一个, 一下, 半天: the numeral is an article or a shrug here, not an amount."""
    head = s.rstrip(_ZH_UNIT_CHARS)
    unit = s[len(head) :]
    return (head == "一" and unit in _ZH_ARTICLE_UNITS) or (
        head == "半" and unit not in {"年", "个月", "小时"}
    )


_UPPER = re.compile("[A-Z]")
_LOWER = re.compile("[a-z]")


def _shouted(text: str) -> bool:
    """ALL CAPS carries no proper-noun signal: "I GOT THE JOB" names nothing."""
    upper = len(_UPPER.findall(text))
    return upper >= 8 and upper > 3 * len(_LOWER.findall(text))


def _plausible_slash_date(s: str) -> bool:
    a, b = (int(x) for x in s.split("/")[:2])
    return 1 <= a <= 31 and 1 <= b <= 31 and (a <= 12 or b <= 12)


# Weights per feature kind: a number alone ("3 coffees") says less than a name, a date or a link.
_WEIGHTS = (1.0, 0.7, 1.0, 1.0)  # proper nouns, numbers, dates, urls
_SCALE = 2.0  # feature mass at which the feature part reaches 1 - 1/e of its ceiling
_FEATURE_CEILING = 0.9
_LENGTH_SHARE = 0.1
_LENGTH_FULL = 25.0  # words (or pairs of Chinese characters) at which the length bonus is full
_WORDS = re.compile(r"[A-Za-z0-9]+(?:['’][A-Za-z]+)?")


def specificity(text: str) -> float:
    """0..1: ``0.9·(1 − e^(−m/2)) + 0.1·min(1, length/25)``, m the weighted feature count.

    Saturating because the first name or date is what turns "I met someone" into a memory; the
    fourth adds little. m weighs proper nouns, dates and links 1.0 and numbers 0.7, so m = 1 gives
    ≈ 0.35, m = 2 ≈ 0.57, m = 4 ≈ 0.78. Length (Latin words plus Chinese characters / 2) adds at
    most 0.1, enough to order two featureless messages, never enough to make chatter look specific:
    "ok" ≈ 0.004, "I met Dr. Chen at Stanford Hospital on May 5 at 3pm" ≈ 0.83.
    """
    f = features(text)
    mass = sum(
        w * n
        for w, n in zip(
            _WEIGHTS, (len(f.proper_nouns), len(f.numbers), len(f.dates), len(f.urls)), strict=True
        )
    )
    length = len(_WORDS.findall(text)) + len(_HAS_CJK.findall(text)) / 2
    score = _FEATURE_CEILING * (1.0 - math.exp(-mass / _SCALE)) + _LENGTH_SHARE * min(
        1.0, length / _LENGTH_FULL
    )
    return round(min(1.0, score), 4)
