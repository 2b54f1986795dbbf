"""The companion's voice, checked sentence by sentence while the reply streams.

Small models lose who is speaking. Answering "嗨，我回来了。", the 1.5B wrote "嗨！我回来了，感觉好多
了。你呢？": the user's words, then the user's feeling, in the first person; asked about 林晓 and May,
it wrote "林晓五": a name from memory fused with the next word. A friend never does either, and the
prompt alone did not stop it (issue 25). So every sentence the model writes is held until it ends
(。！？.!? or a line break: a few tokens) and checked before the user reads it:

- role: it does not speak as the user: it does not repeat the user's own first-person words ("我回
  来了", "I'm back") and does not say the user's state as its own ("我好累", "I'm exhausted"), also
  without a "我" (`make demo`'s evening, answered "累得要死！" and "我睡会儿"): a state with a degree
  complement, a first-person verb taken from the user's words, a short sentence repeating the state
  the user gave as theirs ("Exhausted!"), a feeling without a subject ("终于回家了，感觉好累。"),
  "I", "my" or "me" followed by the user's words before another subject starts ("My legs are
  jelly too", not "I'm so glad the check-up went well"), none of them addressing the listener or
  asking (a friend says "累坏了吧？", "感觉你很累"), nor a state of its own in a word the user used of
  theirs, in their newest message or the check-in's quote ("I was so worried" after "you said your
  dad's having his hernia op", whose evening said "worried"; ``states_their_word``). The
  first characters of each sentence are held until it ends or is long enough to tell, since such a
  sentence has no "我" to hold it by;
- parrot: it does not hand the user their own words back as its own: a sentence of some length
  (6 tokens with Chinese in it, 5 words) that, aligned to the user's newest message or to the words
  of theirs the check-in quotes (echo.py), opens with their words, is at least ``PARROT_SHARE`` their
  words in their order and walks through at least ``PARROT_COVER`` of what they said, so that a word
  swapped and a tail added do not hide it: `make demo`'s 1.5B answered "只想睡觉。明天还得跟经理讲清楚
  修复方案。" with "只想睡觉，明天还得跟领导说清楚修复方案，真是辛苦了！", and, led with "早。上次你说",
  wrote "…我理解你的疲惫。今天加班到十点半，脑子已经转不动了。" (perf/eval/morning.py's dev scenes): the
  user's line said as the companion's own. A sentence that says whose words they are ("你说…", "you
  said…", also when the daemon's lead began it), asks, turns the copied clause to the listener
  ("你明天还得…") or picks up one phrase and answers it ("医生说恢复得不错，太好了！") is a friend's
  echo and passes. The same two shares read without order (token pairs inside a clause, echo.pairs)
  catch the user's clauses said back in another order ("现在还在生气，今天跟同事吵了一架。" to "今天跟
  同事吵了一架，现在还在生气。"), unless the sentence speaks to the listener;
- names: every name from memory it uses is whole and exact: not cut ("Alvar" for "Alvarez", "林" +
  "晓" missing), not run into letters ("Alvarezy"), not fused with a numeral that had no unit of its
  own ("林晓五的喜好", the 1.5B's fusion of 林晓 and 五月) or with the start of another name from memory
  ("周敏杭"), and not misspelt: its characters swapped ("晓林"), one changed after the surname
  ("王思元"), a capitalised near-spelling ("Harbour Food" for "Harbor Foods");
- cheer: it does not applaud a hardship: a short glad sentence with nothing of theirs in it
  ("That's great to hear!", "太棒了！") when the user told of a bad day (cheer.py reads both);
- person: the user's words recited after "you said" ("上次你说…她现在见了我就当没看见") are turned to
  the listener ("见了你") before the sentence is checked and sent, as reported speech turns them
  (person.py), not dropped; but a question the user asked of themselves ("我是不是有病", "am I
  overreacting") is not said back as the companion's question to them ("你是不是有病", read as an
  insult): its clause is left out (``their_question``, person.recites_their_question);
- assistant: it does not speak as a generic assistant: it does not call itself an AI, a model or a
  program, say it lacks what a program lacks (real-time information, feelings, opinions of its own)
  or offer service ("How can I assist you today?", "有什么可以帮您的吗？"), unless the user asked what
  it is (assistant.py). Its cue words ("As an AI", "作为", "assist", "帮") hold the sentence as "我"
  does, so that "As an AI language model," is not sent before the sentence shows what it is.

A sentence that breaks a rule is not sent, and the reply ends before it: the sentences before it
stand, and of the broken one its whole clauses before the break. Text goes out a whole clause at a
time (the clause being written is held with its comma), so a reply that stops, on a break or at
``max_tokens`` (``finish(cut=True)`` leaves the open clause out), ends on a whole clause and gets a
full stop (``end``): `make demo`'s 1.5B evening showed "你终于回家了，" after "感觉好累。" was dropped.
When the first sentence of the model's own words breaks one, there is nothing to keep, and
the turn asks once more, continuing after what the user has already read (a provider that continues
a prefix does exactly that; xaid/providers/llama_prefix.py); a second break ends the reply at what
was kept, or, with nothing kept, keeps the second answer rather than losing the turn. Each case is
counted (``voice_dropped``, ``voice_retries``, ``voice_failed`` in ``stats``).

The check is rules, in English and Chinese, and sees only text: it cannot tell a quoted "I'm back"
from the model speaking as the user, and prefers to drop the sentence.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass

from ..text import cjk, stopwords, timeparse
from . import assistant, cheer, echo, person, stance
from .greetings import greeting_echo
from .person import quoting as _quoting

# A sentence ends at these marks; "3. " at a line's start numbers a list's item, it ends nothing.
_END = re.compile(r"[。！？!?\n]|(?<!\n\d)(?<!\n\d\d)(?<!^\d)(?<!^\d\d)\.(?=\s)|…")
SENTENCE_END = _END  # where the gate checks a sentence; check-in candidates count sentences by it
_USER_CLAUSE_ZH = re.compile(f"我[{cjk.IDEOGRAPHS}]{{1,5}}")
_USER_CLAUSE_EN = re.compile(r"\bI(?:'m| am) [a-z]+(?: [a-z]+)?", re.I)
_STATE_ZH = re.compile(
    r"我(?:也|还|今天|现在|终于|已经|真的)?(?:回来了|到家了|好累|很累|太累|累死了|累坏了|好困|好紧张|很紧张|好害怕|"
    r"感觉好多了|好多了|心里难受|好难受)"
)
_STATE_EN = re.compile(
    r"\bI(?:'m| am)(?: so| really| a bit| just| finally| completely| totally)? "
    r"(?:back|home|exhausted|tired|wiped out|nervous|scared|terrified|stressed|feeling better)\b",
    re.I,
)
# A numeral right after a name is a fusion unless a unit makes it a date, a time or a count of its
# own: "林晓五的喜好" (林晓 + 五月 in memory) is broken, "林晓五月要来" and "林晓三点到" are not.
_NUMERAL = "〇二三四五六七八九十两"  # not 一, which mostly starts a word: "杭州一定很好玩"
_UNIT = set("月日号点岁年天次个位遍周分")
NAME_LIKE = (
    0.8  # how alike a capitalised word must be to a name from memory to be that name misspelt
)
_NAME_EN = re.compile(r"(?<![.!?]\s)(?<!^)\b([A-Z][a-z]{2,}(?:\s[A-Z][a-z]+)?)")
_NAME_ZH = re.compile(
    r"(?:跟|和|找|叫|陪|给|同事|朋友|姐姐|妹妹|哥哥|弟弟|男朋友|女朋友|老公|老婆|猫|狗)"
    f"([{cjk.IDEOGRAPHS}]{{2,3}}?)"
    r"(?=[大说的了吵去来在是要和一复看谈聊见吃不也都还就又很，。！？、])"
)


# A sentence in the user's voice need not say "我": "累得要死！" (the 1.5B's reply to "终于到家了。我筋
# 疲力尽") is a state with a degree complement, the speaker's own; "我睡会儿" (to "只想睡觉") is the
# user's own wish in the first person. Neither addresses the listener nor asks: a friend's echo of
# a state does ("累坏了吧？", "你一定很累").
_LISTENER = re.compile(r"你|您|\byou\b|\byour|\bu\b", re.I)
_ASKS = re.compile(r"[？?吗吧呢]|\bhuh\b|\bright\b", re.I)
_COMPLEMENT_ZH = "(?:得要死|得要命|得不行|死了|坏了|瘫了|炸了|透了|死我了)"
# ... at the sentence's start, or said of oneself at a clause's: "终于到家啦，我真是累得要命了。" (the
# 1.5B's whole reply to the demo's "终于到家了。我筋疲力尽…", perf voice_live)
_DEGREE_ZH = re.compile(
    f"^(?!我)[{cjk.IDEOGRAPHS}]{{1,3}}{_COMPLEMENT_ZH}"
    f"|(?:^|(?<=[，,、]))我(?![^，,。！？]*笑)[{cjk.IDEOGRAPHS}]{{0,3}}?[{cjk.IDEOGRAPHS}]{{1,2}}{_COMPLEMENT_ZH}"
)  # not laughter: "哈哈，我笑死了" answers the listener's joke, it is no state of one's day
_FIRST_VERB_ZH = re.compile(f"我([{cjk.IDEOGRAPHS}]{{1,4}})")  # what the speaker says of themself
_FUNCTION_ZH = stopwords.CJK_PAIR | set("我会想要得着过去来个上下说让把被给和跟儿")
_FIRST_PERSON_EN = re.compile(r"\bI\b|\b(?:my|me)\b", re.I)
# A word that starts a clause of someone else's: the user's words after it are not said of oneself.
_NEW_SUBJECT = frozenset("you your he she it they we the this that there his her their its".split())
_ADVERBS = frozenset("so really totally completely absolutely just very".split())
# States of one's body and mood said as a sentence alone ("Relieved, but tired."): a closed class.
_FELT_EN = frozenset(
    "tired exhausted relieved drained sleepy sore stressed nervous anxious scared worried upset "
    "wiped fried spent wrecked shattered knackered beat done happy glad sick starving hungry "
    "cold freezing".split()
)
_STATED_EN = re.compile(r"\bI(?:'m| am| feel| felt)((?: [a-z]+){1,3})", re.I)  # "I'm exhausted"
# A feeling without a subject is the speaker's: "感觉好累。" (the 1.5B's evening reply, after "终于回家
# 了，"), unless it is about the listener or asks ("感觉你很累", "感觉好点了吗？").
_FELT_ZH = re.compile(r"^(?:感觉|觉得)[^你您？?吗吧呢]*$")
# A parrot (see the module docstring and echo.py): of a sentence aligned to the user's words, the
# share that is theirs in their order, and the share of what they said it walks through.
PARROT_SHARE = 0.6
PARROT_COVER = 0.6
PARROT_OPENS = 3  # tokens before the first copied run: "嗯嗯，只想睡觉…" still opens with theirs
PARROT_MIN_HAN = 6  # tokens of a sentence with Chinese in it; below, an exclamation ("五公里！")
PARROT_MIN_WORDS = 5
PARROT_WALKS, PARROT_SHARE_TAIL = 0.75, 0.4  # nearly all of theirs, then a tail of its own
PARROT_WALK_MIN = 8  # tokens of their sentence before walking through it says more than a phrase
PARROT_WHOLE_MIN = 4  # tokens of a short sentence of theirs said back whole ("只想睡觉。")
SHORT_ECHO_MIN, SHORT_ECHO_COVER = 3, 0.7  # a short sentence of one clause of theirs
# The particles that colour a Chinese clause's mood without adding to what it says (a closed class):
# "终于到家啦。" is "终于到家了。" said back, which the set of its characters hid by one (morning14); 吧,
# 呢 and 吗 ask, and stay.
_MOOD_PARTICLES = frozenset("了啦呀啊哦嘛喔咯")
_FIRST_PERSON_TOKENS = frozenset({"我", "i", "im", "my", "me"})  # as echo.tokens spells them
_QUOTED = re.compile(r"“[^”]*(?:”|$)|\"[^\"]*(?:\"|$)|「[^」]*(?:」|$)")
_QUESTION = re.compile(r"[？?]|[吗呢][。！!]?\s*$")
_CLAUSE = re.compile(r"[，,、；;：:—]")
_CLAUSES = re.compile(r"[。！？!?\n，,、；;：:—…]|\.(?=\s|$)")  # a message cut into its clauses
_ATTRIBUTED = re.compile(
    r"你(?:刚才|之前|上次|昨天)?(?:说|提到|讲|告诉)|上次|\byou(?: just)? (?:said|mentioned|told|wrote)|"
    r"\blast time\b|\byesterday you\b",
    re.I,
)
HEAD = 8  # characters of a sentence's start held until its end or until this many have come
HEAD_LATIN = 16


def _content_zh(text: str) -> set[str]:
    return {c for c in cjk.HAN.findall(text) if c not in _FUNCTION_ZH}


def _content_en(text: str) -> set[str]:
    words = re.findall(r"[a-z']{4,}", text.lower())
    return {w for w in words if w not in stopwords.ENGLISH}


def echoes_user(sentence: str, said: str) -> int | None:
    """Where ``sentence`` starts saying the user's own state or wish as the speaker's, without a
    "我" or "I'm" the state list knows, or None: a state with a degree complement ("累得要死！", from
    its start), the first person with words taken from the user's ("我睡会儿" after "只想睡觉",
    "让我有点慌" after "有点慌", from the 我), or a short sentence without a subject that repeats
    the state the user gave as theirs ("Exhausted!" after "I'm exhausted"); never when it addresses
    the listener or asks."""
    if _LISTENER.search(sentence) or _ASKS.search(sentence):
        return None
    body = sentence.strip()
    if degree := _DEGREE_ZH.search(body):
        return sentence.find(body[:1]) + degree.start()
    heard = timeparse.without_times(said)
    for own in _FIRST_VERB_ZH.finditer(sentence):
        if _content_zh(own.group(1)) & _content_zh(heard):
            return own.start()
    if (i := _first_person_en(sentence, heard)) is not None:
        return i
    states = _content_en(" ".join(_STATED_EN.findall(said.replace("’", "'"))))
    words = _content_en(body)
    # After the user said a state of theirs, a short sentence of states alone is the speaker's
    # state, theirs or one of its kind: `make demo`'s 1.5B answered "Home at last. I'm exhausted…"
    # with "Relieved, but tired." (session 34).
    felt = states | (_FELT_EN if states else frozenset())
    if len(re.findall(r"[A-Za-z']+", body)) <= 4 and words & felt and not words - felt - _ADVERBS:
        return sentence.find(body[:1])  # the state alone ("Exhausted!"), not "Welcome back!"
    return None


def _first_person_en(sentence: str, heard: str) -> int | None:
    """Where the speaker says the user's words of themself: "I", "my" or "me" followed, before the
    clause ends or another subject starts ("I'm so glad the check-up went well" is the
    companion's gladness about the user's check-up), by a word of the user's ("I can't sleep
    either", "My legs are jelly too")."""
    theirs = {w for w in re.findall(r"[a-z]{3,}", heard.lower()) if w not in stopwords.ENGLISH}
    for m in _FIRST_PERSON_EN.finditer(sentence):
        for word in re.findall(r"[a-z']+|[^\sa-z']", sentence[m.end() :].lower()):
            if not word[0].isalpha() and word[0] != "'":
                break  # the clause ends
            if word in _NEW_SUBJECT:
                break
            if word in theirs:
                return m.start()
    return None


