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
from ..text.fold import fold

Kind = Literal["topic", "previous"]


@dataclass(frozen=True, slots=True)
class ForgetRequest:
    kind: Kind  # "topic": what matches ``terms``; "previous": the user's previous message
    terms: tuple[
        str, ...
    ] = ()  # a topic's words, all of which a memory must hold (empty for "previous")
    lang: Literal["en", "zh"] = "en"
    # The topic as the user put it ("my cousin's money trouble", "那个老同学"), for matching by
    # meaning (forget_topic.py); empty for "previous".
    phrase: str = ""

    @property
    def what(self) -> str | None:
        """The topic as the user just typed it (stripped), for ``explain``; None for "previous"."""
        if self.kind != "topic":
            return None
        return ("" if self.lang == "zh" else " ").join(self.terms)


# -- English -------------------------------------------------------------------------------------
# (and laughter or a groan before it: "haha ok forget I said that", "ugh, delete that")
_FILLER = (
    r"(?:(?:ok(?:ay)?|actually|hey|oh|um+|uh+|so|and|also|wait|hm+|no|sorry|well|look|listen|but"
    r"|(?:ha)+h?|he(?:he)+h?|lol|lmao|ugh+|argh+|oof|welp|oops|whoops)\b[,.!\s]*)*"
)
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
# When the user says they said it: kept out of the topic's words, read by forget_topic as a time.
_WHEN_EN = (
    r"(?:the other (?:night|day|evening|week|time)|last (?:night|week|time|month|weekend|\w+day)"
    r"|yesterday|earlier(?: today)?|before|this (?:morning|week)|on \w+day|recently|once|at some point"
    r"|(?:a few|a couple of|two|three|several|\d+) (?:days|weeks) ago)"
)
_TOPIC_EN = (
    re.compile(
        r"^(?:all |everything |anything |what )?(?:(?:of )?the (?:stuff|things?|parts?|bits?|details?) )?"
        r"(?:that |which )?"
        r"i(?:'ve| have)? (?:just |ever |already )?"
        r"(?:told you|said(?: to you)?|mentioned|shared|wrote|talked about|said anything)"
        rf"(?: to you)?(?: {_WHEN_EN})? (?:about|regarding|concerning|of|on) (?P<t>.+)$"
    ),
    re.compile(
        r"^(?:that |the fact that )?i(?:'ve| have)? (?:ever |just )?"
        r"(?:told you about|mentioned|talked about|brought up) (?P<t>.+)$"
    ),
    re.compile(
        r"^(?:all |everything |anything )?(?:about|regarding|concerning|related to|(?:having )?to do with) "
        r"(?P<t>.+)$"
    ),
    re.compile(
        r"^(?:all |everything |anything |any )?(?:of )?(?:the |your |my )?(?:stuff|things?|parts?|bits?|story"
        r"|details?|everything|memory|memories|notes?|records?|info(?:rmation)?) "
        r"(?:about|regarding|with|of|concerning|related to|to do with) (?P<t>.+)$"
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


def _topic_phrase_en(phrase: str) -> str:
    phrase = re.split(r",|\bbecause\b|\bsince\b|\bbut\b", phrase)[0]
    return _TAIL.sub("", phrase.strip()).strip()


def _topic_terms_en(phrase: str) -> tuple[str, ...] | None:
    words = [w for w in re.findall(r"[\w'-]+", _topic_phrase_en(phrase))]
    words = [w[:-2] if w.endswith("'s") else w for w in words]
    if words and all(w in _PRONOUN for w in words):
        return ()  # "what I said about that": the previous message
    terms = tuple(w for w in words if w not in _STOP_EN and len(w) >= 2)
    return terms or None


def _topic_en(phrase: str) -> ForgetRequest | None:
    """A topic named in English: its words, and the phrase for matching by meaning."""
    terms = _topic_terms_en(phrase)
    if terms is None:
        return None
    if not terms:
        return ForgetRequest("previous")
    return ForgetRequest("topic", terms, phrase=_topic_phrase_en(phrase))


# "I'd rather you didn't remember ...": said as a wish, meant as "don't remember".
_RATHER_EN = re.compile(
    r"\b(?:i'd|i would) (?:rather|prefer(?: it)?(?: if)?) you (?:didn't|did not|not|wouldn't|would not) "
    r"(?=remember|keep|save|store|hold on to)"
)
# "Pretend I never said (anything about) X": the words are to be as if unsaid.
_PRETEND_EN = re.compile(
    rf"^{_FILLER}{_POLITE}(?:just )?(?:pretend|act (?:like|as if)|imagine) (?:that )?(?:i|we) "
    r"(?:never|didn't|did not|haven't|have not) (?:ever )?(?:said|say|told you|tell you|mentioned|mention"
    r"|brought up|bring up|shared|share|talked about|talk about)"
    r"(?: (?:anything|any of (?:that|this|it)|that|this|it))?(?P<rest>.*)$"
)
# The object first, the verb after a comma: "what I told you the other night about X, please forget it".
_OBJECT_FIRST_EN = re.compile(
    rf"^{_FILLER}(?P<obj>(?:what|everything|all|anything|the (?:stuff|things?|bits?|part)|that (?:stuff|thing|bit))"
    rf"\b.+?)\s*,\s*{_POLITE}{_VERB}(?:\s+(?:it|that|this|them|those|it all|all of it|all that))?$"
)
_SPEECH_EN = re.compile(
    r"\bi(?:'ve| have)? (?:\w+ )?(?:told you|said|mentioned|shared|talked)\b|\babout\b"
)
# "Forget about the meeting for a sec and help me ...": the subject set aside for a task, not memory.
_BUSY_EN = re.compile(
    r"\bfor (?:a|one) (?:sec|second|moment|minute|bit|while)\b|\band (?:help|tell|let|let's|can|could|write"
    r"|look|focus|just|give|show|do|get|make|answer|explain|check|read)\b"
)


def _parse_en(clause: str, whole: str) -> ForgetRequest | None:
    clause = _RATHER_EN.sub("don't ", clause)
    if p := _PRETEND_EN.match(clause):
        rest = _TAIL.sub("", p.group("rest")).strip(" ,")
        rest = re.sub(rf"^(?:{_WHEN_EN}\s*)?", "", rest).strip(" ,")
        if not rest:
            return ForgetRequest("previous")
        t = re.match(r"^(?:about|regarding|concerning|of|on) (?P<t>.+)$", rest)
        return _topic_en(t.group("t")) if t else None
    if o := _OBJECT_FIRST_EN.match(_TAIL.sub("", clause)):
        if not _SPEECH_EN.search(o.group("obj")):
            return None
        clause = f"{o.group('verb')} {o.group('obj')}"
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
        bare = verb == "forget" and number >= 2 and not from_memory
        if bare and trailing and not _TAIL.fullmatch(" " + trailing):
            return (
                None  # "forget about the loan, I'll pay it": dropping the subject, not the memory
            )
        if bare and _BUSY_EN.search(t.group("t")):
            return None  # "forget about the meeting for a sec and help me": set aside for a task
        return _topic_en(t.group("t"))
    if from_memory:  # "delete my ex from your memory"
        return _topic_en(re.split(r"\bfrom\b", head)[0])
    return None


# -- Chinese -------------------------------------------------------------------------------------
_ZH_POLITE = (
    r"(?:请|请你|你|就|还是|麻烦你?|拜托你?|能不能|能否|可不可以|可以|你能不能|你能否|你可以|你可不可以|帮我|"
    r"求你|我要你|我希望你|我想让你|我想请你|你就|你还是|那就|那你|那|好|好吧|嗯|对了|另外|还有|以后|以后也"
    r"|你能|能|可否)*"
)
_ZH_END = r"(?:吧|啊|呀|哦|喔|嘛|了|掉|好吗|好不好|行吗|行不行|可以吗|谢谢|哈|呗)*"
# The words of "all of it" between an object and its verb or at a topic's end (都, 全部, 统统, 也, 给).
_ALL_ZH = r"都|全部|全都|全|统统|通通|也|给"
_FORGET_VERB = r"(?:忘了|忘掉|忘记|忘却|忘)"
_DELETE_VERB = r"(?:删了|删掉|删除|删去|删|抹掉|抹去|清除|清掉|去掉)"
_BA = re.compile(
    rf"^{_ZH_POLITE}把(?P<x>.+?)(?:给|都|全|全部|也)?(?P<v>{_FORGET_VERB}|{_DELETE_VERB}){_ZH_END}$"
)
_DONT_KEEP = re.compile(
    rf"^(?P<pre>.*?)(?:别|不要|不用|不必|无需|没必要|不需要|甭)(?:再)?(?:给我)?"
    rf"(?:记住|记得|记下来|记下|记着|记|存下来|存起来|存下|存着|保存|存|留着|留下)(?![恨错性账仇])"
    rf"(?P<x>.*?){_ZH_END}$"
)
_FORGET_IMPERATIVE = re.compile(
    rf"^{_ZH_POLITE}(?P<v>忘了|忘掉|忘记){_ZH_POLITE}(?P<x>.+?)(?P<end>吧?){_ZH_END}$"
)
_DELETE_IMPERATIVE = re.compile(rf"^{_ZH_POLITE}{_DELETE_VERB}(?P<x>.+?){_ZH_END}$")
# The object first, the verb last, no 把: "刚才那句话删掉吧", "那段话忘了吧".
_OBJECT_FIRST = re.compile(
    rf"^{_ZH_POLITE}(?P<x>.+?)(?:{_ALL_ZH})?"
    rf"(?P<v>{_DELETE_VERB}|忘掉|忘了吧|忘记吧|撤回|撤了){_ZH_END}$"
)
_ABOUT_ZH = re.compile(r"^(?:关于|有关)(?P<x>.+)$")
# A forget or delete with no object at all: what it takes is named in the clause before, if anywhere.
_BARE_ZH = re.compile(rf"^{_ZH_POLITE}(?:{_FORGET_VERB}|{_DELETE_VERB})(?:它|掉)?{_ZH_END}$")
# A request put as a question with a modal: "你可以……吗", "能不能……好吗".
_ASK_ZH = re.compile(
    r"^(?P<body>(?:请问)?(?:你|您)?(?:可以|能|能不能|能否|可不可以|可否).+?)(?:吗|好吗|行吗|可以吗|呢)$"
)
# A stretch of talk pointed at by a demonstrative and a measure word of talk (a closed class of the
# grammar, not a list of requests): 这条, 那段, 那两句, 这几句话, 那番话, 那通, 那茬, 那些. It names
# something said as 那句话 does, whatever the verb after it (删了, 撤回, 不算, 别存着).
TALK_REF_ZH = r"[这那](?:[一两几]|几个)?(?:段|句|条|番|通|茬|些)(?:话|对话)?"
# What "that" is in Chinese: the previous message, whatever of these it is said with.
_PREVIOUS_ZH = re.compile(
    r"(?:我|我们|你|刚才|刚刚|刚|上面|前面|之前|方才|最后|说的|讲的|说过的|告诉你的"
    r"|跟你说的|和你说的|对你说的|发的|打的|写的|那句话|这句话|那几句话|这几句话|那几句|这几句"
    r"|那句|这句|那段话|这段话|那段|这段|的话|话|这个|那个|这件事情|那件事情|这件事|那件事"
    r"|这事儿|那事儿|这事|那事|这些话|那些话|这些|那些|它|的|都|全部|全|给|也|内容|东西|信息"
    r"|一条|条|聊的|聊过的|" + TALK_REF_ZH + r")+"
)
_SPEECH_ZH = re.compile(
    r"话|说的|讲的|句|聊的|记录|记忆|事|这个|那个|内容|关于|告诉你|提到|信息|对话|" + TALK_REF_ZH
)
_SPEECH_STRONG_ZH = re.compile(
    r"话|说的|讲的|句|聊的|记录|记忆|事|内容|关于|告诉你|提到|信息|对话|" + TALK_REF_ZH
)  # what "删" may take


# The topic frame: 关于/有关 X, with what was said of it as the head noun (的事, 的记录, 的内容, …).
# "关于阿飞的照片" names a thing about X, which "删" takes as a task, not as memory.
_MEMORY_HEAD_ZH = (
    r"(?:事情|事儿|事|那些事|那件事|记录|聊天记录|对话|内容|话题|话|那些话"
    r"|部分|东西|一切|信息|记忆|回忆|细节)"
)
_ABOUT_IN_ZH = re.compile(r"(?:关于|有关)(?P<t>.+)$")
_FROM_MEMORY_ZH = re.compile(
    r"(?:从|在)(?:你的?)?(?:记忆|脑子|脑海|记录|数据|资料)(?:里面|里|中|当中)?"
)


def _framed(x: str) -> bool:
    """Whether ``x`` names a topic by the frame 关于/有关 …, after what may lead it ("我跟你说的")."""
    lead = _TOPIC_LEAD.match(x)
    return bool(lead and re.search(r"关于|有关", lead.group()))


def _about_speech(x: str) -> bool:
    """In a 关于 frame, whether the head after the topic is speech or memory ("关于阿飞的记录")
    or absent ("关于阿飞"), rather than a thing ("关于阿飞的照片")."""
    m = _ABOUT_IN_ZH.search(x)
    if m is None:
        return False
    rest = _TOPIC_TRAIL_END.sub("", m.group("t"))
    return "的" not in rest or bool(re.fullmatch(_MEMORY_HEAD_ZH, rest.rsplit("的", 1)[1]))


def _deletable_zh(x: str) -> bool:
    """ "删" takes speech ("删掉刚才那句", "把这个删了"), not things ("删掉这个文件", "把照片删掉");
    a 关于 frame, when its head is speech ("删掉关于阿飞的记录", not "删掉关于阿飞的照片"); anything
    taken "from your memory" ("把徒步的计划从你记忆里删掉")."""
    if _PREVIOUS_ZH.fullmatch(x) or _FROM_MEMORY_ZH.search(x):
        return True
    if re.search(r"关于|有关", x):
        return _about_speech(x)
    return bool(_SPEECH_STRONG_ZH.search(x))


# When it was said ("上回", "那天晚上", "上周"): kept out of the topic, read by forget_topic as a time.
_WHEN_ZH = (
    r"(?:上回|上次|那天晚上|那天|那晚|那次|前几天|前两天|前阵子|前段时间|昨天晚上|昨天|昨晚|前天|上周|上礼拜"
    r"|上个星期|上星期|上个月|这几天|最近|刚才|刚刚|之前|以前)"
)
_TOPIC_LEAD = re.compile(
    rf"^(?:我|我们)?{_WHEN_ZH}?(?:我)?(?:跟你|和你|对你|给你)?"
    r"(?:说的|说过的|讲的|讲过的|告诉你的|提到的|提过的|聊的|聊过的)?(?:那些|那个|那件)?(?:关于|有关)?"
)
_TOPIC_TRAIL = re.compile(
    rf"(?:的{_MEMORY_HEAD_ZH}|那些事|那件事|那个事|那档子事|那档事|那事|这事|相关的|有关的|事情|的|{_ALL_ZH}|你|就)+$"
)
_TOPIC_TRAIL_END = re.compile(rf"(?:{_ALL_ZH})+$")
_NEVER_MIND_ZH = re.compile(r"算了|没关系|无所谓|不重要|没事|不要紧|随便")
_QUESTION_ZH = re.compile(r"吗|呢|是不是|有没有|会不会|怎么|为什么|什么|谁|哪")


def _clauses_zh(text: str) -> list[str]:
    return [
        c
        for c in (re.sub(r"\s+", "", c) for c in re.split(r"[。！？!?；;，,、\n…~～]+", text))
        if c
    ]


def _object_zh(x: str) -> ForgetRequest | None:
    x = _FROM_MEMORY_ZH.sub("", x).strip()
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
    return ForgetRequest("topic", (core,), "zh", core)


def _parse_zh(clause: str, whole: str) -> ForgetRequest | None:
    if m := _ASK_ZH.match(clause):
        clause = m.group("body")  # "你可以忘掉关于阿飞的事吗": a request put as a question
    if _QUESTION_ZH.search(clause):
        return None  # "你忘了我说过的话吗", "你还记得什么"
    if m := _BA.match(clause):
        x = m.group("x")
        if m.group("v").startswith(("删", "抹", "清", "去")) and not _deletable_zh(x):
            return None  # "把照片删掉" is a task
        return _object_zh(_FROM_MEMORY_ZH.sub("", x))
    if m := _UNSAID_ZH.match(clause):  # "工资那件事就当我没说过", "…，你就当没听过吧"
        x = m.group("x")
        if x:
            return _object_zh(x)
        named = _named_before(clause, whole)
        return _object_zh(named) if named is not None else ForgetRequest("previous", lang="zh")
    if m := _DONT_KEEP.match(clause):
        pre, x = m.group("pre"), m.group("x")
        pre = re.sub(rf"^{_ZH_POLITE}", "", pre)
        pre = re.sub(r"^(?:也|都|还是|就)+$", "", pre)  # "你也别存着了": no object of its own
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
        if not obj and (named := _named_before(clause, whole)) is not None:
            return _object_zh(named)  # "在酒吧哭的事，你别存着了": as for a bare 忘了吧
        return _object_zh(obj)
    if _BARE_ZH.match(clause):  # "关于我换工作的事，你就忘了吧": the topic is the clause before
        about = _about_before(clause, whole) or _named_before(clause, whole)
        if about is None or _NEVER_MIND_ZH.search(whole):
            return None  # "算了，忘了吧": never mind
        return _object_zh(about)
    if m := _FORGET_IMPERATIVE.match(clause):
        x = m.group("x")
        if _framed(x):  # "忘了关于阿飞的事吧": a topic, though 关于 starts like 关灯
            return None if _NEVER_MIND_ZH.search(whole) else _object_zh(x)
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
        talk = re.search(rf"{TALK_REF_ZH}(?:{_ALL_ZH})*$", x)
        if _NEVER_MIND_ZH.search(whole) and not talk:
            return None  # "算了，忘了吧"; but "算了算了，刚那句撤回" names the words it takes back
        if _PREVIOUS_ZH.fullmatch(x) and _SPEECH_ZH.search(x):
            return ForgetRequest("previous", lang="zh")  # only speech: "那张照片删掉" stays a task
        if re.search(r"想|希望|要是", x):
            return None  # "我真想把说过的那些话都删掉": the user's own wish
        if _NAMED_ZH.fullmatch(x) or talk:  # "我朋友的那些事你都忘了吧": a topic, then the verb
            return _object_zh(x)  # ... or a stretch of talk: "周五晚上的那些统统忘掉"
    if m := _VOIDED_ZH.match(clause):  # "刚才那段不算", "那两句作废": talk named, then voided
        return _object_zh(m.group("x"))
    return None


# A stretch of talk named (TALK_REF_ZH) and voided after it: "刚才那段不算", "那几句话作废吧".
_VOIDED_ZH = re.compile(
    rf"^{_ZH_POLITE}(?P<x>.*?{TALK_REF_ZH})(?:你)?(?:就|都|也|全)?(?:当)?"
    rf"(?:不算数|不算|不作数|作废|撤回|收回){_ZH_END}$"
)


# "当我没说过", "就当没听过吧", "当我没提过": the words to be as if unsaid, with what they are
# about before them in the clause ("工资那件事就当我没说过") or in the clause before.
_UNSAID_ZH = re.compile(
    rf"^{_ZH_POLITE}(?P<x>.*?)(?:你)?(?:就|也|都|还是)?(?:当|当作|当做|权当)(?:作|做|成)?(?:我|是我)?(?:从来|从)?"
    rf"(?:没|没有)(?:说|讲|提|听|听见|听到|告诉你|跟你说)(?:过|起|到|起过)?(?:这些|这事|这个|那些)?{_ZH_END}$"
)
# A clause that names what was said: "上回说的那个老同学的事", "我表哥欠钱的事", "工资那件事".
_NAMED_ZH = re.compile(
    r"(?:.*(?:说的|说过的|讲的|讲过的|提的|提过的|提到的|聊的|聊过的|告诉你的).+"
    r"|.+(?:的事|的事情|那事|那件事|那个事|那些事|那事儿|那档子事|的记录|的话|那些话|那段话|的内容|的计划))(?:你|都|就|也|全|全部|给)*"
)


def _named_before(clause: str, whole: str) -> str | None:
    """What the clause before ``clause`` names, when it names something said ("上回说的那个老同学的事")."""
    clauses = _clauses_zh(whole)
    at = clauses.index(clause) if clause in clauses else -1
    if at <= 0:
        return None
    before = clauses[at - 1]
    if _QUESTION_ZH.search(before) or not (_NAMED_ZH.fullmatch(before) or _framed(before)):
        return None
    return before


def _about_before(clause: str, whole: str) -> str | None:
    """The topic a bare "别记了" or "忘了吧" refers to when the clause before it names one with
    关于 / 有关 ("关于工资的事", "我跟你说的关于阿飞的事")."""
    clauses = _clauses_zh(whole)
    at = clauses.index(clause) if clause in clauses else -1
    if at <= 0:
        return None
    before = clauses[at - 1]
    if _QUESTION_ZH.search(before) or not (_ABOUT_ZH.match(before) or _framed(before)):
        return None
    return before


EDGE = 400  # characters at each end of a message where a request is looked for


def _at_edges(clauses: list[str]) -> list[str]:
    """The clauses within the first and the last ``EDGE`` characters, in order. A request in a long
    message is said before or after what it is about ("forget what I told you about X, anyway …",
    "… so please forget what I said about X"), not in the middle of a pasted page, where a quoted
    "forget about …" is someone else's words."""
    keep: set[int] = set()
    for order in (range(len(clauses)), range(len(clauses) - 1, -1, -1)):
        used = 0
        for i in order:
            used += len(clauses[i])
            if used > EDGE:
                break
            keep.add(i)
    return [c for i, c in enumerate(clauses) if i in keep]


def parse(text: str) -> ForgetRequest | None:
    """The forget request ``text`` makes, or None (most messages). In a message longer than
    ``2 * EDGE`` characters only the clauses near its start and its end are read (``_at_edges``)."""
    if not text:
        return None
    if cjk.has(text):
        for clause in _at_edges(_clauses_zh(text)):
            if (found := _parse_zh(clause, text)) is not None:
                # A frame's topic that is only a sigh or "that" ("算了算了当我没说", "唉 刚那个你别记哈")
                # names nothing: it means what was just said, as read_unframed says of it.
                if found.kind == "topic" and _only_that_zh(found.phrase or ""):
                    return ForgetRequest("previous", lang="zh")
                return found
        return None
    for clause in _at_edges(_clauses_en(text)):
        if (found := _parse_en(clause, text)) is not None:
            return found
    return None


# The answer to the question back ("Do you mean …?"): a short yes, with no "no" in it. Anything
# else, including silence on the matter, cancels: a forget is never carried out on a maybe.
_YES_EN = re.compile(
    r"^(?:yes|yeah|yep|yup|yea|sure|right|correct|exactly|indeed|affirmative|ok(?:ay)?|please do|do it"
    r"|that(?:'s| is) (?:it|the one|right|correct)|that one|go ahead)\b[\s,.!]*"
    r"(?:(?:please|thanks|thank you|that(?:'s| is) (?:it|the one|right)|that one|that|this|forget it"
    r"|delete it|go ahead|do it)[\s,.!]*)*$"
)
_YES_ZH = re.compile(
    r"^(?:(?:对|是|是的|对的|对对|对对对|嗯|嗯嗯|没错|就是|就是这个|就是那个|就是它|是这个|是那个|好|好的|可以|行|确定|删吧"
    r"|忘了吧|删掉吧|忘掉吧|谢谢)+[，,。.！!~～吧啊呀的]*)+$"
)


def confirms(text: str) -> bool:
    """Whether ``text`` answers the question back with yes ("yes", "yep, that one", "对", "是的",
    "嗯嗯，删吧"); a "no", a question or anything longer cancels."""
    said = fold(text)
    if not said or len(said) > 40:
        return False
    return bool(_YES_ZH.match(said) if cjk.has(said) else _YES_EN.match(said))


# The answer "no" to the question back: a short no ("no", "nope, the other one", "不是", "不对，是另一件"),
# a closed class of words; it lifts what the question held back (memory.hide).
_NO_EN = re.compile(
    r"^(?:(?:um+|uh+|hmm+|well|oh)[\s,.…]+)?"
    r"(?:no(?!\s+(?:one|idea|way|problem|worries)\b)|nope|nah|not that(?: one)?|not really"
    r"|wrong one|neither|keep it|never ?mind)\b"
)
_NO_ZH = re.compile(
    r"^(?:(?:嗯|呃|额|哦|啊)+[\s，,。.…]*)?(?:不是|不对|没有|不用|别删|不要删|算了|都不是|错了)"
)
NO_MAX_CHARS = 60


def declines(text: str) -> bool:
    """Whether ``text`` answers the question back with no: it opens on a no-word and is short."""
    said = fold(text)
    if not said or len(said) > NO_MAX_CHARS:
        return False
    return bool(_NO_ZH.match(said) if cjk.has(said) else _NO_EN.match(said))


# What a "no" to the question back goes on to say when it names the matter meant instead: the no
# itself, then "I mean", "it's the", 我是说, 是 (a closed class), then the words that name it.
_INSTEAD_EN = re.compile(
    r"^[\s,.;:!…-]*(?:(?:i|i'm)\s+(?:mean|meant|was talking about)\b|it'?s|it was|i said)?[\s,]*"
)
_INSTEAD_ZH = re.compile(r"^[\s，,。.；;：:！!…]*(?:我(?:是说|说的是|指的是)|是)?")
# ... or with no no at all: "I meant the gate thing", 我说的是他修门那次.
_MEANT_EN = re.compile(r"^(?:(?:oh|sorry|um+|well)[\s,]+)*i (?:mean|meant|was talking about)\b")
_MEANT_ZH = re.compile(r"^(?:(?:哦|呃|额|嗯)+[\s，,]*)?我(?:是说|说的是|指的是)")
# What names a matter in Chinese: a measure word after 那 or 的事 (他换工作那件, 他修门那次, 工作的事),
# or "the other one" (另一件, 别的那个).
_MATTER_ZH = re.compile(r"那(?:件|次|个|段|些|回|事)|的事|另一|另外|别的")
# ... and what says something new in English: the speaker as a subject ("I want…", "let's…").
_SAYS_EN = re.compile(r"\b(?:i|i'm|i've|i'll|i'd|we|we're|let's)\b")
INSTEAD_MAX_WORDS = 10
# A no that cancels in so many words ("nope, never mind", "不是，算了"): nothing else is meant.
_CANCEL = re.compile(
    r"\b(?:never ?mind|forget it|keep it|leave it|it'?s fine|all good|thanks|thank you|that'?s all)\b"
    r"|算了|没事|不用|留着吧|谢谢"
)


def named_instead(text: str) -> str | None:
    """What a "no" to the question back names instead ("no, the one about his job", "不是，是他换工作
    那件"): the words after the no, when there are any and they do not cancel; None for a bare no
    ("nope", "不是", "no, keep it"). A friend hears "no, the other one" as the request again, and
    "the one about his job" as what it means: before, the user had to ask all over again. An answer
    that says what was meant without a no ("I meant the gate thing", 我说的是他修门那次) is one too."""
    said = fold(text)
    if not said or len(said) > NO_MAX_CHARS:
        return None
    zh = cjk.has(said)
    m = (_NO_ZH if zh else _NO_EN).match(said) or (_MEANT_ZH if zh else _MEANT_EN).match(said)
    if m is None:
        return None
    rest = said[m.end() :]
    opening = (_INSTEAD_ZH if zh else _INSTEAD_EN).match(rest)
    rest = (rest[opening.end() :] if opening else rest).strip(" ，,。.！!？?…")
    if not re.search(r"\w", rest) or _CANCEL.search(rest):
        return None
    # A matter named, not a new thing said: "no, I want to talk about my weekend" and "不是，我想聊
    # 聊周末" turn the talk elsewhere; read as a topic they could forget a weekend nobody asked about.
    if zh:
        return rest if _MATTER_ZH.search(rest) else None
    return None if _SAYS_EN.search(rest) or len(rest.split()) > INSTEAD_MAX_WORDS else rest


def ask_instruction(lang: str, gist: str) -> str:
    """The directive for a request whose topic is not clear: ask back about the one candidate,
    in a few of the user's own words, and say that nothing is deleted until they confirm."""
    if lang == "zh":
        return (
            f"对方请你忘掉一些事，但不确定指的是哪一段。只问一句：“你是说“{gist}”这件事吗？”"
            "请对方回答“对”或“不是”。还没有删除任何内容，不要说已经忘了。"
        )
    return (
        f'They asked you to forget something, but it is not clear which. Ask only: "Do you mean when you '
        f'said: {gist}?" and ask them to answer yes or no. Nothing is deleted yet; do not say it is forgotten.'
    )


def unsure_instruction(request: ForgetRequest) -> str:
    """The directive when it is not sure the user asked to forget at all: ask whether they want it
    forgotten, naming the topic in their words ("what you just said" for "that"), and forget nothing."""
    topic = request.phrase or request.what if request.kind == "topic" else None
    if request.lang == "zh":
        what = f"关于“{topic}”的事" if topic else "你刚才说的话"
        return (
            f"不确定对方是不是想让你忘掉一些事。只问一句：“你是想让我忘掉{what}吗？”"
            "请对方回答“对”或“不是”。还没有删除任何内容，不要说已经忘了。"
        )
    what = f'what you said about "{topic}"' if topic else "what you just said"
    return (
        f'It is not clear whether they want you to forget something. Ask only: "Do you want me to forget '
        f'{what}?" and ask them to answer yes or no. Nothing is deleted yet; do not say it is forgotten.'
    )


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


# -- By meaning, after the frames ------------------------------------------------------------------
# A message no frame takes is a request when it (1) refers to something the user said ("what I told
# you about X", "the stuff about X", "我说的…", "…那件事") and (2) asks for it to go or not to stay
# ("let it go", "scratch", "get rid of", "don't keep", "别往心里记", "当没听过"), and (3) its embedding
# is near the intent's prototypes and not nearer a look-alike's (forget_prototypes.py). (1) and (2)
# are cheap word cues that only open the door; (3) decides. A question, a reminder ("don't forget
# to", "别忘了") or the user's own forgetting never gets that far.
_SAID_EN = re.compile(
    r"\b(?:what|everything|anything|all|stuff|things?|bits?|parts?|details?|story|conversation|rant"
    r"|news|secret|info)\b[^,.!?]*?\b(?:i|we) (?:\w+ ){0,2}(?:said|told|mentioned|shared|gave|wrote|talked"
    r"|brought up)\b"
    r"|\b(?:the|that|this|my)(?: whole)? (?:thing|stuff|bit|part|story|conversation|rant|details?) "
    r"(?:about|where|when|on)\b"
    r"|\b(?:i|we) (?:[\w']+ ){0,2}(?:said|told you|mentioned|shared|talked) (?:about|regarding)\b"
    r"|\btelling you (?:about|that)\b"
)
_GO_EN = re.compile(
    r"\b(?:forget\w*|unremember|unsay|erase|delete|wipe|scratch|strike|purge|bin|remove|drop|toss|ditch|dump"
    r"|shred|clear(?! up)"
    r"|let (?:\w+ ){0,5}go|letting (?:\w+ ){0,5}go|get rid of|throw (?:\w+ )?away|take (?:\w+ )?out"
    r"|never happened)\b"
    r"|\b(?:not|n't|don't|didn't|no need to|stop) (?:\w+ ){0,2}(?:keep|keeping|hold|holding|hang|hanging"
    r"|retain|store|save|saved|remember|stay|stick)\b"
    r"|\b(?:didn't|not|don't) (?:stay|stick around)\b"
)
_NOT_EN = re.compile(
    r"^\s*(?:do|did|does|have|has|are|is|was|were|will|should|shall|how much|how many)\b"
    r"|^\s*(?:what|why|how|when|where) (?:did|do|does|is|was|have|has|are|were|can|could|should|would)\b"
    r"|\b(?:don't|do not|never) (?:let me )?forget\b|\bi (?:forgot|forget|keep forgetting)\b"
    r"|\bi (?:wish i|want to|need to|can't|cannot|have to|try to|am trying to|'m trying to) (?:could )?"
    r"(?:forget|erase|let go)\b|[\"\u201c\u201d]"
)
_SAID_ZH = re.compile(
    r"(?:我|我们)[^，,。！？]{0,12}?(?:说|讲|提|告诉|聊过|聊的|吐槽)|(?:的事|那事|那件事|那档子事|那些事|的那段|那段|的话"
    r"|那些话|的内容|那些内容)"
)
_GO_ZH = re.compile(
    r"(?<!别)(?<!不要)(?:忘了|忘掉|忘记|删|清掉|清除|抹掉|抹去|去掉)"
    r"|(?:别|不要|不用|不必|甭|用不着)(?:再)?(?:往心里)?(?:记|存|留|保存)"
    r"|当(?:作|做)?(?:我)?(?:没|没有)(?:说|讲|提|听|发生)"
    r"|(?:别|不要|不用|甭)再?提(?!醒)|翻篇"
)
_NOT_ZH = re.compile(
    r"吗|呢|是不是|会不会|记得|还记|别忘|不要忘|忘不了|(?:^|[，,。！？])我(?:又|总|老|也)?忘了|我想忘|真想"
    r"|(?:他|她|他们|她们)(?:跟我|对我)?说|[\"“”「」]"
)
# A request put as a question with a modal ("能把…删了吗"): the question mark is politeness.
_ASK_END_ZH = re.compile(
    r"^(?:你)?(?:能|能不能|可以|可不可以|能否|麻烦)(?P<body>.+?)(?:好吗|行吗|可以吗|吗)[?？]?$"
)


@dataclass(frozen=True, slots=True)
class Unframed:
    """A message the frames did not take but whose words may ask to forget: what ``by_meaning``
    weighs, with the topic as the rest of the message."""

    text: str
    lang: Literal["en", "zh"]
    phrase: str


def unframed(text: str) -> Unframed | None:
    """The cue step: a message that refers to something said and asks for it to go, not a question,
    a reminder or the user's own forgetting; None for everything else (most messages)."""
    if not text or len(text) > 2 * EDGE or parse(text) is not None:
        return None
    if cjk.has(text):
        said = re.sub(r"\s+", "", text)
        if m := _ASK_END_ZH.match(said):
            said = m.group("body")
        if not (_SAID_ZH.search(said) and _GO_ZH.search(said)) or _NOT_ZH.search(said):
            return None
        return Unframed(text, "zh", _phrase_zh(said))
    norm = fold(text)
    if not (_SAID_EN.search(norm) and _GO_EN.search(norm)) or _NOT_EN.search(norm):
        return None
    return Unframed(text, "en", _phrase_en(norm))


def _phrase_en(norm: str) -> str:
    """The topic: after the first "about" (else "where"), up to the clause's end, minus request words."""
    m = re.search(r"\b(?:about|regarding) (?P<t>[^,.!?;]+)", norm) or re.search(
        r"\bwhere (?P<t>[^,.!?;]+)", norm
    )
    topic = re.split(r" - ", m.group("t") if m else norm)[0]
    before, *after = _GO_EN.split(topic, maxsplit=1)
    topic = _SIGH_EN.sub("", before.strip())  # "ugh, scratch that": a sigh names nothing
    topic = re.split(
        r"\b(?:from (?:your |the )?(?:memory|memories|records?|mind)|please|ok|i don't|can you|could you)\b",
        topic,
    )[0]
    if not topic.strip(" ,.!?") and after and after[-1]:
        # The verb first ("could you forget the Rafa stuff"): the topic is what follows it, not
        # the whole message, whose request words would read as what the topic says of the matter.
        rest = re.split(r"[,.!?;]| - ", after[-1])[0]
        topic = re.split(
            r"\b(?:from (?:your |the )?(?:memory|memories|records?|mind)|please)\b", rest
        )[0]
    topic = re.sub(
        r"^(?:(?:what |the (?:part|bit|thing|stuff) )?(?:where |that )?(?:i|we) [\w' ]*?"
        r"(?:said|told you|talked|mentioned|shared)(?: about| regarding)? )",
        "",
        topic.strip(),
    )
    return _TAIL.sub("", topic.strip()).strip() or norm


def _phrase_zh(said: str) -> str:
    """The topic: the clause that names what was said, with the request words and leads taken off."""
    named = next((c for c in _clauses_zh(said) if _SAID_ZH.search(c)), said)
    core = _GO_ZH.split(named)[0] or named
    # 那个相亲男 names 相亲男: not 那 ("then", a lead) and 个.
    core = re.sub(r"^(?:那个|这个)(?=[^，,。！？的]{2,})", "", core)
    core = re.sub(rf"^{_ZH_POLITE}(?:把)?", "", core)
    core = re.sub(
        r"(?:你|就|都|全|给|从你那儿|从记忆里|从你记忆里|帮我|请|麻烦|以后|也)+$", "", core
    )
    core = re.sub(rf"^{_WHEN_ZH}(?:我|我们)?", "", core)
    core = re.sub(
        r"^(?:我|我们)?(?:说|讲|提到|提|吐槽|告诉你)(?:过)?(?:的)?(?:关于)?(?:我)?", "", core
    )
    core = (
        re.sub(
            r"(?:的那些|的那个|的那段|的那件|那档子|那些|那个|那段|那件|那|的)(?:内容|事儿|事情|事|话|段)$|的?事$",
            "",
            core,
        )
        or core
    )
    found = _object_zh(core)
    return found.phrase if found is not None and found.phrase else core


# The longer sighs first: an alternation takes the first that matches, and "哎" would leave "呀".
_SIGH_ZH = re.compile(r"^(?:哎呀|哎哟|唉|哎|嗯|呃|额|啊|算了|好吧|那个|其实|还是)+")
# Interjections and leads before what an English request names: "ugh", "oh god", "ok so", "wait no".
_SIGH_EN = re.compile(
    r"^(?:(?:ugh+|argh+|oh+|god|omg|ok(?:ay)?|um+|uh+|hmm+|wait|no|nah|lol|haha\w*|yeah|well|so|anyway"
    r"|actually|jeez|geez|oops|welp)\b[\s,.!?-]*)+"
)


def _only_that_zh(phrase: str) -> bool:
    """Whether a Chinese topic phrase names nothing but "that" (刚说的, 这个, 这些, 那段): the words
    of ``_PREVIOUS_ZH`` alone, after a sigh or a "never mind" (唉, 算了) and the punctuation."""
    bare = re.sub(r"(?:说|讲)$", "", _SIGH_ZH.sub("", re.sub(r"[\W_]+", "", phrase)))
    return not bare or bare == "个" or _PREVIOUS_ZH.fullmatch(bare) is not None


# How near a request's prototypes a message must be, and by how much nearer them than any
# look-alike's; tuned on perf/scenarios/forgets_dev2.json (python -m perf meaning).
NEAR = 0.25
MARGIN = -0.08


def by_meaning(
    candidate: Unframed, near_request: float, near_lookalike: float
) -> ForgetRequest | None:
    """The request ``candidate`` makes, given its cosines to the closest request prototype and the
    closest look-alike (forget_prototypes.Prototypes.scores); None when it reads as a look-alike."""
    if near_request < NEAR or near_request - near_lookalike < MARGIN:
        return None
    if candidate.lang == "zh":
        return ForgetRequest("topic", (candidate.phrase,), "zh", candidate.phrase)
    terms = _topic_terms_en(candidate.phrase)
    if not terms:
        return ForgetRequest("previous")
    return ForgetRequest("topic", terms, phrase=candidate.phrase)


def read_unframed(text: str) -> ForgetRequest:
    """What a message no frame took asks to forget, once it is known to be a request (by the
    classifier, forget_intent.py): the topic it names, or the previous message when it names none
    ("can that go away please", "删掉删掉")."""
    if cjk.has(text):
        said = re.sub(r"\s+", "", text)
        if m := _ASK_END_ZH.match(said):
            said = m.group("body")
        phrase = _phrase_zh(said)
        if _only_that_zh(phrase):
            # "唉，刚说的就当没发生过吧", "这个你以后别再提了啊": what it names is only "that".
            return ForgetRequest("previous", lang="zh")
        return by_meaning(Unframed(text, "zh", phrase), 1.0, 0.0) or ForgetRequest(
            "previous", lang="zh"
        )
    norm = fold(text)
    phrase = _phrase_en(norm)
    if _PREVIOUS_EN.match(phrase):
        return ForgetRequest("previous")  # "ugh, scratch that, venting over": "that" after a sigh
    return by_meaning(Unframed(text, "en", phrase), 1.0, 0.0) or ForgetRequest("previous")
