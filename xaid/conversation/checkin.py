"""The first words of a check-in: the daemon begins the reply, the model finishes it.

Told in the directive to greet and then ask about the matter, Qwen2.5-Coder-1.5B answered "Morning."
with "Good morning! How are you feeling?" (half the English, eight of ten Chinese held-out scenes
of perf/RESULTS.md before the change named nothing of the matter): a greeting is the likeliest
start of a reply to a greeting, and after it the matter is forgotten.
Begun for it, the model names the matter: after "Morning! How did the" the next words can only be
the thing that happened ("pitch with Harbor Foods go?"), after "早。上次你说" only what was said
("项目搞崩了，睡得还好吗？"). The daemon writes no more than that lead (in Chinese, for an event,
with the event word of the user's own line, "上次说的面试"): the model words the rest
(perf/RESULTS.md, "Morning", has the figures with and without it).

An opening is composed only when
- the scheduler gave this turn a suggestion (its item): a matter it holds back (the user asked not
  to bring it up, a loss came since, quiet mode, the gap) gets no lead, since there is no item;
- the user's message is only a greeting or a return ("早。", "Morning.", "嗨，我回来了。", "Hey,
  I'm back."), or another opener with nothing of its own to say (opener.py reads it by structure
  and meaning: "u there?", "醒了", "sooo sleepy", "唉", "👋"), which gets a neutral greeting by the
  hour ("Morning!"/"早。" before noon, "Hey!"/"嗨，" after): a first message with something of its
  own to say is answered, not steered;
and it follows the item and the mood: an event is asked about ("How did the", "上次说的面试", the
event's own word from the user's line); a feeling is asked after ("Last time you said", "上次你说");
for a death or a break-up the rules read, a whole question about them that names nothing of the loss
("I've been thinking of you. How are you holding up?", "一直惦记着你，这两天还好吗？"); for a loss read
by meaning alone, and for anything while the mood is very low, the
lead is warm first ("I've been thinking of you since you told me", "一直惦记着你。上次你说"); neither
asks how something went. It
never names a feeling it detected, and it is in the user's language.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from ..memory import index
from ..memory.rules.lexicon_zh import RELATIONS
from ..mood import loss
from ..mood.lexicon_en import KIN as KIN_EN
from ..scheduler import arm, someone
from ..scheduler.arm import EVENTS_ZH
from ..store.mood import MoodState
from ..store.recall import RecallItem
from ..text import cjk, clauses, hour_said, timeparse
from ..text.lang import Lang
from ..text.stopwords import ENGLISH
from . import person, reaction
from .candidates import names_matter
from .greetings import greeting_echo
from .voice import quoted

GENTLE_BELOW = -0.45  # valence at or below which the lead only keeps them company (a loss, grief)


def _gentle(mood: MoodState | None) -> bool:
    """The mood is low enough (``GENTLE_BELOW``) that the reply keeps them company and asks nothing."""
    return mood is not None and mood.valence <= GENTLE_BELOW


_VAGUE = frozenset({"医院", "结果", "报告", "检查", "航班"})  # where or how, not what: named last
_WORN_OUT = re.compile(r"worn out|疲惫")  # arm.py's emotion topic for a tired close
_EVENT_SCENES = frozenset({"plan", "worry"})
# A dated matter still ahead (arm.py's "ahead"): "How are you feeling about the" is followed by the
# event and its day ("interview on Thursday?"); in Chinese "面试的事，你" by "准备得怎么样了？": the 你 keeps
# the model speaking to them (after "周四要去腾讯二面的事，" the 1.5B went on as the user, "算法题还没刷，
# 先睡了", in 5 of 12 dev2 replies; with 你, 0 of 12, all asking). "How did the"
# would ask how something not yet happened went.
_AHEAD_SCENES = frozenset({"ahead"})
# An undated matter read by meaning (arm.py's "matter": a sick child, a landlord, a decision) is led
# like a feeling, "Last time you said": the model goes on with the user's own words, where "How
# did the" would ask how an ordeal still under way "went".
_FEELING_SCENES = frozenset({"emotion", "matter"})
_ASKED = _EVENT_SCENES | _AHEAD_SCENES | _FEELING_SCENES  # a loss is kept company, not asked about
# A loss (arm.py's "loss" item) is led gently whatever the mood has become by the morning: the
# carried valence of a session that told of a death fades overnight above ``GENTLE_BELOW``, and the
# item then fell through to no lead at all. Left alone with the loss directive, the 1.5B greeted
# as if nothing had been said ("Hi! It's been great chatting with you today.", morning_dev30's
# grandpa), and a matter read as a loss (a sick pet, a deadline) was named by nothing.
_LOSS_SCENES = frozenset({"loss"})


def _company(item: RecallItem, mood: MoodState | None) -> bool:
    """The reply keeps them company and asks nothing: a loss, or anything while the mood is very
    low (``_gentle``)."""
    return _gentle(mood) or item.scene in _LOSS_SCENES


# The neutral greeting of an opener that is no greeting ("u there?", "醒了", "ugh"), by whether the
# user's hour is before noon: a greeting fits any opener, a "welcome back" or "在呢" only its own.
NOON = 12
_BY_HOUR: dict[tuple[Lang, bool], str] = {
    ("en", True): "Morning!",
    ("en", False): "Hey!",
    ("zh", True): "早。",
    ("zh", False): "嗨，",
}
_LEADS = {
    ("en", "event"): "{echo} How did the",
    ("en", "ahead"): "{echo} How are you feeling about the",
    ("zh", "ahead"): "{echo}{event}的事，你",
    ("en", "feeling"): "{echo} Last time you said",
    ("en", "gentle"): "{echo} I've been thinking of you since you told me",
    # a whole question after their words: ended on a comma, the 1.5B went on "…bypass surgery at
    # 7am, and I can't wait" (morning_dev33's test half)
    ("en", "gentle_said"): (
        "{echo} I've been thinking of you since you told me {said}. How are you holding up?"
    ),
    ("zh", "event"): "{echo}上次说的{event}",
    ("zh", "feeling"): "{echo}上次你说",
    ("zh", "said"): "{echo}上次你说{said}，",
    ("zh", "tired"): "{echo}上次你说很累，",
    ("zh", "gentle"): "{echo}一直惦记着你。上次你说",
    # a loss: the person, not the loss, and nothing for the model to recite ("一直惦记着你。上次你说外婆
    # 走了" went on with the funeral, "…和阿哲分手了" named what they had told: morning_dev38)
    ("en", "loss"): "{echo} I've been thinking of you. How are you holding up?",
    ("zh", "loss"): "{echo}一直惦记着你，这两天还好吗？",
    ("zh", "gentle_said"): "{echo}一直惦记着你。上次你说{said}，你",
}


def echo(said: str, lang: Lang, bare: bool, hour: int | None) -> str | None:
    """The greeting the lead starts with: a greeting echoes the greeting (``greeting_echo``); another
    opener (``bare``, opener.py: "u there?", "醒了", "ugh") gets a neutral one by the user's local
    ``hour``, "Morning!"/"早。" before noon, "Hey!"/"嗨，" after (none when the hour is unknown); a
    message with something of its own to say, None: it is answered, not steered."""
    greeting = greeting_echo(said, lang)
    if greeting is not None or not bare:
        return greeting
    if hour is None:
        return ""
    return _BY_HOUR[(lang, hour < NOON)]


def lead(
    item: RecallItem | None,
    said: str,
    lang: Lang,
    mood: MoodState | None,
    bare: bool = False,
    hour: int | None = None,
    reading: Mapping[str, float] = reaction.NO_READING,
) -> str:
    """The reply's first words for this turn's suggestion, or "" when the model starts alone.
    ``bare``: the message is an opener (opener.py) though no greeting pattern knows it; ``hour``:
    the user's local hour, for the neutral greeting such an opener gets (``echo``); ``reading``:
    how the clauses of the item's line read as reactions (reaction.read of ``said_clauses``)."""
    if item is None:
        return ""
    greeting = echo(said, lang, bare, hour)
    if greeting is None:
        return ""
    return _opened(item, lang, mood, greeting, reading)


