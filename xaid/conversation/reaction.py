"""Which clause of the user's line tells what happened, and which only reacts to it, by meaning
(issue 25 item 1; issue 24's lesson: a mechanism on meaning, not another phrase list).

A check-in's lead says the matter back in the user's words ("早。上次你说房东要涨房租，"): checkin.py
takes the first clause of their line that has content words. People often put their reaction
first: "真的是全世界最蠢的人 被骗了两千", "honestly burnt out, 12 hour days all week", "好烦 装修师傅把
瓷砖贴歪了". Said back days later, the reaction ("上次你说真的是全世界最蠢的人，") names nothing a
friend would ask about, and the model goes on from it. No list can hold the ways people react, so
each clause is compared, on the daemon's multilingual embedder, with two small banks of prototypes
written as kinds, in both languages: reactions (an exclamation, a verdict on oneself, a feeling with
no event in it, "we've been friends for years") and happenings (an event, a plan, news with its
subject). A first clause nearer the reactions by ``MARGIN`` (``meaning.Contrast.lead``) gives way to
the clause that reads least as one, when that one reads nearer the happenings (``TELLS``).

The banks and the margins were set on the train halves of the Morning dev sets
(perf/scenarios/morning_dev*.json): over their user lines that hold their scene's keywords in one
clause of several, the first content clause held none in 59 of 363 lines; the chosen clause holds
one in 35 of those and loses it in 2 that had it (margins 0 to 0.1: net +24 to +39, the most
without ``TELLS``, which the 1.5B then showed was wanted: below; feelings of the body in the
reactions, "累死了", "好难受啊", took "失眠了" for one and were dropped). The test halves: 22 of 63
gained, 1 lost. Under another embedder than the one it was set on, nothing is read and the first
content clause stays. Not read for a feeling's check-in (the feeling is what is asked after) nor a
loss's (checkin.py).

Beside scheduler/telling.py: that reading, at arming, weighs states of the body and mind against
happenings to choose what an item quotes, with a high bar, since a body's news reads near the
states. Its bank in place of this one here nets +11 of the same 59 at best (margin 0.05 to 0.1):
a reaction is not a state ("完了完了", "I'm such an idiot", "whatever"), so the kinds are apart.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType

from ..memory.embeddings import Embeddings
from ..mood.meaning import Written

FITTED_ON = "use"  # the embedder the margin was measured under (embed/profiles.py)
MARGIN = 0.05  # nearer the reactions than the happenings by this much (train halves)
# ... and the clause said instead reads nearer the happenings: with none that does, the first stays
# ("失眠了", +0.12 near the sign-offs, gave way to "躺了俩小时还是睁着眼", +0.02, and the 1.5B named no
# insomnia, 0 of 2 on morning_dev35's train half)
TELLS = 0.0

# A reaction to what happened, with nothing of what happened in it; and a sign-off ("whatever,
# going to bed" after "lonely i guess" was said back as the matter, a train half).
REACTIONS: tuple[str, ...] = (
    "I can't believe this",
    "ugh so annoying",
    "I'm such an idiot",
    "what a day",
    "I'm so done",
    "this is the worst",
    "seriously why me",
    "I'm freaking out",
    "lol I'm dead",
    "honestly I don't even know anymore",
    "we've been friends for years",
    "anyway going to bed",
    "ok gotta sleep now",
    "真的无语了",
    "气死我了",
    "我怎么这么蠢",
    "完了完了",
    "崩溃了",
    "我真的服了",
    "太离谱了吧",
    "先睡了",
    "不说了 睡觉去",
    "哭死",
    "我真是个废物",
    "想不通",
    "这么多年的朋友啊",
    "笑死",
)
# What happened or is ahead, with its subject: what a friend asks about.
HAPPENINGS: tuple[str, ...] = (
    "my landlord is raising the rent",
    "I have a job interview on Thursday",
    "my mom is having surgery next week",
    "the doctor found a lump",
    "I lost my wallet on the bus",
    "my boss put me on a performance plan",
    "my sister is getting married in May",
    "the car broke down on the highway",
    "I got scammed out of two thousand",
    "my friend still hasn't paid back the loan",
    "we had a big fight about the wedding",
    "my dog is at the vet",
    "I'm moving to a new apartment on Saturday",
    "my visa application got stuck",
    "房东说下个月涨房租",
    "周四有个面试",
    "我妈下周做手术",
    "医生说查出一个结节",
    "钱包在公交上丢了",
    "老板让我周五前交方案",
    "我姐五月结婚",
    "车在高速上坏了",
    "被骗了两千块",
    "朋友借的钱一直没还",
    "跟对象为婚礼的事吵了一架",
    "狗在宠物医院",
    "周六搬家",
    "签证被卡住了",
    # a state of body or sleep is news too: with none here, "娃烧了两天了" and "失眠了" read as
    # reactions (train halves)
    "my back has been hurting all week",
    "the baby has a fever",
    "I haven't slept well in days",
    "my kid doesn't want to go to school",
    "腰疼了一个星期",
    "宝宝发烧了",
    "这几天都没睡好",
    "孩子不想去上学",
)
BANK = Written(REACTIONS, HAPPENINGS)

# No reading (no embedder of the margin's, or nothing to read): the first content clause stays.
NO_READING: Mapping[str, float] = MappingProxyType({})


async def read(embeddings: Embeddings, clauses: Sequence[str]) -> Mapping[str, float]:
    """How much nearer the reactions than the happenings each of ``clauses`` (stripped) reads;
    NO_READING under another embedder than the margin was measured on. A clause the embedder cannot
    read has no entry."""
    if embeddings.profile.name != FITTED_ON or not clauses:
        return NO_READING
    bank = await embeddings.bank(BANK.texts(), BANK.from_vectors)
    if bank is None:
        return NO_READING
    texts = list(dict.fromkeys(c.strip() for c in clauses if c.strip()))
    vectors = await embeddings.embed_readable(texts)
    return {t: bank.lead(v) for t, v in zip(texts, vectors, strict=True) if v is not None}


def reacts(reading: Mapping[str, float], clause: str) -> bool:
    """Whether ``clause`` reads as a reaction (nearer the reactions by ``MARGIN``)."""
    return reading.get(clause.strip(), float("-inf")) >= MARGIN


def tells(reading: Mapping[str, float], clause: str) -> bool:
    """Whether ``clause`` reads as what happened (nearer the happenings than the reactions)."""
    return reading.get(clause.strip(), float("inf")) < TELLS
