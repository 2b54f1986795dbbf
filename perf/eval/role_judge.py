"""The role judge: whether a reply is written as the user (their opener, their feeling or their
matter in the first person) instead of as the companion. Shared by the Morning and the replies
benchmarks (perf/eval/morning.py, replies.py), each of which imports it; kept apart from the
product's own check (xaid/conversation/voice.py) so the judge does not grade itself.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_HAN = re.compile(r"[\u3400-\u9fff]")


_FEELINGS_EN = (
    r"tired|exhausted|wiped|nervous|anxious|scared|terrified|stressed|awful|worried|sick|better|"
    r"back|home|ready|so sorry about"
)
_FIRST_PERSON_EN = re.compile(
    rf"\bI(?:'m| am| feel| was| got)(?: so| a bit| really| very| much| totally| finally| just)? (?:{_FEELINGS_EN})\b",
    re.I,
)
_FIRST_PERSON_ZH = re.compile(
    r"我(?:也|还|今天|现在|终于|已经)?(?:很|好|有点|特别|太|真)?(?:累|困|紧张|难受|害怕|焦虑|担心死|慌|好多了|回来了|到家了|感觉好多了)"
)


# A state said as the speaker's own without a "我": a sentence that opens with a degree complement
# ("累得要死！", `make demo`'s evening reply) and neither addresses the listener nor asks. Said of the
# listener before it ("你吓坏了，…", session 34) it is a friend's empathy, not the speaker's state.
_OWN_STATE_ZH = re.compile(
    r"(?:^|[。！？!?\n])\s*(?:(?![你您])[\u3400-\u9fff]){1,3}(?:得要死|得要命|得不行|死了|坏了|瘫了|死我了)"
    r"[^。！？!?\n你您吧吗呢]*[。！!]"
)


def opener_clauses(opener: str) -> list[str]:
    """The opener's own first-person words ("我回来了", "i'm back"), which a reply must not repeat."""
    out = [m.group(0) for m in re.finditer(r"我[\u3400-\u9fff]{1,5}", opener)]
    out += [m.group(0).lower() for m in re.finditer(r"\bI(?:'m| am) \w+", opener, re.I)]
    return out


# The companion quoting itself as the user: "我说资历太浅" (the user had said their experience was too
# thin) or "I said I'd quit", where what "I" said is the user's own words. A friend says "你说…".
_SAID_ZH = re.compile(
    r"我(?:上次|之前|昨天|昨晚|前天|那天)?(?:说|讲)(?:过)?[，,：:]?\s*([\u3400-\u9fff]{3,})"
)
_SAID_EN = re.compile(
    r"\bI (?:said|told you|mentioned)(?: that)?,? ((?:[a-z'-]+ ){2}[a-z'-]+)", re.I
)
# What the opener says besides its greeting, said back as a statement of the companion's own: to
# "made it home", "Made it home!"; to "到家了", "到家了！". A friend asks it or says it of the listener
# ("到家了？", "You made it home!").
_GREETING_WORDS = re.compile(
    r"\b(?:hi|hey|hello|hiya|morning|good morning|evening|ok|okay|so|well|yo)\b|早上好|早安|早|嗨|哈喽|你好|晚上好"
)
_SENTENCES = re.compile(r"[^。！？!?.\n]+[。！？!?.\n]*")
_TO_LISTENER = re.compile(
    r"你|您|辛苦|欢迎|\byou\b|\byour|\bwelcome\b|\bglad\b|\bnice\b|[？?吗吧呢]", re.I
)


def _core(text: str) -> str:
    """The words of a short message without its greeting, punctuation and final particles."""
    low = _GREETING_WORDS.sub(" ", text.lower().replace("’", "'"))
    low = re.sub(r"[^\w\u3400-\u9fff' ]+", " ", low)
    low = re.sub(r"[啦呀啊哦喔嘛]+(?=\s|$)", "", low)
    return " ".join(low.split())