def said_clauses(item: RecallItem) -> list[str]:
    """The clauses of the user's line ``item`` quotes, as either language's lead cuts it: what
    reaction.read is given for ``lead`` and ``bridge``."""
    said = quoted(item.topic)
    if not said:
        return []
    line = said[0].strip()
    found = [c.strip() for ends in (_CLAUSE_END, _CLAUSE_END_EN) for _, c in _spans(line, ends)]
    return list(dict.fromkeys(c for c in found if c))


def leaves_matter(item: RecallItem, lead: str, mood: MoodState | None) -> bool:
    """Whether the model's words after this ``lead`` must name the matter, and may be sampled again
    until they do (candidates.py, ``scheduler.lead_candidates``): a lead that names nothing of it
    ("早。上次你说", "Morning! Last time you said") for a matter asked about. On the fifth held-out
    Morning scenes two Chinese replies begun so went on with nothing of the matter. Not a loss's
    check-in or any lead while the mood is very low (they are kept company, the loss is not asked
    about), and not a lead that names the matter already ("早。上次说的面试")."""
    if not lead or item.scene not in _ASKED:
        return False
    if _gentle(mood):
        return False
    return not names_matter(lead, item.keywords)


# What turns from the model's answer to the matter: "By the way, how did the" …, "对了，上次说的面试" ….
_TURN = {"en": "By the way,", "zh": "对了，"}


def bridge(
    item: RecallItem | None,
    lang: Lang,
    mood: MoodState | None,
    reading: Mapping[str, float] = reaction.NO_READING,
) -> str:
    """The daemon's words after the model's first sentence, when the first message has content of
    its own (a question, news): the model answers it, then the reply turns to the suggested matter
    as the lead would have begun it ("By the way, how did the" …, "对了，上次说的面试" …). Told only
    by the directive to ask after answering, the 1.5B answered and stopped (issue 25: the held-out
    scenes with a suggestion and a message of its own picked up 0 of 4). None while the mood is very
    low, or for a loss: then the reply stays with what they said."""
    if item is None or _company(item, mood):
        return ""
    turn = _TURN[lang]
    rest = _opened(item, lang, mood, turn, reading)[len(turn) :]
    # mid-sentence now: "By the way, how did the", not "How"
    return turn + re.sub(r"^(\s*)([A-Z])(?=[a-z])", lambda m: m[1] + m[2].lower(), rest)


