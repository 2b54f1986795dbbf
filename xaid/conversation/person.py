"""Reported speech: the user's words said back after "you said" take the listener's person.

After the daemon's lead ("早。上次你说"), a small model often recites the user's earlier words as
they were, first person and all: "上次你说跟室友因为水电费吵翻了，她现在见了我就当没看见" says the
roommate ignores the companion, "工作、装修、我妈那边" names the companion's mother (the 1.5B on the
Morning dev sets 18 and 20: one Chinese lead in eight). Reported speech turns the speaker's "我"
into "你" and "I" into "you", as a friend does without thinking, and the model did so in the other
runs of the same scenes ("她现在见了你就当没看见").

So in a sentence that gives words to the listener ("你说", "你提到", "you said", "you mentioned"),
the first person inside a run copied from the user's words (echo.align: three tokens or more, the
first person not the run's last) is turned to the second, before the sentence is sent. The reply's
own first person ("我鼓励你早点休息": not their words), a quotation ("你说“我…”": their words as
theirs) and what comes before the attribution are left as they are. Grammar, not a phrase list: the
person of a pronoun inside copied words, in both languages.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from . import echo

_TOLD = re.compile(
    r"你(?:刚才|之前|上次|昨天|昨晚|前天|那天)?(?:说|提到|讲|告诉我)"
    r"|\byou (?:just )?(?:said|mentioned|told me|wrote)\b",
    re.I,
)
_SECOND_EN = {
    "i": "you",
    "i'm": "you're",
    "i've": "you've",
    "i'd": "you'd",
    "i'll": "you'll",
    "my": "your",
    "me": "you",
    "myself": "yourself",
    "mine": "yours",
    "we": "you",
    "we're": "you're",
    "we've": "you've",
    "we'd": "you'd",
    "we'll": "you'll",
    "our": "your",
    "us": "you",
    "ours": "yours",
    "ourselves": "yourselves",
}
_I_FORMS = frozenset({"i", "i'm", "i've", "i'd", "i'll"})
_AGREE_EN = {"am": "are", "was": "were"}  # "I was" becomes "you were"
_WORD_EN = re.compile(r"[A-Za-z]+(?:['’][a-z]+)?")
MIN_COPIED = 3  # tokens of a copied run before its first person is taken as theirs


def quoting(before: str) -> bool:
    """The words come inside a quotation the sentence opened and has not closed ("你记得：“我妈…"):
    the user's words quoted as theirs, not said as the companion's (the voice check reads it too)."""
    return (
        before.count("“") > before.count("”")
        or before.count('"') % 2 == 1
        or before.count("「") > before.count("」")
    )


def to_listener(sentence: str, theirs: Iterable[str], before: str = "") -> str:
    """``sentence`` with the user's first person turned to the second inside the runs it copies
    from ``theirs`` (the user's texts) after words given to the listener; ``before``: the same
    sentence's words already sent (the lead's "上次你说")."""
    told = _TOLD.search(before + sentence)
    if told is None:
        return sentence
    after = max(0, told.end() - len(before))  # where the words given to the listener start
    marked: dict[int, tuple[int, str]] = {}  # start → (end, the second person)
    for text in theirs:
        for found in echo.align(sentence, text):
            for start, end in found.spans:
                run = echo.tokens(sentence[start:end])
                if len(run) < MIN_COPIED:
                    continue
                for token in run[:-1]:
                    at = start + token.start
                    word = sentence[at : start + token.end]
                    second = _second(word)
                    if second is None or at < after or quoting(before + sentence[:at]):
                        continue
                    marked[at] = (at + len(word), second)
    out = sentence
    for at in sorted(marked, reverse=True):
        end, second = marked[at]
        out = _put(out, at, end, second)
    return out


def second_person(text: str) -> str:
    """English words of the user's said back to them: every first person turned to the second
    ("tomorrow i finally tell my boss i'm quitting" → "tomorrow you finally tell your boss you're
    quitting"), "I was" agreeing as "you were" (checkin.py's lead names a matter in their words)."""
    out = text
    for m in reversed(list(_WORD_EN.finditer(text))):
        if (second := _second(m.group(0))) is not None:
            out = _put(out, m.start(), m.end(), second)
    return out


def _put(text: str, start: int, end: int, second: str) -> str:
    """``text`` with the word at ``start:end`` turned to ``second``, and a verb right after "you"
    agreeing with it ("I was" -> "you were")."""
    rest = text[end:]
    if second == "you" and (agree := re.match(r"\s+(am|was)\b", rest, re.I)):
        rest = rest[: agree.start(1)] + _AGREE_EN[agree.group(1).lower()] + rest[agree.end(1) :]
    return text[:start] + second + rest


def _second(word: str) -> str | None:
    """The second person of a first-person word, in its case ("My" → "Your"); None for others."""
    if word == "我":
        return "你"
    key = word.lower().replace("’", "'")
    second = _SECOND_EN.get(key)
    if second is None:
        return None
    if key in _I_FORMS:  # I's capital is its own, no sentence start
        return second
    return second[0].upper() + second[1:] if word[0].isupper() else second