def parrots(sentence: str, heard: Iterable[str], before: str = "", whole: bool = True) -> bool:
    """``sentence`` hands back the user's own words (``heard``: their newest message, the words of
    theirs the check-in quotes) as the speaker's: aligned to one of them (echo.py), it opens with
    their words (``PARROT_OPENS``: an interjection may come first), at least ``PARROT_SHARE`` of it
    is their words in their order, and it walks through at least ``PARROT_COVER`` of what they
    said, whatever word it swapped or tail it added. Not when it says whose words they are
    (``before``: the words of the same sentence already sent, the daemon's lead "上次你说"), asks,
    or turns the copied clause to the listener ("你明天还得…"). Not ``whole``: the start of a
    sentence still streaming, which could still become one (any length, any coverage)."""
    body = sentence.strip()
    if _ATTRIBUTED.search(before + body) or (whole and _QUESTION.search(body)):
        return False
    body = _QUOTED.sub("", body)  # a quotation says whose words it holds
    if not whole:
        return _parrot(body, heard, False)
    starts = [0]
    if (first := _CLAUSE.search(body)) and len(echo.tokens(body[: first.start()])) <= PARROT_OPENS:
        starts.append(first.end())  # after an opener: "You remember: I went to Hangzhou…"
    return any(_parrot(body[i:].strip(), heard, True) for i in starts)