def _opened(
    item: RecallItem,
    lang: Lang,
    mood: MoodState | None,
    greeting: str,
    reading: Mapping[str, float],
) -> str:
    """The words that turn to the item's matter after ``greeting`` (the echo, or a "by the way");
    ``reading``: the clauses of the item's line that read as reactions (``lead``)."""
    if _company(item, mood):
        kind = "gentle"
    elif item.scene in _EVENT_SCENES:
        kind = "event"
    elif item.scene in _AHEAD_SCENES:
        kind = "ahead"
    elif item.scene in _FEELING_SCENES:
        kind = "tired" if lang == "zh" and _WORN_OUT.search(item.topic) else "feeling"
    else:
        return ""  # a client's own topic (manual): its words are the client's, not ours to lead
    if item.scene in _LOSS_SCENES or item.scene == "emotion":
        # a feeling is itself what is asked after, and a loss's words are not weighed for news
        reading = reaction.NO_READING
    told = " ".join(quoted(item.topic)) or item.topic
    if kind == "gentle" and item.scene in _LOSS_SCENES and (loss.ruled(told) or loss.gone(told)):
        # a death or a break-up in the rules' words: a whole question about them, the loss
        # unnamed. After "上次你说姑姑走了，你" (session 32) the 1.5B recited the loss, the funeral
        # with it, or the break-up by name: what a friend leaves unsaid the morning after
        # (morning_dev38's train half, 5 of 6 Chinese losses on seed 1). So for a being gone said
        # of a loss meaning read ("豆豆走了": "上次你说豆豆走了，你" went on with the death, dev38's test
        # half)
        return _LEADS[(lang, "loss")].format(echo=greeting).strip()
    if (
        lang == "zh"
        and kind == "gentle"
        and (
            name := matter_name(
                item.topic,
                particles=True,
                sentence=item.scene not in _LOSS_SCENES,
                reading=reading,
            )
        )
        is not None
    ):
        # a loss read by meaning alone, often grave news still open (a parent in hospital, a
        # friend's biopsy), or a matter while the mood is very low: said back in their words, its
        # day out, then 你, so that the reply names it. After a bare "上次你说" the 1.5B named nothing
        # ("上次你说的挺好的，谢谢你", morning_dev32; "一直惦记着你。上次你说" for a loan not paid back,
        # morning_dev30). A matter's may be a sentence (``SAID_CHARS``), a loss's is kept short.
        return _LEADS[(lang, "gentle_said")].format(echo=greeting, said=name).strip()
    if (
        lang == "en"
        and kind == "gentle"
        and item.scene != "emotion"
        and (clause := matter_clause_en(item.topic, item.created_ms, reading)) is not None
    ):
        # so in English: "I've been thinking of you since you told me" named nothing, and 9 train
        # scenes of the dev sets (a dad in the ICU, a friend's biopsy, an eviction notice) were led
        # so (scripted leads); "…since you told me your dad's in the ICU. How are you holding up?"
        return _LEADS[(lang, "gentle_said")].format(echo=greeting, said=clause).strip()
    if lang == "zh" and kind == "feeling":
        if (
            name := matter_name(item.topic, particles=True, sentence=True, reading=reading)
        ) is not None:
            # what they said, in their words: "早。上次你说最近老是失眠，" (morning12, issue 25 item 4)
            return _LEADS[(lang, "said")].format(echo=greeting, said=name).strip()
        if (event := matter_name(item.topic, said_ms=item.created_ms, reading=reading)) is not None:
            # no sentence to say back, but its event in two characters ("明天下午路演" → "上次说的路演")
            return _LEADS[(lang, "event")].format(echo=greeting, event=event).strip()
    if lang == "en" and kind in ("ahead", "event"):
        # "How are you feeling about the interview" (morning13), "How did the scan" (morning14):
        # once the check-in turns to "how did it go" at the event's hour (arm.over_at), the
        # evening's lead is "How did the", and left to name the matter the 1.5B named another
        # ("How did the last chat go?", "How did the day go?", "How did the meeting go?" for a
        # pitch to the board). With no event word to name it by, the model says what they said
        # ("Last time you said"), as the Chinese lead does.
        if (event := event_word_en(item.topic)) is not None:
            return f"{_LEADS[(lang, kind)].format(echo=greeting).strip()} {event}"
        if (clause := matter_clause_en(item.topic, item.created_ms, reading)) is not None:
            # No event word: what they said, turned to them ("Morning! Last time you said you
            # finally tell your boss you're quitting,"), as the Chinese lead says their clause.
            # After "How are you feeling about the" the 1.5B named the matter vaguely or not at
            # all ("…about the upcoming change?", morning_dev20); after a bare "Last time you
            # said" it went on with another line of the evening (lead20).
            return f"{_LEADS[(lang, 'feeling')].format(echo=greeting).strip()} {clause},"
        if (
            kind == "ahead"
            and (event := event_word_en(item.topic, vague=True, more=item.keywords)) is not None
        ):
            # nothing else to say it by: where or who does, ahead of it ("How are you feeling
            # about the results"; bare, the 1.5B ended it "…about the situation?")
            return f"{_LEADS[(lang, kind)].format(echo=greeting).strip()} {event}"
        if kind == "event":
            kind = "feeling"
    elif (
        lang == "en"
        and item.scene == "matter"
        and (clause := matter_clause_en(item.topic, reading=reading))
    ):
        # an undated matter said back as the Chinese lead says it ("Morning! Last time you said your
        # landlord says he's selling the building,"): after a bare "Last time you said" the 1.5B
        # wrote "you had a hard day at work" of a day spent carrying boxes for a move
        # (morning_dev33), which names nothing a friend would have kept
        return f"{_LEADS[(lang, 'feeling')].format(echo=greeting).strip()} {clause},"
    if lang == "zh" and kind in ("event", "ahead"):
        # named where it is told: an event word of the clause of its date (or of the first that
        # tells something), then of the line, then that clause's own name, and only then a word that
        # says where or how (``_VAGUE``). The vague word first in the line had said "结果的事" for
        # "月底过户 结果卖家突然说要加三万" (结果 there is "and then"; morning_dev42)
        quote = quoted(item.topic)
        clause = (
            matter_clause(quote[0].strip(), _CLAUSE_END, item.created_ms, reading) if quote else ""
        )
        event = (
            event_word(clause, vague=False)
            or event_word(item.topic, vague=False)
            or matter_name(item.topic, said_ms=item.created_ms, reading=reading)
            or event_word(item.topic)
        )
        if event is None:
            # nothing short to name it by: what they said, said back whole, or the model says it
            said = matter_name(item.topic, True, item.created_ms, sentence=True, reading=reading)
            kind = "feeling" if said is None else "said"
            return _LEADS[(lang, kind)].format(echo=greeting, said=said).strip()
        return _LEADS[(lang, kind)].format(echo=greeting, event=event).strip()
    return _LEADS[(lang, kind)].format(echo=greeting).strip()


