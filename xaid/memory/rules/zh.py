"""Chinese fact rules: one clause in, zero or more hits out, text kept in Chinese ("用户在谷歌工作。").

Without word segmentation the objects are cut by cues instead: the clause is already split at ，。！？,
so an object runs to the clause end, minus trailing particles (了, 啦, 呀…). As in English, a rule only
fires on the clause's own 我 with at most a short lead that is not a report or a hypothesis: "他说我喜欢
猫" and "如果我住在上海" say nothing about the user.

This module finds the anchor and the lead, holds the rules for who the user is, what they like and
who is in their life, and runs all rules in order; work, school, places, health and plans are in
zh_life, the pieces both share in zh_phrasing, the words in lexicon_zh.
"""

from __future__ import annotations

import re

from . import Rule, RuleHit, language
from . import zh_life as life
from .lexicon_zh import CATEGORIES, JOB_SUFFIXES, MEAT, NEGATIVE_VERBS, NOT_NAME_START, RELATIONS
from .zh_phrasing import ADV, ANNOTATION, CJK, NEG, PRONOUN_OBJECT, clean, statement

_ANCHOR = re.compile(r"我(?!们)")
_LEAD_BLOCK = re.compile(
    r"你|他|她|它|如果|要是|假如|假设|万一|说|觉得|以为|希望|梦见|梦到|是不是|听说|据说|可能"
)
_FILLERS = re.compile(
    r"^(?:嗯+|啊+|哦+|噢+|诶|哎|对了|其实|顺便说一下|顺便说一句|顺便|话说|另外|还有|然后|"
    r"而且|所以|哈哈+|嘿嘿|那个|就是|反正|跟你说|告诉你|说真的|讲真|老实说|好吧|好的|嗯嗯)[\s,，、]*"
)
_REL_ALT = "|".join(sorted(RELATIONS, key=len, reverse=True))
_NAME = rf"(?P<x>[{CJK}A-Za-z·]{{1,12}})"
_LATIN_NAME = re.compile(r"[A-Za-z]+")
_ADDITIVE = re.compile("也|还")
_CODE_TAIL = re.compile(r"(?:写代码|编程|开发|做开发|写程序|来写代码)$")
_OTHER_PERSON = re.compile("你|他|她|它")
_NOT_SELF = re.compile(rf"我(?:的|家)|我(?:{_REL_ALT})")
_GOOD_ENOUGH = re.compile(r"(?:就行|就好|就可以|就可以了|好了|吧)$")
_HEDGE = re.compile(r"可能|也许|好像|大概|应该|似乎")
_MY_NAME = re.compile(rf"^我(?:的)?名字(?:是|叫)?{_NAME}|^我叫(?:做)?{_NAME.replace('<x>', '<y>')}")
_AFTER_NAME = re.compile(r"今年|是|在|来自|住|也|就|，|,|\s")
_AGE = re.compile(r"^我(?:今年|已经|才|都)?(?P<x>\d{1,3}|[一二三四五六七八九十]{1,3})(?:周)?岁")
_ZH_DIGITS = {c: i for i, c in enumerate("零一二三四五六七八九")}


def _zh_int(s: str) -> int:
    if s.isdigit():
        return int(s)
    if "十" in s:
        tens, _, ones = s.partition("十")
        return (_ZH_DIGITS.get(tens, 1) if tens else 1) * 10 + (
            _ZH_DIGITS.get(ones, 0) if ones else 0
        )
    return _ZH_DIGITS.get(s, 0)


def _name_confidence(x: str) -> float:
    if x.startswith(NOT_NAME_START):
        return 0.0
    if _LATIN_NAME.fullmatch(x) or 2 <= len(x) <= 4:
        return 0.85
    return 0.45


def identity(body: str, lead: str, ann_lead: str, ann_body: str) -> list[RuleHit] | None:
    m = _MY_NAME.match(body)
    if m:
        x = clean(_AFTER_NAME.split(m.group("x") or m.group("y"), maxsplit=1)[0])
        conf = _name_confidence(x)
        if x and conf:
            return [RuleHit("identity", "user.name", f"用户叫{x}。", conf, False, x)]
    m = _AGE.match(body)
    if m:
        age = _zh_int(m.group("x"))
        if 3 <= age <= 110:
            return [RuleHit("identity", "user.age", f"用户{age}岁。", 0.85, False, str(age))]
    return None