def _parrot(body: str, heard: Iterable[str], whole: bool) -> bool:
    """``parrots`` from the start of ``body``: a whole sentence is read from its start and, after
    a short opening clause (``PARROT_OPENS`` tokens), from its second clause, as the gate read it
    when it had sent the opener already."""
    if not whole and not cjk.has(body) and re.search(r"\w$", body):
        body = re.sub(r"\w+$", "", body)  # its last word may still be growing ("sle" of "sleep")
    mine = echo.tokens(body)
    short = len(mine) < (PARROT_MIN_HAN if cjk.has(body) else PARROT_MIN_WORDS)
    if not whole and len(mine) <= PARROT_OPENS + echo.MIN_RUN:
        theirs = {t.key for text in heard for t in echo.tokens(text)}
        if any(t.key in theirs for t in mine):
            return True  # too early to tell: no run of theirs yet, but their words start it
    if not (whole and short) and _reordered(body, heard, whole):
        return True  # not whole: so far the user's pairs, held in case it covers theirs
    if whole and short and _short_echo(body, heard):
        return True
    return any(
        found.copied
        and found.first <= PARROT_OPENS
        and (not whole or _theirs(found, short))
        and not _to_listener(body, found.spans)
        for text in heard
        for found in echo.align(body, text)
    )


