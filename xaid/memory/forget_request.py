"""The user asking, in conversation, to forget something: rules in English and Chinese.

``parse(text)`` returns None or a ``ForgetRequest``: either a named topic ("forget what I told you
about my ex" → terms ``("ex",)``; "把我前男友的事忘了吧" → ``("前男友",)``) or the previous user
message ("forget that", "please don't remember that", "别记这个", "把刚才那句话删掉").

The rules lean towards not firing: a request is an imperative addressed to the agent (optionally
after "please", "can you", "I want you to", "请", "你能不能", ...), never a statement about the
user ("I forgot my keys", "我忘了带钥匙"), a reminder ("don't forget to ...", "别忘了..."), a
question ("did you forget ...?", "你忘了...吗"), or the idiom "forget it" / "never mind" / "算了，
忘了吧" (which means "drop the subject", not "delete it"). A bare "forget my ex" is not taken
either (it may be the user's own wish): a topic needs a memory marker ("what I told you about",
"about ... ", "... from your memory", "关于...的", "...的事", "把...忘了"). "Delete" / "删" need
speech as their object ("delete what I said", "删掉刚才那句"), so "delete the photos" / "把照片删掉"
stay tasks. "Forget everything" is not taken: the whole memory goes only by ``memory.forget all``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from ..text import cjk

Kind = Literal["topic", "previous"]


@dataclass(frozen=True, slots=True)
class ForgetRequest:
    kind: Kind  # "topic": what matches ``terms``; "previous": the user's previous message
    terms: tuple[
        str, ...
    ] = ()  # a topic's words, all of which a memory must hold (empty for "previous")
    lang: Literal["en", "zh"] = "en"

    @property
    def what(self) -> str | None:
        """The topic as the user just typed it (stripped), for ``explain``; None for "previous"."""
        if self.kind != "topic":
            return None
        return ("" if self.lang == "zh" else " ").join(self.terms)


# -- English -------------------------------------------------------------------------------------
_FILLER = r"(?:(?:ok(?:ay)?|actually|hey|oh|um+|uh+|so|and|also|wait|hm+|no|sorry|well|look|listen|but)\b[,\s]*)*"
_POLITE = (
    r"(?:(?:please|pls|just|kindly|now|then)\s+|(?:can|could|would|will)\s+you\s+(?:please\s+|just\s+)*"
    r"|i(?:'d| would) like you to\s+|i (?:want|need) you to\s+|you (?:can|should|may|could) (?:just\s+)?"
    r"|(?:i'd appreciate it )?if you (?:could|would)\s+)*"
)
_VERB = (
    r"(?P<verb>forget|delete|erase|remove|wipe|scrub|unlearn"
    r"|(?:do not|don't|dont|never) (?:remember|keep|save|store|record|memori[sz]e|hold on to)"
    r"|stop remembering|no need to remember|(?:you )?(?:don't|do not) (?:need|have) to (?:remember|keep)"
    r"|(?:do not|don't|dont) (?:keep|save) (?:a note of|track of))"
)
_EN_REQUEST = re.compile(rf"^{_FILLER}(?:\w+,\s*)?{_POLITE}{_VERB}\b\s*(?P<rest>.*)$")
_TAIL = re.compile(
    r"(?:\s*(?:,\s*)?(?:please|pls|for me|ok(?:ay)?|now|too|as well|thanks?|thank you|"
    r"from (?:your |the )?(?:memory|memories|records?|notes|mind)|entirely|completely|"
    r"altogether|for good|forever))+$"
)
_PREVIOUS_EN = re.compile(
    r"^(?:that|this|those|these|all (?:of )?(?:that|this)|that one|that bit|that part"
    r"|that last (?:bit|part|one|message|thing)|(?:my|the) last (?:message|thing i said|sentence|bit|part)"
    r"|what i (?:just |have just |'ve just )?(?:said|told you|wrote|typed|shared)"
    r"|everything i (?:just )?(?:said|told you)|i (?:just |ever )?said (?:that|this|anything|it)"
    r"|(?:that )?i (?:just )?said that|i (?:ever )?(?:told you|mentioned) (?:that|this|it)|the last thing)$"
)
_TOPIC_EN = (
    re.compile(
        r"^(?:all |everything |anything |what |the (?:stuff|things?|part|bit)s? )?(?:that |which )?"
        r"i(?:'ve| have)? (?:just |ever |already )?"
        r"(?:told you|said(?: to you)?|mentioned|shared|wrote|talked about|said anything)"
        r"(?: to you)? (?:about|regarding|concerning|of|on) (?P<t>.+)$"
    ),
    re.compile(
        r"^(?:that |the fact that )?i(?:'ve| have)? (?:ever |just )?"
        r"(?:told you about|mentioned|talked about|brought up) (?P<t>.+)$"
    ),
    re.compile(r"^(?:all |everything |anything )?(?:about|regarding) (?P<t>.+)$"),
    re.compile(
        r"^(?:all |everything |anything )?(?:the )?(?:stuff|things?|part|bit|story|details?|everything) "
        r"(?:about|regarding|with|of|concerning) (?P<t>.+)$"
    ),
)
_FROM_MEMORY = re.compile(r"\bfrom (?:your |the )?(?:memory|memories|records?|notes|mind)\b")
_NEVER_MIND = re.compile(
    r"\b(?:doesn't matter|does not matter|never ?mind|not important|whatever|no big deal|"
    r"let's (?:move on|talk|go)|anyway|forget about it|it's fine|no worries)\b"
)
_PRONOUN = {"that", "this", "it", "him", "her", "them", "those", "these", "he", "she"}
_STOP_EN = {
    "my",
    "the",
    "a",
    "an",
    "our",
    "his",
    "her",
    "their",
    "your",
    "this",
    "that",
    "these",
    "those",
    "all",
    "about",
    "of",
    "with",
    "and",
    "or",
    "at",
    "in",
    "on",
    "to",
    "for",
    "from",
    "who",
    "which",
    "whom",
    "is",
    "was",
    "me",
    "i",
    "you",
    "we",
    "some",
    "any",
    "whole",
    "entire",
    "stuff",
    "thing",
    "things",
    "s",
    "everything",
    "anything",
    "related",
    "mine",
    "situation",
    "business",
    "story",
}


def _clauses_en(text: str) -> list[str]:
    norm = text.lower().replace("\u2019", "'").replace("\u2018", "'")
    return [c.strip() for c in re.split(r"[.!?;\n]+", norm) if c.strip()]


def _topic_terms_en(phrase: str) -> tuple[str, ...] | None:
    phrase = re.split(r",|\bbecause\b|\bsince\b|\bbut\b", phrase)[0]
    phrase = _TAIL.sub("", phrase.strip()).strip()
    words = [w for w in re.findall(r"[\w'-]+", phrase)]
    words = [w[:-2] if w.endswith("'s") else w for w in words]
    if words and all(w in _PRONOUN for w in words):
        return ()  # "what I said about that": the previous message
    terms = tuple(w for w in words if w not in _STOP_EN and len(w) >= 2)
    return terms or None


def _parse_en(clause: str, whole: str) -> ForgetRequest | None:
    m = _EN_REQUEST.match(clause)
    if m is None:
        return None
    verb, rest = m.group("verb"), m.group("rest").strip(" ,")
    from_memory = bool(_FROM_MEMORY.search(rest))
    head = rest.split(",")[0].strip()
    trailing = rest[len(head) :].strip(" ,")
    obj = _TAIL.sub("", head).strip()
    if verb == "forget" and re.match(r"^(?:it|about it|it all|all about it)\b", obj):
        return None  # "forget it": never mind
    if verb == "forget" and re.match(r"^(?:to|about (?:to|it))\b", obj):
        return None
    if obj in {"it", "it all"}:
        obj = "that"  # "delete it", "don't remember it"
    if _PREVIOUS_EN.match(obj):
        if trailing and _NEVER_MIND.search(trailing):
            return None  # "forget that, it doesn't matter": never mind
        return ForgetRequest("previous")
    for number, pattern in enumerate(_TOPIC_EN):
        t = pattern.match(obj)
        if t is None:
            continue
        if number >= 2 and trailing and not from_memory:
            return (
                None  # "forget about the loan, I'll pay it": dropping the subject, not the memory
            )
        terms = _topic_terms_en(t.group("t"))
        if terms is None:
            return None
        return ForgetRequest("topic", terms) if terms else ForgetRequest("previous")
    if from_memory:  # "delete my ex from your memory"
        terms = _topic_terms_en(re.split(r"\bfrom\b", head)[0])
        if terms is None:
            return None
        return ForgetRequest("topic", terms) if terms else ForgetRequest("previous")
    return None


# -- Chinese -------------------------------------------------------------------------------------
_ZH_POLITE = (
    r"(?:请|请你|你|就|还是|麻烦你?|拜托你?|能不能|能否|可不可以|可以|你能不能|你能否|你可以|你可不可以|帮我|"
    r"求你|我要你|我希望你|我想让你|我想请你|你就|你还是|那就|那你|那|好|好吧|嗯|对了|对|另外|还有|以后|以后也)*"
)
_ZH_END = r"(?:吧|啊|呀|哦|喔|嘛|了|掉|好吗|好不好|行吗|行不行|可以吗|谢谢|哈|呗)*"
_FORGET_VERB = r"(?:忘了|忘掉|忘记|忘却|忘)"
_DELETE_VERB = r"(?:删了|删掉|删除|删去|删|抹掉|抹去|清除|清掉|去掉)"
_BA = re.compile(
    rf"^{_ZH_POLITE}把(?P<x>.+?)(?:给|都|全|全部|也)?(?P<v>{_FORGET_VERB}|{_DELETE_VERB}){_ZH_END}$"
)
_DONT_KEEP = re.compile(
    rf"^(?P<pre>.*?)(?:别|不要|不用|不必|无需|没必要|不需要|甭)(?:再)?(?:给我)?"
    rf"(?:记住|记得|记下来|记下|记着|记|存下来|存起来|存下|保存|存|留着|留下)(?![恨错性账仇])"
    rf"(?P<x>.*?){_ZH_END}$"
)
_FORGET_IMPERATIVE = re.compile(
    rf"^{_ZH_POLITE}(?P<v>忘了|忘掉|忘记){_ZH_POLITE}(?P<x>.+?)(?P<end>吧?){_ZH_END}$"
)
_DELETE_IMPERATIVE = re.compile(rf"^{_ZH_POLITE}{_DELETE_VERB}(?P<x>.+?){_ZH_END}$")
# The object first, the verb last, no 把: "刚才那句话删掉吧", "那段话忘了吧".
_OBJECT_FIRST = re.compile(
    rf"^{_ZH_POLITE}(?P<x>.+?)(?:给|都|全|全部|也)?"
    rf"(?P<v>{_DELETE_VERB}|忘掉|忘了吧|忘记吧){_ZH_END}$"
)
_ABOUT_ZH = re.compile(r"^(?:关于|有关)(?P<x>.+)$")
# What "that" is in Chinese: the previous message, whatever of these it is said with.
_PREVIOUS_ZH = re.compile(
    r"(?:我|我们|你|刚才|刚刚|刚|上面|前面|之前|方才|最后|说的|讲的|说过的|告诉你的"
    r"|跟你说的|和你说的|对你说的|发的|打的|写的|那句话|这句话|那几句话|这几句话|那几句|这几句"
    r"|那句|这句|那段话|这段话|那段|这段|的话|话|这个|那个|这件事情|那件事情|这件事|那件事"
    r"|这事儿|那事儿|这事|那事|这些话|那些话|这些|那些|它|的|都|全部|全|给|也|内容|东西|信息"
    r"|一条|条)+"
)
_SPEECH_ZH = re.compile(r"话|说的|讲的|句|聊的|记录|记忆|事|这个|那个|内容|关于|告诉你|提到|信息")
_SPEECH_STRONG_ZH = re.compile(
    r"话|说的|讲的|句|聊的|记录|记忆|事|内容|关于|告诉你|提到|信息"
)  # what "删" may take


def _deletable_zh(x: str) -> bool:
    """ "删" takes speech ("删掉刚才那句", "把这个删了"), not things ("删掉这个文件", "把照片删掉")."""
    return bool(_PREVIOUS_ZH.fullmatch(x) or _SPEECH_STRONG_ZH.search(x))


_TOPIC_LEAD = re.compile(
    r"^(?:我|我们)?(?:刚才|之前|以前|上次)?(?:跟你|和你|对你|给你)?"
    r"(?:说的|说过的|讲的|讲过的|告诉你的|提到的|提过的|聊的|聊过的)?(?:那些|那个|那件)?(?:关于|有关)?"
)
_TOPIC_TRAIL = re.compile(
    r"(?:的事情|的事儿|的事|的那些事|的那件事|那些事|那件事|的话题|的话|的内容|的部分"
    r"|的东西|的一切|的信息|的记忆|相关的|有关的|事情|的|都|全部|全|也|给)+$"
)
_NEVER_MIND_ZH = re.compile(r"算了|没关系|无所谓|不重要|没事|不要紧|随便")
_QUESTION_ZH = re.compile(r"吗|呢|是不是|有没有|会不会|怎么|为什么|什么|谁|哪")


def _clauses_zh(text: str) -> list[str]:
    return [
        c
        for c in (re.sub(r"\s+", "", c) for c in re.split(r"[。！？!?；;，,、\n…~～]+", text))
        if c
    ]


def _object_zh(x: str) -> ForgetRequest | None:
    x = x.strip()
    if not x or _PREVIOUS_ZH.fullmatch(x):
        return ForgetRequest("previous", lang="zh")
    lead = _TOPIC_LEAD.match(x)
    core = x[lead.end() :] if lead else x
    core = _TOPIC_TRAIL.sub("", core)
    if core.startswith("我的"):
        core = core[2:]
    elif core.startswith("我") and len(core) > 2:
        core = core[1:]  # 我前男友 → 前男友 (but 我妈 stays: one character would match everywhere)
    if core in {"他", "她", "它", "他们", "她们", "这", "那"}:
        return ForgetRequest("previous", lang="zh")
    if len(core) < 2:
        return None
    return ForgetRequest("topic", (core,), "zh")


def _parse_zh(clause: str, whole: str) -> ForgetRequest | None:
    if _QUESTION_ZH.search(clause):
        return None  # "你忘了我说过的话吗", "你还记得什么"
    if m := _BA.match(clause):
        x = m.group("x")
        if m.group("v").startswith(("删", "抹", "清", "去")) and not _deletable_zh(x):
            return None  # "把照片删掉" is a task
        return _object_zh(x)
    if m := _DONT_KEEP.match(clause):
        pre, x = m.group("pre"), m.group("x")
        pre = re.sub(rf"^{_ZH_POLITE}", "", pre)
        if pre and x:
            return None
        if (
            pre
            and pre.startswith(("我", "他", "她"))
            and not _PREVIOUS_ZH.fullmatch(pre)
            and not _SPEECH_ZH.search(pre)
        ):
            return None  # "我不用记住..." is about the user
        obj = x or pre
        if not obj and _NEVER_MIND_ZH.search(whole):
            return None
        if not obj and (about := _about_before(clause, whole)) is not None:
            return _object_zh(about)  # "关于工资的事，别记了": the topic is the clause before
        return _object_zh(obj)
    if m := _FORGET_IMPERATIVE.match(clause):
        x = m.group("x")
        if not (m.group("end") or _SPEECH_ZH.search(x)):
            return None  # "忘记密码了": not a request
        if x.startswith(
            (
                "带",
                "拿",
                "提醒",
                "吃",
                "说",
                "告诉",
                "做",
                "买",
                "写",
                "去",
                "给",
                "叫",
                "关",
                "锁",
                "交",
            )
        ):
            return None  # "忘了带钥匙" reports; "忘了提醒我" is not addressed to memory
        if x.startswith(("我吧", "我")) and len(x) <= 2:
            return None  # "忘了我吧": a plea, not a memory request
        return _object_zh(x)
    if m := _DELETE_IMPERATIVE.match(clause):
        x = m.group("x")
        return _object_zh(x) if _deletable_zh(x) else None
    if m := _OBJECT_FIRST.match(clause):
        x = clause[: m.start("v")]  # with any 那 the polite lead took: "那段话忘了吧"
        if _PREVIOUS_ZH.fullmatch(x) and _SPEECH_ZH.search(x) and not _NEVER_MIND_ZH.search(whole):
            return ForgetRequest("previous", lang="zh")  # only speech: "那张照片删掉" stays a task
    return None


def _about_before(clause: str, whole: str) -> str | None:
    """The topic a bare "别记了" refers to when the clause before it names one with 关于 / 有关."""
    clauses = _clauses_zh(whole)
    at = clauses.index(clause) if clause in clauses else -1
    if at <= 0:
        return None
    m = _ABOUT_ZH.match(clauses[at - 1])
    return m.group() if m else None


def parse(text: str) -> ForgetRequest | None:
    """The forget request ``text`` makes, or None (most messages)."""
    if not text or len(text) > 400:
        return None
    if cjk.has(text):
        for clause in _clauses_zh(text):
            if (found := _parse_zh(clause, text)) is not None:
                return found
        return None
    for clause in _clauses_en(text):
        if (found := _parse_en(clause, text)) is not None:
            return found
    return None


def placeholder(request: ForgetRequest) -> str:
    """What is stored instead of the request's own words."""
    return (
        "（用户请求忘记一些内容）"
        if request.lang == "zh"
        else "(the user asked to forget something)"
    )


def instruction(request: ForgetRequest, deleted: int) -> str:
    """The directive that lets the reply confirm, in the user's language: an imperative a small
    model follows, which names nothing of what was deleted."""
    if request.lang == "zh":
        if deleted:
            return (
                "对方请你忘掉一些事，已经删掉了。用一句话告诉对方你已经忘掉了，不要提那件事的内容。"
            )
        return "对方请你忘掉一些事，但记忆里没有找到。用一句话如实告诉对方，再问问具体想忘掉什么。"
    if deleted:
        return (
            "They asked you to forget something and it is deleted. Tell them in one short sentence that "
            "you have forgotten it; do not repeat what it was."
        )
    return (
        "They asked you to forget something, but nothing matching was found in memory. Say so in one "
        "short sentence and ask what they want forgotten; do not guess."
    )