def says_back_arrival(text: str, opener: str) -> bool:
    """A sentence of the reply is the opener's own news ("made it home", "到家了"), said as a statement,
    and nothing in the whole reply turns to the listener: the companion says it arrived. Chinese
    drops its subjects, so "下班啦！辛苦了" or "到家了？累吗" (news acknowledged, then the listener) pass."""
    core = _core(opener)
    if len(_HAN.findall(core)) < 2 and len(core.split()) < 2:
        return False
    if _TO_LISTENER.search(text):
        return False
    return any(
        _core(sentence).endswith(core) and len(_core(sentence)) <= len(core) + 4
        for sentence in _SENTENCES.findall(text)
    )


def quotes_user_as_own(text: str, said: Sequence[str]) -> bool:
    """The reply says "I said" of the user's own words ("我说资历太浅", "I said I'd quit")."""
    theirs = [" ".join(s.lower().replace("’", "'").split()) for s in said]
    quoted = [m.group(1)[:3] for m in _SAID_ZH.finditer(text)]
    quoted += [m.group(1).lower() for m in _SAID_EN.finditer(text.replace("’", "'"))]
    return any(q in s for q in quoted for s in theirs)


# The user's words recited after "you said" with their first person left as it was: "上次你说跟室友
# 吵翻了，她现在见了我就当没看见" (the roommate ignores the companion, as written), "工作、装修、我妈那边"
# (the companion's mother). Reported speech turns their "我" into "你", "I" into "you"; unquoted, the
# first person is the speaker's. A first person of the reply's own after it ("我鼓励你早点休息") is
# not their words and passes.
_TOLD_ZH = re.compile(r"你(?:上次|之前|昨天|昨晚|前天|刚才|那天)?(?:说|提到|讲|告诉我)")
_TOLD_EN = re.compile(r"\byou (?:said|mentioned|told me|wrote)\b", re.I)
_SENTENCE_END = re.compile(r"[。！？!?\n]|\.(?=\s|$)")
_FIRST_EN = re.compile(r"\b(?:i|i'm|i've|i'd|i'll|my|me|myself)\b")


def recites_their_first_person(text: str, said: Sequence[str]) -> bool:
    """After "你说" / "you said", in the same sentence, a "我" (or "I", "my", "me") with what follows
    it inside four characters (three words) copied from the user's lines (``said``)."""
    text = unquoted(text)
    theirs_zh = [s for s in said if _HAN.search(s)]
    theirs_en = [" ".join(re.findall(r"[\w']+", s.lower().replace("’", "'"))) for s in said]
    for told in _TOLD_ZH.finditer(text):
        end = _SENTENCE_END.search(text, told.end())
        rest = text[told.end() : end.start() if end else len(text)]
        for i, ch in enumerate(rest):
            if ch != "我":
                continue
            windows = [rest[max(0, j) : j + 4] for j in (i - 1, i)]  # 我 and what follows it
            if any(len(w) == 4 and w in s for w in windows for s in theirs_zh):
                return True
    for told in _TOLD_EN.finditer(text):
        end = _SENTENCE_END.search(text, told.end())
        words = re.findall(r"[\w']+", text[told.end() : end.start() if end else len(text)].lower())
        for i, word in enumerate(words):
            if not _FIRST_EN.fullmatch(word.replace("’", "'")):
                continue
            # the first person and what follows it, as the Chinese windows read "我" and after:
            # "…threw up after dinner, I thought it might be serious" has the companion's "I"
            # after their words, not theirs ("after dinner. I hate this"; session 40)
            for j in range(max(0, i - 1), i + 1):
                run = words[j : j + 3]
                if len(run) == 3 and any(f" {' '.join(run)} " in f" {s} " for s in theirs_en):
                    return True
    return False