_FAVOURITE = re.compile(r"^我(?:最|最最)(?:喜欢|爱)的(?P<cat>[^是]{1,8})是(?P<x>.+)$")
_LIKE = re.compile(
    rf"^我{ADV}{NEG}{ADV}(?P<verb>喜欢|爱|热爱|喜爱|偏爱|迷上了|爱上了|讨厌|厌恶|受不了|恨死了|恨)"
    r"(?P<x>.+)$"
)
_USES = re.compile(
    rf"^我{ADV}{NEG}{ADV}(?:正在|在)?(?P<verb>改用|转用|换成了?|换用了?|转向了?|转到了?|转了|用|写|"
    r"使用)(?P<x>.+)$"
)
_STRONG_USE = re.compile(r"主要|现在|目前|基本|一般|平时|都|改|转|换")
_EAT = re.compile(rf"^我{ADV}(?P<neg>不|从不|从来不|不再)吃(?P<x>.+)$")


def _preference(body: str, obj: str, negated: bool, additive: bool) -> list[RuleHit]:
    lang = language(obj)
    subject = "user.programming_language" if lang and not negated and not additive else "user.likes"
    conf = 0.85 if len(obj) <= 12 else 0.6
    return [RuleHit("preference", subject, statement("", body[1:]), conf, negated, lang or obj)]


def likes(body: str, lead: str, ann_lead: str, ann_body: str) -> list[RuleHit] | None:
    m = _FAVOURITE.match(body)
    if m:
        cat, obj = m.group("cat"), clean(m.group("x"))
        lang = language(obj)
        key = CATEGORIES.get(cat, cat)
        subject = (
            "user.programming_language" if lang and key == "language" else f"user.favourite.{key}"
        )
        return (
            [RuleHit("preference", subject, statement("", body[1:]), 0.85, False, lang or obj)]
            if obj
            else None
        )
    m = _LIKE.match(body)
    if m:
        obj = clean(m.group("x")).removeprefix("死")  # 爱死/恨死: "love to death"
        if not obj or PRONOUN_OBJECT.match(obj):
            return None
        negated = bool(m.group("neg")) != (m.group("verb") in NEGATIVE_VERBS)
        additive = bool(_ADDITIVE.search(body[: m.start("verb")]))
        return _preference(clean(body), obj, negated, additive)
    m = _USES.match(body)
    if m:
        obj = clean(m.group("x"))
        obj = _CODE_TAIL.sub("", obj).strip()
        lang = language(obj)
        negated = bool(m.group("neg"))
        if lang is not None:
            subject = (
                "user.likes"
                if negated or _ADDITIVE.search(body[: m.start("verb")])
                else "user.programming_language"
            )
            conf = 0.85 if _STRONG_USE.search(body[: m.start("x")]) else 0.7
            return [
                RuleHit("preference", subject, statement("", clean(body)[1:]), conf, negated, lang)
            ]
        if (
            m.group("verb") == "写"
            or not obj
            or PRONOUN_OBJECT.match(obj)
            or len(obj) > 10
            or obj[0] in "了过着"
        ):
            return None
        conf = 0.6 if _STRONG_USE.search(body[: m.start("x")]) else 0.4
        return [
            RuleHit("preference", "user.uses", statement("", clean(body)[1:]), conf, negated, obj)
        ]
    m = _EAT.match(body)
    if m:
        obj = clean(m.group("x"))
        if not obj:
            return None
        if obj in MEAT:
            return [RuleHit("health", "user.diet", statement("", clean(body)[1:]), 0.8, True, obj)]
        return [RuleHit("preference", "user.likes", statement("", clean(body)[1:]), 0.6, True, obj)]
    return None


_REL_NAMED = re.compile(
    rf"^我(?:的|家|家的|家里的)?(?P<rel>{_REL_ALT})(?:的名字(?:是|叫)|叫做|名叫|叫){_NAME}$"
)
_REL_IS = re.compile(rf"^我(?:的|家|家的|家里的)?(?P<rel>{_REL_ALT})(?:是)(?P<x>.+)$")
_REL_HAVE = re.compile(
    rf"^我(?:有|养了|养着|家有|也有)(?P<n>一个|一只|一条|个|只|条|两个|两只|三只|三个|[二三四五]个)?"
    rf"(?P<rel>{_REL_ALT})(?:[，,]?(?:叫|名叫|叫做){_NAME})?$"
)
_REL_ANY = re.compile(rf"^我(?:的|家|家的|家里的)?(?P<rel>{_REL_ALT})(?P<rest>.+)$")
_REL_WHERE = re.compile(
    r"^(?:现在|还|一直|也)?(?:住在|定居在|搬到了?|在[^，,。]{1,15}?(?:工作|上班|读书|上学))"
)
_PERSON_REF = re.compile(rf"^我(?:的|家|家的|家里的)?(?:{_REL_ALT})")
_PRONOUN = re.compile(r"^[她他](?=[^们的])")