def _short_echo(body: str, heard: Iterable[str]) -> bool:
    """A short sentence made of nothing but the words of one clause of theirs, in any order, and
    most of that clause: `make demo`'s 1.5B answered "终于到家了。我筋疲力尽…" with "终于到了家。" and
    "只想睡觉。…" with "想睡觉。", too short for the other rules (a word moved, a word left out); in
    English "Home at last." to "Home at last. I'm exhausted…". A friend answers such a line with
    words of its own ("到家就好。", "睡吧。", "Finally!"). Not a greeting said back ("早上好！" to
    "早上好。", "Good morning!"), nor a sentence to the listener."""
    mine = {t.key for t in echo.tokens(body)} - _MOOD_PARTICLES
    if len(mine) < SHORT_ECHO_MIN or _LISTENER.search(body):
        return False
    for text in heard:
        for clause in _CLAUSES.split(text):
            theirs = {t.key for t in echo.tokens(clause)} - _MOOD_PARTICLES
            if not theirs or greeting_echo(clause, "zh") or greeting_echo(clause, "en"):
                continue
            if mine <= theirs and len(mine) >= SHORT_ECHO_COVER * len(theirs):
                return True
    return False


# A fact of theirs restated as the companion's own statement: `make demo`'s Chinese evening answered
# "…电话会一直开到九点。" with "电话会一直持续到晚上九点。": a word swapped and one added, so no run
# walks through their sentence, and it covers a clause of a long sentence, not the sentence.
# Content tokens only (no function characters, no English stopwords). The cover was 0.6 first: on
# voice_dev8's train half it dropped two fine replies, "跟周敏去杭州一定很好玩！" (5 of the 7 content
# tokens of "周六跟周敏去杭州玩") and "恭喜你！通过了驾照科目二。" (5 of 8); the demo's restatement
# covers 6 of 7.
RESTATE_SHARE, RESTATE_COVER = 0.6, 0.8  # of the sentence's tokens, and of their clause's
RESTATE_MIN = 4  # content tokens of a clause of theirs that is a fact to restate


# The speaker's own judgement of what was said, a closed class of modal and degree adverbs ("跟周敏去
# 杭州一定很好玩！" answers; "I bet", "so", "must"): said where the user's words have none, the
# sentence responds, it does not restate.
_JUDGED = re.compile(
    r"一定|肯定|应该|估计|可能|真|太|挺|蛮|非常|特别|"
    r"\b(?:must|surely|probably|bet|so|really|such|sounds?|seems?)\b",
    re.I,
)


def _judges(body: str, heard: Iterable[str]) -> bool:
    theirs = " ".join(heard).lower()
    return any(m.group(0).lower() not in theirs for m in _JUDGED.finditer(body))


def _keys(text: str) -> set[str]:
    keys = {t.key.lower() for t in echo.tokens(text)} - _MOOD_PARTICLES - _FUNCTION_ZH
    return keys - stopwords.ENGLISH - _FIRST_PERSON_TOKENS


def restates(sentence: str, heard: Iterable[str], before: str = "") -> bool:
    """``sentence`` says clauses of the user's (``heard``) back as a statement of its own, in any
    order and words swapped: each of its clauses is mostly (``RESTATE_SHARE``) the tokens of a
    clause of theirs, and the sentence holds most (``RESTATE_COVER``) of one clause of theirs. Not when it
    responds at all: it asks, speaks to the listener, says whose words they are, quotes them, or
    one of its clauses is its own ("电话会开到九点，真辛苦" answers)."""
    body = sentence.strip()
    if (
        _ATTRIBUTED.search(before + body)
        or _QUESTION.search(body)
        or _LISTENER.search(body)
        or _ASKS.search(body)
    ):
        return False
    heard = tuple(heard)
    body = _QUOTED.sub("", body)
    if _judges(body, heard):
        return False
    mine = _keys(body)
    if len(mine) < (PARROT_MIN_HAN if cjk.has(body) else PARROT_MIN_WORDS):
        return False
    theirs = [
        keys for text in heard for c in _CLAUSES.split(text) if len(keys := _keys(c)) >= RESTATE_MIN
    ]
    own = [keys for c in _CLAUSES.split(body) if (keys := _keys(c))]

    def mostly_theirs(part: set[str]) -> bool:
        return any(len(part & t) >= RESTATE_SHARE * len(part) for t in theirs)

    return all(mostly_theirs(part) for part in own) and any(
        len(mine & t) >= RESTATE_COVER * len(t) for t in theirs
    )


def _reordered(sentence: str, heard: Iterable[str], whole: bool = True) -> bool:
    """The user's words in another order: at least ``PARROT_SHARE`` of the sentence's token pairs
    are theirs and it holds at least ``PARROT_COVER`` of theirs (echo.pairs), said to nobody ("现在
    还在生气，今天跟同事吵了一架。" to "今天跟同事吵了一架，现在还在生气。"); a sentence that speaks to the
    listener ("你今天跟同事吵架了") is a friend's echo. Not ``whole``: the sentence so far, which may
    still come to cover theirs."""
    if _LISTENER.search(sentence):
        return False
    return any(
        p.share >= PARROT_SHARE and (p.coverage >= PARROT_COVER or not whole)
        for text in heard
        for p in echo.pairs(sentence, text)
    )


def _theirs(found: echo.Echo, short: bool) -> bool:
    """An aligned sentence is the user's words: most of it theirs and most of theirs in it; or
    nearly all of one sentence of theirs with a tail of its own words after it ("只想睡觉。
    tomorrow还得跟经理講清楚修复方案，确保一切都安排妥当。", the 1.5B answering the demo's line with the
    copy block on); a short sentence only when it is one of theirs whole ("只想睡觉。")."""
    if short:
        return found.copied >= PARROT_WHOLE_MIN and min(found.share, found.coverage) >= 0.9
    return (
        (found.share >= PARROT_SHARE and found.coverage >= PARROT_COVER)
        or (
            found.theirs >= PARROT_WALK_MIN
            and found.coverage >= PARROT_WALKS
            and found.share >= PARROT_SHARE_TAIL
        )
    )  # a long sentence of theirs: "终于到家了，好好休息一下。" walks through a short one and answers


