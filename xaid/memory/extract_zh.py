"""Chinese fact rules: one clause in, zero or more hits out, text kept in Chinese ("用户在谷歌工作。").

Without word segmentation the objects are cut by cues instead: the clause is already split at ，。！？,
so an object runs to the clause end, minus trailing particles (了, 啦, 呀…). As in English, a rule only
fires on the clause's own 我 with at most a short lead that is not a report or a hypothesis: "他说我喜欢
猫" and "如果我住在上海" say nothing about the user.
"""

from __future__ import annotations

import re

from ..text import cjk
from .extract_en_phrasing import language
from .hits import Hit, Rule
from .lexicon_facts_zh import (
    ADVERBS,
    CATEGORIES,
    EVENTS,
    JOB_SUFFIXES,
    MEAT,
    NEGATIVE_VERBS,
    NOT_A_HOME,
    NOT_A_HOMETOWN,
    NOT_A_PLACE,
    NOT_NAME_START,
    RELATIONS,
)

_CJK = cjk.IDEOGRAPHS


_ADV = "(?:" + "|".join(ADVERBS) + ")*"
_NEG = (r"(?P<neg>不太|不怎么|不是很|不是太|没那么|并不|从不|从来不|一点也不|一点都不|不再|已经不|再也不|根本不|"
        r"不|没有|没)?")
_ANCHOR = re.compile(r"我(?!们)")
_LEAD_BLOCK = re.compile(r"你|他|她|它|如果|要是|假如|假设|万一|说|觉得|以为|希望|梦见|梦到|是不是|听说|据说|可能")
_FILLERS = re.compile(r"^(?:嗯+|啊+|哦+|噢+|诶|哎|对了|其实|顺便说一下|顺便说一句|顺便|话说|另外|还有|然后|"
                      r"而且|所以|哈哈+|嘿嘿|那个|就是|反正|跟你说|告诉你|说真的|讲真|老实说|好吧|好的|嗯嗯)[\s,，、]*")
_PARTICLES = re.compile(r"[了啦呀啊哦哈呢吧嘛喔噢哟诶~～\s.。!！,，…]+$")
_ANNOTATION = re.compile(r"\s*\[\d{4}-\d{2}-\d{2}(?:\.\.\d{4}-\d{2}-\d{2})?\]")
_PRONOUN_OBJECT = re.compile(r"^(?:你|他|她|它|这个|那个|这样|那样|这|那|自己|一切|什么|谁|哪)")
_REL_ALT = "|".join(sorted(RELATIONS, key=len, reverse=True))
_NAME = rf"(?P<x>[{_CJK}A-Za-z·]{{1,12}})"
_TIME = re.compile(
    r"明天|后天|大后天|今晚|今天晚上|明早|明晚|下周|下星期|下礼拜|下个?月|下个?星期|明年|今年|年底|月底|周末|这周|本周|"
    r"(?:周|星期|礼拜)[一二三四五六日天]|\d{1,2}月\d{1,2}[日号]|[一二三四五六七八九十]{1,3}月[一二三四五六七八九十]{1,3}[日号]|"
    r"\d{1,2}[日号](?![线楼])|过几天|过两天|待会|等会|一会儿|晚点|回头|下午|上午|晚上|早上|中午|\d{1,2}点|[两三四五六七八九十]点|"
    r"\[\d{4}-\d{2}-\d{2}")
_INTENT = re.compile(r"打算|准备|计划|要|会|得|将|约了|想|去|回|飞|出发|参加|见|搬|开始|报名")
_PLAN_NEG = re.compile(r"不(?:去|打算|准备|要|会|想|回|参加)|没(?:打算|计划|准备)|取消了")


_END_WORDS = re.compile(r"(?:了|啦|哈哈+|呢|而已|就是了)$")
_LATIN_NAME = re.compile(r"[A-Za-z]+")
_ADDITIVE = re.compile("也|还")
_CODE_TAIL = re.compile(r"(?:写代码|编程|开发|做开发|写程序|来写代码)$")
_ORG_MEASURE = re.compile(r"^(?:一家|一个|家|个)")
_PERSON_MEASURE = re.compile(r"^(?:一名|一个|一位|个|名|位)")
_NEAR = re.compile(r"(?:这边|那边|附近)$")
_DE = re.compile("的$")
_INTEND = re.compile(rf"^我{_ADV}(?:打算|计划|决定|准备)(?P<x>.+)$")
_OTHER_PERSON = re.compile("你|他|她|它")
_NOT_SELF = re.compile(rf"我(?:的|家)|我(?:{_REL_ALT})")
_GOOD_ENOUGH = re.compile(r"(?:就行|就好|就可以|就可以了|好了|吧)$")
_HEDGE = re.compile(r"可能|也许|好像|大概|应该|似乎")