def event_word(topic: str, vague: bool = True) -> str | None:
    """The first event word of the user's words in the topic (longest where several start there):
    "明天去字节面试产品经理" → "面试". In Chinese the model, left to name the matter after "上次你说的",
    wrote "那件事" or quoted the whole line back; the word itself, after "上次说的", it follows with
    the question ("怎么样了？")."""
    best: tuple[bool, int, int, str] | None = None
    for word in EVENTS_ZH:
        if len(word) < 2 or (at := topic.find(word)) < 0 or (word in _VAGUE and not vague):
            continue
        key = (word in _VAGUE, at, -len(word), word)
        if best is None or key < best:
            best = key
    if best is None:
        return None
    # the user's word goes on with its numeral ("科目三", "科目二"): cut before it, the lead said "科目的事"
    # (morning_dev33), a name with its number cut off
    at, word = best[1], best[3]
    numeral = _NUMBERED.match(topic, at + len(word))
    return word + (numeral.group() if numeral else "")


# a numeral that names ("科目三考试"), not one that counts ("面试三家", "考两门": a measure word follows)
_NUMBERED = re.compile(r"[一二三四五六七八九十](?![家个次轮场门位天周年月点号件道题本篇份间所])")


# Where or who, not what: "How did the hospital", "How did the client" ask nothing (as _VAGUE).
# Ahead of it, "How are you feeling about the results" asks what a friend asks.
_VAGUE_EN = frozenset(
    "hospital doctor client therapist vet results moving flying hiking camping".split()
)


def event_word_en(topic: str, vague: bool = False, more: Sequence[str] = ()) -> str | None:
    """The first event word of the user's words in the topic, in English: "I pitch to Harbor Foods
    tomorrow" → "pitch". After "How are you feeling about the" the 1.5B named no matter of its own
    ("…about the preparation?", morning_dev12's test half): the English lead of a matter still
    ahead names the event the user said, as the Chinese one does (``event_word``), and the model
    words the rest. ``vague``: a word that says where or who (``_VAGUE_EN``) will do, as it does
    after "How are you feeling about the": left bare there, the 1.5B wrote "…about the last time
    you talked?" and "…about the situation?" for "neurologist goes over the results with me next
    week" (morning_dev39's test half, both seeds, three runs). ``more``: words after the quote's
    (the item's keywords: a long line is quoted cut, "…neurologist goes over the re…")."""
    said = quoted(topic)
    words = re.findall(r"[a-z][a-z'-]+", said[0].lower() if said else "")
    for at, word in enumerate([*words, *more]):
        if (event := arm.event_word_en(word)) is not None and (vague or event not in _VAGUE_EN):
            return _compound_en(words, at) or event
    return None


def _compound_en(words: Sequence[str], at: int) -> str | None:
    """The event word at ``at`` with the one that heads it a word or two on, when only content words
    stand between: "final round interview" ("How did the final" was said of the final round
    interview, morning_dev42), "dentist appointment". None where there is none."""
    for head in (at + 2, at + 1):
        between = words[at + 1 : head + 1]
        event = arm.event_word_en(words[head]) if head < len(words) else None
        if event is not None and event not in _VAGUE_EN and not set(between) & ENGLISH:
            return " ".join(words[at : head + 1])
    return None


# A clause that speaks to the listener about the telling, not of the matter: short, and in the
# second person ("跟你说个事", "我跟你讲", "你知道吗", "you know what").
_TO_YOU = re.compile(r"你|\byou\b", re.I)
# At most this long: a Chinese clause in characters, an English one in letters over three.
TO_YOU_CHARS = 6


def _leads_in(clause: str) -> bool:
    """Whether ``clause`` only leads into what the user tells: it holds no content word ("唉", "so"),
    or it is a short one said to the listener (``_TO_YOU``)."""
    if index.content_words(clause) == 0:
        return True
    size = len(clause) if cjk.has(clause) else len(clause) // 3
    return size <= TO_YOU_CHARS and _TO_YOU.search(clause) is not None


