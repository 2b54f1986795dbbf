"""The matter in the user's own words: the clause of their line that a check-in's lead names.

The first lead named a Chinese event by a word from a list ("上次说的面试"): a line whose event was
not on it ("考科目二": 考 alone is too short to be a word of its own), or whose matter is no event
at all ("跟我妈吵了一架", "拿到腾讯的offer了"), got "上次你说", and the 1.5B went on with "的那件事" or
"得怎么样了": nothing of the matter. The user already said the matter, in their own words, in the
line the scheduler quoted into its item. So the lead takes it from there:

- the clause: the line split at its punctuation; for an event (a plan, a worry) the clause holding
  the event the scheduler armed on (its own vocabulary, scheduler.arm), else the first clause with
  something in it;
- trimmed: the times go (timeparse finds them: "下周三", "后天早上", "next tuesday", and clock times,
  "七点", "6am"), as do emoji and what hangs at the edges ("的", "hhh", "lol");
- turned to the listener: "我" becomes "你" ("跟我妈吵了一架" → "跟你妈妈吵了一架", a bare "你妈" being
  rude in Chinese), "my" "your", "I" "you";
- copied, not reworded: names and the user's words stay exactly as they were written.

In English an event is named by its noun phrase ("the bar exam", "your best friend Marcus's
wedding"), for a feeling too ("the move" of "so stressed about the move"): "How did" then reads
as a question the model ends ("go?"), "Last time you told me about" as a sentence it goes on
with. A clause too long to be a lead's opening (more than ``MAX_ZH`` characters, ``MAX_EN`` words)
is not used.
"""

from __future__ import annotations

import re

from ..scheduler.arm import EVENTS_EN, EVENTS_ZH
from ..text import cjk, stopwords, timeparse
from ..text.lang import Lang

MAX_ZH = 14  # characters of a Chinese clause in a lead
MAX_EN = 8  # words of an English noun phrase in a lead
_QUOTED = re.compile(r'"(.+)"\s*$', re.S)  # scheduler.arm quotes the user's words last in a topic
_CLAUSES = re.compile(r"[，,。！!？?；;：:…~～\n]+|\s+(?=[^\sA-Za-z0-9])|(?<=[^\sA-Za-z0-9])\s+")
_CLAUSES_EN = re.compile(r"[,.;:!?…\n]+\s*|\s+(?:and|but|so|also|because|though)\s+", re.I)
# Clock times, which timeparse leaves to the day they belong to: "七点", "早上七点半", "6am", "6:30 pm".
_CLOCK = re.compile(
    r"(?:早上|上午|中午|下午|晚上|凌晨)?[0-9一二三四五六七八九十两]{1,3}点(?:半|[0-9一二三四五六七八九十]{1,3}分)?"
    r"|一大?早|\b\d{1,2}(?::\d\d)?\s?(?:am|pm)\b",
    re.I,
)
# Not words: emoji and pictographs, and the laughter and shorthand that close a chat line.
_NOISE = re.compile(r"[\U0001F000-\U0001FAFF\u2600-\u27BF\uFE0F]+")
_TAIL_ZH = re.compile(r"(?:[啊呀吧呢啦哈嘛哦噢]|hh+|haha|lol|tbh|rn)+$", re.I)
_EDGE_ZH = re.compile(r"^[的了，,\s]+|[的，,\s]+$")
# Kin a bare 你 would make rude ("你妈"): the doubled form, as a friend says it.
_KIN = {"你妈": "你妈妈", "你爸": "你爸爸"}
_EN_YOU = {
    "i": "you",
    "i'm": "you're",
    "im": "you're",
    "i've": "you've",
    "i'll": "you'll",
    "i'd": "you'd",
    "my": "your",
    "me": "you",
    "mine": "yours",
    "myself": "yourself",
}


def said_in(topic: str) -> str:
    """The user's own words in an item's topic (scheduler.arm quotes them last)."""
    m = _QUOTED.search(topic)
    return m.group(1) if m else ""