def _clean(obj: str) -> str:
    obj = _ANNOTATION.sub("", obj)
    prev = None
    while prev != obj:
        prev = obj
        obj = _PARTICLES.sub("", obj.strip())
        obj = _END_WORDS.sub("", obj)
    return obj.strip(" “”\"'《》")


def statement(lead: str, rest: str) -> str:
    """("明天", "要去见我的导师") → "用户明天要去见自己的导师。": the user's words, in the third person."""
    rest = rest.replace("我们", "\0").replace("我的", "自己的").replace("我", "自己").replace("\0", "我们")
    body = _PARTICLES.sub("", (lead.strip(" ，,") + rest).strip())
    return f"用户{body}。"


# A rule reads the body from 我 on and the lead before it, plain and with timeparse's dates (for plans).
_RULES: list[Rule] = []


def rule(fn: Rule) -> Rule:
    _RULES.append(fn)
    return fn


_MY_NAME = re.compile(rf"^我(?:的)?名字(?:是|叫)?{_NAME}|^我叫(?:做)?{_NAME.replace('<x>', '<y>')}")
_AFTER_NAME = re.compile(r"今年|是|在|来自|住|也|就|，|,|\s")
_AGE = re.compile(r"^我(?:今年|已经|才|都)?(?P<x>\d{1,3}|[一二三四五六七八九十]{1,3})(?:周)?岁")
_ZH_DIGITS = {c: i for i, c in enumerate("零一二三四五六七八九")}


def _zh_int(s: str) -> int:
    if s.isdigit():
        return int(s)
    if "十" in s:
        tens, _, ones = s.partition("十")
        return (_ZH_DIGITS.get(tens, 1) if tens else 1) * 10 + (_ZH_DIGITS.get(ones, 0) if ones else 0)
    return _ZH_DIGITS.get(s, 0)


def _name_confidence(x: str) -> float:
    if x.startswith(NOT_NAME_START):
        return 0.0
    if _LATIN_NAME.fullmatch(x) or 2 <= len(x) <= 4:
        return 0.85
    return 0.45


@rule
def _identity(body: str, lead: str, ann_lead: str, ann_body: str) -> list[Hit] | None:
    m = _MY_NAME.match(body)
    if m:
        x = _clean(_AFTER_NAME.split(m.group("x") or m.group("y"), maxsplit=1)[0])
        conf = _name_confidence(x)
        if x and conf:
            return [Hit("identity", "user.name", f"用户叫{x}。", conf, False, x)]
    m = _AGE.match(body)
    if m:
        age = _zh_int(m.group("x"))
        if 3 <= age <= 110:
            return [Hit("identity", "user.age", f"用户{age}岁。", 0.85, False, str(age))]
    return None


_FAVOURITE = re.compile(r"^我(?:最|最最)(?:喜欢|爱)的(?P<cat>[^是]{1,8})是(?P<x>.+)$")
_LIKE = re.compile(rf"^我{_ADV}{_NEG}{_ADV}(?P<verb>喜欢|爱|热爱|喜爱|偏爱|迷上了|爱上了|讨厌|厌恶|受不了|恨死了|恨)"
                   r"(?P<x>.+)$")
_USES = re.compile(rf"^我{_ADV}{_NEG}{_ADV}(?:正在|在)?(?P<verb>改用|转用|换成了?|换用了?|转向了?|转到了?|转了|用|写|"
                   r"使用)(?P<x>.+)$")
_STRONG_USE = re.compile(r"主要|现在|目前|基本|一般|平时|都|改|转|换")
_EAT = re.compile(rf"^我{_ADV}(?P<neg>不|从不|从来不|不再)吃(?P<x>.+)$")


def _preference(body: str, obj: str, negated: bool, additive: bool) -> list[Hit]:
    lang = language(obj)
    subject = "user.programming_language" if lang and not negated and not additive else "user.likes"
    conf = 0.85 if len(obj) <= 12 else 0.6
    return [Hit("preference", subject, statement("", body[1:]), conf, negated, lang or obj)]