def _spans(text: str, ends: re.Pattern[str]) -> list[tuple[int, str]]:
    """The clauses of ``text`` between ``ends``, each with where it starts."""
    return [(i, c) for i, c in clauses.pieces(text, ends) if c.strip()]


# What makes a word with 说 before it (说出, 说完, 说好, 说明, 说起, 说服, 说到): a closed class.
_SAID_WORD = frozenset("出完好明起服到")


def _untimed(clause: str) -> str:
    """``clause`` without its times: every date (said another day, "明天" is wrong) and the hour
    it starts with (``hour_said.without_leading_hour``). A 说 that reported the time goes with it
    where it would make a word of its own with what follows: "学校说下周出拟录取名单" would be
    "学校说出拟录取名单" ("spoke out the list"; the lead said "说出拟录取名单的事", morning_dev35);
    "房东说下个月要涨房租" keeps it ("房东说要涨房租")."""
    for ref in reversed(timeparse.find_times(clause, 0)):
        if (
            clause[ref.start - 1 : ref.start] == "说"
            and clause[ref.end : ref.end + 1] in _SAID_WORD
        ):
            clause = clause[: ref.start - 1] + clause[ref.start :]
    rest = " ".join(hour_said.without_leading_hour(timeparse.without_times(clause)).split())
    # the 的 that tied the time to its noun goes with it: "后天早上七点的航班飞成都" is "航班飞成都"
    return rest[1:].lstrip() if rest.startswith("的") and rest != clause.strip() else rest


# A count or an ordinal that names no matter: "第一次", "分三次", "第二轮"; "the first one", "the next round".
_COUNTS = re.compile(
    r"[分第]?[0-9一二三四五六七八九十两几]+[次轮回遍趟场]"
    r"|\b(?:the\s+)?(?:first|second|third|fourth|next|last|1st|2nd|3rd)\s+(?:one|round|time)(?:'s)?\b",
    re.I,
)


def _too_short(clause: str) -> bool:
    """Without its time and its counts, too short to name a matter: "周三上午做" is "做", "it's
    wednesday" is "it's", "第一次明天上午" of "要做根管 分三次 第一次明天上午" is nothing (said back,
    "上次说的第一次" named no tooth, morning_dev36's train half). A Chinese clause that lost its time
    may name its event in ``EVENT_CHARS`` (as ``matter_name`` says it): "月底过户" is "过户"; taken
    for too short, the clause after it was said back instead ("结果卖家突然说要加三万", morning_dev42)."""
    untimed = _untimed(clause)
    rest = " ".join(_COUNTS.sub(" ", untimed).split())
    if not cjk.has(rest):
        return len(rest.split()) < CLAUSE_WORDS[0]
    lost_time = untimed != " ".join(clause.split())
    return len(rest) < (EVENT_CHARS if lost_time and _event_left(rest) else NAME_CHARS[0])


# A verb of going that a two-character remainder starts with leaves its object one character:
# "周六去面" is "去面" (去面试, cut), no event to say back.
_GOING = "去来回"


def _event_left(rest: str) -> bool:
    """Whether what is left of a clause once its time is cut may be its event in ``EVENT_CHARS``
    characters: all Chinese, and not a verb of going with a one-character object."""
    return cjk.count(rest) == len(rest) and not (len(rest) == EVENT_CHARS and rest[0] in _GOING)


# Someone named by a pronoun: in Chinese 他, 她, 它 (and their plurals).
_PRONOUN = re.compile(r"[他她它]")


def matter_clause(
    said: str,
    ends: re.Pattern[str],
    said_ms: int | None,
    reading: Mapping[str, float] = reaction.NO_READING,
) -> str:
    """The user's clause that holds the matter. A dated matter's is the clause of its date ahead of
    the day it was said (``said_ms``), or, when that clause is no more than its date ("周三上午做", "it's
    wednesday morning"), the one before it: "今天上班没啥事，平平淡淡。终于约上了膝盖的核磁，周三上午做"
    led with its first clause made "早上好！上班没啥事的事，你" (morning_dev33), and a deadline said
    after "yeah. but" named nothing. Else the first clause that tells something
    (``first_content_clause``)."""
    parts = _spans(said, ends)
    ahead = arm.ahead_of(said, said_ms) if said_ms is not None else None
    if ahead is not None and parts:
        at = max(i for i, (start, _) in enumerate(parts) if start <= ahead.start or i == 0)
        # back over the clauses that name nothing ("分三次" before "第一次明天上午") to one that does,
        # else on to the next: "第一次明天上午 要做根管"
        named = next(
            (i for i in range(at, -1, -1) if not _too_short(parts[i][1])),
            next((i for i in range(at, len(parts)) if not _too_short(parts[i][1])), at),
        )
        if named != at and not _leads_in(parts[named][1]):
            at = named
        if _PRONOUN.search(parts[at][1]):
            # a clause that names its someone by a pronoun ("她说下周把我俩叫过去当面说清楚") said back
            # days later names no one: the nearest clause before it that names them without one
            # ("我已经找辅导员了"; morning_dev39's train half, "去找他当面谈一次的事" for a deposit)
            at = next(
                (
                    i
                    for i in range(at - 1, -1, -1)
                    if not _PRONOUN.search(parts[i][1])
                    and not _too_short(parts[i][1])
                    and not _leads_in(parts[i][1])
                ),
                at,
            )
        return parts[at][1].strip()
    if not parts:
        return ""
    at = first_content_clause([c for _, c in parts], reading)
    return _reason(said, parts, at) or parts[at][1].strip()


