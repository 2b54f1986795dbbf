"""Chinese rules for the user's circumstances: work and school (我在谷歌工作, 我是护士), where they
live and come from (我住在杭州, 我老家是成都), allergies, diet and conditions, and plans with a when
(我明天有个面试)."""

from __future__ import annotations

import re

from . import RuleHit, language
from .lexicon_zh import EVENTS, JOB_SUFFIXES, NOT_A_HOME, NOT_A_HOMETOWN, NOT_A_PLACE
from .zh_phrasing import ADV, CJK, NEG, PRONOUN_OBJECT, clean, statement

_TIME = re.compile(
    r"明天|后天|大后天|今晚|今天晚上|明早|明晚|下周|下星期|下礼拜|下个?月|下个?星期|明年|今年|年底|月底|周末|这周|本周|"
    r"(?:周|星期|礼拜)[一二三四五六日天]|\d{1,2}月\d{1,2}[日号]|[一二三四五六七八九十]{1,3}月[一二三四五六七八九十]{1,3}[日号]|"
    r"\d{1,2}[日号](?![线楼])|过几天|过两天|待会|等会|一会儿|晚点|回头|下午|上午|晚上|早上|中午|\d{1,2}点|[两三四五六七八九十]点|"
    r"\[\d{4}-\d{2}-\d{2}"
)
_INTENT = re.compile(r"打算|准备|计划|要|会|得|将|约了|想|去|回|飞|出发|参加|见|搬|开始|报名")
_PLAN_NEG = re.compile(r"不(?:去|打算|准备|要|会|想|回|参加)|没(?:打算|计划|准备)|取消了")
_ORG_MEASURE = re.compile(r"^(?:一家|一个|家|个)")
_PERSON_MEASURE = re.compile(r"^(?:一名|一个|一位|个|名|位)")
_NEAR = re.compile(r"(?:这边|那边|附近)$")
_DE = re.compile("的$")
_INTEND = re.compile(rf"^我{ADV}(?:打算|计划|决定|准备)(?P<x>.+)$")
_WORK = re.compile(
    rf"^我{ADV}{NEG}{ADV}在(?P<x>[^，,]{{1,20}}?)"
    r"(?P<verb>工作|上班|实习|打工|任职|做事|当(?P<job>.{1,8}))"
)
_JOINED = re.compile(rf"^我{ADV}(?:刚|刚刚)?(?:入职|加入)了?(?P<x>.{{2,20}})$")
_SCHOOL = re.compile(
    rf"^我{ADV}在(?P<x>[^，,]{{1,20}}?)(?:读书|上学|念书|读研究生|读研|读博|读大学|上大学|"
    r"读本科|读高中|读初中|"
    r"留学|学习|读大[一二三四]|读研[一二三])"
)
_MAJOR = re.compile(
    rf"^我{ADV}(?:学|读|念)的是(?P<x>.{{1,12}})|^我的专业是(?P<y>.{{1,12}})"
    rf"|^我{ADV}(?:学|读)(?P<z>.{{1,8}})专业"
)
_JOB = re.compile(rf"^我{ADV}{NEG}是(?:一名|一个|一位|个|名|位|做)?(?P<x>.{{1,12}}?)(?P<de>的)?$")
_STUDENT_OF = re.compile(
    rf"^我{ADV}是(?P<x>.{{2,12}}?)的(?:学生|研究生|博士生|本科生|大学生|新生)$"
)
_DEGREE = re.compile("很|非常|比较|挺|特别|超|太|有点")
_DO_JOB = re.compile(
    rf"^我{ADV}(?:是)?(?:做|干|搞)(?P<x>.{{1,8}})的$|^我的工作是(?P<y>.{{1,12}})$"
    rf"|^我{ADV}当(?P<z>.{{1,8}})$"
)