def copies_their_first_person(sentence: str, said: str, before: str = "") -> bool:
    """A run of three or more of the user's words copied with their first person inside it ("老板批
    评我，很丢人。" to "老板今天当着全组的面批评我，好丢人。"; "called me out"): the user's own mouth, unless
    the sentence says whose words they are. A run that starts with it ("我觉得…") may be the
    companion's own opinion and is left to the other rules."""
    if _ATTRIBUTED.search(before + sentence):
        return False
    for found in echo.align(sentence, said):
        for start, end in found.spans:
            if _quoting(before + sentence[:start]):
                continue  # inside a quotation the sentence opened: their words as theirs
            run = [t.key for t in echo.tokens(sentence[start:end])]
            if len(run) >= 3 and any(t in _FIRST_PERSON_TOKENS for t in run[1:]):
                return True
    return False


def addresses_itself(sentence: str, own: str) -> bool:
    """The companion's own name as the one spoken to, after the sentence's start: "That's good,
    Mia.", "I understand how hard it is, Mia." (the 1.5B, perf voice_live and replies): set off by a
    comma and ending the clause. The opening's "Morning, Mia!" is opening.py's to mend; "我是小雅"
    and "Mia is here" name the speaker, not the listener."""
    return re.search(rf"[,，]\s*{re.escape(own)}\s*(?=[.!?。！？,，]|$)", sentence) is not None


def _to_listener(sentence: str, spans: Iterable[tuple[int, int]]) -> bool:
    """A copied clause turned to the listener ("你明天还得跟老板讲清楚"): a friend's echo."""
    for start, end in spans:
        left = max((m.end() for m in _CLAUSE.finditer(sentence, 0, start)), default=0)
        right = next((m.start() for m in _CLAUSE.finditer(sentence, end)), len(sentence))
        if _LISTENER.search(sentence[left:right]):
            return True
    return False


def quoted(topic: str | None) -> tuple[str, ...]:
    """The user's words a check-in's topic quotes (scheduler/arm.py puts them last, in quotes)."""
    m = re.search(r'"(.+)"\s*$', topic or "", re.S)
    return (m.group(1).rstrip("…"),) if m else ()


@dataclass(frozen=True, slots=True)
class Voice:
    """What one reply is checked against: the user's newest words and the names in memory."""

    said: str
    names: tuple[str, ...] = ()
    on: bool = (
        True  # llm.voice_check: off for the scripted provider, whose echo is the user's words
    )
    quoted: tuple[str, ...] = ()  # the user's earlier words the check-in quotes (``quoted``)
    own: str = ""  # the companion's own name: never the one it speaks to ("That's good, Mia.")
    hardship: bool = False  # the user told of something hard: no bare applause (cheer.py)
    numeral_words: tuple[str, ...] = ()  # words of memory before a numeral ("林晓" of "林晓五月")
    # the memory the prompt shows: where a question the user asked of themselves may be recited
    # from (person.recites_their_question), though the check-in quotes another of their lines
    memory: tuple[str, ...] = ()

    def breaks(self, sentence: str, whole: bool = False, before: str = "") -> str | None:
        """Which rule ``sentence`` breaks ("role", "parrot", "cheer", "name" or "assistant"), or None; ``whole``: the
        sentence from its start, where a state said without "我" is read too (echoes_user);
        ``before``: what of the same sentence was sent before it (the lead's words)."""
        if not self.on:
            return None
        if not _quoting(before):
            if whole and (
                parrots(sentence, (self.said, *self.quoted), before)
                or restates(sentence, (self.said, *self.quoted), before)
            ):
                return "parrot"
            if whole and (
                echoes_user(sentence, self.said) is not None
                or copies_their_first_person(sentence, self.said, before)
            ):
                return "role"
            if speaks_as_user(sentence, self.said, before):
                return "role"
            if states_their_word(sentence, (self.said, *self.quoted)):
                return "role"
            if self.quoted and stance.claims_their_part(sentence, before):
                return "role"  # an opening on their matter: its first person is a friend's stance
            if whole and self.hardship and cheer.applauds(sentence, self.said):
                return "cheer"
        if self.own and addresses_itself(before + sentence, self.own):
            return "role"
        if any(name_broken(sentence, n, self.names) for n in self.names):
            return "name"
        if any(numeral_fused(sentence, w) for w in self.numeral_words):
            return "name"
        if assistant.speaks_as_assistant(sentence, self.said) is not None:
            return "assistant"
        return None


def speaks_as_user(sentence: str, said: str, before: str = "") -> bool:
    """``sentence`` (from a risk on; ``before``: the same sentence's words before it) uses the user's
    own first-person words, a state the lists know as one's own, or a feeling without a subject
    at a clause's start ("感觉好累。", not "如果还觉得有遗漏的" in the middle of a clause)."""
    low = sentence.lower().replace("’", "'")
    own = [m.group(0) for m in _USER_CLAUSE_ZH.finditer(said)]
    own += [m.group(0).lower() for m in _USER_CLAUSE_EN.finditer(said.replace("’", "'"))]
    if any(c in sentence or c in low for c in own):
        return True
    if _FELT_ZH.match(sentence.strip()) and not cjk.HAN.search(before.rstrip()[-1:]):
        return True
    return bool(_STATE_ZH.search(sentence) or _STATE_EN.search(low))


# The speaker's own state, said with a word the user used of theirs: "I was so worried" after "you
# said your dad's having his hernia op" when they had said "he's pretending he isn't worried" (the
# 1.5B, morning_dev16's test half: the user's evening told again in their voice); "我也好紧张" after
# their "好紧张". A friend turns it to them ("I'm so worried for you", "我也替你紧张") or asks.
_OWN_STATE_EN = re.compile(
    r"\bI(?:'m| am| was| feel| felt| got| get)(?: so| really| a bit| a little| just| very| pretty"
    r"| kinda| totally)? ([a-z]+)",
    re.I,
)
# (in Chinese with its degree, which a state takes and "我知道" does not)
_OWN_STATE_ZH = re.compile(
    f"我(?:也|还|真的|都)?(?:很|好|有点|特别|太|真|超)([{cjk.IDEOGRAPHS}]{{2}})"
)
# What the speaker is in a conversation, not a state of the user's day: "Yes, I'm here!".
_PRESENT_EN = frozenset({"here", "listening"})
# After the state, the words that turn it to the listener.
_FOR_THEM = re.compile(
    r"\s*(?:for|about|with|to hear|that)?\s*(?:you|your)\b|\s*替你|\s*为你|\s*你", re.I
)


