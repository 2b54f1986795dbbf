"""The companion's first person in a check-in's opening: a friend's stance toward the listener, or
the listener's own life said as the companion's.

When a session opens on a matter the user left (the check-in's words, quoted), the daemon begins the
reply ("Morning! Last time you said the interview was on Thursday,") and the small model goes on.
Where it loses who is speaking it goes on in the user's voice, and seldom with the words the
state lists know: "I was up till 2am taping boxes. My back is killing me today.", "so I'll
probably know by Friday", "我周五晚上的火车回去", "我得每天给它喂化毛膏", "不过我心里特别爽，憋了半年了"
(perf/scenarios/voice_dev34.json, written by someone who never read these rules). A friend's own
first person there is of another kind: what it remembers, thinks, hopes, worries about, waits for,
offers ("I remember you said…", "I'm so happy for you", "I've been waiting all day to hear!",
"我一晚上都在想这事", "我陪你说会儿话吧", "我有点替你担心"). It has no knee, no flight, no boss of its
own in the user's matter. So in an opening on a quoted matter, a first person whose predicate is not
such a stance (a closed class of verbs of mind and of being there for someone, or a feeling turned
to the listener: "nervous for you", 替你开心), and "my"/"我的" with a thing of its own, is the
user's part taken (voice.py's "role"). Later turns do not read this rule: there the companion may
well have its own tastes ("I love that song").
"""

from __future__ import annotations

import re

from ..text import cjk

# English: "I" as a subject, with its auxiliary, and the adverbs that may stand before the predicate.
_I_EN = re.compile(
    r"(?<![\w'])I(?:'m|'ve|'ll|'d| am| was| have| had| will| would| do| did| can| could)?"
    r"(?:n't| not)?(?![\w'])"
)
_ADVERBS_EN = re.compile(
    r"(?:\s+(?:so|really|just|still|also|too|totally|honestly|actually|already|finally|probably|"
    r"definitely|kinda|kind of|sort of|a bit|a little|pretty|very|always|even|been|being|only|"
    r"truly|genuinely|absolutely|literally|seriously|super|quite|sooo+))*\s+"
)
# A friend's stance: of mind, of feeling toward the listener, of being there. After "I'll" only the
# narrower ``_STANCE_FUTURE_EN``: "I know how hard it is" is a stance, "I'll know by Friday" is not.
_STANCE_EN = re.compile(
    r"(?:remember|recall|think|thought|thinking|wonder|wondering|wondered|hope|hoping|hoped|wish|bet|"
    r"guess|believe|know|understand|get it|get that|see|hear|care|love|'d love|like|miss|missed|"
    r"missing|worry|worried|worrying|sure|sorry|glad|happy|proud|relieved|thrilled|excited|"
    r"delighted|touched|impressed|curious|here|around|listening|rooting|cheering|praying|"
    r"waiting|waited|wait|can't wait|couldn't wait|want to (?:hear|know|say|help)|wanted to|"
    r"'d like to|mean|meant|promise|trust|agree|admire|appreciate|feel for|feel you|"
    r"got (?:my )?fingers crossed|keep(?:ing)? (?:my |our )?fingers crossed|crossing|help|remind|"
    r"smiling|grinning|laughing|can't believe|couldn't believe|imagine|all ears|dying to|say|"
    r"suggest|recommend|want you to|owe you|missed you|'d bet|feel like you|have a feeling)\b",
    re.I,
)
_FUTURE_EN = re.compile(r"'ll|will|should|might|may", re.I)
# After "I'll", a friend's stance is of being there and doing for the listener ("I'll be here",
# "I'll keep my fingers crossed", "I'll remind you"); "I'll know by Friday", "I'll hear back on
# Monday", "I'll be at the embassy" are the listener's part.
_STANCE_FUTURE_EN = re.compile(
    r"(?:be (?:here|around|thinking|waiting|rooting|cheering|praying|right here)|wait|remind|help|"
    r"listen|keep|cross|check in|ask|think|miss|pray|remember|save|never forget|make sure)\b",
    re.I,
)
# A feeling turned to the listener: "I'm so nervous for you", "I was worried about you".
_TO_YOU_EN = re.compile(r"^(?:\S+\s+){0,3}?(?:for|about|of|with|to|at|by|on) (?:you|u)\b", re.I)
# "my" with a thing of its own ("My knee is still sore", "my documents"), not the set phrases.
_MY_EN = re.compile(
    r"(?<![\w'])my\s+(?!(?:god|gosh|goodness|bad|pleasure|guess|thoughts|heart goes|fingers|"
    r"dear|friend|love)\b)[a-z]",
    re.I,
)