# What joins a clause to the one before as its reason.
_BECAUSE = re.compile(r"(?:因为|由于)|\b(?:because|cause|cuz|coz|'cause)\b", re.I)


def _reason(said: str, parts: list[tuple[int, str]], at: int) -> str | None:
    """The clause after ``parts[at]`` when it gives that one's reason: what happened is said as why
    ("今天没去健身 因为下午要去医院做甲状腺穿刺": the lead said "上次你说没去健身", morning_dev42's train
    half; "skipped the gym cause I had my biopsy"), without its "because". None otherwise."""
    if at + 1 >= len(parts):
        return None
    start, clause = parts[at]
    nxt_start, nxt = parts[at + 1]
    joint = said[start + len(clause) : nxt_start] + nxt
    m = _BECAUSE.search(joint)
    if m is None or joint[: m.start()].strip(" ,，、") != "":
        return None
    rest = joint[m.end() :].strip(" ,，、")
    return rest or None


def first_content_clause(
    clauses: list[str], reading: Mapping[str, float] = reaction.NO_READING
) -> int:
    """Where the user's first clause that tells something is: the ones before it only lead into it
    (``_leads_in``), as does a clause that is only its time ("凌晨两点 朵朵烧到39度5": said back without
    its time it was nothing, and the lead a bare "早。上次你说", morning_dev42). Said back as the matter,
    "跟你说个事" of "跟你说个事，房东突然说下个月要涨五百房租" made the lead "早。跟你说个事的事，你"
    (morning_dev25). The first clause when every one leads in.

    A first clause that only reacts (``reading``, reaction.py: "真的是全世界最蠢的人 被骗了两千",
    "honestly burnt out, 12 hour days all week") gives way to the clause with content that reads
    least as a reaction, when that one reads as what happened."""
    told = [
        i
        for i, c in enumerate(clauses)
        if not _leads_in(c.strip()) and index.content_words(_untimed(c.strip())) > 0
    ]
    if not told:
        return 0
    first = told[0]
    if not reaction.reacts(reading, clauses[first]):
        return first
    read = [i for i in told if clauses[i].strip() in reading]
    best = min(read, key=lambda i: reading[clauses[i].strip()])
    return best if reaction.tells(reading, clauses[best]) else first


# Where the user's first English clause ends: a mark, or a conjunction that starts another.
# (not the point of a title: "he's in detox at St. Mary's" was said back as "…at St,"; not a mark
# between digits: "signed up for a 6:30am spin class" was said back "you signed up for a 6,")
_CLAUSE_END_EN = re.compile(
    r"(?<!\bSt)(?<!\bDr)(?<!\bMr)(?<!\bMrs)(?<!\bMs)(?:(?<!\d)[.:]|[.:](?!\d))|[,;!?…()]"
    r"|\s[-–—]\s|\s(?:and|but|so|because|cause|cuz|bc|though|lol|haha|omg)\b",
    re.I,
)
# How a clause that says a matter in a sentence of its own starts: its subject (a pronoun, a
# determiner, whose), or, with the subject dropped as people do, an -ing ("getting my wisdom teeth
# out": "you're getting your wisdom teeth out"). Not every clause: a line typed without its "I"
# or after a filler ("been waking at 3am", "ugh so the agency wants me back") is left to the model
# after a bare "Last time you said". Said back, the 1.5B named the matter less (28 -> 26 of 30 on
# fifteen such dev scenes) and went on as the user after the comma ("…anxious feeling, I was
# worried"): perf/RESULTS.md, morning_bare_s44.
_SUBJECT_EN = re.compile(
    r"^(?:i|i'm|i've|i'll|we|we're|we've|we'll|my|our|the|a|an|this|that"
    r"|they|they're|they've|he|he's|she|she's|it's)\b",
    re.I,
)
# Someone or something named in one word and what it does or is, a verb that cannot be a noun
# after it: "landlord's trying to keep our deposit", "Biscuit's gone", "Mochi hasn't come home",
# "mechanic wants 900 quid", "rent's going up" (the first clauses of the English matters the
# scripted leads of the dev sets left bare). After a bare "Last time you said" the 1.5B named the
# evening's feeling or another line.
_NAMED_EN = re.compile(
    r"^(?!(?:finally|just|so|ok|okay|well|still|also|anyway|honestly|literally|really|ugh|lol|omg"
    r"|yeah|now|then|today|tonight|nothing|everything|something|anything|nobody|everyone|someone"
    r"|there|what|which|who|it)\b)[a-z]+(?:'s (?:[a-z]+ing|been|gone|got|had|due|back|out|home|in|off)"
    r"| (?:is|are|was|were|has|hasn't|have|haven't|had|wants|said|says|got|gets|keeps|won't|can't"
    r"|didn't|doesn't|isn't|wasn't|will|just|finally|still|never))\b",
    re.I,
)
# An -ing with an object or a particle after it: a verb ("getting my…", "seeing the client",
# "meeting with HR"), not a noun that ends so ("nothing is packed", "morning run", "wedding prep").
# So is what they are about to do: "gonna finally call my dad about it" ("you're gonna…"; said
# back as it was, "Last time you said gonna finally call your dad", dev3 with the 1.5B).
_DROPPED_EN = re.compile(
    r"^(?:[a-z]+ing (?:my|our|the|a|an|his|her|their|up|out|in|on|off|to|for|with|back|home)\b"
    r"|(?:gonna|about to) )",
    re.I,
)
# A past verb with an object or a particle after it, the subject dropped as people type it: "got put
# on a PIP today", "filed in small claims", "found a lump", "lost my grandma's ring" ("you got put on
# a PIP"). After a bare "Last time you said" the 1.5B went on with the feeling of the evening ("you
# were feeling low", morning_dev39's train half). "got" takes any word ("got fired"); "need to" is
# said back too ("you need to tell them yes or no"); not a feeling said as a participle ("stressed
# about", "tired of": no object of that kind follows).
_DONE_EN = re.compile(
    r"^(?:got \w+|(?:[a-z]{3,}ed|need|had|went|lost|found|took|made|told|saw|left|broke|fell|sent|paid"
    r"|bought|gave|heard|spent|did) (?:my|our|the|a|an|his|her|their|this|that|these|some|up"
    r"|out|in|on|off|to|for|with|back|home|into|at|by)\b)",
    re.I,
)
# A name, capitalised, and what it does in the present: "Leo starts at his new school", "Sam gets his
# biopsy results" (a loss's quote opens on the line that named them, scheduler/someone.py). Not a
# word that is capitalised only for starting the line ("Tomorrow is", "Work sucks": features.py's
# closed class, and a capital at the start is all such a word has).
_NAME_DOES_EN = re.compile(r"^([A-Z][a-z]+) [a-z]{2,}s\b")