def states_their_word(sentence: str, theirs: Iterable[str]) -> bool:
    """``sentence`` says the speaker's own state ("I'm", "I was", "I feel", 我（好）) in a word of the
    user's (``theirs``: their newest message, the words of theirs the check-in quotes), not turned
    to the listener after it."""
    said = " ".join(theirs)
    if _ASKS.search(sentence):
        return False
    words = {w for w in re.findall(r"[a-z]{3,}", said.lower()) if w not in stopwords.ENGLISH}
    low = sentence.replace("\u2019", "'")
    for m in _OWN_STATE_EN.finditer(low):
        word = m.group(1).lower()
        if word in words and word not in _PRESENT_EN and not _FOR_THEM.match(low, m.end()):
            return True
    for m in _OWN_STATE_ZH.finditer(sentence):
        state = m.group(1)
        if (
            _content_zh(state) == set(state)
            and state in said
            and not _FOR_THEM.match(sentence, m.end())
        ):
            return True
    return False


def name_broken(sentence: str, name: str, others: Iterable[str] = ()) -> bool:
    """``name`` cut short, run into the next word, fused with the start of another name from memory
    (``others``: "周敏杭" of 周敏 and 杭州) or written with a character or letter of its own changed
    ("晓林" for 林晓, "王思元" for 王思远, "Harbour Food" for "Harbor Foods") in ``sentence``."""
    if cjk.has(name):
        for m in re.finditer(re.escape(name), sentence):
            nxt = sentence[m.end() : m.end() + 2]
            if nxt[:1] and nxt[:1] in _NUMERAL and nxt[1:2] not in _UNIT:
                return True
            after = sentence[m.end() :]
            if any(
                cjk.has(o) and o != name and after[:1] == o[0] and not after.startswith(o)
                for o in others
            ):
                return True
        if _garbled_zh(sentence, name):
            return True
        if len(name) >= 3:
            cut = name[:-1]
            return any(
                not sentence.startswith(name, m.start())
                for m in re.finditer(re.escape(cut), sentence)
            )
        return False
    for m in re.finditer(rf"\b{re.escape(name[: max(3, len(name) - 2)])}[A-Za-z]*", sentence):
        if m.group(0).lower() not in (name.lower(), name.lower() + "s"):
            return True
    return _garbled_en(sentence, name)


def _garbled_zh(sentence: str, name: str) -> bool:
    """The name's characters in another order ("晓林"), or, for three or more, one of them changed
    after the same surname ("王思元"): a window of the sentence as long as the name."""
    n = len(name)
    for i in range(len(sentence) - n + 1):
        window = sentence[i : i + n]
        if window == name or not cjk.has(window):
            continue
        if sorted(window) == sorted(name):
            return True
        if (
            n >= 3
            and window[0] == name[0]
            and sum(a != b for a, b in zip(window, name, strict=True)) == 1
        ):
            return not sentence.startswith(name[:-1], i)  # a cut is the cut rule's
    return False


def _garbled_en(sentence: str, name: str) -> bool:
    """Capitalised words as many as the name's and spelt nearly as it is ("Harbour Food",
    "Hangzou"): a letter or two changed (``NAME_LIKE``), not the name itself or its plural."""
    words = len(name.split())
    pattern = r"\b(?=([A-Z][a-z]+" + r"(?:\s[A-Z][a-z]+)" * (words - 1) + "))"
    for m in re.finditer(pattern, sentence):  # every start: "Did Harbour Food" holds two
        seen = m.group(1).lower()
        if seen in (name.lower(), name.lower() + "s") or len(name) < 4:
            continue
        if difflib.SequenceMatcher(None, seen, name.lower()).ratio() >= NAME_LIKE:
            return True
    return False


def names_in(texts: Iterable[str]) -> tuple[str, ...]:
    """Names the memories shown to the model hold: capitalised words not starting a sentence
    ("Harbor Foods", "Alvarez"), and in Chinese the two or three characters after 跟/找/叫/朋友…
    ("林晓", "陈医生" is caught as "陈医生" when a verb follows)."""
    found: dict[str, None] = {}
    for text in texts:
        for m in _NAME_EN.finditer(text):
            found.setdefault(m.group(1), None)
        for m in _NAME_ZH.finditer(text):
            found.setdefault(m.group(1), None)
    return tuple(found)


# A word of memory right before a date or an hour said with a Chinese numeral ("林晓" of "我妹林晓五月结
# 婚", "周琳" of "表姐周琳八号结婚", "陈立" of "客户陈立三点开会"): the 1.5B wrote "林晓五的喜好", the
# numeral run into the word and its unit lost. Any word there, not only one a name pattern finds
# (names_in knows 林晓 only after 跟/找/叫/朋友…, not after 表姐 or 客户). Not a word that is itself a
# time ("下午" of "下午三点") or a weekday's head ("周" of "周五").
_BEFORE_NUMERAL = re.compile(
    f"([{cjk.IDEOGRAPHS}]{{2}})(?=[{_NUMERAL}]+[{''.join(sorted(_UNIT))}])"
)
_TIME_HEADS = frozenset("周期拜第初礼年月上下前后每这那今明昨去本午晚早")
# A numeral's own unit or measure word (a closed class): "还有三门课" is no fusion.
_MEASURE = _UNIT | set("门本件张条只份场轮科节层口家间台部首句页斤块米里名届集趟顿杯瓶碗双套把")


def numeral_words_in(texts: Iterable[str]) -> tuple[str, ...]:
    """The words of memory that stand right before a numeral and its unit (``_BEFORE_NUMERAL``)."""
    found: dict[str, None] = {}
    for text in texts:
        for m in _BEFORE_NUMERAL.finditer(text):
            word = m.group(1)
            if (
                word[-1] in _TIME_HEADS
                or any(c in _FUNCTION_ZH for c in word)
                or timeparse.without_times(word) != word
            ):
                continue
            found.setdefault(word, None)
    return tuple(found)