def work(body: str, lead: str, ann_lead: str, ann_body: str) -> list[RuleHit] | None:
    m = _SCHOOL.match(body)
    if m:
        x = clean(m.group("x"))
        if not x or x in {"家", "家里"}:
            return None
        return [RuleHit("work", "user.school", statement("", body[1:]), 0.85, False, x)]
    m = _WORK.match(body)
    if m:
        x = _ORG_MEASURE.sub("", clean(m.group("x")))
        if x in NOT_A_PLACE:
            return None  # "我在努力工作": 在 marks the progressive here, not a place
        negated = bool(m.group("neg"))
        hits: list[RuleHit] = []
        if x:
            conf = (
                0.4 if x in {"家", "家里", "这里", "那里", "这儿", "那儿", "外地", "国外"} else 0.9
            )
            if m.group("verb") in {"工作", "上班", "任职", "做事"}:
                text = f"用户{'不再' if negated else ''}在{x}工作。"
            else:
                text = statement("", clean(body)[1:])
            hits.append(RuleHit("work", "user.work", text, conf, negated, x))
        job = clean(m.group("job") or "")
        if job and not negated:
            hits.append(
                RuleHit(
                    "work",
                    "user.job",
                    f"用户是{job}。",
                    0.8 if job.endswith(JOB_SUFFIXES) else 0.45,
                    False,
                    job,
                )
            )
        return hits or None
    m = _JOINED.match(body)
    if m:
        x = clean(m.group("x"))
        return [RuleHit("work", "user.work", f"用户在{x}工作。", 0.8, False, x)] if x else None
    m = _MAJOR.match(body)
    if m:
        x = clean(m.group("x") or m.group("y") or m.group("z"))
        return (
            [RuleHit("work", "user.major", statement("", clean(body)[1:]), 0.75, False, x)]
            if x
            else None
        )
    m = _DO_JOB.match(clean(body))
    if m:
        x = clean(m.group("x") or m.group("y") or m.group("z"))
        if x and not PRONOUN_OBJECT.match(x):
            return [RuleHit("work", "user.job", statement("", clean(body)[1:]), 0.7, False, x)]
    m = _STUDENT_OF.match(clean(body))
    if m:
        x = m.group("x")
        return [RuleHit("work", "user.school", f"用户在{x}上学。", 0.85, False, x)]
    m = _JOB.match(clean(body))
    if m:
        x = _PERSON_MEASURE.sub("", m.group("x"))
        if x.endswith(JOB_SUFFIXES) and len(x) >= 2:
            negated = bool(m.group("neg"))
            return [
                RuleHit(
                    "work", "user.job", f"用户{'不' if negated else ''}是{x}。", 0.85, negated, x
                )
            ]
        if (
            x.endswith("人")
            and 2 <= len(x) <= 6
            and not x[:-1].startswith(NOT_A_HOMETOWN)
            and "的" not in x
            and not _DEGREE.match(x)
            and not m.group("neg")
        ):
            return [RuleHit("place", "user.from", f"用户是{x}。", 0.7, False, x[:-1])]
    return None


_LIVE = re.compile(rf"^我{ADV}{NEG}{ADV}(?:住在|住|家在|定居在|定居)(?P<x>.+)$")
_MOVED = re.compile(rf"^我{ADV}(?:刚|刚刚)?搬(?:到|去|来)了?(?P<x>.+)$")
_FROM = re.compile(
    rf"^我{ADV}(?:来自|老家是|老家在|出生在|生在|是从)(?P<x>.+?)(?:来的|人)?$"
    rf"|^我{ADV}在(?P<y>.+?)长大"
)