@rule
def _likes(body: str, lead: str, ann_lead: str, ann_body: str) -> list[Hit] | None:
    m = _FAVOURITE.match(body)
    if m:
        cat, obj = m.group("cat"), _clean(m.group("x"))
        lang = language(obj)
        key = CATEGORIES.get(cat, cat)
        subject = "user.programming_language" if lang and key == "language" else f"user.favourite.{key}"
        return [Hit("preference", subject, statement("", body[1:]), 0.85, False, lang or obj)] if obj else None
    m = _LIKE.match(body)
    if m:
        obj = _clean(m.group("x")).removeprefix("死")  # 爱死/恨死: "love to death"
        if not obj or _PRONOUN_OBJECT.match(obj):
            return None
        negated = bool(m.group("neg")) != (m.group("verb") in NEGATIVE_VERBS)
        additive = bool(_ADDITIVE.search(body[: m.start("verb")]))
        return _preference(_clean(body), obj, negated, additive)
    m = _USES.match(body)
    if m:
        obj = _clean(m.group("x"))
        obj = _CODE_TAIL.sub("", obj).strip()
        lang = language(obj)
        negated = bool(m.group("neg"))
        if lang is not None:
            subject = "user.likes" if negated or _ADDITIVE.search(body[: m.start("verb")]) else \
                "user.programming_language"
            conf = 0.85 if _STRONG_USE.search(body[: m.start("x")]) else 0.7
            return [Hit("preference", subject, statement("", _clean(body)[1:]), conf, negated, lang)]
        if m.group("verb") == "写" or not obj or _PRONOUN_OBJECT.match(obj) or len(obj) > 10 or obj[0] in "了过着":
            return None
        conf = 0.6 if _STRONG_USE.search(body[: m.start("x")]) else 0.4
        return [Hit("preference", "user.uses", statement("", _clean(body)[1:]), conf, negated, obj)]
    m = _EAT.match(body)
    if m:
        obj = _clean(m.group("x"))
        if not obj:
            return None
        if obj in MEAT:
            return [Hit("health", "user.diet", statement("", _clean(body)[1:]), 0.8, True, obj)]
        return [Hit("preference", "user.likes", statement("", _clean(body)[1:]), 0.6, True, obj)]
    return None


_WORK = re.compile(rf"^我{_ADV}{_NEG}{_ADV}在(?P<x>[^，,]{{1,20}}?)"
                   r"(?P<verb>工作|上班|实习|打工|任职|做事|当(?P<job>.{1,8}))")
_JOINED = re.compile(rf"^我{_ADV}(?:刚|刚刚)?(?:入职|加入)了?(?P<x>.{{2,20}})$")
_SCHOOL = re.compile(rf"^我{_ADV}在(?P<x>[^，,]{{1,20}}?)(?:读书|上学|念书|读研究生|读研|读博|读大学|上大学|"
                     r"读本科|读高中|读初中|"
                     r"留学|学习|读大[一二三四]|读研[一二三])")
_MAJOR = re.compile(rf"^我{_ADV}(?:学|读|念)的是(?P<x>.{{1,12}})|^我的专业是(?P<y>.{{1,12}})"
                    rf"|^我{_ADV}(?:学|读)(?P<z>.{{1,8}})专业")
_JOB = re.compile(rf"^我{_ADV}{_NEG}是(?:一名|一个|一位|个|名|位|做)?(?P<x>.{{1,12}}?)(?P<de>的)?$")
_STUDENT_OF = re.compile(rf"^我{_ADV}是(?P<x>.{{2,12}}?)的(?:学生|研究生|博士生|本科生|大学生|新生)$")
_DEGREE = re.compile("很|非常|比较|挺|特别|超|太|有点")
_DO_JOB = re.compile(rf"^我{_ADV}(?:是)?(?:做|干|搞)(?P<x>.{{1,8}})的$|^我的工作是(?P<y>.{{1,12}})$"
                     rf"|^我{_ADV}当(?P<z>.{{1,8}})$")


