"""Arming: which unresolved matters a finished session leaves, and when asking about them fits.

The scenes, in English and Chinese, decided by rules over what consolidation already read, and
by the learned reader where the rules' lists say nothing:
- plan: something that matters is ahead with a date ("meeting the client next week",
  "下周去见客户", an exam, an interview, a doctor's visit), whoever says "I". Ask *after* it:
  from the day after the resolved date (after the whole range for "next week") for a week; a
  one-day event said with its hour is after from when it is over on its day (``over_at``: the
  hour said and two more, or the end of the part of the day said).
  Errands ("oil change", "买菜") are not matters;
- worry: the same, when the session also carries fear or nerves about it; a fortnight's window;
- ahead: a plan or worry whose date is still ahead the next morning is also asked about *before*
  it, as a friend does ("good luck for Thursday, how's the prep?", "周四面试准备得怎么样？"): from the
  next morning until the event is over (``over_at``; else the end of its first day). It is the
  same matter as its plan (one of the session's MAX_PER_EPISODE), armed beside it: on the dev
  scenes the interview on Thursday said on Monday had nothing due on Tuesday and Wednesday, and a
  person opening a session then met a companion that knew nothing of it
  (perf/scenarios/morning_dev2.json);
- emotion: the session closed on a strong low (exhausted, sad, angry) that was not a joke; ask
  from six hours later (typically the next morning) for three days. A feeling only ("totally wiped,
  brain is mush") counts when the closing mood, read by meaning, is strong though no line is to the
  rules: the session's user lines together are then its words;
- loss: the session told of a death, a break-up or a grave diagnosis (mood.loss: the rules and,
  from consolidation, meaning). A loss is never a matter to ask about: no "how did it go" is
  armed on it (not on the funeral next Friday either), and instead of the emotion item a gentle
  check-in about the person ("thinking of you") is, from the next day for a week; firing it is
  mood-gated like everything else (fire.py: never while the user is very low right now).
- matter (learned): where the rules find no plan, the reader of matter.py (a small model over the
  utterance's meaning and its shape, fitted on a labelled dev set) may find the utterance that
  leaves a matter a friend would follow up, said in words no list holds ("tmrw's the big day",
  "娃发烧三天了", a landlord keeping the deposit, a decision due). With a date ahead it is a plan
  (ask after it); without one, scene "matter": six hours on (the next morning after an evening,
  the same evening after a morning) for four days. Its topic and
  keywords are the user's own utterance. A loss read by meaning alone (the prototypes) is doubted
  when the reader gives it less than its loss floor, and taken for grave news still open (someone
  ill or in care, asked after: a matter) when the reader is unsure of it (matter.UNSURE_LOSS); a
  loss the rules of mood.loss read stands.
- occasion: where neither took a line, a date ahead and a meaning nearer occasions than routine
  (occasion.py: a first day, a lesson, a session at the gym, said in passing) make it a plan.
Nothing is armed from a session in which the user asked not to have it brought up, and a plan
called off later in the same session is dropped. Keywords (plus the outcome words of the event:
"passed", "offer", "出院") tell that the matter came up again, in either language.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from .. import clock
from ..clock import DAY_MS, HOUR_MS
from ..memory import index
from ..memory.draft import Draft, Utterance
from ..mood import loss
from ..mood.lexicon_en import CUES
from ..mood.state import MoodState
from ..text import cjk, clauses, features, hour_said, stopwords, timeparse
from ..text.lang import language
from . import someone
from .matter import NO_READINGS, SESSION_CHARS, Readings

MAX_PER_EPISODE = 2
# An undated matter is asked about for this many days, from MATTER_AFTER_MS on. A mortgage still in
# approval told on a Monday, then a chat about a cat in the sun on Wednesday, is still what a friend
# asks about on Saturday; with 4 days it had expired and the cat was asked after (morning_dev36's
# train half). 7: on every other Morning dev set nothing armed or suggested changed.
MATTER_DAYS = 7
# ... after its session: a matter told in the morning (a car at the garage, a child sent home with a
# fever, a talk with the manager "later") is asked about that afternoon or evening, as the feeling of
# a session is (arm_dev22's same-day scenes: due only from midnight, nothing was asked at
# 15:00-18:00); after an evening session that is the next morning, as before.
MATTER_AFTER_MS = 6 * HOUR_MS
# The episode's tension (draft.py: a date ahead, a strong feeling) knows nothing of an undated matter;
# fire.py passes over items whose episode holds less than 0.3, so one armed raises it to this.
MATTER_TENSION = 0.5
# A closing mood this tired or this low arms the feeling item though no single line read strong to
# the rules: a feeling said in words no lexicon holds, read by meaning at consolidation.
STRONG_CLOSE = 0.5
EVENTS_EN = frozenset(
    (
        "exam exams test tests quiz interview interviews appointment surgery operation meeting presentation trip "
        "flight flying wedding funeral date results biopsy checkup check-up scan hearing deadline launch concert "
        "match race marathon audition doctor dentist hospital court move moving demo pitch defense defence review "
        "client competition recital therapy therapist vet visa gig performance speech keynote final finals "
        "tournament graduation ceremony exhibition premiere open-mic stand-up standup camping hike hiking holiday "
        "vacation party birthday anniversary banquet reception orientation"
    ).split()
)
EVENTS_ZH = tuple(
    (
        "考试 面试 手术 复查 检查 医院 看病 体检 会议 开会 汇报 答辩 出差 客户 婚礼 葬礼 约会 比赛 演出 搬家 航班 "
        "旅行 旅游 结果 报告 雅思 托福 高考 考研 面签 签证 演讲 上线 发布 截止 考 结婚 婚宴 年会 表演 演奏 路演 决赛 "
        "考核 述职 评审 典礼 毕业 音乐会 演唱会 马拉松 全马 半马 科目 驾考 开业 首演 展览 露营 徒步 度假 生日 派对"
        " 大寿 寿宴 寿辰 宴会 酒席 满月酒 纪念日 庆典 入职 报到 开学"
    ).split()
)
# Longer forms of an event word that are still the event: "interviewers", "exams", "presentations".
_EVENT_ENDINGS = ("s", "es", "er", "ers")
TRIVIAL = (
    "oil change",
    "groceries",
    "grocery",
    "laundry",
    "milk",
    "haircut",
    "dishes",
    "买菜",
    "洗衣服",
    "理发",
    "取快递",
    "减肥",
    "倒垃圾",
)
WORRY = (
    "worried",
    "worry",
    "nervous",
    "scared",
    "afraid",
    "anxious",
    "terrified",
    "dread",
    "can't stop thinking",
    "担心",
    "紧张",
    "害怕",
    "焦虑",
    "慌",
    "不安",
)
CANCELLED = (
    "cancelled",
    "canceled",
    "called off",
    "postponed",
    "never mind",
    "position's been filled",
    "取消",
    "不去了",
    "推迟",
    "改期",
    "算了",
)
# Asked not to be asked, said in any words: a "don't"/"rather not"/"can we not"/"let's not" that
# reaches a verb of raising it ("don't bring up the thing with my ex", "I'd rather not talk
# about it", "can we not talk about it tomorrow", 别再聊了, 不想提). 说话 is to speak at all, not to
# speak of something: "累到不想说话" is too tired to talk, and the tiredness is asked about. As the
# English "don't ... ask" may hold a few words between, the Chinese may hold whom it is said to
# ("别跟我提这事", "不要再和我聊这个", "别对我说"): a 跟/和/对/向/给 + a pronoun before the verb.
# The verb's object may stand inside "bring … up" ("please don't bring him up again", "don't bring
# my dad up": a pronoun or a possessive and its noun, morning14), "we" may be followed by "just"
# ("can we just not talk about her"), and hearing of someone is raising them too, when what is not
# to be heard is a person or it ("i don't want to hear his name again", "don't want to hear about
# it"; not "the results", a worry), as 不想再听到 is with what it would hear after it or before it
# (他的名字我不想再听到了).
_OBJECT_EN = r"(?:it|that|this|him|her|them|(?:my|his|her|their|that) [a-z'-]+) "
_DO_NOT_ASK = re.compile(
    r"\b(?:don'?t|do not|never|rather not|stop|no more|(?:can|could|shall) we (?:just )?not|let'?s not)\b"
    r"(?:\W+\w+){0,3}?\W+"
    rf"(?:bring(?:ing)? (?:{_OBJECT_EN})?up|ask(?:ing)?|mention(?:ing)?|talk(?:ing)? about"
    r"|speak(?:ing)? (?:of|about)"
    r"|hear(?:ing)? (?:(?:his|her|their) name|about (?:it|that|this|him|her|them)\b))\b"
    r"|(?:别|不要|不想|不用|不许|甭)再?(?:主动)?(?:[跟和对向给][我你咱俺]们?)?再?(?:主动)?"
    r"(?:提|问|聊|说(?!话)|听到(?=[了他她它这那]|$))"
)
# Taking the words back is asking not to have them raised: "let's pretend i never said any of
# this", "act like you never heard that", "forget i said anything", "就当我没说过", "你就当没听过吧".
# The shape is a wish that the telling be undone (pretend / act as if / forget, 当…没), never a plain
# past statement: "i never said that to her" and 当时我没说 tell what happened. "forget what i said
# earlier" is left out: it is how a correction starts ("…, the meeting is friday").
_NEVER_SAID = re.compile(
    r"\b(?:pretend|act (?:like|as if)|forget)\b(?:\W+\w+){0,3}?\W+(?:i|we|you)\W+"
    r"(?:never|didn'?t|did not|don'?t)\W+(?:ever\W+)?"
    r"(?:said|say|told|tell|mentioned|mention|talked|brought|heard|hear)\b"
    r"|\b(?:pretend|act (?:like|as if))\b(?:\W+\w+){0,3}?\W+never happened\b"
    r"|\bforget (?:that )?i (?:ever )?(?:said|mentioned|told you)"
    r" (?:anything|any of (?:this|that|it)|(?:this|that|it)\b(?!\W+\w))"
    r"|(?<!每)当(?:作|做)?我(?:什么都|啥都|从来)?没(?:说|提|讲)(?:过)?(?!话)"
    r"|当(?:作|做)?(?:你)?没(?:听(?:过|见|到)|这回事)"
)
DO_NOT_ASK_SHAPE = (
    _DO_NOT_ASK  # the general shape, for reading what it asks not to raise (refused.py)
)
DO_NOT_ASK = (
    "don't bring it up",
    "dont bring it up",
    "don't mention",
    "don't ask me about",
    "please don't ask",
    "别主动提",
    "别提",
    "不要提",
    "不想聊",
    "不要问",
    "别问",
)
JOKING = ("哈哈", "lol", "haha", "lmao", "jk", "😂", "🤣")
OUTCOMES = (
    "passed",
    "failed",
    "offer",
    "hired",
    "got the job",
    "results",
    "score",
    "license",
    "licence",
    "on the road",
    "went well",
    "went fine",
    "went great",
    "went ok",
    "went badly",
    "discharged",
    "all clear",
    "录取",
    "通过",
    "考过",
    "过了",
    "挂了",
    "成绩",
    "出院",
    "顺利",
    "结果出来",
    "拿到",
)
_ZH_TRIP = re.compile(f"去[{cjk.IDEOGRAPHS}]{{2,4}}玩")  # 去杭州玩: a trip, though no word says so
_NOT_OUTCOMES = re.compile(r"pass(?:ed|es)? away|passing away")  # a death, not an exam passed
_LATIN = re.compile(r"[A-Za-z][A-Za-z'-]{3,}")
_CJK_STOP = set("的了很我你他她它们是在有就都也还吗呢吧啊呀太真好最近今天明天昨天这那个一不没")


@dataclass(frozen=True, slots=True)
class Arm:
    topic: str
    keywords: tuple[str, ...]
    scene: str
    not_before: int
    not_after: int
    priority: float
    before: Arm | None = None  # a plan's twin asked about before its date (scene "ahead")


# Words that say how or when, not what: they come up in any conversation and prove nothing.
_NOT_TOPICAL = frozenset(
    (
        "today tomorrow tonight yesterday morning evening afternoon night week weekend month year next last this "
        "monday tuesday wednesday thursday friday saturday sunday really something everything nothing thing things "
        "feel feeling felt going gonna want wanna need think know still again much more some like time good bad well "
        "tired exhausted happy sad angry upset worried nervous scared stressed excited anxious great awful terrible"
    ).split()
) | frozenset(CUES)


def keywords(text: str) -> tuple[str, ...]:
    """Words that would show the matter came up again: names, content words, Chinese word pairs."""
    f = features.features(text)
    out = [n.lower() for n in f.proper_nouns if n.lower() not in _NOT_TOPICAL]
    out += [
        w.lower()
        for w in _LATIN.findall(text)
        if w.lower() not in stopwords.ENGLISH and w.lower() not in _NOT_TOPICAL
    ]
    out += cjk.pairs(text, _CJK_STOP)
    return tuple(dict.fromkeys(out))[:12]


def _mentions(low: str, word: str) -> bool:
    if cjk.RUN.fullmatch(word):
        return word in low
    return (
        re.search(rf"(?<![a-z]){re.escape(word)}(?![a-z])", low) is not None
    )  # whole words: "test" ≠ "latest"


def came_up(text: str, words: Sequence[str], happened: bool = True) -> bool:
    """The matter is on the table: one of its words, or an outcome word when it was an event that
    has ``happened`` (no one reports "passed" on an exam still ahead)."""
    low = text.lower()
    if any(_mentions(low, w.lower()) for w in words):
        return True
    if not happened:
        return False
    evented = any(event_word_en(w) is not None or any(e in w for e in EVENTS_ZH) for w in words)
    low = _NOT_OUTCOMES.sub(" ", low)
    return evented and any(o in low for o in OUTCOMES)


def do_not_ask(text: str) -> bool:
    """The user asked not to have something brought up (the list's wordings or the general shape)."""
    low = text.lower().replace("\u2019", "'")
    return (
        _has(text, DO_NOT_ASK)
        or _DO_NOT_ASK.search(low) is not None
        or _NEVER_SAID.search(low) is not None
    )


def _has(text: str, phrases: Sequence[str]) -> bool:
    low = text.lower()
    return any(p in low for p in phrases)


def event_word_en(word: str) -> str | None:
    """The event of the list a lower-case English word is, or a longer form of ("interviews")."""
    if word in EVENTS_EN:
        return word
    for ending in _EVENT_ENDINGS:
        if word.endswith(ending) and word[: -len(ending)] in EVENTS_EN:
            return word[: -len(ending)]
    return None


def _en_words(text: str) -> list[str]:
    """The English words of a text, lower-cased ("open mic" as one)."""
    return re.findall(r"[a-z][a-z'-]+", text.lower().replace("open mic", "open-mic"))


def _events(text: str) -> set[str]:
    """The event words in a text: what makes a dated line a matter worth asking about."""
    found = {e for w in _en_words(text) if (e := event_word_en(w)) is not None}
    found |= {m.group() for m in _ZH_TRIP.finditer(text)}
    return found | {e for e in EVENTS_ZH if e in text}


def _event(text: str) -> bool:
    return bool(_events(text))


# A topic is read by people (``scheduler.list``) and quoted into the directive (fire.Verdict), so its
# frame is in the language of the user's words; the words go last, in ASCII quotes (fire._QUOTED).
_TOPIC = {
    "en": {
        "plan": 'how it went: "{said}"',
        "ahead": 'how they feel about it and how the preparation goes; it is still ahead: "{said}"',
        "matter": 'how it is going: "{said}"',
        "emotion": 'how they are doing now; last time they sounded {feeling}: "{said}"',
        "worn": "worn out",
        "low": "low",
        "loss": 'how they are holding up; they told you of a loss, which is not a matter to ask about: "{said}"',
    },
    "zh": {
        "plan": '后来怎么样了："{said}"',
        "ahead": '还没到，准备得怎么样、心里怎么样："{said}"',
        "matter": '现在怎么样了："{said}"',
        "emotion": '现在怎么样；上次听起来{feeling}："{said}"',
        "worn": "很疲惫",
        "low": "情绪低落",
        "loss": '对方最近怎么样；对方说过一件伤心事，那件事本身不要追问："{said}"',
    },
}


def _short(text: str, limit: int = 90) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def day_start(d: dt.date) -> int:
    """The start of the local day ``d``: where a matter's windows begin and end."""
    return int(dt.datetime(d.year, d.month, d.day, tzinfo=clock.zone()).timestamp() * 1000)


def _ahead(u: Utterance) -> timeparse.TimeRef | None:
    """The date ahead the utterance names, after today ("this week", "tonight" are not later)."""
    return ahead_of(u.message.text, u.message.ts_ms)


def ahead_of(text: str, ts_ms: int) -> timeparse.TimeRef | None:
    """The date ahead ``text`` names, said at ``ts_ms``: after that day; not one of a supposition
    (``timeparse.supposed``: "这次再挂就要重新约一个月后了" is a month's wait if the driving test
    fails, and was asked about the day after it as a matter still ahead, morning_dev36)."""
    refs = timeparse.find_times(text, ts_ms)
    ahead = timeparse.earliest_future([r for r in refs if not timeparse.supposed(text, r)])
    today = clock.local(ts_ms).date()
    return ahead if ahead is not None and ahead.date_from > today else None


def called_off(text: str) -> bool:
    """The text calls something off ("cancelled", 取消, 不去了)."""
    return _has(text, CANCELLED)


def _called_off(text: str, words: Sequence[str], later: Sequence[Utterance]) -> bool:
    called_off = (v.message.text for v in later if _has(v.message.text, CANCELLED))
    return any(came_up(t, words) or _events(t) & _events(text) for t in called_off)


def together(lines: Iterable[str]) -> str:
    """A session's user lines as one text to quote (a matter or a feeling told over several):
    also the key of what consolidation reads of them as one (Readings.asides)."""
    return " ".join(lines)


def _next_morning(ended_ms: int) -> int:
    """The start of the next local day, and at least six hours on: the morning after a session."""
    next_day = clock.local(ended_ms).date() + dt.timedelta(days=1)
    return max(ended_ms + 6 * HOUR_MS, day_start(next_day))


# When a one-day event is over, for the turn from "are you ready?" to "how did it go?": an event
# said at an hour ("at 9:30", 下午两点) that much later; said with a part of the day ("tomorrow
# morning", 明早) at its end; said with neither, at ``DAY_OVER_HOUR``, the end of a working day,
# unless it is of the evening's kind (``_of_the_evening``: a dinner or a concert with no hour is
# still to come at 18:00); for the evening or the night, or over several days, at the end of its
# last day. Session 12: "interview tomorrow at 10", asked about at 19:00 on the day, got "how are
# you feeling about the interview?" (perf/scenarios/morning_dev13.json); arm_dev22: a landlord's
# inspection "tomorrow", a crown swapped "on wednesday", jury duty "starts monday", asked the
# evening of the day how the preparation goes.
EVENT_HOURS = 2.0
DAY_OVER_HOUR = 17.0
EVENING_EN = frozenset(
    "party parties dinner date concert gig show drinks banquet reception premiere open-mic stand-up "
    "standup play recital ball prom game match".split()
)
EVENING_ZH = tuple(
    "派对 聚餐 晚宴 饭局 约会 演唱会 音乐会 演出 话剧 晚会 年会 婚宴 酒会 比赛 球赛".split()
)


def _of_the_evening(text: str) -> bool:
    """The event is of the evening's kind: a dinner, a concert, a date (whole words in English)."""
    return bool(EVENING_EN.intersection(_en_words(text))) or _has(text, EVENING_ZH)


def over_at(text: str, ahead: timeparse.TimeRef) -> int | None:
    """When the event ``text`` names on the day ``ahead`` is over (``EVENT_HOURS``), or None when
    it is taken to run to the end of its day (no hour said, an evening's, a range of days)."""
    if ahead.date_from != ahead.date_to:
        return None
    hour = hour_said.hour_of(text)
    if hour is not None:
        end = hour + EVENT_HOURS
    elif ahead.hours is not None:
        end = float(ahead.hours[1])
    elif _of_the_evening(text):
        return None
    else:
        end = DAY_OVER_HOUR
    return day_start(ahead.date_from) + int(end * HOUR_MS) if end < 24 else None


def window_day(edge_ms: int) -> dt.date:
    """The event's local day from the window edge that turns before into after: a plan's
    ``not_before`` (the end of that day, or the hour it is over, ``over_at``), an ``ahead``
    twin's ``not_after`` (the same)."""
    return clock.local(edge_ms - 1).date()


def _before(
    text: str,
    words: tuple[str, ...],
    day: dt.date,
    ended_ms: int,
    priority: float,
    over: int | None = None,
) -> Arm | None:
    """The matter asked about before its ``day`` (scene "ahead"): from the morning after the
    session (``ended_ms``) until the event is ``over`` (else the end of that day), when that morning
    is not past it. Its priority is the plan's: the two windows never overlap."""
    start, until = _next_morning(ended_ms), over or day_start(day) + DAY_MS
    if start >= until:
        return None
    topic = _TOPIC[language([text])]["ahead"].format(said=_short(text))
    return Arm(topic, words, "ahead", start, until, priority)


# What comes of an event rather than an event of its own: "results next week", 下周出结果.
_OUTCOME_WORDS = frozenset({"results", "结果"})
_CLAUSE_SPAN = re.compile(r"[^.!?;,\n。！？；，、]+")
# A clause begun by a regular past verb and what it acted on ("handed in my dissertation today",
# "submitted the form", "emailed them"): timeparse's past cues are the irregular and common verbs,
# and arm_dev22's "handed in my dissertation today. marks come out in three weeks" kept an "ahead"
# item for the marks. Only at the clause's start, so "tired" or "excited" in the middle is no verb.
_DONE_FIRST = re.compile(
    r"\s*(?:(?:i|we|just|finally|already)\s+)*[a-z]{3,}ed\s+"
    r"(?:in|out|off|up|back|over|my|our|the|a|an|it|them|him|her|his|their|everything)\b",
    re.I,
)


def told_over(text: str, ahead: timeparse.TimeRef, times: Sequence[timeparse.TimeRef]) -> bool:
    """The event was told as over and the date ahead is when its outcome comes: "had a phone
    interview with a gallery this afternoon, they'll let me know next week", "上午面了一家出版社，说
    下周给结果". The clause of the date ahead names no event of its own (an outcome word at most), and
    an earlier clause tells in the past of an event, or of a day not after the message's (``times``:
    the message's times, ``ahead`` among them). "long day today, interview tomorrow at 10" keeps
    its interview ahead: its clause names it."""
    spans = [(m.start(), m.end()) for m in _CLAUSE_SPAN.finditer(text)]
    at = next((i for i, (lo, hi) in enumerate(spans) if lo <= ahead.start < hi), None)
    if at is None or _events(text[slice(*spans[at])]) - _OUTCOME_WORDS:
        return False
    for lo, hi in spans[:at]:
        clause = text[lo:hi]
        if not (timeparse.past_tense(clause) or _DONE_FIRST.match(clause)):
            continue
        done_day = any(
            lo <= t.start < hi and t.direction != "future" and t.date_to < ahead.date_from
            for t in times
        )
        if done_day or _events(clause) - _OUTCOME_WORDS:
            return True
    return False


def _plan(
    u: Utterance, later: Sequence[Utterance], worried: bool, ended_ms: int, learned: bool = False
) -> Arm | None:
    """A dated matter: an event word of the lists or a worry with a date ahead, or (``learned``) any
    utterance the reader took for a matter, with a date ahead; with its twin before the date (``before``)
    when the morning after the session (``ended_ms``) comes before it."""
    text = u.message.text
    ahead = _ahead(u)
    if ahead is None:
        return None
    # a line that fears what is ahead is a matter whatever names it ("finally booked the MRI for my
    # knee, it's wednesday morning. kinda dreading it": no event word, morning_dev33)
    if not (learned or _event(text) or _has(text, WORRY)) or _has(text, TRIVIAL):
        return None
    words = keywords(text)
    if _called_off(text, words, later):
        return None
    day_end = day_start(ahead.date_to) + DAY_MS
    over = over_at(text, ahead)
    not_before = day_end if over is None else max(over, _next_morning(ended_ms))
    done = told_over(text, ahead, timeparse.find_times(text, u.message.ts_ms))
    if done:  # the event is behind them: how it went, from the next morning; nothing "ahead"
        not_before = _next_morning(ended_ms)
    worried = worried or _has(text, WORRY)
    scene = "worry" if worried else "plan"
    window = (14 if worried else 7) * DAY_MS
    priority = 0.8 + 0.2 * u.intensity if worried else 0.7 + 0.2 * u.intensity
    topic = _TOPIC[language([text])]["plan"].format(said=_short(text))
    priority = round(priority, 3)
    before = None if done else _before(text, words, ahead.date_from, ended_ms, priority, over)
    return Arm(topic, words, scene, not_before, day_end + window, priority, before)


def _matter(
    d: Draft,
    u: Utterance,
    later: Sequence[Utterance],
    worried: bool,
    p: float,
    said: str = "",
    felt: frozenset[str] = frozenset(),
    tells: frozenset[str] = frozenset(),
    asides: Mapping[str, frozenset[str]] | None = None,
) -> Arm | None:
    """What the reader found (probability ``p``) in ``u``: a plan when a date ahead is named, else
    an undated matter (an ordeal, results awaited, a decision) asked about ``MATTER_AFTER_MS``
    after the session (that evening after a morning, the next morning after an evening) for
    ``MATTER_DAYS``. ``said``: the words that hold it, when they are not the whole of ``u`` (one
    of its sentences, or the session's messages together). ``felt``, ``tells``: the clauses that
    say only how they feel and those that tell what happened (Readings.felt, Readings.tells): words
    that tell something are quoted from the first clause that is no such feeling, which the
    check-in's lead says back ("早。上次你说去面签，", not "早。上次你说心口堵得慌，"); so are they from
    after the clauses that only lead into them (``asides``, Readings.asides: "破防了")."""
    if _ahead(u) is not None:
        return _plan(u, later, worried, d.ended_ms, learned=True)
    text = said or u.message.text
    own = u.message.text  # an errand or a calling off is the message's own, not its neighbours'
    if _has(own, TRIVIAL) or _called_off(own, keywords(own), later):
        return None
    words = keywords(text)
    not_before = d.ended_ms + MATTER_AFTER_MS
    leading = (asides or {}).get(text, frozenset())
    spans = [c for _, c in clauses.spans(text)]
    skip = (felt if any(c in tells for c in spans) else frozenset()) | leading
    told = (
        clauses.since(text, lambda c: c in skip or index.content_words(c) == 0)
        if leading or any(c in tells for c in spans)
        else text
    )
    topic = _TOPIC[language([text])]["matter"].format(said=_short(told))
    # The reader's probability is how sure it is that something is left open, not how pressing
    # it is, so it counts for little: at 0.6 + 0.2p a later evening's anecdote it read at 0.87 ("今天
    # 地铁上看到一个人穿恐龙服") outranked a cat's operation told two evenings before (a plan, 0.7),
    # and the morning asked about the suit (morning_dev36's train half). A matter found by meaning
    # alone ranks at most with a dated plan of the same worry. perf.eval.morning_arm: the
    # suggestion names the scene's matter in 3 more train scenes of dev35/dev36 and 1 more of
    # dev36's test half; no other dev set's suggestion changed.
    priority = 0.6 + 0.1 * p + (0.1 if worried or _has(text, WORRY) else 0.0)
    return Arm(
        topic, words, "matter", not_before, not_before + MATTER_DAYS * DAY_MS, round(priority, 3)
    )


def _emotion(d: Draft, closing: MoodState | None, plain: bool = False) -> tuple[Arm, str] | None:
    """The feeling the session closed on, and the user's words it quotes. ``plain``: the session
    reads as an ordinary evening (``Readings.plain``), and a feeling only meaning read is not armed."""
    if closing is None:
        return None
    valence, fatigue = closing.valence, closing.fatigue
    if valence > -0.3 and fatigue < 0.5:
        return None
    peak = max(d.utterances, key=lambda u: u.intensity, default=None)
    if peak is None or _has(peak.message.text, JOKING):
        return None
    said = peak.message.text
    if peak.intensity < 0.5:
        # No line the rules read as strong ("totally wiped", "my brain is mush", 心里一点底都没有),
        # but the closing mood, read by meaning at consolidation, is: the feeling is in the whole
        # session, so its user lines together are its words. Not on an ordinary evening (evening.py):
        # "今天就正常上班下班，吃了碗面，没啥特别的 / 睡啦" read 0.53 tired to the tiredness head.
        if plain or not (fatigue >= STRONG_CLOSE or valence <= -STRONG_CLOSE):
            return None
        if any(_has(u.message.text, JOKING) for u in d.utterances):
            return None
        said = together(u.message.text for u in d.utterances)
    lang = language([said])
    feeling = _TOPIC[lang]["worn" if fatigue >= 0.5 else "low"]
    topic = _TOPIC[lang]["emotion"].format(feeling=feeling, said=_short(said))
    strength = max(fatigue, -valence)
    arm = Arm(
        topic,
        keywords(said),
        "emotion",
        d.ended_ms + 6 * HOUR_MS,
        d.ended_ms + 3 * DAY_MS,
        round(min(1.0, 0.5 + 0.5 * strength), 3),
    )
    return arm, said


# A plan of the coming week, still ahead, is asked about before the evening's feeling alone.
SOON_DAYS = 7


def _below_soon_plans(felt: Arm, found: Sequence[Arm], ended_ms: int) -> Arm:
    """The feeling item, ranked just below the session's plans still ahead whose day comes within
    ``SOON_DAYS``: their ahead twin asks how they feel about it, and the feeling waits for a later
    first turn. A heavy evening's "cant stop crying" (0.88) outranked "custody hearing for the
    kids is thursday" (0.7), and the morning named no hearing (morning_dev37's train half). Not
    left out: "I'm exhausted and sad tonight" beside a dentist on Friday is a feeling of its own."""
    soon = [
        a.priority
        for a in found
        if a.before is not None and a.not_before - ended_ms <= SOON_DAYS * DAY_MS
    ]
    if not soon or felt.priority < min(soon):
        return felt
    return replace(felt, priority=round(min(soon) - 0.01, 3))


def _said_with(plan: Arm, said: str) -> bool:
    """Whether a feeling's words hold a plan still ahead the next morning (its ``ahead`` twin
    asks how they feel about it): "明早七点约了私教练腿，上回练完三天下不了楼梯" closed tired, and
    its "上次你说很累" outranked the leg day, so the friend's question about the leg day was never
    asked. Every word the plan keeps (its keywords, all from its line) is in the feeling's words."""
    low = said.lower()
    return plan.before is not None and all(k in low for k in plan.keywords)


def _loss(d: Draft, said: Utterance) -> Arm:
    """The check-in after a loss: about the person, from the next morning (``_next_morning``) for a
    week, never about the loss itself (fire.Verdict.directive words it as "thinking of you"). Due
    only a full day after the session, the morning after "my aunt Carol died this afternoon" had
    nothing due, and the 1.5B opened with "Hey! How's it going?" (morning_dev32, both languages).
    It quotes the loss as told, without the rite or errand the message plans after it (the clauses
    from the first that names a day ahead): quoted whole, the 1.5B's "thinking of you" went on
    "since you told me about your grandad's funeral", or in Chinese retold "后天出殡，请了一周假"
    (session 31, the Morning dev sets' losses)."""
    text = said.message.text
    told = clauses.until(text, lambda c: ahead_of(c, said.message.ts_ms) is not None)
    if someone.leads_with_pronoun(told) and (named := _named_before(d, said)) is not None:
        # "he keeps saying it's nothing…" names no one said back days later: the line before it
        # that named them is quoted first ("Sam gets his biopsy results on wednesday … he keeps
        # saying it's nothing"), and the lead says that back (someone.py; morning_dev14's train
        # half: "…since you told me he keeps saying it's nothing" named neither Sam nor the biopsy)
        told = f"{_short(named, 60)} … {told}"
    topic = _TOPIC[language([text])]["loss"].format(said=_short(told))
    start = _next_morning(d.ended_ms)
    return Arm(topic, keywords(text), "loss", start, d.ended_ms + 7 * DAY_MS, 0.9)


def _named_before(d: Draft, said: Utterance) -> str | None:
    """The nearest user line before ``said`` in the session that names someone (someone.py)."""
    at = d.utterances.index(said)
    return next(
        (
            u.message.text.strip()
            for u in reversed(d.utterances[:at])
            if someone.holds_person(u.message.text)
        ),
        None,
    )


def _lost(u: Utterance, losses: frozenset[int], read: Readings) -> bool:
    """A loss: the rules of mood.loss say so (a word of the lexicons only when meaning does not put
    the message far from a loss, ``read.rule_vetoed``), or meaning did and the reader does not doubt
    it, or a clause of the message told of one by itself (``read.told``: a loss and its plan in one
    breath)."""
    said = u.message.message_id
    if loss.losses(u.message.text):
        return True
    if loss.ruled(u.message.text):  # a word of the lexicons: meaning may veto it ("my phone died")
        return not read.rule_vetoed(said)
    return (said in losses or said in read.told) and not read.loss_doubted(said)


def _learned(
    d: Draft,
    lost: Sequence[Utterance],
    worried: bool,
    read: Readings,
    near_loss: frozenset[int] = frozenset(),
) -> Arm | None:
    """The matter the reader is surest of, where the rules armed none. Read by meaning at three
    reaches: each user message, each sentence of a message that holds several (a worry said as an
    aside in a chat about something else), and the messages together (a matter told over several:
    the offer, then the answer they want soon). The words quoted are the ones that were read: a
    sentence, or, when the messages together leave a matter and none of them was lost, all of them
    (a message alone, "been putting it off since summer", names nothing of the call to the dad).
    A message meaning read near a loss (``near_loss``) that was not taken for one because the
    reader is unsure (``Readings.unsure``) is grave news still open: a matter, at the threshold;
    not in the days after a loss (``Readings.mourning``), when it is that grief going on."""
    best: tuple[float, int, str] | None = None  # (probability, index of the message, its words)
    for i, u in enumerate(d.utterances):
        if u in lost:
            continue
        said = u.message.message_id
        whole = read.matter(said)
        if said in near_loss and read.unsure(said) and not read.mourning:
            whole = max(whole, read.threshold)
        for p, text in [
            (whole, ""),
            *((x.read.matter, x.text) for x in read.sentences(said)),
        ]:
            if best is None or p > best[0]:
                best = (p, i, text)
    if best is None:
        return None
    p, i, text = best
    if not lost and len(d.utterances) > 1 and read.session_sure():
        assert read.session is not None
        p, text = max(p, read.session.matter), together(u.message.text for u in d.utterances)
    if p < read.threshold:
        if not read.weighed_open:
            return None
        i, text = _weighed(d, lost, i, text)
    return _matter(
        d,
        d.utterances[i],
        d.utterances[i + 1 :],
        worried,
        p,
        text,
        read.felt,
        read.tells,
        read.asides,
    )


def _weighed(d: Draft, lost: Sequence[Utterance], best: int, text: str) -> tuple[int, str]:
    """What the model's "the session leaves a matter" arms (weighed.py), which says nothing of the
    line: the first with a date ahead (a plan: "getting my wisdom teeth out tomorrow morning"),
    else the user's lines together while they are a short exchange (the reader's best alone was
    "i'll be a hamster for a week"), else the reader's best (``best``, ``text``)."""
    kept = [(j, u) for j, u in enumerate(d.utterances) if u not in lost]
    dated = next((j for j, u in kept if _ahead(u) is not None), None)
    if dated is not None:
        return dated, ""
    together = " ".join(u.message.text for _, u in kept)
    return (kept[0][0], together) if kept and len(together) <= SESSION_CHARS else (best, text)


def _occasion(d: Draft, lost: Sequence[Utterance], worried: bool, read: Readings) -> Arm | None:
    """A plan said in passing that neither the lists nor the reader took: a line with a date ahead
    whose meaning is an occasion, not routine (``read.occasions``, occasion.py): "going back to the
    gym tomorrow, first time in like 2 months", "下周一去新公司上班". Errands stay out (TRIVIAL)."""
    for i, u in enumerate(d.utterances):
        if u in lost or u.message.message_id not in read.occasions:
            continue
        if (a := _plan(u, d.utterances[i + 1 :], worried, d.ended_ms, learned=True)) is not None:
            return a
    return None


def matters(
    d: Draft,
    closing: MoodState | None,
    losses: frozenset[int] = frozenset(),
    read: Readings = NO_READINGS,
) -> list[Arm]:
    """What the session leaves to ask about later. ``losses``: the ids of the user's messages that
    meaning read as a loss (consolidation's prototypes); the rules of mood.loss are read here too.
    ``read``: the learned reader's probabilities for the user's messages (matter.py), when the
    daemon's embedder is the one it was fitted on."""
    texts = [u.message.text for u in d.utterances]
    if any(do_not_ask(t) for t in texts):
        return []
    lost = [u for u in d.utterances if _lost(u, losses, read)]
    worried = any(_has(t, WORRY) for t in texts)
    found = [
        a
        for i, u in enumerate(d.utterances)
        if u not in lost and (a := _plan(u, d.utterances[i + 1 :], worried, d.ended_ms)) is not None
    ]
    learned = None
    # The rules are precise where they fire; the reader adds what their lists miss, but not beside a
    # loss the rules read: the session is about it, and a friend stays with the person rather than
    # asking after the day's other lines (losses_dev17: "加班到八点，外卖还送错了" beside 我家小黑周日没了,
    # "the house feels so empty without her" read near an open worry beside the goodbye to a dog). A
    # loss meaning alone reads is not sure enough to silence the rest: "纠结死了" over an offer in
    # Shenzhen read as one, and the offer is what a friend asks about (morning_dev.json).
    told_loss = any(loss.ruled(u.message.text) for u in lost)
    if not found and not told_loss:
        learned = _learned(d, lost, worried, read, losses) or _occasion(d, lost, worried, read)
        if learned is not None and learned.scene == "matter" and read.plain():
            learned = None  # an ordinary evening: no undated matter by meaning alone (evening.py)
        found += [learned] if learned is not None else []
    elif (
        not told_loss
        and (other := _learned(d, lost, worried, read, losses)) is not None
        and other.scene in ("plan", "worry")
        and all(window_day(other.not_before) != window_day(a.not_before) for a in found)
    ):
        # beside a plan of the rules' lists, the reader's surest line when it is another dated
        # matter: "CFA一级还有十天 题刷不完" (0.91) after "周末打算做模考" (a mock exam, the lists' 考),
        # and the mornings between them asked nothing of the exam (morning_dev36's train half)
        found.append(other)
    if lost and not any(_has(u.message.text, JOKING) for u in lost):
        found = [a for a in found if not any(came_up(u.message.text, a.keywords) for u in lost)]
        found.append(_loss(d, lost[0]))
    elif (felt := _emotion(d, closing, read.plain())) is not None and not (
        found
        and (
            worried
            or (learned is not None and learned.scene == "matter")
            or any(_said_with(a, felt[1]) for a in found)
        )
    ):  # the worry item covers the fear; an undated matter, due the same morning, the feeling;
        # a plan said with the feeling, asked about the next morning (its ahead twin), the feeling
        found.append(_below_soon_plans(felt[0], found, d.ended_ms))
    found.sort(key=lambda a: -a.priority)
    kept = found[:MAX_PER_EPISODE]
    return kept + [a.before for a in kept if a.before is not None]
