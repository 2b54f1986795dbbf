"""Whether the user's words tell what happened or only how they feel, by meaning.

A heavy evening is told feeling first: "我是傻逼 我真的是全世界最蠢的人 手一直冰凉 … 有人冒充快递客服说要
理赔 … 转了三万八", "气到睡不着 心脏砰砰跳 … 她今天在部门群里当笑话讲出来了". Said back from its first
clause, the check-in's lead was "上次你说是傻逼，" or "上次你说气到睡不着，" and the 1.5B went on about
the feeling, never the scam or the colleague (morning_dev37's test half: 8 of 20 Chinese replies
picked up). Days later it is often only the feeling: "还是睡不着 心口堵得慌 一闭眼脑子就乱转" after the
labour arbitration was told; read by the check-in reader as a matter of its own, it outranked the
arbitration, and the morning asked how the sleeping went. A friend hears the feeling as being
about the matter.

So each clause of the user's lines is compared, on the daemon's multilingual embedder, with two
small banks of prototypes written as kinds in both languages: states of the body and mind (can't
sleep, shaking, crying, self-blame, dread) and things that happen to a person (at work, with money,
a dispute, results awaited, a family matter, a theft, a fine). Three uses:

- the quote: where a clause that tells (``TELLS``) comes later, the matter's words are quoted from
  the first clause that is not a strong feeling (``FELT``), and the lead says that back
  (arm._matter);
- the asides (``asides``): the first clauses of a line, or the first lines of a session, that only
  lead into it ("破防了", "有个事只想跟你说", "想好了") sit far from its meaning as a whole, where a
  later one holds it ("今天一对一 老板说我这季度绩效给C"); the matter's words are quoted from there
  too ("上次你说破防了，" named nothing of a grade C, morning_dev36);
- a session of feelings alone (``alone``: no clause tells, and the lines read as a feeling together,
  ``ALONE``, or clause by clause, ``EVERY``) arms no matter or feeling of its own beside a matter
  still waiting (fire.after_session).

The margins were set on morning_dev37 and the train half of morning_dev39, and checked on the
sessions of every earlier Morning dev set (perf/RESULTS.md, morning_dev39). Under another embedder
than the one they were set on, nothing is read. Pure: the caller embeds.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..memory import index
from ..mood.meaning import Contrast, Written, unit
from ..text import clauses

FITTED_ON = "use"  # the embedder the margins were measured under (embed/profiles.py)
# A clause this much nearer the states than what happens says only how they feel, and is not said
# back before what happened. Set high: the embedder reads the topic first, and what happens to the
# body reads near the states too ("我爸从楼梯上摔下来了" +0.07, "豆豆下午开始发烧" +0.04, "third migraine
# this week" +0.09), as do the weaker feelings ("我真的想不通" +0.09); the feelings said first on
# morning_dev37's train half read +0.18 ("完了完了") to +0.41 ("心跳好快").
FELT = 0.15
# A session's lines together this much nearer the states: "还是睡不着，心口堵得慌 一闭眼脑子就乱转" and
# "还是好怕，眼泪止不住 心里慌得很" read +0.15, "腿还在抖 一闭眼就是那一下" +0.18. Of the sessions of
# every earlier Morning dev set, five more read so, four of them feelings alone ("Can't shake this
# anxious feeling tonight…"), one a recital on friday (a plan, which the rules arm and this leaves).
ALONE = 0.14
# A clause this much nearer what happens tells something, whatever the session reads: "手术排在这周五"
# (-0.17), "公司拖了我三个月工资" (-0.12); the clauses of the sessions of feelings alone read -0.05 at
# least ("我试试数羊", "trying").
TELLS = -0.1
# Or every clause this much nearer the states, whatever they read together: "还是好气 越想越气 想把枕头
# 砸了" reads +0.04 together, its clauses +0.07 at least. Small talk and a child's fever told in few
# words read from +0.00 to +0.06 clause by clause ("豆豆下午开始发烧 38度9 喂了退烧药才睡着").
EVERY = 0.05

# A text's first clauses, or a session's first lines, this far from the text's own meaning (cosine
# with its vector) only lead into it, where a later one reads ``CENTRAL`` or nearer. As lines of a
# session: "破防了" 0.21 before "今天一对一 老板说我这季度绩效给C" (0.56), "有个事只想跟你说" 0.16 before
# "我们在做试管 这次移植完了 下周二验血" (0.66), "最近手头真的紧" 0.28 before "首付凑齐了 但房贷还在审批…"
# (0.82); a headline said first reads 0.5 and more ("下班路上追尾了 后怕到现在 腿一直在抖" 0.53). As
# clauses of a line: "心态崩了" 0.26 before "物业说楼上漏水把我家天花板泡坏了" (0.87). Set on the quotes
# of the Chinese check-ins of the Morning dev sets (scripted leads, perf/RESULTS.md morning_leads_s41).
ASIDE = 0.35
CENTRAL = 0.4

# States of the body and the mind, each said plainly in both languages.
STATES: tuple[str, ...] = (
    "I can't sleep",
    "I feel sick",
    "I'm shaking",
    "I keep crying",
    "I'm so angry",
    "I'm such an idiot",
    "my heart is pounding",
    "I'm panicking",
    "I feel numb",
    "I can't eat",
    "I'm exhausted",
    "I'm scared",
    "my head is a mess",
    "I feel awful",
    "I'm falling apart",
    "I'm done for",
    "I can't calm down",
    "我睡不着",
    "我难受想吐",
    "我在发抖",
    "我一直哭",
    "我气死了",
    "我太蠢了",
    "我心跳得好厉害",
    "我慌了",
    "我麻木了",
    "我吃不下",
    "我累死了",
    "我好怕",
    "我脑子一团乱",
    "我心里好难受",
    "我要崩溃了",
    "我完了",
    "我平静不下来",
)
# Kinds of things that happen to a person, each said plainly in both languages: the matters a
# friend asks about, and the everyday things told beside them.
HAPPENINGS: tuple[str, ...] = (
    "something went wrong at work",
    "a problem with money",
    "a dispute with someone",
    "waiting for test results",
    "trouble with my family",
    "paperwork for an application",
    "a problem with where I live",
    "someone let me down",
    "an appointment tomorrow",
    "a decision I have to make",
    "an accident happened",
    "I was treated unfairly",
    "I lost something important",
    "a deadline at school",
    "my pet has to see the vet",
    "someone I love is having surgery",
    "my child is sick",
    "a meeting with my boss",
    "what I ate today",
    "I watched a movie",
    "my phone was stolen",
    "my car broke down",
    "my flight was cancelled",
    "the bank froze my card",
    "I got a fine",
    "I failed a test",
    "I was scammed",
    "I got fired",
    "my partner and I had a fight",
    "I owe a lot of money",
    "someone is suing me",
    "工作上出了问题",
    "钱的问题",
    "跟人起了纠纷",
    "在等检查结果",
    "家里出了事",
    "办手续的事",
    "住的地方出了问题",
    "有人让我失望了",
    "明天有个预约",
    "有个决定要做",
    "出了个意外",
    "我受了不公平的对待",
    "丢了重要的东西",
    "学校的截止日期",
    "带宠物去看兽医",
    "家人要做手术",
    "孩子生病了",
    "跟老板开会",
    "今天吃了什么",
    "看了一部电影",
    "手机被偷了",
    "车坏了",
    "航班取消了",
    "银行卡被冻结了",
    "被罚款了",
    "考试没过",
    "被骗了",
    "被开除了",
    "跟对象吵架了",
    "欠了很多钱",
    "有人要告我",
)

# The states (near) and what happens (far).
BANK = Written(STATES, HAPPENINGS)


def spoken(lines: list[str]) -> list[str]:
    """The clauses of ``lines`` (text.clauses.spans) that say something (a content word): "嗯",
    "ok" are read as nothing."""
    said = (c for line in lines for _, c in clauses.spans(line))
    return list(dict.fromkeys(c for c in said if index.content_words(c) > 0))


def asides(parts: list[str], vectors: list[np.ndarray], whole: np.ndarray) -> list[str]:
    """The first of a text's clauses or lines (``parts``, in order, with their ``vectors``;
    ``whole`` the text's own vector) that only lead into it: none when the first reads ``ASIDE`` or
    nearer the whole, else those before the first that reads ``CENTRAL`` or nearer (none when no
    part does)."""
    to = unit(np.asarray(whole, dtype=np.float32))
    near = [float(unit(np.asarray(v, dtype=np.float32)) @ to) for v in vectors]
    if not near or near[0] >= ASIDE:
        return []
    at = next((i for i, n in enumerate(near) if n >= CENTRAL), None)
    return [] if at is None else parts[:at]


@dataclass(frozen=True, slots=True)
class Told:
    """What a session's clauses say: those only of how they feel (``FELT``), those that tell what
    happened (``TELLS``), and whether the lines say how they feel and nothing of what happened
    (``alone``: no clause tells, and together they read as a feeling, ``ALONE``, or every clause
    does, ``EVERY``)."""

    felt: frozenset[str]
    tells: frozenset[str]
    alone: bool


def read(bank: Contrast, parts: list[str], vectors: list[np.ndarray], session: np.ndarray) -> Told:
    """The ``parts`` (``spoken``, with their ``vectors``) and the lines together (``session``)
    against ``bank`` (``BANK`` embedded), each read once."""
    leads = [bank.lead(v) for v in vectors]
    alone = bool(leads) and min(leads) > TELLS
    alone = alone and (bank.lead(session) >= ALONE or min(leads) >= EVERY)
    return Told(
        frozenset(p for p, lead in zip(parts, leads, strict=True) if lead >= FELT),
        frozenset(p for p, lead in zip(parts, leads, strict=True) if lead <= TELLS),
        alone,
    )