@rule
def _work(body: str, lead: str, ann_lead: str, ann_body: str) -> list[Hit] | None:
    m = _SCHOOL.match(body)
    if m:
        x = _clean(m.group("x"))
        if not x or x in {"家", "家里"}:
            return None
        return [Hit("work", "user.school", statement("", body[1:]), 0.85, False, x)]
    m = _WORK.match(body)
    if m:
        x = _ORG_MEASURE.sub("", _clean(m.group("x")))
        if x in NOT_A_PLACE:
            return None  # "我在努力工作": 在 marks the progressive here, not a place
        negated = bool(m.group("neg"))
        hits: list[Hit] = []
        if x:
            conf = 0.4 if x in {"家", "家里", "这里", "那里", "这儿", "那儿", "外地", "国外"} else 0.9
            if m.group("verb") in {"工作", "上班", "任职", "做事"}:
                text = f"用户{'不再' if negated else ''}在{x}工作。"
            else:
                text = statement("", _clean(body)[1:])
            hits.append(Hit("work", "user.work", text, conf, negated, x))
        job = _clean(m.group("job") or "")
        if job and not negated:
            hits.append(Hit("work", "user.job", f"用户是{job}。", 0.8 if job.endswith(JOB_SUFFIXES) else 0.45, False,
                            job))
        return hits or None
    m = _JOINED.match(body)
    if m:
        x = _clean(m.group("x"))
        return [Hit("work", "user.work", f"用户在{x}工作。", 0.8, False, x)] if x else None
    m = _MAJOR.match(body)
    if m:
        x = _clean(m.group("x") or m.group("y") or m.group("z"))
        return [Hit("work", "user.major", statement("", _clean(body)[1:]), 0.75, False, x)] if x else None
    m = _DO_JOB.match(_clean(body))
    if m:
        x = _clean(m.group("x") or m.group("y") or m.group("z"))
        if x and not _PRONOUN_OBJECT.match(x):
            return [Hit("work", "user.job", statement("", _clean(body)[1:]), 0.7, False, x)]
    m = _STUDENT_OF.match(_clean(body))
    if m:
        x = m.group("x")
        return [Hit("work", "user.school", f"用户在{x}上学。", 0.85, False, x)]
    m = _JOB.match(_clean(body))
    if m:
        x = _PERSON_MEASURE.sub("", m.group("x"))
        if x.endswith(JOB_SUFFIXES) and len(x) >= 2:
            negated = bool(m.group("neg"))
            return [Hit("work", "user.job", f"用户{'不' if negated else ''}是{x}。", 0.85, negated, x)]
        if x.endswith("人") and 2 <= len(x) <= 6 and not x[:-1].startswith(NOT_A_HOMETOWN) and "的" not in x \
                and not _DEGREE.match(x) and not m.group("neg"):
            return [Hit("place", "user.from", f"用户是{x}。", 0.7, False, x[:-1])]
    return None


_LIVE = re.compile(rf"^我{_ADV}{_NEG}{_ADV}(?:住在|住|家在|定居在|定居)(?P<x>.+)$")
_MOVED = re.compile(rf"^我{_ADV}(?:刚|刚刚)?搬(?:到|去|来)了?(?P<x>.+)$")
_FROM = re.compile(rf"^我{_ADV}(?:来自|老家是|老家在|出生在|生在|是从)(?P<x>.+?)(?:来的|人)?$"
                   rf"|^我{_ADV}在(?P<y>.+?)长大")


@rule
def _place(body: str, lead: str, ann_lead: str, ann_body: str) -> list[Hit] | None:
    m = _MOVED.match(body)
    if m and (x := _clean(m.group("x"))) and not _TIME.search(lead) and language(x) is None:
        return [Hit("place", "user.lives_in", statement("", _clean(body)[1:]), 0.8, False, x)]
    m = _LIVE.match(body)
    if m:
        x = _NEAR.sub("", _clean(m.group("x")))
        if not x or _PRONOUN_OBJECT.match(x) or x.startswith(NOT_A_HOME) or _TIME.search(lead):
            return None
        negated = bool(m.group("neg"))
        return [Hit("place", "user.lives_in", f"用户{'不再' if negated else ''}住在{x}。", 0.9 if len(x) <= 10 else 0.5,
                 negated, x)]
    m = _FROM.match(_clean(body))
    if m:
        x = _DE.sub("", _clean(m.group("x") or m.group("y")))
        return [Hit("place", "user.from", f"用户来自{x}。", 0.9, False, x)] if x else None
    return None


