"""Rules for the subjects that hold one value at a time, said the way people say a change.

The general rules (en, zh) read a first statement well ("I work at Siemens", 我住在杭州);
a *new* value is often said differently: "I started at Spotify", "I'm a paramedic now", "my boyfriend
now is called Theo", 我上周搬到厦门了, 跳槽去了字节, 我现在的男朋友叫小林, 现在开一辆小鹏. Unless the
new value lands on the same exclusive subject as the old one, the old statement stays current and is
recalled as if nothing had changed. These rules run on a clause the general rules found nothing in,
and ``refile`` moves a hit the general rules filed under a shared subject to the exclusive one it
states ("不吃素了" is a diet, not a dislike).

Each hit is a language-neutral RuleHit.
"""

from __future__ import annotations

import re
from dataclasses import replace

from ...text.cjk import IDEOGRAPHS as _HAN
from . import RuleHit, language
from .lexicon_en import PROGRAMMING_LANGUAGES

CAR_BRANDS_EN = (
    "Honda", "Toyota", "Kia", "Tesla", "BMW", "VW", "Volkswagen", "Ford", "Audi", "Mercedes", "Volvo", "Hyundai",
    "Nissan", "Mazda", "Subaru", "Fiat", "Peugeot", "Renault", "Skoda", "Seat", "Porsche", "Mini", "Jeep",
    "Chevrolet", "Chevy", "Lexus", "Polestar", "BYD", "Nio", "Xpeng", "Rivian", "Dacia", "Opel", "Citroen",
    "Suzuki", "Mitsubishi", "Jaguar", "Land Rover", "Range Rover", "Prius", "Civic", "Corolla", "Golf", "Model 3",
    "Model Y", "Leaf", "Zoe", "Octavia", "Yaris", "Focus", "Fiesta", "Camry", "Outback", "Miata",
)  # fmt: skip
CAR_BRANDS_ZH = (
    "丰田", "卡罗拉", "本田", "思域", "雅阁", "大众", "高尔夫", "比亚迪", "特斯拉", "小鹏", "蔚来", "理想", "宝马",
    "奔驰", "奥迪", "吉利", "长城", "哈弗", "五菱", "日产", "马自达", "福特", "别克", "雪佛兰", "现代", "起亚",
    "沃尔沃", "问界", "极氪", "小米", "领克", "长安", "奇瑞", "红旗", "保时捷", "凯美瑞", "轩逸", "朗逸", "帕萨特",
)  # fmt: skip
_CAR_EN = "|".join(sorted((re.escape(b) for b in CAR_BRANDS_EN), key=len, reverse=True))
_CAR_ZH = "|".join(sorted(CAR_BRANDS_ZH, key=len, reverse=True))
_OCCUPATION_WORDS = frozenset(
    (
        "engineer developer programmer designer teacher nurse doctor lawyer accountant chef writer artist musician "
        "scientist researcher professor manager consultant analyst architect pharmacist dentist therapist "
        "psychologist photographer journalist editor farmer driver pilot mechanic electrician plumber carpenter "
        "firefighter paramedic midwife librarian translator barista waiter baker butcher barber hairdresser tutor "
        "coach trainer actor singer dancer illustrator animator technician surgeon vet veterinarian recruiter "
        "marketer director student intern freelancer entrepreneur founder"
    ).split()
)