# Chinese: 我 as a subject (not an object after 跟/给/陪…, not 我们), the adverbials before the
# predicate, and the stance that may follow them.
# 让我/叫我 are kept: "医生让我下周再去拍片" is the listener's part as much as "我下周再去".
_I_ZH = re.compile(r"(?<![跟和给对陪帮诉问找把被替像同与向教等])我(?![们])")
_ADVERBS_ZH_WORDS = (
    "也 还 都 就 又 可 真 真的 其实 今天 昨天 昨晚 这两天 这几天 最近 刚才 刚 一直 一整天 一晚上 到现在 现在 "
    "有点 有些 特别 挺 好 很 超级 超 太 蛮 老是 总 总是 已经 早就 还是 倒是 真心 一定 这边 一早 整天"
).split()
# Longest first: an alternation takes the first that matches, and 真 would leave 心 of 真心.
_ADVERBS_ZH = re.compile("^(?:" + "|".join(sorted(_ADVERBS_ZH_WORDS, key=len, reverse=True)) + ")*")
_STANCE_ZH = re.compile(
    r"^(?:记得|记着|想(?![好通开])|猜|感动|欣慰|放心|希望|相信|担心|惦记|挂念|牵挂|关心|等|陪|帮|替|为你|给你|跟你|和你|在(?:呢|的|这|想|等|听)|"
    r"在$|知道|懂|理解|明白|好奇|期待|祝|支持|开心|高兴|佩服|心疼|舍不得|听|看好|愿意|可以|会|能|"
    r"(?:觉得|感觉|认为)(?:你|您|这|他|她|那)|怕你|替你|为你|一直在|很想|也想|随时|是(?:想|说|觉得|在|真替))"
)
# 我的 with a thing of its own ("我的火车", "我的结果"), not 我的天 / 我的妈呀.
_MY_ZH = re.compile(r"(?<![跟和给对陪让帮告诉问找叫把被替])我的(?!天|妈呀|妈耶|乖)")


# Their words quoted as theirs ('You said "I'm a wreck"', 你说自己“怎么这么傻”): not the speaker's.
_QUOTED = re.compile(r"\"[^\"]*\"|“[^”]*”|「[^」]*」|『[^』]*』|(?<![\w])'[^']+'(?![\w])")


def claims_their_part(sentence: str, before: str = "") -> bool:
    """Whether ``sentence`` (the model's words of an opening on a quoted matter) has a first person
    that is not a friend's stance toward the listener: the user's life said as the companion's.
    ``before``: what of the same sentence came before it, read only for what stands before a
    first person ("跟" of "想说什么都可以跟我说")."""
    text = _QUOTED.sub(lambda q: " " * len(q.group(0)), before + sentence)  # same length
    start = len(before)
    if any(m.start() >= start for p in (_MY_EN, _MY_ZH) for m in p.finditer(text)):
        return True
    for m in _I_EN.finditer(text, start):
        rest = text[m.end() :]
        adverbs = _ADVERBS_EN.match(rest)
        predicate = rest[adverbs.end() :] if adverbs else rest.lstrip()
        if not predicate or not predicate[:1].isalpha():
            continue  # "I." / "I?": nothing said of the speaker here
        if _TO_YOU_EN.match(predicate):
            continue
        stance = _STANCE_FUTURE_EN if _FUTURE_EN.search(m.group(0)) else _STANCE_EN
        if not stance.match(predicate):
            return True
    for m in _I_ZH.finditer(text, start):
        rest = text[m.end() :]
        if not cjk.HAN.match(rest):
            continue  # "…，我。" or 我 before a mark: nothing said of the speaker here
        adverbs = _ADVERBS_ZH.match(rest)
        predicate = rest[adverbs.end() :] if adverbs else rest
        if not predicate or not _STANCE_ZH.match(predicate):
            return True
    return False