_REL_NAMED = re.compile(rf"^我(?:的|家|家的|家里的)?(?P<rel>{_REL_ALT})(?:的名字(?:是|叫)|叫做|名叫|叫){_NAME}$")
_REL_IS = re.compile(rf"^我(?:的|家|家的|家里的)?(?P<rel>{_REL_ALT})(?:是)(?P<x>.+)$")
_REL_HAVE = re.compile(rf"^我(?:有|养了|养着|家有|也有)(?P<n>一个|一只|一条|个|只|条|两个|两只|三只|三个|[二三四五]个)?"
                       rf"(?P<rel>{_REL_ALT})(?:[，,]?(?:叫|名叫|叫做){_NAME})?$")
_REL_ANY = re.compile(rf"^我(?:的|家|家的|家里的)?(?P<rel>{_REL_ALT})(?P<rest>.+)$")
_REL_WHERE = re.compile(r"^(?:现在|还|一直|也)?(?:住在|定居在|搬到了?|在[^，,。]{1,15}?(?:工作|上班|读书|上学))")
_PERSON_REF = re.compile(rf"^我(?:的|家|家的|家里的)?(?:{_REL_ALT})")
_PRONOUN = re.compile(r"^[她他](?=[^们的])")


@rule
def _person(body: str, lead: str, ann_lead: str, ann_body: str) -> list[Hit] | None:
    text = _clean(body)
    m = _REL_NAMED.match(text)
    if m and _name_confidence(m.group("x")):
        x, rel = m.group("x"), m.group("rel")
        return [Hit("person", "user." + RELATIONS[rel], f"用户的{rel}叫{x}。", 0.85, False, x)]
    m = _REL_HAVE.match(text)
    if m:
        x = m.groupdict().get("x")
        return [Hit("person", "user." + RELATIONS[m.group("rel")], statement("", text[1:]), 0.85 if x else 0.7, False,
                 x or m.group("rel"))]
    m = _REL_IS.match(text)
    if m:
        x = m.group("x")
        conf = 0.65 if x.endswith(JOB_SUFFIXES) else 0.4
        rel = m.group("rel")
        return [Hit("person", "user." + RELATIONS[rel], f"用户的{rel}是{x}。", conf, False, rel)]
    m = _REL_ANY.match(text)
    if m and not m.group("rest").startswith(("们", "和", "跟", "说", "的", "妈", "爸", "也")):
        rel = m.group("rel")
        conf = 0.7 if _REL_WHERE.match(m.group("rest")) else 0.4  # 我妹妹住在汉堡: as concrete as 我妹妹是护士
        return [Hit("person", "user." + RELATIONS[rel], statement("", f"的{rel}{m.group('rest')}"), conf, False, rel)]
    return None


_ALLERGY = re.compile(rf"^我{_ADV}{_NEG}对(?P<x>.{{1,12}}?)过敏|^我(?P<y>[^对不没]{{1,6}}?)过敏")
_DIET = re.compile(rf"^我{_ADV}(?:是)?(?:吃素|吃全素|素食者|素食主义者|纯素食者|吃斋)")
_CONDITION = re.compile(rf"^我{_ADV}(?:有|得了|患有|查出)(?P<x>糖尿病|哮喘|高血压|失眠|抑郁症|焦虑症|偏头痛|胃病|"
                        r"鼻炎|过敏性鼻炎|"
                        r"心脏病|癫痫|多动症|甲亢|贫血)|^我(?P<y>怀孕了)")


@rule
def _health(body: str, lead: str, ann_lead: str, ann_body: str) -> list[Hit] | None:
    text = _clean(body)
    m = _ALLERGY.match(text)
    if m:
        x = m.group("x") or m.group("y")
        negated = bool(m.groupdict().get("neg"))
        return [Hit("health", "user.allergy", f"用户{'不' if negated else ''}对{x}过敏。", 0.9 if m.group("x") else 0.8,
                 negated, x)]
    if _DIET.match(text):
        return [Hit("health", "user.diet", statement("", text[1:]), 0.9, False, "素")]
    m = _CONDITION.match(text)
    if m:
        x = m.group("x") or m.group("y")
        return [Hit("health", "user.health", statement("", text[1:]), 0.85, False, x)]
    return None