def numeral_fused(sentence: str, word: str) -> bool:
    """``word`` followed by a numeral without a unit of its own: "林晓五的喜好" (林晓 + 五月)."""
    for m in re.finditer(re.escape(word), sentence):
        nxt = sentence[m.end() : m.end() + 2]
        if nxt[:1] and nxt[:1] in _NUMERAL and nxt[1:2] not in _MEASURE:
            return True
    return False


class VoiceGate:
    """Streams the model's words, holding back only what could still break the voice: from the
    first word that starts a risk in the current sentence ("我", "I", the start of a memory name) to
    the sentence's end, where it is checked and sent or dropped. The daemon's own lead (the
    provider's prefix) goes out untouched."""

    def __init__(self, voice: Voice, lead: str = ""):
        self.voice = voice
        self.kept = ""  # what the user has been sent
        self._lead = len(lead)  # of ``kept``, the daemon's lead: not the model's to close
        self._stopped = False  # the model was stopped mid-sentence (``finish``'s ``cut``)
        self._expect = lead  # the provider sends its prefix first: the daemon's words, not checked
        self._fresh = (
            True  # the prefix is new to the user (the lead), not text sent before (a retry)
        )
        self._held = ""
        self._begun = False  # some of the current sentence has been sent
        self.broken: str | None = None  # the rule a dropped sentence broke
        self.dropped = ""  # the words that broke it
        self.own_sentences = 0  # sentences of the model's own words sent whole
        self.turned = 0  # sentences whose recited first person was turned to the listener
        self._before = _open_tail(lead)  # the lead's unfinished last sentence ("上次你说")
        self._head = ""  # what of the current sentence has been sent
        starts = ["我", "I", "感觉", "觉得", *((voice.own[:3],) if voice.own else ())]
        starts += ["My", "my"] if voice.quoted else []  # "My knee is still sore" (stance.py)
        starts += [
            c for n in voice.names for c in ((n[:3],) if n.isascii() else tuple(n))
        ]  # any character of a Chinese name: "晓林" garbles 林晓 from its second
        starts += voice.numeral_words  # "周琳" held until its numeral shows its unit
        self._starts = tuple(dict.fromkeys(starts)) if voice.on else ()

    def give_up(self) -> str:
        """The dropped words after all, when without them the reply would be only the lead."""
        out, self.dropped = self.dropped, ""
        self.kept += out
        return out

    def insert(self, words: str) -> str:
        """The daemon's own words after what was sent (checkin.bridge), unchecked, as its lead is."""
        self.kept += words
        return words

    def retry(self, words: str = "") -> str:
        """Start another attempt after what was sent, begun with the daemon's ``words``: the provider
        echoes what was sent as its prefix, and ``words`` come after it as the model's own, checked
        and held like them (a start that breaks again is dropped with the rest, never left alone)."""
        return self.continue_after() + words

    def continue_after(self) -> str:
        """Start another attempt after what was sent; the provider echoes it as its prefix. The
        sentence it left open (the lead's "上次你说服务器又宕机了，") is the next words' ``before`` again:
        a retry after a dropped sentence lost it, and its "我守着…" went out as the user's words
        (perf morning, dev18)."""
        self._expect, self._fresh, self._held, self.broken = self.kept, False, "", None
        self._before = _open_tail(self.kept)
        self._head = ""
        self._begun = False
        return self.kept

    def feed(self, piece: str) -> str:
        """What of ``piece`` the user may read now."""
        if self.broken is not None:
            return ""
        out = ""
        if self._expect:
            n = next(
                (i for i, (a, b) in enumerate(zip(self._expect, piece, strict=False)) if a != b),
                min(len(self._expect), len(piece)),
            )
            head, piece, self._expect = piece[:n], piece[n:], self._expect[n:]
            if self._fresh:
                self.kept += head
                out += head
            if self._expect and not piece:
                return out
            self._expect = ""
        if not self._held and self.kept.endswith(" "):
            # The space before a dropped sentence was sent; the next attempt's first token brings
            # its own (" Maybe"): one space on the screen, not two.
            piece = piece.lstrip(" ")
        self._held += piece
        while (m := _END.search(self._held)) is not None:
            sentence, self._held = self._held[: m.end()], self._held[m.end() :]
            sent = self._pass(sentence)
            out += sent
            if self.broken is not None:
                return out
            self.own_sentences += 1
        safe = self._safe(self._held)
        out += self._send(self._held[:safe])
        self._held = self._held[safe:]
        return out

    def finish(self, cut: bool = False) -> str:
        """The last sentence, which had no end mark; ``cut``: the model was stopped mid-sentence
        (``max_tokens``), and the clause it was writing is left out."""
        sentence, self._held = self._held, ""
        self._stopped = cut and self.voice.on  # with the check off the words stream as written
        if self._stopped:
            whole = sentence[: _clause_end(sentence)]
            if not self._begun and _short_head(whole):
                whole = ""  # a lone opener ("另外") of a sentence never written
            if whole.strip() or self.kept[self._lead :].strip():
                sentence = whole  # else the open clause, closed, rather than no reply at all
        if self.broken is not None or not sentence.strip():
            return ""
        return self._pass(sentence)

    def end(self) -> str:
        """The full stop a reply gets when it was stopped after a whole clause but before its
        sentence ended (a sentence dropped, ``max_tokens``): what the user read ends as a sentence
        does. Nothing for a reply the model ended itself, one that ends on a mark already, or when
        nothing of the model's own was sent."""
        own = self.kept[self._lead :].rstrip()
        if not (self._stopped or self.broken) or not own or not own[-1].isalnum():
            return ""
        ends = list(_END.finditer(own))
        mark = "。" if cjk.has(own[ends[-1].end() if ends else 0 :]) else "."
        self.kept += mark
        return mark

    def _risk(self, text: str) -> int | None:
        """Where the first word that could break the voice starts in ``text``."""
        found = [i for start in self._starts if (i := _find_word(text, start)) is not None]
        return min(found) if found else None

    def _safe(self, text: str) -> int:
        """How much of an unfinished sentence can go out: nothing of a short start (a whole state
        such as "累得要死！" is a few characters), then its whole clauses before the first risk: the
        clause still being written is held with its comma, so that a reply that stops (a sentence
        dropped, ``max_tokens``) never shows "你终于回家了，" or "…and then"."""
        if not self.voice.on:
            return len(text)  # the check is off: the words stream as written
        if not self._begun and _short_head(text):
            return 0
        if not self._begun and parrots(
            text, (self.voice.said, *self.voice.quoted), self._before, whole=False
        ):
            return 0  # so far the user's own words: held until the sentence ends or turns away
        whole = _clause_end(text[: self._unrisky(text)])
        if not self._begun and _short_head(text[:whole]):
            return 0  # a lone opener ("另外", "Also") waits for the clause it opens
        return whole

    def _unrisky(self, text: str) -> int:
        """How much of an unfinished sentence holds no risk: up to its first, or up to a tail that
        could still become one ("I" of "I'm", "Alv" of "Alvarez")."""
        risk = self._risk(text)
        if (said := assistant.cue(text)) is not None:
            risk = said if risk is None else min(risk, said)  # "As an AI…" waits for its end
        if risk is not None:
            return risk
        for cut in range(max(0, len(text) - 4), len(text)):
            tail = text[cut:]
            if any(start.startswith(tail) for start in self._starts if len(tail) < len(start)):
                return cut
        return len(text)

    def _pass(self, sentence: str) -> str:
        """Check a whole sentence (what is still held of it) from its first risk on: what can be
        sent; on a break the words from the risk on are dropped and the gate closes. The user's
        words recited after "you said" are turned to the listener first (person.py)."""
        asked = None  # a question the user asked of themselves, said back to them
        if self.voice.on:
            theirs = (self.voice.said, *self.voice.quoted)
            told = person.to_listener(sentence, theirs, self._before + self._head)
            self.turned += told != sentence
            sentence = told
            asked = person.recites_their_question(
                sentence, (*theirs, *self.voice.memory), self._before + self._head
            )
        risk = self._risk(sentence)
        echo = echoes_user(sentence, self.voice.said) if self.voice.on else None
        if echo is None and self.voice.on and risk is not None:
            echo = self._echo_in_clause(sentence, risk)
        if echo is not None and (echo > 0 or not self._begun):
            risk = echo if risk is None else min(risk, echo)
        echoed = echo is not None
        if (
            self.voice.on
            and (at := assistant.speaks_as_assistant(sentence, self.voice.said)) is not None
        ):
            # a generic assistant's words (assistant.py) go with their whole sentence, when none of
            # it was sent: the clause before them frames them ("As a friend, I can't give opinions"
            # left "As a friend." on the screen, perf later_turns)
            if not self._begun:
                at = len(sentence) - len(sentence.lstrip())
            risk = at if risk is None else min(risk, at)
        before, self._before, self._head = self._before + self._head, "", ""
        if not self._begun and (
            self.voice.breaks(sentence, True, before) in ("parrot", "cheer")
            or (
                self.voice.on
                and not _quoting(before)
                and copies_their_first_person(sentence, self.voice.said, before)
            )
        ):  # the whole sentence is theirs (or a cheer at their hardship), from its first word
            risk, echoed = len(sentence) - len(sentence.lstrip()), True  # the space stays
        rule = (
            None
            if risk is None
            else self.voice.breaks(sentence[risk:], echoed, before + sentence[:risk])
        )
        if asked is not None and (rule is None or risk is None or asked < risk):
            risk, rule = asked, "their_question"
        if risk is not None and rule is not None:
            cut = _clause_end(sentence[:risk])  # the clause the risk stands in goes with it
            self.broken, self.dropped = rule, sentence[cut:]
            sentence = sentence[:cut]
        self.kept += sentence
        self._begun = False
        return sentence

    def _echo_in_clause(self, sentence: str, risk: int) -> int | None:
        """``echoes_user`` read from the start of the clause the risk stands in: "You remember: I
        just ran 5,000 meters…" (the 0.5B) addresses the listener only in its opener, and the
        rest is the user's words in the speaker's mouth (read so while openers were sent at once)."""
        marks = list(_CLAUSE.finditer(sentence, 0, risk))
        if not marks:
            return None
        start = marks[-1].end()
        found = echoes_user(sentence[start:], self.voice.said)
        return None if found is None else start + found

    def _send(self, text: str) -> str:
        self.kept += text
        self._head += text
        self._begun = self._begun or bool(text.strip())
        return text


