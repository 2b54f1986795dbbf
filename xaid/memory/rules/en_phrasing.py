"""The English pieces every fact rule shares: pattern fragments (adverbs, negation, names, future
times, relatives), cleaning an object ("Rust now lol" → "Rust"), and ``statement``, which turns
"I mainly write Rust now" into "The user mainly writes Rust now."
"""

from __future__ import annotations

import re

from .lexicon_en import ADVERBS, IRREGULAR_THIRD, RELATIONS, UNCHANGED_VERBS

REL = (
    r"(?i:(?P<mod>(?:little|younger|older|big|baby|twin|best|new|old|step)\s+)?"
    r"(?P<rel>" + "|".join(sorted(RELATIONS, key=len, reverse=True)) + r"))"
)
ADV = r"(?:(?:" + "|".join(w.replace(" ", r"\s+") for w in ADVERBS) + r")\s+)*"
NEG = r"(?P<neg>(?:don't|dont|do not|never|no longer|can't|cannot)\s+(?:really\s+|even\s+|particularly\s+)?)?"
NAME = r"[A-Z][a-z]+(?:[-'][A-Z]?[a-z]+)?(?:\s+[A-Z][a-z]+(?:[-'][A-Z]?[a-z]+)?)?"
ANY_NAME = r"[A-Za-z][a-z]+(?:[-'][A-Za-z]?[a-z]+)?(?:\s+[A-Z][a-z]+)?"
# Future-pointing times; "today" and "soon" are left out, or "I'm going crazy today" would be a plan.
TIME = re.compile(
    r"\b(?:tomorrow|tonight|this (?:morning|afternoon|evening|week|weekend|month|year|summer|winter|spring|"
    r"fall|autumn|friday|saturday|sunday|monday|tuesday|wednesday|thursday)|next (?!time\b)\w+|in (?:\d+|a|an|a few|"
    r"a couple of|two|three|four|five|six|ten) (?:minutes?|hours?|days?|weeks?|months?|years?)|later today|"
    r"on (?:the )?\d|at \d|by (?:the )?(?:end|\w+day)|end of (?:the )?(?:week|month|year)|"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)day|after (?:work|school|class|lunch|dinner))\b",
    re.I,
)
_I = re.compile(r"^(?:I|i)\b")
_ES_ENDING = re.compile(r"(?:s|sh|ch|x|z|o)$")
_Y_ENDING = re.compile(r"[^aeiou]y$")


def _third_s(verb: str) -> str:
    low = verb.lower()
    if low in IRREGULAR_THIRD:
        return IRREGULAR_THIRD[low]
    if low in UNCHANGED_VERBS or low.endswith("ed"):
        return verb
    if _ES_ENDING.search(low):
        return verb + "es"
    if _Y_ENDING.search(low):
        return verb[:-1] + "ies"
    return verb + "s"


# Words "statement" steps over to find the verb to conjugate ("I kind of like" → "kind of likes"); not "do",
# which is the verb itself in "I do like".
_SKIPPED = (frozenset(w for a in ADVERBS for w in a.split()) - {"do"}) | {
    "never",
    "sometimes",
    "often",
    "rarely",
    "only",
}
_LEAD_FORMS = (
    (re.compile(r"^(?:I'm|I am|Im|i'm|i am|im)\b", re.I), "The user is"),
    (re.compile(r"^(?:I've|I have)\s+got\b", re.I), "The user has got"),
    (
        re.compile(
            r"^(?:I've|I have)\s+(?=been|just|already|decided|always|never|moved|switched|started)",
            re.I,
        ),
        "The user has ",
    ),
    (re.compile(r"^(?:I've|I have)\b", re.I), "The user has"),
    (re.compile(r"^(?:I'll|I will)\b", re.I), "The user will"),
    (re.compile(r"^(?:I'd|I would)\b", re.I), "The user would"),
    (re.compile(r"^my\b", re.I), "The user's"),
)
_REST = (
    (re.compile(r"\b(?:I'm|i'm|I am)\b"), "they are"),
    (re.compile(r"\b(?:I've|i've)\b"), "they have"),
    (re.compile(r"\b(?:I'll|i'll)\b"), "they will"),
    (re.compile(r"\b(?:I|i)\b(?!')"), "they"),
    (re.compile(r"\bmy\b", re.I), "their"),
    (re.compile(r"\bmyself\b", re.I), "themselves"),
    (re.compile(r"\bme\b", re.I), "them"),
    (re.compile(r"\bmine\b", re.I), "theirs"),
)
TRAILING = re.compile(
    r"[\s.!?,;:~…\U0001F000-\U0001FAFF\u2600-\u27BF\uFE0F]+$|\s+(?:lol|haha+|hehe|:\)|:D|xd)$", re.I
)