_HAVE_EVENT = re.compile(rf"^我{_ADV}(?:明天|后天|下周[一二三四五六日天]?|周[一二三四五六日天]|今晚|晚上|下午|上午)?"
                         r"\s*(?:\[[\d.\-]+\])?"
                         rf"(?:还)?有(?:个|一个|场|一场|次|一次|节|一节|门|一门)?(?:[{_CJK}]{{0,3}}?)(?:{EVENTS})"
                         r"(?=$|[，。！？,.!?\s要得在的了啊呀\[])")
_PAST = re.compile(r"上周|上个|上星期|上礼拜|昨天|昨晚|前天|去年|刚才|刚刚|(?:去|回|飞|参加|见|搬)了")


@rule
def _plan(body: str, lead: str, ann_lead: str, ann_body: str) -> list[Hit] | None:
    if _PAST.search(lead + body):
        return None
    timed = bool(_TIME.search(lead + body))
    text = statement(ann_lead, ann_body[1:])
    if _HAVE_EVENT.match(body):
        return [Hit("plan", "user.plan", text, 0.85 if timed else 0.65, False, "")]
    if not timed:
        m = _INTEND.match(body)
        if m and len(_clean(m.group("x"))) >= 2:
            return [Hit("plan", "user.plan", text, 0.55, False, "")]
        return None
    intent = _INTENT.search(body)
    if intent is None:
        return None
    negated = bool(_PLAN_NEG.search(body))
    return [Hit("plan", "user.plan", text, 0.85 if intent.group() != "想" else 0.6, negated, "")]


_STARTERS = re.compile(r"^(?:也|还|现在|目前|主要|平时|特别|很|非常|一直|最|都|刚)*"
                       r"(?:在|住|喜欢|爱|讨厌|不喜欢|来自|是|有|对|"
                       r"用|写|搬|今年|养了|吃|不吃|老家|打算|准备|要|明天)")


def speaks_for_self(clause: str) -> bool:
    """Whether the clause's subject is the user (我…, not 我妹妹…), so "，在谷歌工作" that follows is theirs."""
    a = _ANCHOR.search(clause)
    return a is not None and a.start() <= 8 and not _LEAD_BLOCK.search(clause[: a.start()]) and not _NOT_SELF.match(
        clause, a.start())


def refers_to(clause: str) -> str | None:
    """The relative a clause is about (我妹妹, …), for a 她/他 clause after it."""
    m = _PERSON_REF.match(clause.strip())
    return m.group(0) if m else None


def resolve_pronoun(clause: str, ref: str) -> str | None:
    """她住在汉堡 after 我妹妹… as 我妹妹住在汉堡; None when it is no such clause."""
    m = _PRONOUN.match(clause.strip())
    return ref + clause.strip()[m.end():] if m else None


def continues_subject(clause: str) -> bool:
    """Whether a clause split off after ，/但是 goes on with the same 我: "我叫小明，在谷歌工作"."""
    return bool(_STARTERS.match(clause)) and not _OTHER_PERSON.search(clause[:3])


_CALL_ME = re.compile(rf"^(?:你|大家|朋友们?|别人|他们|同事们?)?(?:可以|就|都|一般)?(?:叫|喊|称呼)我{_NAME}$")


def rules(clause: str, annotated: str) -> list[Hit]:
    """Hits from one clause (already split, no question). ``annotated`` carries timeparse's dates."""
    plain = _FILLERS.sub("", _ANNOTATION.sub("", clause.strip()))
    m = _CALL_ME.match(_clean(plain))
    if m:
        x = _GOOD_ENOUGH.sub("", _clean(m.group("x")))
        if x and _name_confidence(x):
            return [Hit("identity", "user.nickname", f"用户希望被叫作{x}。", 0.85, False, x)]
    a = _ANCHOR.search(plain)
    if a is None:
        return []
    lead, body = plain[: a.start()], plain[a.start() :]
    if len(lead) > 8 or _LEAD_BLOCK.search(lead):
        return []
    hedge = 0.2 if _HEDGE.search(body) else 0.0
    ann = _FILLERS.sub("", annotated.strip())
    at = _ANCHOR.search(ann)
    ann_lead, ann_body = (ann[: at.start()], ann[at.start() :]) if at else (lead, body)
    for fn in _RULES:
        hits = fn(body, lead, ann_lead, ann_body)
        if hits:
            return [h.hedged(hedge) for h in hits]
    return []