# A sentence that broke the voice as the user's own (a parrot, their first person, applause at their
# hardship) is asked for again begun with the listener's words: "That sounds" / "听起来" can only be
# continued by someone who heard the user, where a plain second ask broke the same way (the 1.5B
# answered `make demo`'s Chinese evening "终于到了家。", then "我想睡觉。", and the give-up sent it).
LISTENER_BREAKS = ("parrot", "role", "cheer")
_LISTENER_LEAD = {"zh": "听起来", "en": "That sounds"}


def listener_lead(said: str, broken: str | None) -> str:
    """The start of a second ask after ``broken`` in reply to ``said``: none for a question (its
    answer is no impression of what was heard) or a name garbled (the plain ask mends that)."""
    if broken not in LISTENER_BREAKS or _QUESTION.search(said):
        return ""
    return _LISTENER_LEAD["zh" if cjk.has(said) else "en"]


def _open_tail(lead: str) -> str:
    """The lead's last sentence when it does not end: the model's first words continue it."""
    ends = list(_END.finditer(lead))
    return lead[ends[-1].end() :] if ends else lead


def _clause_end(text: str) -> int:
    """Where the last whole clause of ``text`` (a sentence's unsent part) ends: before its last
    clause mark ("，" "," "、" "；" "："), or after its leading spaces when none has ended (its first
    clause is still open; the space after the sentence before stays)."""
    marks = list(_CLAUSE.finditer(text))
    return marks[-1].start() if marks else len(text) - len(text.lstrip())


def _short_head(text: str) -> bool:
    """The start of a sentence still too short to tell a whole state said as one's own."""
    return cjk.count(text) < HEAD and len(text) < HEAD_LATIN


def _find_word(text: str, start: str) -> int | None:
    """Where ``start`` begins a word in ``text`` (Latin: not inside a word; "I" as a whole word)."""
    if not start.isascii():
        i = text.find(start)
        return i if i >= 0 else None
    pattern = r"\bI\b" if start == "I" else rf"\b{re.escape(start)}"
    m = re.search(pattern, text)
    return m.start() if m else None
