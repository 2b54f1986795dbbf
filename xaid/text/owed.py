"""What the speaker says they must or will do, with their subject or none: "gotta walk my manager
through it tomorrow", "明天还得跟经理讲一下这个bug", "presenting the Q3 numbers first thing tomorrow".

People tell their own plans without a subject: Chinese drops it as a rule, chat English drops it
before "gotta" and "need to". The fact rules anchor on the clause's own "I" / 我 and the scheduler's
lists on an event word, so `make demo`'s Chinese evening ("只想睡觉。明天还得跟经理讲清楚修复方案。")
left the profile empty (issue 25, session 11). A subject is
not what a plan needs; its structure is: at the head of a clause, after at most a time said and an
adverb, a modal of obligation or intention (a closed class in both languages: have to, gotta, need
to, must, gonna, 得, 还得, 必须, 需要, 要, 打算) and a verb after it, or in English an -ing verb
opening the clause ("meeting Carol for coffee on saturday"). Whoever else does it is named before
the modal ("my boss has to", "经理明天要"), and then it is not the speaker's.

Pure: the times are timeparse's, read on the clause alone. Read by the fact rules (extract.py);
arming such a dated line as a plan was tried (morning12) and dropped: on the twelfth dev scenes the
check-in reader already armed every one, and routine said so reads as near the occasions as they do
("明天得早起" +0.00 on occasion.py's banks, "walk my manager through the mess tomorrow" +0.02).
"""

from __future__ import annotations

import re

from . import cjk, timeparse

# Modals of obligation or intention, with the subject "I" said or dropped (the closed class).
_MODAL_EN = (
    r"(?:(?:i|i'll|i've|i'm|im|ive|ill)\s+)?(?:(?:really|still|also|just|def|definitely|prob|probably|"
    r"then|now|first)\s+)*"
    r"(?:have to|have got to|'ve got to|got to|gotta|need to|needa|must|should|ought to|will have to|"
    r"'ll have to|gonna have to|going to have to|gonna|going to|am going to|'m going to|'m gonna|will|'ll|"
    r"plan to|planning to|supposed to|want to|wanna)\s+(?P<verb>[a-z]+)"
)
# The words a clause may open on before its modal: a filler, or nothing once the times are taken out.
_FILLER_EN = re.compile(
    r"^(?:(?:ugh|ok|okay|so|and|but|well|oh|also|anyway|yeah|yep|welp|lol|then|plus|first thing|"
    r"early|late|in the|at|on|by|from|around|first)\b\W*)*$"
)
_MODAL_EN_AT = re.compile(rf"(?i)\b{_MODAL_EN}")
_NOT_VERB_EN = frozenset({"the", "a", "an", "it", "that", "this", "so", "not"})  # no verb after it
# A clause opening on an -ing verb with its object: "presenting the numbers tomorrow".
_GERUND_EN = re.compile(r"^(?P<verb>[a-z]{3,}ing)\s+(?:\w+)")
_NOT_GERUND_EN = frozenset(
    {"nothing", "something", "anything", "everything", "morning", "evening", "thing"}
)

# Chinese: what may stand before the modal besides a time, all adverbs and the speaker.
_LEAD_ZH = re.compile(r"^[我还也又都就得先一早再]*$")
_MODAL_ZH = re.compile(
    r"(?P<modal>还得|也得|又得|得|必须|需要|要|打算|准备|计划)(?P<verb>[" + cjk.IDEOGRAPHS + r"])"
)
_NOT_AFTER_ZH = re.compile(r"^(?:是|不|下雨|降温|变天|过年|到了|开始了)")


def speakers(clause: str) -> bool:
    """Whether the clause says the speaker must or will do something, with "I" / 我 as its subject
    or none at all: the modal at the head (after a time and adverbs only), a verb after it."""
    said = timeparse.without_times(clause.strip().replace("\u2019", "'"))
    if cjk.has(said):
        m = _MODAL_ZH.search(said)
        return bool(
            m
            and _LEAD_ZH.match(re.sub(r"\s", "", said[: m.start()]))
            and not _NOT_AFTER_ZH.match(said[m.start("verb") :])
        )
    low = said.lower()
    m = _MODAL_EN_AT.search(low)
    if m and _FILLER_EN.match(low[: m.start()]) and m.group("verb") not in _NOT_VERB_EN:
        return True
    g = _GERUND_EN.match(low)
    return bool(g and g.group("verb") not in _NOT_GERUND_EN)


def dropped(clause: str) -> bool:
    """Whether the clause is the speaker's (``speakers``) with no subject said: the fact rules,
    anchored on "I" / 我, read it with the speaker put back."""
    if not speakers(clause):
        return False
    if cjk.has(clause):
        return "我" not in clause[: _MODAL_ZH.search(clause).start()]  # type: ignore[union-attr]
    return re.search(r"(?i)(?<![\w'])(?:i|i'll|i've|i'm|im|ive)(?![\w'])", clause) is None


_GOTTA = re.compile(r"(?i)^(?P<lead>.*?)\b(?:gotta|got to|needa)\b")


def with_speaker(clause: str) -> str:
    """A clause whose subject was dropped (``dropped``) with the speaker put back at its head, as
    the fact rules read a plan: "明天还得跟经理讲…" as "我明天还得跟经理讲…", "gotta call mum
    tomorrow" as "I have to call mum tomorrow" (the chat spellings of the modal as it is written)."""
    if cjk.has(clause):
        return "我" + clause
    said = _GOTTA.sub(lambda m: m["lead"] + "have to", clause, count=1)
    return "I " + said[:1].lower() + said[1:]