def _named_does(clause: str) -> bool:
    m = _NAME_DOES_EN.match(clause)
    return m is not None and someone.may_be_name(m.group(1))


CLAUSE_WORDS = (3, 12)  # an English clause this long names a matter
# Where a clause longer than that may end: before what it goes on with ("…small claims court | over
# the deposit my old landlord kept"), once it has said this many words.
_GOES_ON_EN = frozenset(
    "over about for because since after before with from until while when which who that where".split()
)
_CUT_AT_LEAST = 5
# A word a cut may not end on: a verb run into its subject ("something bad's" of "…bad's about to
# happen"), or one that needs what follows ("like", "than").
_HALF_SAID_EN = re.compile(r"(?:['’]s|['’]re|['’]m|^(?:like|than|as|so|just|really|very))$", re.I)


def _cut_long_en(clause: str, most: int) -> str:
    """A clause of more than ``most`` words cut before the last word of ``_GOES_ON_EN`` within them,
    when at least ``_CUT_AT_LEAST`` words stay: "I have to show up in small claims court over the
    deposit my old landlord kept" is "I have to show up in small claims court". Left whole it was
    no clause to say back, and the lead was a bare "Last time you said" (morning_dev31, once
    2b4870c quoted the matter from after "got a letter"). Unchanged where there is no such word."""
    words = clause.split()
    if len(words) <= most:
        return clause
    at = max(
        (
            i
            for i in range(_CUT_AT_LEAST, most + 1)
            if words[i].lower() in _GOES_ON_EN and not _HALF_SAID_EN.search(words[i - 1])
        ),
        default=0,
    )
    return " ".join(words[:at]) if at else clause


_DANGLING_EN = re.compile(r"\s+(?:since|from|as of)$", re.I)
_OPEN_END_EN = re.compile(
    r"\b(?:is|are|was|were|be|on|at|in|by|for|until|till|this|next|the|a|to)$", re.I
)


def matter_clause_en(
    topic: str, said_ms: int | None = None, reading: Mapping[str, float] = reaction.NO_READING
) -> str | None:
    """The matter in the user's own first English clause, said back to them: its time goes (said
    another day, "tomorrow" is wrong), its first person becomes the second (person.second_person),
    a dropped subject is said ("you're getting…", "you got put on…"); None where no pronoun,
    determiner, verb in -ing, past verb with its object, or one word before a verb that is no noun
    ("dad gets his cast off", their kin said back as theirs) starts it (without one it may be no
    sentence to say back after "you said", "wed at the clinic"), where its time taken out left it
    unfinished, or for other than ``CLAUSE_WORDS`` words. ``said_ms``: when it was said, for the
    clause of a date ahead (``matter_clause``)."""
    said = quoted(topic)
    if not said:
        return None
    clause = _untimed(matter_clause(said[0].strip(), _CLAUSE_END_EN, said_ms, reading))
    # its time taken out left "since" or "from" with nothing after it: "Mochi hasn't come home since"
    clause = _DANGLING_EN.sub("", clause)
    low, high = CLAUSE_WORDS
    clause = _cut_long_en(clause, high)
    if not low <= len(clause.split()) <= high or cjk.has(clause):
        return None
    if _OPEN_END_EN.search(clause):
        return None  # its time taken out left it unfinished: "the interview at Brightwell is"
    if _DROPPED_EN.match(clause):
        clause = "i'm " + clause[0].lower() + clause[1:]
    elif _DONE_EN.match(clause):
        clause = "i " + clause[0].lower() + clause[1:]
    elif (_NAMED_EN.match(clause) or _named_does(clause)) and not _SUBJECT_EN.match(clause):
        # a name keeps its capital ("Pepper's getting…"); their kin is theirs, as a friend says it:
        # "your dad's having his hernia op". (After "you said dad's having his hernia op," the 1.5B
        # went on as the user, "I was so worried", in one of two seeds of morning_dev16's test half;
        # with "your" it still did in that seed: the role check, not this, is what catches it.)
        first = re.match(r"[a-z]+", clause, re.I)
        kin = first is not None and first.group().lower() in KIN_EN
        return ("your " if kin else "") + person.second_person(clause)
    elif not _SUBJECT_EN.match(clause):
        return None
    said_back = person.second_person(clause)
    # mid-sentence after "you said": "Your sister's due" is "your sister's due"
    return said_back[0].lower() + said_back[1:]


