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

from ..text import cjk
from ..text.clauses import clauses
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
# A question's form: an A-not-A (是不是, 该不该, 会不会), 是否 / 难道, a final particle, a question mark,
# or English's inverted auxiliary before the first person ("am I", "should I", "do I").
_ASKS_ZH = re.compile(rf"([{cjk.IDEOGRAPHS}])不\1|是否|难道|[吗么嘛][呀啊]?$|[？?]$")
_ASKS_EN = re.compile(
    r"\b(?:am|was|do|did|should|shall|will|would|could|can|have|is|are)\s+(?:i|we)\b|\?$", re.I
)
_FIRST_ZH = re.compile(r"我")
_FIRST_EN = re.compile(r"\b(?:i|i'm|im|me|my|myself|we|us|our)\b", re.I)
_UNTURN_EN = {"you": "i", "your": "my", "yourself": "myself", "you're": "i'm", "are": "am"}
_SPACED_ZH = re.compile(rf"(?<=[{cjk.IDEOGRAPHS}])\s+(?=[{cjk.IDEOGRAPHS}])")
QUESTION_COVERED = 0.8  # of the user's own question, walked through by the recited clause


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


def recites_their_question(sentence: str, theirs: Iterable[str], before: str = "") -> int | None:
    """Where a clause of ``sentence`` starts that says back, after words given to the listener, a
    question the user asked of themselves ("我是不是有病", "am I overreacting"); None if none.

    Turned to the listener, such a question changes what it is: the user's doubt about themselves
    becomes the companion's question to them, "上次你说阿凯说你太作了，你是不是有病" (the 1.5B on
    morning_dev37, twice), which a reader takes as an insult. A friend reports the doubt ("你说你怀疑
    自己"), never asks it back; the clause is left out. Read as the form of the user's own clause
    (first person and a question's form, in either language), not as a list of hurtful words."""
    told = _TOLD.search(before + sentence)
    if told is None:
        return None
    after = max(0, told.end() - len(before))
    asked = [c for text in theirs for c in _their_clauses(text) if _self_question(c)]
    if not asked:
        return None
    start = 0
    for part in re.split(r"(?<=[，,；;。！？!?])", sentence):
        here, start = start, start + len(part)
        if here + len(part) <= after or not part.strip():
            continue
        mine = _unturned(part)
        for question in asked:
            want = len(echo.tokens(question))
            for found in echo.align(mine, question):
                for a, b in found.spans:  # one run, the asker's person in it: asked, not reported
                    run = mine[a:b]
                    if _first_person(run) and len(echo.tokens(run)) >= QUESTION_COVERED * want:
                        return max(here, after)
    return None


def _their_clauses(text: str) -> list[str]:
    """The user's clauses, a space between Chinese words a break as people type it ("删了又加回来
    我是不是有病")."""
    return [p for c in clauses(text) for p in _SPACED_ZH.split(c) if p.strip()]


def _self_question(clause: str) -> bool:
    """A clause of the user's that asks something of themselves: their first person and a
    question's form."""
    if _FIRST_ZH.search(clause):
        return bool(_ASKS_ZH.search(clause.rstrip("。.！! ")))
    return bool(_FIRST_EN.search(clause) and _ASKS_EN.search(clause.rstrip(". !")))


def _first_person(text: str) -> bool:
    return bool(_FIRST_ZH.search(text) or _FIRST_EN.search(text))


def _unturned(text: str) -> str:
    """``text`` with the listener's person put back to the speaker's, for aligning what was turned
    (or written turned) with the user's own words."""
    text = text.replace("你", "我")
    return _WORD_EN.sub(lambda m: _UNTURN_EN.get(m.group(0).lower(), m.group(0)), text)


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