def statement(clause: str) -> str:
    """A first-person clause as a self-contained third-person sentence: "I mainly write Rust now" →
    "The user mainly writes Rust now." Stored facts are read later, out of context, in the prompt."""
    s = TRAILING.sub("", clause.strip())
    s = TRAILING.sub("", s)
    for pattern, repl in _LEAD_FORMS:
        m = pattern.match(s)
        if m:
            head, rest = repl, s[m.end() :]
            break
    else:
        m = _I.match(s)
        if m is None:
            return s[:1].upper() + s[1:] + "."
        words = s[m.end() :].split()
        i = 0
        while i < len(words) and words[i].lower() in _SKIPPED:
            i += 1
        if i < len(words):
            words[i] = _third_s(words[i])
        head, rest = "The user", " " + " ".join(words)
    for pattern, repl in _REST:
        rest = pattern.sub(repl, rest)
    return (head + rest).replace("  ", " ").strip() + "."


_OBJECT_TAIL = re.compile(
    r"\s+(?:now|these days|nowadays|anymore|any more|too|as well|a lot|so much|very much|lol|haha+|though|"
    r"either|at the moment|right now|for now|actually|really|btw|by the way|tbh|honestly|lmao)$",
    re.I,
)
PRONOUN_OBJECT = re.compile(
    r"^(?:it|that|this|them|you|u|him|her|those|these|what|how|when|where|your|yours|the way|people who|"
    r"when you|ur|ya|one|some of|all of|to (?:think|say|know|believe|see|hear|talk|chat|ask))\b",
    re.I,
)
CUT_AT = re.compile(
    r"\s+(?:as|since|for|because|but|which|where|and|in|now|these days|until|when|though|so|last|"
    r"next|this|yesterday|today|recently|ago|\[)\b.*$",
    re.I,
)
REASON_CUT = re.compile(r"\s+(?:since|because|but|which|when|though|so|ever since)\b.*$", re.I)
# Objects that follow "work at" / "live in" / "born in" without being a place or an employer.
NOT_A_PLACE = re.compile(
    r"^(?:\d|night|nights|home|weekends?|the weekend|the moment|times|least|first|all|the same|"
    r"peace|fear|hope|denial|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b)",
    re.I,
)
PLACE_CUT = re.compile(
    r"\s+(?:now|since|for|with|because|but|and|which|where|these days|at the moment|right now|"
    r"anymore|any more|though|so|when|until|last|next|this|yesterday|today|recently|ago|"
    r"a (?:few|couple|while)|in \d{4}|\[)\b.*$",
    re.I,
)


def clean(obj: str, cut: re.Pattern[str] | None = None) -> str:
    obj = TRAILING.sub("", obj.strip())
    if cut is not None:
        obj = cut.sub("", obj)
    prev = None
    while prev != obj:
        prev, obj = obj, TRAILING.sub("", _OBJECT_TAIL.sub("", obj))
    return obj.strip(" ,'\"")


def titled(name: str) -> str:
    return " ".join(w[:1].upper() + w[1:] for w in name.split())


def too_long(obj: str, words: int = 6) -> bool:
    return len(obj.split()) > words