def place(body: str, lead: str, ann_lead: str, ann_body: str) -> list[RuleHit] | None:
    m = _MOVED.match(body)
    if m and (x := clean(m.group("x"))) and not _TIME.search(lead) and language(x) is None:
        return [RuleHit("place", "user.lives_in", statement("", clean(body)[1:]), 0.8, False, x)]
    m = _LIVE.match(body)
    if m:
        x = _NEAR.sub("", clean(m.group("x")))
        if not x or PRONOUN_OBJECT.match(x) or x.startswith(NOT_A_HOME) or _TIME.search(lead):
            return None
        negated = bool(m.group("neg"))
        return [
            RuleHit(
                "place",
                "user.lives_in",
                f"用户{'不再' if negated else ''}住在{x}。",
                0.9 if len(x) <= 10 else 0.5,
                negated,
                x,
            )
        ]
    m = _FROM.match(clean(body))
    if m:
        x = _DE.sub("", clean(m.group("x") or m.group("y")))
        return [RuleHit("place", "user.from", f"用户来自{x}。", 0.9, False, x)] if x else None
    return None


_ALLERGY = re.compile(rf"^我{ADV}{NEG}对(?P<x>.{{1,12}}?)过敏|^我(?P<y>[^对不没]{{1,6}}?)过敏")
_DIET = re.compile(rf"^我{ADV}(?:是)?(?:吃素|吃全素|素食者|素食主义者|纯素食者|吃斋)")
_CONDITION = re.compile(
    rf"^我{ADV}(?:有|得了|患有|查出)(?P<x>糖尿病|哮喘|高血压|失眠|抑郁症|焦虑症|偏头痛|胃病|"
    r"鼻炎|过敏性鼻炎|"
    r"心脏病|癫痫|多动症|甲亢|贫血)|^我(?P<y>怀孕了)"
)


def health(body: str, lead: str, ann_lead: str, ann_body: str) -> list[RuleHit] | None:
    text = clean(body)
    m = _ALLERGY.match(text)
    if m:
        x = m.group("x") or m.group("y")
        negated = bool(m.groupdict().get("neg"))
        return [
            RuleHit(
                "health",
                "user.allergy",
                f"用户{'不' if negated else ''}对{x}过敏。",
                0.9 if m.group("x") else 0.8,
                negated,
                x,
            )
        ]
    if _DIET.match(text):
        return [RuleHit("health", "user.diet", statement("", text[1:]), 0.9, False, "素")]
    m = _CONDITION.match(text)
    if m:
        x = m.group("x") or m.group("y")
        return [RuleHit("health", "user.health", statement("", text[1:]), 0.85, False, x)]
    return None


_HAVE_EVENT = re.compile(
    rf"^我{ADV}(?:明天|后天|下周[一二三四五六日天]?|周[一二三四五六日天]|今晚|晚上|下午|上午)?"
    r"\s*(?:\[[\d.\-]+\])?"
    rf"(?:还)?有(?:个|一个|场|一场|次|一次|节|一节|门|一门)?(?:[{CJK}]{{0,3}}?)(?:{EVENTS})"
    r"(?=$|[，。！？,.!?\s要得在的了啊呀\[])"
)
_PAST = re.compile(
    r"上周|上个|上星期|上礼拜|昨天|昨晚|前天|去年|刚才|刚刚|(?:去|回|飞|参加|见|搬)了"
)


def plan(body: str, lead: str, ann_lead: str, ann_body: str) -> list[RuleHit] | None:
    if _PAST.search(lead + body):
        return None
    timed = bool(_TIME.search(lead + body))
    text = statement(ann_lead, ann_body[1:])
    if _HAVE_EVENT.match(body):
        return [RuleHit("plan", "user.plan", text, 0.85 if timed else 0.65, False, "")]
    if not timed:
        m = _INTEND.match(body)
        if m and len(clean(m.group("x"))) >= 2:
            return [RuleHit("plan", "user.plan", text, 0.55, False, "")]
        return None
    intent = _INTENT.search(body)
    if intent is None:
        return None
    negated = bool(_PLAN_NEG.search(body))
    return [
        RuleHit("plan", "user.plan", text, 0.85 if intent.group() != "想" else 0.6, negated, "")
    ]
