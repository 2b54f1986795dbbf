"""News of a thing is no change of the user's: who or what a statement's change words are about.

"PureGym changed their opening hours, it shuts at 10 now", "公园路那家面包房换老板了，周五开始卖披萨了":
the change words are there (changed, now, 换, 开始), and the statement is near "I go to PureGym" /
"我常去公园路那家面包房买面包" in meaning, but what changed is the gym and the bakery, not where the
user goes. Held-out controls failed this way (a set of zh controls 6/9): the thing's own news made the
user's own earlier statement history. The difference is in the sentence's structure, not its words:

- the clause that holds the change words has a subject of its own, a thing (a noun phrase that is
  neither the speaker nor a person of theirs): "PureGym changed…", "the Park Lane bakery has new
  owners", 面包房换老板了 (a Chinese topic followed by the change verb and its own object: the
  topic does the changing; "卡罗拉卖了", with nothing after the verb, is the car the user sold);
- no clause of the statement is the speaker's own ("I", "we", 我, or in English a clause opening
  with its verb, the diary style that drops the "I": "sold it in March"). A thing's news told as the
  reason of the user's own change ("Barclays kept closing branches so I moved everything to
  Nationwide", "73路改线了，我干脆走路上班") is still the user's change;
- and, per earlier statement (``xaid.memory.supersede``), the thing is one that statement names as
  what the user goes to or uses, not its own subject: "My book club meets at the Lantern" is about
  the book club, so "book club relocated to Maya's living room" gives it a new value.

Branch supersede8 read "the statement opens with the thing" alone and lost held-out changes told
with the thing's news first; the speaker's own clause is what tells those apart. This module reads
the new statement only; the pairing is supersede's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..text import cjk
from ..text.clauses import clauses
from . import change_cues

# What may open an English clause before its subject: fillers and sentence adverbs.
_LEAD_EN = re.compile(
    r"^\W*(?:(?:ok|okay|so|and|but|then|just|finally|honestly|also|well|anyway|lol|haha|omg|ugh|"
    r"yeah|yep|tbh|btw|oh|wow|apparently|update|news)\b\W*)*",
    re.I,
)
# The verbs that tell where an English subject ends: auxiliaries and the irregular past forms (both
# closed classes of the language); any other past is read by its -ed.
_AUX_EN = frozenset(
    "is are was were be been has have had does did do will can could would keeps kept gets isn't "
    "aren't wasn't weren't hasn't haven't hadn't won't can't didn't doesn't don't".split()
)
_IRREGULAR_EN = frozenset(
    "went gone got gotten left sold quit made took taken put set shut cut broke broken bought "
    "brought found gave given kept lost paid ran said saw seen sent spent told thought won wrote "
    "written came become became began begun felt grew held hit knew led let met rode sat stood "
    "stuck threw woke ate drove fell flew forgot hung sang slept split spoke swam wore".split()
)
# A subject that is a time of the user's week is their routine ("Saturdays are for my allotment
# these days", "mornings are rooibos only"): the speaker's, not a thing's news.
_TIME_EN = re.compile(
    r"^(?:mornings?|evenings?|nights?|afternoons?|weekends?|weekdays?|days?|lunch(?:es|times?)?|"
    r"breakfasts?|dinners?|(?:mon|tues|wednes|thurs|fri|satur|sun)days?)$"
)
# A pronoun goes on with the thing just named ("PureGym changed their hours, it shuts at 10 now";
# "the bakery has new owners, they've started doing pizza").
_IT = frozenset({"it", "it's", "its", "itself", "they've", "they'd", "they'll"})
_TIME = "time"  # the subject is a time of the user's week: the user's routine
# A Chinese clause opening with the user's thing (我的手机…, 我们的课…): the thing is its subject.
_MINE_ZH = re.compile(
    r"^\W*我(?:们)?的(?P<what>[^，。！？；,]{1,6}?)(?=现在|最近|如今|目前|已经|又|都|也|[换改搬转挪调])"
)
# What a Chinese clause may open with before its topic: a time, a frequency, an adverb of time.
_TIME_ZH = re.compile(
    r"^(?:每?周[一二三四五六日天末]|每?星期.|每?礼拜.|每天|天天|今天|昨天|今早|今晚|早上|晚上|中午|下午|"
    r"上午|最近|现在|如今|目前|平时|后来|上个?月|这个?月|下个?月|上周|这周|去年|今年|前几天|前阵子|"
    r"刚才|已经|终于|突然|\d+月份?|[一二三四五六七八九十]+月份?|\d+号)+"
)
# Adverbs between a Chinese topic and its verb (面包房又换老板了, 健身房突然改营业时间了).
_ADVERB_ZH = re.compile(r"(?:又|都|也|已经|刚|就|还|全|突然|竟然|居然|终于|直接|正式|彻底|再次)+$")
# A topic that opens with a preposition (a closed class) is a place or a partner, not a subject.
_PREPOSITION_ZH = re.compile(r"^(?:从|在|到|往|向|跟|和|同|与|对|给|为|被|由|自)")
_OBJECT_ZH = re.compile(rf"[{cjk.IDEOGRAPHS}A-Za-z0-9]")


@dataclass(frozen=True, slots=True)
class Clause:
    """One clause of a statement: whose it is and whether it holds a change word.

    ``owner``: "speaker" (an I/we/我, or the speaker by default), "person" (someone else, as
    change_cues reads it), "thing" (a subject of its own that is neither). ``explicit``: the
    speaker is named or the clause opens with its verb, not merely inherited."""

    text: str
    owner: str
    explicit: bool
    thing: str  # the subject's words, for a "thing"
    cue: bool


def _verb_en(word: str) -> bool:
    return word in _AUX_EN or word in _IRREGULAR_EN or (len(word) > 4 and word.endswith("ed"))


def _subject_en(clause: str) -> str | None:
    """The English clause's own subject when it has no I/we and no person: "" when it opens with
    its verb (the speaker's, said without "I"), "it" for a pronoun, ``_TIME`` for a time of the
    week, the words before the first verb otherwise; None when no verb is found within six words."""
    words = re.findall(r"[a-z0-9'’-]+", _LEAD_EN.sub("", clause.lower()).replace("’", "'"))
    if not words:
        return None
    if words[0] in _IT:
        return "it"
    for i, w in enumerate(words[:6]):
        if _verb_en(w):
            if i == 0:
                return ""
            if _TIME_EN.match(words[i - 1].removesuffix("'s")):
                return _TIME
            return " ".join(words[:i])
    return None


def _subject_zh(clause: str) -> str | None:
    """The Chinese clause's own topic when it has no 我 and its change verb has a topic of its own
    doing it: the verb followed by its object (面包房换老板了, 健身房改营业时间了, 科室搬到新楼了). A verb
    with nothing after it (卡罗拉卖了, 会员退了) is the user's deed on that topic, as Chinese says it,
    and a topic before a word of now is as often the user's own habit (视频现在都在抖音刷了): None."""
    strong = change_cues.STRONG_ZH.search(clause)
    if strong is None:
        return None  # a word of now after a topic (视频现在基本都在抖音刷了) is as often the user's habit
    topic, rest = clause[: strong.start()], clause[strong.end() :]
    if not _OBJECT_ZH.match(rest.lstrip("了")):
        return None
    if "把" in topic:  # 周末把笔记全挪到了…: the doer is before 把
        topic = topic[: topic.index("把")]
    topic = _ADVERB_ZH.sub("", _TIME_ZH.sub("", topic.strip()))
    if _PREPOSITION_ZH.match(topic):
        return None  # 从苏州搬到南京: where from, not who
    return topic if cjk.count(topic) >= 2 else None


def read(text: str) -> list[Clause]:
    """Each clause's owner, the subject carried on where a clause names none (Chinese says the topic
    once for several clauses; "it" is the thing just named)."""
    out: list[Clause] = []
    for part in clauses(change_cues.unquoted(text)):
        zh = cjk.has(part)
        cue = bool(
            (change_cues.STRONG_ZH if zh else change_cues.STRONG_EN).search(part)
            or (change_cues.NOW_ZH if zh else change_cues.NOW_EN).search(part)
        )
        prev = out[-1] if out else None
        users = change_cues.owned(part)
        mine = _MINE_ZH.match(part) if zh else None
        if mine is not None and "我" not in part[mine.end() :]:
            out.append(Clause(part, "thing", False, mine.group("what"), cue))
            continue
        if users is True:
            out.append(Clause(part, "speaker", True, "", cue))
            continue
        if users is False:
            out.append(Clause(part, "person", False, "", cue))
            continue
        subject = _subject_zh(part) if zh else _subject_en(part)
        if subject == _TIME:
            out.append(Clause(part, "speaker", True, "", cue))
        elif subject:
            if subject == "it":
                if prev is not None and prev.owner == "thing":
                    out.append(Clause(part, "thing", False, prev.thing, cue))
                else:
                    out.append(Clause(part, prev.owner if prev else "speaker", False, "", cue))
            else:
                out.append(Clause(part, "thing", False, subject, cue))
        elif subject == "" and prev is not None and prev.owner == "thing":
            # "Golf's gone, sold it in March": a verb with no subject after a thing's clause is
            # the speaker's (things do not sell); after a person it goes on with them
            out.append(Clause(part, "speaker", True, "", cue))
        elif prev is not None:
            out.append(Clause(part, prev.owner, False, prev.thing, cue))
        else:
            out.append(Clause(part, "speaker", subject == "", "", cue))
    return out


def things(text: str) -> tuple[str, ...]:
    """The things whose own news the statement's change words tell, when all of them do and no
    clause is the speaker's own; empty otherwise (the statement may be the user's change)."""
    parts = read(text)
    if any(p.owner == "speaker" and p.explicit for p in parts):
        return ()
    cued = [p for p in parts if p.cue and p.owner != "person"]
    if not cued or any(p.owner != "thing" for p in cued):
        return ()
    return tuple(dict.fromkeys(p.thing for p in cued))