# English: "I'm a paramedic now", "I became a nurse", "I started at Spotify", "I joined Figma", "I now drive
# a Kia EV6", "my girlfriend now is called Lena", "I'm seeing Maya now", "I mostly write Java at work".
_EN_I = r"(?<![\w'])I"
_EN_JOB = re.compile(
    _EN_I
    + r"(?:'m| am)? (?:now |currently )?(?:became |have become |'ve become |am now |'m now |work as |"
    r"'m working as |am working as |retrained as |trained as |qualified as |)(?:a|an) (?P<x>[a-z]+(?: [a-z]+)?)"
    r"(?= now\b|[ ,.!;]|$)",
    re.I,
)
_EN_EMPLOYER = re.compile(
    _EN_I
    + r" (?:just |recently |now )?(?:started (?:at|with)|joined|got (?:a job|hired) (?:at|by)|"
    r"moved to|switched to|now work (?:at|for)|work (?:at|for)) (?P<x>[A-Z][\w&.'-]*(?: [A-Z][\w&.'-]*){0,2})"
)
_EN_CAR = re.compile(
    _EN_I
    + rf" (?:now |currently |just )?(?:drive|own|bought|got|have) (?:a|an|the|my)? ?(?:new |used |second-?hand )?"
    rf"(?P<x>(?:{_CAR_EN})(?: [A-Z0-9][\w-]*)?)\b"
)
_EN_MY_CAR = re.compile(
    rf"\b(?i:my) (?:car|ride) is (?:a|an) (?:old |new |used |little |tiny )?"
    rf"(?P<x>(?:{_CAR_EN})(?: [A-Z0-9][\w-]*)?)\b"
)
_EN_PARTNER = re.compile(
    r"\b(?i:my) (?:new )?(?P<rel>boyfriend|girlfriend|partner|wife|husband|fianc[eé]e?) (?:now |these days )?"
    r"(?:is called|is named|'s called|'s name is|is) (?P<x>[A-Z][a-z]+)\b"
    r"|"
    + _EN_I
    + r"'?m (?:now )?(?:seeing|dating|with|going out with) (?P<y>[A-Z][a-z]+)(?: now)?\b"
)
_EN_CODE = re.compile(
    _EN_I
    + r" (?:now |mostly |mainly |primarily |usually |these days )*(?:write|code in|program in|use|work in) "
    r"(?P<x>[A-Za-z][\w+#-]*)\b"
)
_EN_DIET = re.compile(
    _EN_I
    + r" (?:went|became|turned|have gone|'ve gone|am|'m) (?:fully |now )?(?P<x>vegan|vegetarian|pescatarian)\b"
    r"|"
    + _EN_I
    + r" (?P<neg>stopped being|no longer am|'m no longer|am no longer) (?:a )?(?P<y>vegan|vegetarian)\b",
    re.I,
)

# Chinese: 搬到厦门了 (with a time in between), 跳槽去了字节, 入职了京东, 现在的男朋友叫小林, 现在开一辆小鹏.
_ZH_TIME = r"(?:上周|上个月|上个星期|去年|今年|最近|刚刚|刚|已经|前几天|前阵子|昨天|前天|终于|这个月|月初|月底|年初)*"
_ZH_MOVE = re.compile(
    r"我" + _ZH_TIME + r"(?:搬家)?(?:搬到|搬去|搬来)了?(?P<x>[" + _HAN + r"]{2,5}?)"
    r"(?:了|去了|来了|住|[，。！,.!]|$)"
)
_ZH_EMPLOYER = re.compile(
    r"我?"
    + _ZH_TIME
    + r"(?:跳槽(?:去|到)了?|入职了?|去了?|加入了?|换到了?)(?P<x>["
    + _HAN
    + r"A-Za-z]{2,8}?)"
    r"(?:上班|工作|做|了|[，。！,.!]|$)"
)
_ZH_PARTNER = re.compile(
    r"我?(?:现在的|新的?)(?P<rel>男朋友|女朋友|老公|老婆|对象)(?:是|叫)"
    r"(?P<x>[" + _HAN + r"A-Za-z]{1,4}?)(?:了|[，。！,.!]|$)"
)
_ZH_CAR = re.compile(
    r"我?(?:现在)?(?:开的?是|开|买了|换了|提了)(?:一辆|辆|台|一台)?(?:新的?)?"
    rf"(?P<x>(?:{_CAR_ZH})[{_HAN}A-Za-z0-9]{{0,4}}?)(?:了|车|[，。！,.!]|$)"
)
_ZH_LIVE = re.compile(
    r"我(?:一直|现在|目前)?(?:在|住在)(?P<x>[" + _HAN + r"]{2,4}?)(?:住了|生活了|定居)"
)
_ZH_NOT_EMPLOYER = re.compile(
    r"^(?:医院|超市|学校|公园|北京|上海|旅游|旅行|玩|吃|看|买|那|这|外地|国外)"
)
_DIET_WORDS = {
    "素": "素",
    "vegetarian": "vegetarian",
    "vegan": "vegan",
    "吃肉": "吃肉",
    "meat": "meat",
}