def clause(topic: str, lang: Lang, event: bool) -> str | None:
    """The matter's clause of the user's line in ``topic``, trimmed and turned to the listener; for
    an ``event`` the clause that holds it. None when no clause is short enough to lead with."""
    said = _NOISE.sub(" ", said_in(topic))
    if not said:
        return None
    if lang == "en":
        return _noun_phrase(said)
    parts = [p for p in _CLAUSES.split(said) if p.strip()]
    chosen = None
    if event:
        chosen = next((p for p in parts if _has_event(p)), None)
    chosen = chosen or next((p for p in parts if cjk.count(_trim_zh(p)) >= 3), None)
    if chosen is None:
        return None
    text = _to_listener_zh(_trim_zh(chosen))
    if not text or len(text) > MAX_ZH:
        return None
    return text


def _has_event(text: str) -> bool:
    low = text.lower()
    return any(w in text for w in EVENTS_ZH if len(w) >= 2) or any(
        re.search(rf"(?<![a-z]){re.escape(w)}(?![a-z])", low) for w in EVENTS_EN
    )


def _without_times(text: str) -> str:
    for ref in sorted(timeparse.find_times(text, 0), key=lambda r: -r.start):
        text = text[: ref.start] + " " + text[ref.end :]
    return _CLOCK.sub(" ", text)


def _trim_zh(text: str) -> str:
    text = _without_times(text).strip()
    for _ in range(3):
        text = _EDGE_ZH.sub("", _TAIL_ZH.sub("", text.strip()))
    return re.sub(r"\s+", "", text) if cjk.count(text) >= len(text) // 2 else text.strip()


def _to_listener_zh(text: str) -> str:
    text = text.replace("我们", "你们").replace("我", "你")
    for short, whole in _KIN.items():
        text = re.sub(f"{short}(?![爸妈])", whole, text)
    return text


def _noun_phrase(said: str) -> str | None:
    """The event's noun phrase in an English line, for "How did …": its determiner turned to the
    listener ("my" → "your", none → "the") and the words that modify it ("bar exam", "best friend
    Marcus's wedding"); the first word of a line loses its capital unless it is a name in mid-line."""
    for part in _CLAUSES_EN.split(said):
        words = _without_times(part).split()
        for i, word in enumerate(words):
            if not _event_en(word):
                continue
            while i + 1 < len(words) and _event_en(words[i + 1]):
                i += 1  # "client presentation": the last event word heads the phrase
            start = i
            while start > 0 and i - start < MAX_EN - 2:
                prev = re.sub(r"[^a-z'-]", "", words[start - 1].lower())
                if not prev or prev in stopwords.ENGLISH or prev in _EN_YOU or _verbish(prev):
                    break
                start -= 1
            det = re.sub(r"[^a-z']", "", words[start - 1].lower()) if start > 0 else ""
            head = {"my": "your", "our": "your"}.get(det, "the")
            body = words[start : i + 1]
            if start == 0 or words[start - 1][:1].isupper():
                body[0] = body[0][:1].lower() + body[0][1:] if not _name_like(body[0]) else body[0]
            body[-1] = re.sub(r"[^\w'-]+$", "", body[-1])
            return " ".join([head, *body])
    return None


def _event_en(word: str) -> bool:
    bare = re.sub(r"[^a-z'-]", "", word.lower())
    return bare in EVENTS_EN or (bare.endswith("s") and bare[:-1] in EVENTS_EN)


def _verbish(word: str) -> bool:
    """A word that ends a noun phrase on its left: a verb's past or third-person form ("booked",
    "means": "it means moving" is not "the means moving"); a possessive ("Marcus's") is kept."""
    return word.endswith("ed") or (word.endswith("s") and not word.endswith(("'s", "ss")))


def _name_like(word: str) -> bool:
    """A capitalised word that stays capitalised at a line's start: all capitals or an inner
    capital ("NASA", "McKinsey"); a plain capital is the line's, not the word's."""
    return (word.isupper() and len(word) > 1) or any(c.isupper() for c in word[1:])