# (not a point or a comma between digits: "烧到39.5度了" was said back as "烧到39")
_CLAUSE_END = re.compile(r"[，。!！?？…；;~～\s]|(?<!\d)[.,]|[.,](?!\d)")
# (and a 的 that ends it: "本来要搬进去的" led "本来要搬进去的的事")
_TAIL = re.compile(r"(?:的事|的)?[了啦呢吧啊呀哦喔嘛]*$")
_OF_IT = re.compile(r"的事$")
# What heads a clause of the user's own plan before its verb, once its time is cut: a conjunction
# that joined it to the clause before ("可我下个月要交房租了": the lead said "可你要交房租的事"; "但房贷还在
# 审批" was said back with its 但, morning_dev36; 可 alone only before 我 or an adverb: 可能, 可乐), the
# adverbs and the modal (text/owed.py's closed class), which said back the next day would say it
# still has to be. Not the 要 of 要是 ("if") or 要不 ("or else"): "要是还不退就去儿科" lost it and read
# "是还不退…" (morning_dev42).
_HEAD = re.compile(
    r"^(?:可是|但是|但(?!愿)|不过|而且|所以|然后|可(?=我|[还也又都就先再得要必需打准]))?"
    r"(?:我)?(?:一大?早)?[还也又都就先再]*"
    r"(?:得|要(?![是不])|必须|需要|打算|准备)?"
)
# 我 heading the clause is its subject (dropped: "我周四考教资面试" → "考教资面试") unless it is
# whose (我家, 我的, 我妈, 我们家: said back as 你家, 你的, 你妈, 你们家).
# 妹, 姐, 哥, 弟 alone are kin too ("我妹林晓五月结婚": the lead said "妹林晓…", the name run into
# the kin word, morning13); the closed class of one-character kin words RELATIONS does not hold.
_KIN = "妹姐哥弟"
_WHOSE = re.compile(
    f"^我(?=[家的们{_KIN}]|" + "|".join(sorted(RELATIONS, key=len, reverse=True)) + ")"
)
NAME_CHARS = (3, 12)  # a clause this long names a matter; longer is a sentence, shorter a fragment
EVENT_CHARS = 2  # ... or this long, when it is what is left of a clause after its time ("路演")
# ... and one this long may be said back whole ("上次你说新版本一上线就把支付搞挂了，"): a sentence is
# what "上次你说" reports. Held to NAME_CHARS, a 13-character first clause left the bare "上次你说",
# and the 1.5B went on "的那件事，怎么了？" (morning_dev18's train half).
SAID_CHARS = 20


def matter_name(
    topic: str,
    particles: bool = False,
    said_ms: int | None = None,
    sentence: bool = False,
    reading: Mapping[str, float] = reaction.NO_READING,
) -> str | None:
    """The matter in the user's own first clause, when no event word names it: "周四要去见男朋友爸妈了，
    他爸以前是法官" → "去见男朋友爸妈" (the lead "早。去见男朋友爸妈的事，你"). With no word of the
    list the lead fell back to "上次你说", and the model, told what is ahead, wrote of it as of a
    feeling or drifted ("二面" is no word of the list: issue 25's held-out set 4). Said back another
    day, the clause loses its time and its modal (a "明天得去找中介退押金" of yesterday is today's
    "去找中介退押金", morning12: the lead said "明天…" on the day itself), its 我 becomes 你 (后天得带我爸
    去做胃镜 → 带你爸去做胃镜) and its sentence-final particles go; a clause of more than
    ``NAME_CHARS`` characters is no name. ``particles``: keep them (what they said goes on after
    it, "上次你说豆豆在小区走丢了，"); a "的事" is dropped either way (the lead adds its own).
    ``sentence``: a clause of up to ``SAID_CHARS`` is said back whole (not a loss: a long painful
    sentence quoted back is heavy, and the gentle lead leaves it to the model).
    ``said_ms``: when it was said, for the clause of a date ahead (``matter_clause``)."""
    said = quoted(topic)
    if not said:
        return None
    whole = matter_clause(said[0].strip(), _CLAUSE_END, said_ms, reading)
    clause = untimed = _untimed(whole)
    clause = (
        _WHOSE.sub("你", clause, count=1)
        if _WHOSE.match(clause)
        else _HEAD.sub("", clause, count=1)
    )
    clause = (_OF_IT if particles else _TAIL).sub("", clause).replace("我", "你")
    low, high = NAME_CHARS[0], SAID_CHARS if sentence else NAME_CHARS[1]
    if not sentence and _event_left(clause) and untimed != whole.strip():
        # what is left of a clause once its time and its modal are cut may be the event itself in
        # two characters: "明天下午路演" → "路演", "明天还要复诊" → "复诊" ("上次说的路演"); with
        # none, the lead fell back to a bare "上次你说" (morning_dev36, dev35's train half)
        low = EVENT_CHARS
    return clause if low <= len(clause) <= high and cjk.has(clause) else None