def rules(body: str, chinese: bool) -> list[RuleHit]:
    """Hits for a clause the general rules found nothing in."""
    return _zh(body) if chinese else _en(body)


def refile(hit: RuleHit, body: str) -> RuleHit:
    """A hit the general rules filed under a shared subject that states an exclusive one: "不吃素了" and
    "I don't eat meat anymore" are diets (negated: the diet ended), not dislikes; and a partner whose
    key came out as the relation ("my boyfriend now is called Theo") gets the name as its key."""
    if hit.subject == "user.likes" and hit.key.lower() in _DIET_WORDS:
        return replace(hit, kind="health", subject="user.diet")
    if (
        hit.subject == "user.partner"
        and (m := _EN_PARTNER.search(body))
        and hit.key.lower() == (m.group("rel") or "")
    ):
        return replace(
            hit,
            text=f"The user's {m.group('rel')} is called {m.group('x')}.",
            confidence=max(hit.confidence, 0.8),
            key=m.group("x"),
        )
    return hit


def _en(body: str) -> list[RuleHit]:
    if m := _EN_CAR.search(body) or _EN_MY_CAR.search(body):
        x = m.group("x")
        return [RuleHit("preference", "user.car", f"The user drives a {x}.", 0.8, False, x)]
    if m := _EN_PARTNER.search(body):
        name = m.group("x") or m.group("y")
        rel = m.group("rel") or "partner"
        return [
            RuleHit(
                "person", "user.partner", f"The user's {rel} is called {name}.", 0.8, False, name
            )
        ]
    if m := _EN_DIET.search(body):
        x = (m.group("x") or m.group("y")).lower()
        negated = bool(m.group("neg"))
        return [
            RuleHit(
                "health",
                "user.diet",
                f"The user is {'no longer ' if negated else ''}{x}.",
                0.85,
                negated,
                x,
            )
        ]
    if (m := _EN_CODE.search(body)) and (lang := language(m.group("x"))) is not None:
        return [
            RuleHit(
                "preference",
                "user.programming_language",
                f"The user mainly writes {lang}.",
                0.8,
                False,
                lang,
            )
        ]
    if m := _EN_JOB.search(body):
        words = m.group("x").lower().split()
        job = next((w for w in reversed(words) if w in _OCCUPATION_WORDS), None)
        if job is not None:
            x = " ".join(words[: words.index(job) + 1])
            return [
                RuleHit(
                    "work",
                    "user.job",
                    f"The user is {'an' if x[0] in 'aeiou' else 'a'} {x}.",
                    0.8,
                    False,
                    x,
                )
            ]
    if m := _EN_EMPLOYER.search(body):
        x = m.group("x").rstrip(".'")
        if x.lower() not in PROGRAMMING_LANGUAGES and x not in {"I", "It", "The"}:
            return [RuleHit("work", "user.work", f"The user works at {x}.", 0.75, False, x)]
    return []


def _zh(body: str) -> list[RuleHit]:
    if m := _ZH_CAR.search(body):
        x = m.group("x")
        return [RuleHit("preference", "user.car", f"用户开{x}。", 0.8, False, x)]
    if m := _ZH_PARTNER.search(body):
        return [
            RuleHit(
                "person",
                "user.partner",
                f"用户的{m.group('rel')}叫{m.group('x')}。",
                0.85,
                False,
                m.group("x"),
            )
        ]
    if m := _ZH_MOVE.search(body):
        return [
            RuleHit("place", "user.lives_in", f"用户搬到{m.group('x')}。", 0.8, False, m.group("x"))
        ]
    if m := _ZH_LIVE.search(body):
        return [
            RuleHit(
                "place", "user.lives_in", f"用户住在{m.group('x')}。", 0.75, False, m.group("x")
            )
        ]
    if (
        (m := _ZH_EMPLOYER.search(body))
        and not _ZH_NOT_EMPLOYER.match(m.group("x"))
        and ("跳槽" in body or "入职" in body or "上班" in body or "工作" in body)
    ):
        return [
            RuleHit("work", "user.work", f"用户在{m.group('x')}工作。", 0.75, False, m.group("x"))
        ]
    return []