def person(body: str, lead: str, ann_lead: str, ann_body: str) -> list[RuleHit] | None:
    text = clean(body)
    m = _REL_NAMED.match(text)
    if m and _name_confidence(m.group("x")):
        x, rel = m.group("x"), m.group("rel")
        return [RuleHit("person", "user." + RELATIONS[rel], f"用户的{rel}叫{x}。", 0.85, False, x)]
    m = _REL_HAVE.match(text)
    if m:
        x = m.groupdict().get("x")
        return [
            RuleHit(
                "person",
                "user." + RELATIONS[m.group("rel")],
                statement("", text[1:]),
                0.85 if x else 0.7,
                False,
                x or m.group("rel"),
            )
        ]
    m = _REL_IS.match(text)
    if m:
        x = m.group("x")
        conf = 0.65 if x.endswith(JOB_SUFFIXES) else 0.4
        rel = m.group("rel")
        return [
            RuleHit("person", "user." + RELATIONS[rel], f"用户的{rel}是{x}。", conf, False, rel)
        ]
    m = _REL_ANY.match(text)
    if m and not m.group("rest").startswith(("们", "和", "跟", "说", "的", "妈", "爸", "也")):
        rel = m.group("rel")
        conf = (
            0.7 if _REL_WHERE.match(m.group("rest")) else 0.4
        )  # 我妹妹住在汉堡: as concrete as 我妹妹是护士
        return [
            RuleHit(
                "person",
                "user." + RELATIONS[rel],
                statement("", f"的{rel}{m.group('rest')}"),
                conf,
                False,
                rel,
            )
        ]
    return None


_STARTERS = re.compile(
    r"^(?:也|还|现在|目前|主要|平时|特别|很|非常|一直|最|都|刚)*"
    r"(?:在|住|喜欢|爱|讨厌|不喜欢|来自|是|有|对|"
    r"用|写|搬|今年|养了|吃|不吃|老家|打算|准备|要|明天)"
)


def speaks_for_self(clause: str) -> bool:
    """Whether the clause's subject is the user (我…, not 我妹妹…), so "，在谷歌工作" that follows is theirs."""
    a = _ANCHOR.search(clause)
    return (
        a is not None
        and a.start() <= 8
        and not _LEAD_BLOCK.search(clause[: a.start()])
        and not _NOT_SELF.match(clause, a.start())
    )


def refers_to(clause: str) -> str | None:
    """The relative a clause is about (我妹妹, …), for a 她/他 clause after it."""
    m = _PERSON_REF.match(clause.strip())
    return m.group(0) if m else None


def resolve_pronoun(clause: str, ref: str) -> str | None:
    """她住在汉堡 after 我妹妹… as 我妹妹住在汉堡; None when it is no such clause."""
    m = _PRONOUN.match(clause.strip())
    return ref + clause.strip()[m.end() :] if m else None


def continues_subject(clause: str) -> bool:
    """Whether a clause split off after ，/但是 goes on with the same 我: "我叫小明，在谷歌工作"."""
    return bool(_STARTERS.match(clause)) and not _OTHER_PERSON.search(clause[:3])


_CALL_ME = re.compile(
    rf"^(?:你|大家|朋友们?|别人|他们|同事们?)?(?:可以|就|都|一般)?(?:叫|喊|称呼)我{_NAME}$"
)
# In this order: the first rule with a hit decides.
RULES: tuple[Rule, ...] = (identity, likes, life.work, life.place, person, life.health, life.plan)


def rules(clause: str, annotated: str) -> list[RuleHit]:
    """Hits from one clause (already split, no question). ``annotated`` carries timeparse's dates."""
    plain = _FILLERS.sub("", ANNOTATION.sub("", clause.strip()))
    m = _CALL_ME.match(clean(plain))
    if m:
        x = _GOOD_ENOUGH.sub("", clean(m.group("x")))
        if x and _name_confidence(x):
            return [RuleHit("identity", "user.nickname", f"用户希望被叫作{x}。", 0.85, False, x)]
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
    for fn in RULES:
        hits = fn(body, lead, ann_lead, ann_body)
        if hits:
            return [h.hedged(hedge) for h in hits]
    return []