# The companion telling of its own wellbeing or day as the user does coming back, when nobody asked
# after it: `make demo`'s English morning ended "Just wanted to let you know how I'm doing." Written
# apart from the product's rule (xaid/conversation/self_report.py), more plainly: a frame that reports
# the speaker's own state, or a sentence that opens with it.
_SELF_REPORT_EN = re.compile(
    r"\b(?:let you know|tell you|update you|fill you in)\b[^.!?]{0,30}\b(?:how|that) I(?:'m| am|'ve been| feel)\b"
    r"|(?:^|[.!?]\s+)I(?:'m| am|'ve been)(?: doing| feeling)?(?: so| really| pretty| very)? "
    r"(?:well|good|great|fine|okay|wonderful|amazing)(?:\s*[,.!]|\s+(?:today|thanks|too)\b)"
    r"|(?:^|[.!?]\s+)(?:I had a (?:good|great|lovely|nice|long|busy) (?:day|morning|night)|I slept (?:well|great))\b"
    r"|(?:^|[.!?]\s+)my (?:day|morning|night) (?:was|has been|is going)\b",
    re.I,
)
_SELF_REPORT_ZH = re.compile(
    r"(?:^|[。！？!?，,])我(?:今天|最近|昨晚|现在)?(?:也|还)?(?:挺|很|还|特别)?(?:好|不错)(?:的|了|啊)?(?=[。！!，,～~]|$)"
    r"|我(?:今天|昨晚|最近)?(?:过得|睡得)(?:很|挺|还|特别)?(?:好|不错|香)|(?:跟你|和你|告诉你)(?:说|讲|汇报)?(?:一下)?我的(?:近况|情况)"
)
_ASKED_AFTER = re.compile(
    r"\bhow (?:are|r|have) (?:you|u)\b|\b(?:and|what about) (?:you|u)\b|\byou\s*\?"
    r"|你呢|你好吗|你(?:今天|最近)?(?:怎么样|过得)",
    re.I,
)


def reports_on_itself(text: str, opener: str) -> bool:
    """The reply tells of the speaker's own wellbeing or day, unasked ("Just wanted to let you know
    how I'm doing.", "我今天过得不错"): the user's part in the scene, taken by the companion."""
    if _ASKED_AFTER.search(opener):
        return False
    low = text.replace("’", "'")
    return bool(_SELF_REPORT_EN.search(low) or _SELF_REPORT_ZH.search(text))


# A span in quotation marks: the user's words quoted back ('上次你说"我妈住院了"', 'you said
# "my interview went badly"'), whose first person is theirs, not the companion's.
_QUOTED = re.compile(r'"[^"\n]*"|“[^”\n]*”|「[^」\n]*」|『[^』\n]*』')


def unquoted(text: str) -> str:
    """``text`` without the spans it quotes: the first-person rules below judge the companion's own
    words, not the user's words it quotes (the lead often quotes them)."""
    return _QUOTED.sub(" ", text)


def speaks_as_user(text: str, opener: str, matter: list[str], said: Sequence[str] = ()) -> bool:
    """The reply is written as the user: their opener, their feeling or their matter in the first
    person; their arrival said back as its own; their earlier words quoted as what "I" said (``said``:
    the user's lines of the history) or recited after "you said" in their own first person; a
    report on its own wellbeing or day, unasked. The first person inside a quotation is the one
    quoted, not the reply's."""
    if (
        says_back_arrival(text, opener)
        or quotes_user_as_own(text, said)
        or recites_their_first_person(text, said)
    ):
        return True
    text = unquoted(text)
    low = text.lower().replace("’", "'")
    if any(c in text or c in low for c in opener_clauses(opener)):
        return True
    if reports_on_itself(text, opener):
        return True
    if _FIRST_PERSON_EN.search(low) or _FIRST_PERSON_ZH.search(text):
        return True
    if _OWN_STATE_ZH.search(text):
        return True
    for word in matter:
        if _HAN.search(word):
            if f"我的{word}" in text or f"我{word}" in text:
                return True
        elif re.search(rf"\bmy {re.escape(word.lower())}", low):
            return True
    return False
