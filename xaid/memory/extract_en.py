"""English fact rules: one first-person clause in, zero or more hits out.

Patterns are anchored on the clause's own "I" or "my" so that "she thinks I like her" or "if I lived in
Paris" never become facts: only a short adverbial lead ("tomorrow", "these days") may precede the anchor.
Where the pattern is sure (a named employer, "my name is"), confidence is high and no model is asked;
where the words could mean something else ("I'm a gamer", "I work in Berlin"), it stays under 0.5 so
the consolidation asks the LLM instead of storing a guess.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..mood.lexicon_en import CUES
from ..text import cjk
from ..text.features import features

# (kind, subject, text, confidence, negated, key): the language-neutral shape extract.py turns into a Candidate.
Hit = tuple[str, str, str, float, bool, str]


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Lower-cased name → canonical spelling. Shared with the Chinese rules: people write "Python" in both.
PROGRAMMING_LANGUAGES = {
    s.lower(): s
    for s in (
        "Python", "Rust", "Go", "Golang", "Java", "JavaScript", "TypeScript", "C", "C++", "C#", "Ruby", "PHP", "Swift",
        "Kotlin", "Scala", "Haskell", "Elixir", "Erlang", "Clojure", "Lua", "Perl", "R", "Julia", "Dart", "Zig",
        "Nim", "OCaml", "F#", "Fortran", "COBOL", "MATLAB", "Objective-C", "Assembly", "SQL", "Bash", "Lisp",
        "Common Lisp", "Scheme", "Racket", "Prolog", "Crystal", "Solidity", "Elm", "Groovy", "Visual Basic", "Mojo",
        "Gleam", "V", "D", "Pascal", "Delphi", "Ada", "Smalltalk", "PowerShell", "Verilog", "VHDL",
    )
}  # fmt: skip
# Names that are words too: "I like Go" is the language only when written like a name.
_CASED_LANGUAGES = frozenset({"go", "r", "c", "v", "d", "ada", "crystal", "elm", "dart", "rust", "swift", "julia"})
_CODE_LEAD = re.compile(r"^(?:coding|programming|writing code|developing|working|building things|hacking)\s+"
                        r"(?:in|with)\s+"
                        r"|^(?:writing|using|learning|to (?:code|program|write) in|to write|to use)\s+", re.I)
_LANGUAGE_TAIL = re.compile(r"\s+(?:now|these days|nowadays|mostly|mainly|a lot|anymore|too|as well|instead)$", re.I)
_LATIN_HEAD = re.compile(r"[A-Za-z][A-Za-z0-9+#/-]*(?=\s*[" + cjk.IDEOGRAPHS + r"])")  # "Python写后端" → Python


def language(obj: str) -> str | None:
    """The canonical programming language an object names ("coding in python" → Python), if any."""
    core = _CODE_LEAD.sub("", obj.strip()).strip()
    core = _LANGUAGE_TAIL.sub("", core)
    canon = PROGRAMMING_LANGUAGES.get(core.lower())
    head = _LATIN_HEAD.match(core) if canon is None else None
    if head is not None:
        core = head.group()
        canon = PROGRAMMING_LANGUAGES.get(core.lower())
    if canon is None or (core.lower() in _CASED_LANGUAGES and not core[:1].isupper()):
        return None
    return canon


_DEMONYMS = _words(
    "chinese american british english french german japanese korean indian canadian australian italian spanish "
    "mexican brazilian russian dutch swedish norwegian danish finnish polish irish scottish welsh vietnamese thai "
    "filipino indonesian malaysian singaporean taiwanese turkish greek portuguese swiss austrian belgian israeli "
    "egyptian nigerian kenyan argentinian chilean colombian peruvian pakistani iranian ukrainian czech hungarian "
    "romanian cantonese"
)
_OCCUPATIONS = _words(
    "engineer developer programmer coder designer teacher student nurse doctor physician lawyer accountant chef "
    "cook writer author artist musician scientist researcher professor lecturer manager consultant analyst "
    "architect pharmacist dentist therapist psychologist photographer journalist editor farmer driver pilot "
    "mechanic electrician plumber carpenter firefighter officer soldier cashier waiter waitress barista librarian "
    "translator salesperson entrepreneur founder freelancer intern postdoc veterinarian vet surgeon paramedic "
    "receptionist secretary clerk banker economist mathematician physicist chemist biologist sysadmin retiree "
    "homemaker tutor coach trainer actor actress singer dancer streamer youtuber illustrator animator "
    "technician scientist undergrad undergraduate phd midwife caregiver carer janitor cleaner baker butcher "
    "tailor hairdresser barber marketer recruiter director ceo cto cfo administrator admin volunteer"
)
_NOT_NAMES = _words(
    "sorry fine good ok okay back here home tired done busy ready sure going trying still also always never "
    "feeling sick bored hungry excited happy sad so just not very really glad afraid new in on at from with "
    "the a an gonna learning working thinking doing getting having looking coming leaving staying late early "
    "alone lost free single married divorced pregnant vegan vegetarian allergic later tomorrow tonight when if "
    "maybe sometime now again anytime whenever soon please crazy lazy old whatever anything"
) | _DEMONYMS
_REL_SUBJECT = {
    "sister": "sister", "sis": "sister", "brother": "brother", "bro": "brother",
    "mom": "mother", "mum": "mother", "mother": "mother", "mommy": "mother", "mama": "mother",
    "dad": "father", "father": "father", "daddy": "father", "papa": "father",
    "wife": "partner", "husband": "partner", "partner": "partner", "boyfriend": "partner", "girlfriend": "partner",
    "fiance": "partner", "fiancé": "partner", "fiancee": "partner", "fiancée": "partner",
    "friend": "friend", "boss": "boss", "manager": "boss", "son": "child", "daughter": "child", "kid": "child",
    "child": "child", "cat": "cat", "kitten": "cat", "dog": "dog", "puppy": "dog", "roommate": "roommate",
    "flatmate": "roommate", "coworker": "colleague", "colleague": "colleague", "grandma": "grandparent",
    "grandpa": "grandparent", "grandmother": "grandparent", "grandfather": "grandparent",
}  # fmt: skip
_REL = (r"(?i:(?P<mod>(?:little|younger|older|big|baby|twin|best|new|old|step)\s+)?"
        r"(?P<rel>" + "|".join(sorted(_REL_SUBJECT, key=len, reverse=True)) + r"))")
# Events worth remembering even without a when ("I have an exam"), and everyday ones that need one
# ("I have work tomorrow" is a plan, "I have a call" is just now).
_BIG_EVENTS = (r"exam|test|interview|appointment|presentation|deadline|flight|surgery|operation|wedding|trip|"
               r"check-?up|recital|audition|defen[cs]e|viva|midterm|final|conference|date")
_EVENTS = (rf"(?:{_BIG_EVENTS}|meeting|call|class|party|concert|game|match|review|demo|dinner|lunch|shift|lecture|"
           r"session|visit|work|school|practice|training|rehearsal)s?")
_BIG_EVENT = re.compile(rf"\b(?:{_BIG_EVENTS})s?\b", re.I)
_HEALTH = r"(?:asthma|diabetes|epilepsy|migraines?|adhd|autism|depression|anxiety|insomnia|high blood pressure|celiac)"
_DIET_FOODS = r"(?:meat|pork|beef|fish|seafood|dairy|eggs|gluten|animal products)"

_FILLERS = re.compile(
    r"^(?:(?:well|oh|so|also|actually|btw|by the way|anyway|and|but|yeah|yes|ok|okay|um|uh|hmm+|haha+|lol|"
    r"honestly|fyi|fun fact|you know|just so you know|oh and|ps)\b[\s,:!-]*)+", re.I)
_ANCHOR = re.compile(r"(?<![\w'])(?:I|i)(?=['\s]|$)|(?<![\w'])(?:my|My|MY|im|Im)(?=\s)")
_LEAD_BLOCK = re.compile(
    r"\b(?:you|he|she|they|we|it|if|unless|whether|wish|would|could|should|imagine|suppose|said|says|say|thinks?|"
    r"told|tell|ask|asked|asks|when|because|that|what|who|dream|dreamt|dreamed|pretend|maybe|not)\b", re.I)
_HEDGE = re.compile(r"^I (?:think|guess|believe|suppose|feel like|reckon)\s+(?:that\s+)?", re.I)
_WEAK = re.compile(r"\b(?:maybe|probably|perhaps|might|kinda|kind of|sort of|i guess|not sure)\b", re.I)
_ADV_WORDS = (
    "really", "also", "just", "still", "absolutely", "totally", "kinda", "kind of", "sort of", "actually", "genuinely",
    "truly", "seriously", "definitely", "mostly", "mainly", "usually", "generally", "primarily", "now", "currently",
    "honestly", "even", "quite", "so", "always", "especially", "particularly", "very much", "much", "sincerely",
    "simply", "secretly", "already", "recently", "finally", "pretty much", "mostly just", "do",
)
_ADV = r"(?:(?:" + "|".join(w.replace(" ", r"\s+") for w in _ADV_WORDS) + r")\s+)*"
_NEG = r"(?P<neg>(?:don't|dont|do not|never|no longer|can't|cannot)\s+(?:really\s+|even\s+|particularly\s+)?)?"
_NAME = r"[A-Z][a-z]+(?:[-'][A-Z]?[a-z]+)?(?:\s+[A-Z][a-z]+(?:[-'][A-Z]?[a-z]+)?)?"
_ANY_NAME = r"[A-Za-z][a-z]+(?:[-'][A-Za-z]?[a-z]+)?(?:\s+[A-Z][a-z]+)?"
# Future-pointing times; "today" and "soon" are left out, or "I'm going crazy today" would be a plan.
_TIME = re.compile(
    r"\b(?:tomorrow|tonight|this (?:morning|afternoon|evening|week|weekend|month|year|summer|winter|spring|"
    r"fall|autumn|friday|saturday|sunday|monday|tuesday|wednesday|thursday)|next (?!time\b)\w+|in (?:\d+|a|an|a few|"
    r"a couple of|two|three|four|five|six|ten) (?:minutes?|hours?|days?|weeks?|months?|years?)|later today|"
    r"on (?:the )?\d|at \d|by (?:the )?(?:end|\w+day)|end of (?:the )?(?:week|month|year)|"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)day|after (?:work|school|class|lunch|dinner))\b", re.I)
_TODAY = re.compile(r"\b(?:today|this afternoon|this evening|later)\b", re.I)
_I = re.compile(r"^(?:I|i)\b")
_ES_ENDING = re.compile(r"(?:s|sh|ch|x|z|o)$")
_Y_ENDING = re.compile(r"[^aeiou]y$")
_IRREGULAR = {"have": "has", "do": "does", "go": "goes", "am": "is", "be": "is", "don't": "doesn't", "dont": "doesn't"}
_UNCHANGED = frozenset({"quit", "left", "got", "went", "made", "had", "met", "came", "took", "saw", "began", "became",
                        "bought", "brought", "thought", "told", "said", "felt", "found", "lost", "won", "sent", "spent",
                        "built", "kept", "slept", "ran", "can", "can't", "cannot", "will", "won't", "would", "should",
                        "could", "must", "might", "may",
                        "did", "didn't", "was", "wasn't", "used", "never", "no"})


def _third_s(verb: str) -> str:
    low = verb.lower()
    if low in _IRREGULAR:
        return _IRREGULAR[low]
    if low in _UNCHANGED or low.endswith("ed"):
        return verb
    if _ES_ENDING.search(low):
        return verb + "es"
    if _Y_ENDING.search(low):
        return verb[:-1] + "ies"
    return verb + "s"


# Words "statement" steps over to find the verb to conjugate ("I kind of like" → "kind of likes"); not "do",
# which is the verb itself in "I do like".
_ADVERBS = (frozenset(w for a in _ADV_WORDS for w in a.split()) - {"do"}) | {"never", "sometimes", "often", "rarely",
                                                                       "only"}
_LEAD_FORMS = (
    (re.compile(r"^(?:I'm|I am|Im|i'm|i am|im)\b", re.I), "The user is"),
    (re.compile(r"^(?:I've|I have)\s+got\b", re.I), "The user has got"),
    (re.compile(r"^(?:I've|I have)\s+(?=been|just|already|decided|always|never|moved|switched|started)", re.I),
     "The user has "),
    (re.compile(r"^(?:I've|I have)\b", re.I), "The user has"),
    (re.compile(r"^(?:I'll|I will)\b", re.I), "The user will"),
    (re.compile(r"^(?:I'd|I would)\b", re.I), "The user would"),
    (re.compile(r"^my\b", re.I), "The user's"),
)
_REST = (
    (re.compile(r"\b(?:I'm|i'm|I am)\b"), "they are"), (re.compile(r"\b(?:I've|i've)\b"), "they have"),
    (re.compile(r"\b(?:I'll|i'll)\b"), "they will"), (re.compile(r"\b(?:I|i)\b(?!')"), "they"),
    (re.compile(r"\bmy\b", re.I), "their"), (re.compile(r"\bmyself\b", re.I), "themselves"),
    (re.compile(r"\bme\b", re.I), "them"), (re.compile(r"\bmine\b", re.I), "theirs"),
)
_TRAILING = re.compile(r"[\s.!?,;:~…\U0001F000-\U0001FAFF\u2600-\u27BF\uFE0F]+$|\s+(?:lol|haha+|hehe|:\)|:D|xd)$", re.I)


def statement(clause: str) -> str:
    """A first-person clause as a self-contained third-person sentence: "I mainly write Rust now" →
    "The user mainly writes Rust now." Stored facts are read later, out of context, in the prompt."""
    s = _TRAILING.sub("", clause.strip())
    s = _TRAILING.sub("", s)
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
        while i < len(words) and words[i].lower() in _ADVERBS:
            i += 1
        if i < len(words):
            words[i] = _third_s(words[i])
        head, rest = "The user", " " + " ".join(words)
    for pattern, repl in _REST:
        rest = pattern.sub(repl, rest)
    return (head + rest).replace("  ", " ").strip() + "."


_OBJECT_TAIL = re.compile(
    r"\s+(?:now|these days|nowadays|anymore|any more|too|as well|a lot|so much|very much|lol|haha+|though|"
    r"either|at the moment|right now|for now|actually|really|btw|by the way|tbh|honestly|lmao)$", re.I)
_PRONOUN_OBJECT = re.compile(
    r"^(?:it|that|this|them|you|u|him|her|those|these|what|how|when|where|your|yours|the way|people who|"
    r"when you|ur|ya|one|some of|all of|to (?:think|say|know|believe|see|hear|talk|chat|ask))\b", re.I)
_CUT_AT = re.compile(r"\s+(?:as|since|for|because|but|which|where|and|in|now|these days|until|when|though|so|last|"
                     r"next|this|yesterday|today|recently|ago|\[)\b.*$", re.I)
_REASON_CUT = re.compile(r"\s+(?:since|because|but|which|when|though|so|ever since)\b.*$", re.I)
# Objects that follow "work at" / "live in" / "born in" without being a place or an employer.
_NOT_A_PLACE = re.compile(r"^(?:\d|night|nights|home|weekends?|the weekend|the moment|times|least|first|all|the same|"
                          r"peace|fear|hope|denial|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b)", re.I)
_PLACE_CUT = re.compile(r"\s+(?:now|since|for|with|because|but|and|which|where|these days|at the moment|right now|"
                        r"anymore|any more|though|so|when|until|last|next|this|yesterday|today|recently|ago|"
                        r"a (?:few|couple|while)|in \d{4}|\[)\b.*$", re.I)


def _clean(obj: str, cut: re.Pattern[str] | None = None) -> str:
    obj = _TRAILING.sub("", obj.strip())
    if cut is not None:
        obj = cut.sub("", obj)
    prev = None
    while prev != obj:
        prev, obj = obj, _TRAILING.sub("", _OBJECT_TAIL.sub("", obj))
    return obj.strip(" ,'\"")


def _titled(name: str) -> str:
    return " ".join(w[:1].upper() + w[1:] for w in name.split())


def _long(obj: str, words: int = 6) -> bool:
    return len(obj.split()) > words


# -- the rules -----------------------------------------------------------------------------------------
# Each rule gets the anchored body (starting at "I"/"my") and the lead before it, plain and with timeparse's
# dates kept (for plans); it returns hits or None to let the next rule try.

Rule = Callable[[str, str, str, str], list[Hit] | None]
_RULES: list[Rule] = []


def rule(fn: Rule) -> Rule:
    _RULES.append(fn)
    return fn


_MY_NAME = re.compile(rf"^(?i:my (?:first |full |real |actual )?name(?:'s| is)) (?P<x>{_ANY_NAME})\b(?P<tail>.*)$")
_IM_NAME = re.compile(rf"^(?:I'm|I am|Im) (?P<x>(?:(?:Dr|Mr|Mrs|Ms|Prof)\.? )?{_NAME})"
                      r"(?P<tail>(?:\s*(?:,|!|\.|-|\bfrom\b|\bbtw\b|\bby the way\b|"
                      r"\band\b|\bhere\b|\bnice\b).*)?)$")
_GO_BY = re.compile(rf"^(?i:I (?:go by|prefer to be called|'d like to be called|like to be called)) "
                    rf"(?P<x>{_ANY_NAME})\b")
# "I'm Exhausted": capitalised feelings are not names (the mood lexicon lists them); these endings are doubtful.
_ADJECTIVE = re.compile(r"(?:ed|ing|ful|ous|less|ive|able|ible|ish)$")
_TAIL_FROM = re.compile(r"\s*,?\s*from ([A-Z][\w .'-]+)")
_IM_WORD = re.compile(r"^(?:I'm|I am|Im) (?P<x>[a-z]+)$", re.I)
_AGE = re.compile(r"^(?:I'm|I am|Im|I turned|I just turned) (?P<x>\d{1,3})(?P<y> years? old| yo| y/o|)(?:\s+now)?$",
                  re.I)


@rule
def _identity(body: str, lead: str, ann_lead: str, ann_body: str) -> list[Hit] | None:
    m = _MY_NAME.match(body)
    if m and m.group("x").lower() not in _NOT_NAMES:
        x = _titled(m.group("x"))
        return [("identity", "user.name", f"The user's name is {x}.", 0.9, False, x)]
    m = _GO_BY.match(body)
    if m:
        x = _titled(m.group("x"))
        return [("identity", "user.nickname", f"The user likes to be called {x}.", 0.85, False, x)]
    m = _AGE.match(body)
    if m:
        age = int(m.group("x"))
        if 3 <= age <= 110:
            conf = 0.9 if m.group("y") or body.lower().startswith(("i turned", "i just")) else 0.55
            return [("identity", "user.age", f"The user is {age} years old.", conf, False, str(age))]
    m = _IM_NAME.match(body)
    if m:
        x = m.group("x")
        first = x.split()[0].lower()
        if first in _DEMONYMS:
            return [("identity", "user.nationality", f"The user is {x}.", 0.8, False, x)]
        if first not in _NOT_NAMES and first not in _OCCUPATIONS and first not in CUES and language(x) is None:
            conf = 0.4 if _ADJECTIVE.search(first) else 0.75  # "I'm Stressed" or "I'm Ned"? the model decides
            hits: list[Hit] = [("identity", "user.name", f"The user's name is {x}.", conf, False, x)]
            place = _TAIL_FROM.match(m.group("tail"))
            if place:
                p = _clean(place.group(1), _PLACE_CUT)
                hits.append(("place", "user.from", f"The user is from {p}.", 0.8, False, p))
            return hits
    m = _IM_WORD.match(body)
    if m and m.group("x").lower() in _DEMONYMS:
        x = m.group("x").capitalize()
        return [("identity", "user.nationality", f"The user is {x}.", 0.8, False, x)]
    return None


_FAN = re.compile(r"^(?:I'm|I am|Im) (?P<neg>not )?(?:really |so |very |totally |super )?"
                  r"(?:(?:a )?(?:big |huge |massive |"
                  r"great |real )?fan of|into|obsessed with|crazy about|passionate about|keen on) (?P<x>.+)$", re.I)
_LIKE = re.compile(
    rf"^I {_ADV}{_NEG}{_ADV}(?P<verb>like|love|adore|enjoy|prefer|dig|hate|dislike|detest|loathe|despise|"
    rf"can't stand|cannot stand|can't bear|care for|mind) (?P<x>.+)$", re.I)
_NEGATIVE_VERBS = frozenset({"hate", "dislike", "detest", "loathe", "despise", "can't stand", "cannot stand",
                             "can't bear"})
_ADDITIVE = re.compile(r"\b(?:also|too|as well)\b", re.I)


def _preference(body: str, obj: str, negated: bool, base: float) -> list[Hit]:
    lang = language(obj)
    subject = "user.likes"
    if lang is not None and not negated and not _ADDITIVE.search(body):
        subject = "user.programming_language"  # exclusive: the main language; a new one supersedes it
    conf = base - (0.25 if _long(obj) else 0.0)
    return [("preference", subject, statement(body), conf, negated, lang or obj)]


@rule
def _likes(body: str, lead: str, ann_lead: str, ann_body: str) -> list[Hit] | None:
    m = _FAN.match(body)
    if m:
        obj = _clean(m.group("x"))
        if not obj or _PRONOUN_OBJECT.match(obj):
            return None
        return _preference(body[: m.start("x")] + obj, obj, bool(m.group("neg")), 0.8)
    m = _LIKE.match(body)
    if not m:
        return None
    verb = m.group("verb").lower()
    obj = _clean(m.group("x"))
    if verb == "mind" and not m.group("neg"):
        return None
    if not obj or _PRONOUN_OBJECT.match(obj):
        return None
    if verb == "mind":  # "I don't mind X": a weak yes
        return [("preference", "user.likes", statement(body[: m.start("x")] + obj), 0.45, False, obj)]
    negated = bool(m.group("neg")) != (verb in _NEGATIVE_VERBS)  # "I don't hate it" is a weak yes
    return _preference(body[: m.start("x")] + obj, obj, negated, 0.85)


_FAVOURITE = re.compile(r"^my (?:all[- ]time |absolute )?(?:favou?rite|fave?|fav) (?P<cat>[a-z][a-z -]{0,30}?) "
                        r"(?:is|are|was|has to be|'s) (?P<x>.+)$", re.I)
_NON_KEY = re.compile(r"[^a-z0-9]+")
_CATEGORY_ALIASES = {"colour": "color", "film": "movie", "films": "movie", "movies": "movie", "foods": "food",
                     "programming language": "programming_language", "language": "language", "band": "band",
                     "tv show": "show", "show": "show", "series": "show", "books": "book", "songs": "song"}


@rule
def _favourite(body: str, lead: str, ann_lead: str, ann_body: str) -> list[Hit] | None:
    m = _FAVOURITE.match(body)
    if not m:
        return None
    cat = m.group("cat").lower().strip()
    obj = _clean(m.group("x"))
    if not obj:
        return None
    lang = language(obj)
    cat = _CATEGORY_ALIASES.get(cat, cat)
    subject = "user.programming_language" if lang and cat in {"language", "programming_language"} else \
        "user.favourite." + _NON_KEY.sub("_", cat).strip("_")
    return [("preference", subject, statement(body[: m.start("x")] + obj), 0.85, False, lang or obj)]


_USES = re.compile(
    rf"^I(?:'ve| have)? {_ADV}(?P<neg>(?:don't|dont|do not|no longer)\s+)?{_ADV}(?P<verb>use|write|code in|program in|"
    r"develop in|work in|work with|switched to|moved to|migrated to|switched over to|am using|'m using|am writing|"
    r"'m writing|am coding in|'m coding in|rely on) (?P<x>.+)$", re.I)
_STRONG_USE = re.compile(r"\b(?:mainly|mostly|primarily|now|these days|nowadays|switched|migrated|moved|usually|"
                         r"main|all the time|every day|daily)\b", re.I)


@rule
def _uses(body: str, lead: str, ann_lead: str, ann_body: str) -> list[Hit] | None:
    m = _USES.match(body)
    if not m:
        return None
    verb = m.group("verb").lower()
    raw = m.group("x")
    obj = _clean(raw, _CUT_AT)
    lang = language(obj)
    negated = bool(m.group("neg"))
    text = statement(body)
    if lang is not None:
        subject = "user.likes" if negated or _ADDITIVE.search(body) else "user.programming_language"
        return [("preference", subject, text, 0.85 if _STRONG_USE.search(body) else 0.7, negated, lang)]
    if verb in {"moved to", "work in", "work with", "write", "'m writing", "am writing"} or not obj:
        return None  # "I moved to Berlin", "I work in finance": the place and work rules read those
    if _PRONOUN_OBJECT.match(obj) or _long(obj, 4):
        return None
    conf = 0.6 if _STRONG_USE.search(body) else 0.4
    return [("preference", "user.uses", text, conf, negated, obj)]


_WORK = re.compile(
    rf"^I {_ADV}(?P<neg>(?:don't|dont|do not|no longer)\s+)?(?:currently\s+|still\s+)?(?P<verb>work|worked|intern|"
    r"am interning|'m interning|got a job|got a new job|started (?:a new job|working|a job)|just started|joined|"
    r"have joined|'ve joined|"
    r"quit my job|left my job|got hired|was hired) (?P<prep>at|for|in|with|as)?\s*(?P<x>.+)$", re.I)
_WORK_AS = re.compile(r"^(?:a|an)\s+", re.I)
_WORK_WHERE = re.compile(r"^\s+in\s+((?:[A-Z][\w'-]*)(?:\s+[A-Z][\w'-]*){0,2})\b")


_AGENT_NOUN = re.compile(r"(?:er|or|ist|ian|ant|ent|eer|ologist)$")
_ANYMORE = re.compile(r"\b(?:anymore|any more)\b", re.I)


def _occupation_confidence(phrase: str) -> float:
    last = phrase.lower().split()[-1].rstrip("s") if phrase.split() else ""
    if last in _OCCUPATIONS or phrase.lower().split()[-1] in _OCCUPATIONS:
        return 0.85
    if _AGENT_NOUN.search(last):
        return 0.45
    return 0.0


@rule
def _work(body: str, lead: str, ann_lead: str, ann_body: str) -> list[Hit] | None:
    m = _WORK.match(body)
    if not m:
        return None
    verb, prep = m.group("verb").lower(), (m.group("prep") or "").lower()
    past_only = verb == "worked"
    negated = bool(m.group("neg")) or verb.startswith(("quit", "left")) or bool(
        _ANYMORE.search(body))
    if prep == "as":
        job = _clean(_WORK_AS.sub("", m.group("x")), _CUT_AT)
        conf = max(_occupation_confidence(job), 0.7) if job else 0.0
        if not job or past_only:
            return None
        return [("work", "user.job", statement(body[: m.start("x")] + _clean(m.group("x"), _CUT_AT)), conf, negated,
                 job)]
    if (past_only and not negated) or (verb in {"work", "worked", "intern"} and not prep):
        return None
    x = _clean(m.group("x"), _CUT_AT)
    if not x or _PRONOUN_OBJECT.match(x) or _NOT_A_PLACE.match(x):
        return None
    head = body[: m.start("x")]
    if prep == "in" and x[:1].islower():
        return [("work", "user.job", statement(head + x), 0.6, negated, x)]
    conf = 0.9 if prep in {"at", "for"} else 0.45  # "work in Berlin" may be a city
    if verb in {"joined", "have joined", "'ve joined", "just started"}:
        if not x[:1].isupper() and prep not in {"at", "with"}:
            return None  # "I joined a gym"; "I just started at a startup" is a job
        conf = 0.8
    where = _WORK_WHERE.match(m.group("x")[len(x):])  # "at a startup in Berlin": the city belongs to the fact
    said = x + (f" in {where.group(1)}" if where else "")
    return [("work", "user.work", statement(head + said), conf if not _long(x) else 0.5, negated, x)]


_JOB = re.compile(r"^(?:I'm|I am|Im) (?P<neg>not )?(?:a|an) (?P<x>[a-z][\w -]{1,40}?)(?:\s+(?P<prep>at|for|in|with) "
                  r"(?P<org>.+))?$", re.I)
_STUDY = re.compile(
    rf"^(?:I(?:'m|\s+am)?\s+{_ADV}(?:study|studied|go to school|studying|a student|an? \w+ student|doing an? \w+) "
    r"(?P<prep>at|in) (?P<x>.+)|I (?:go to|attend) (?P<y>.+(?:University|College|School|Academy|"
    r"Institute|High|Uni)\b.*))$", re.I)
_MAJOR = re.compile(rf"^I(?:'m|\s+am)?\s+{_ADV}(?:study|major in|majoring in|studying) (?P<x>[a-z].+)$", re.I)
_NOT_A_FIELD = re.compile(r"^(?:for|to|with|on|about|hard|late|all|every|at|in|tonight|today|tomorrow|a lot|so)\b",
                          re.I)
_SCHOOLISH = re.compile(r"\b(?:University|College|School|Academy|Institute|Uni|MIT|UCLA|Stanford|Harvard|Oxford|"
                        r"Cambridge)\b|大学|学院|中学")


@rule
def _job_and_school(body: str, lead: str, ann_lead: str, ann_body: str) -> list[Hit] | None:
    m = _STUDY.match(body)
    if m:
        x = _clean(m.group("x") or m.group("y"), _CUT_AT)
        if not x:
            return None
        if not (x[:1].isupper() or _SCHOOLISH.search(x)):
            return None  # "I study at home"
        conf = 0.85 if (m.group("prep") or "at").lower() == "at" or _SCHOOLISH.search(x) else 0.5
        return [("work", "user.school", statement(body[: (m.start("x") if m.group("x") else m.start("y"))] + x), conf,
                 False, x)]
    m = _JOB.match(body)
    if m:
        job = _clean(m.group("x"))
        conf = _occupation_confidence(job)
        if conf == 0.0:
            return None
        negated = bool(m.group("neg"))
        hits: list[Hit] = [("work", "user.job", statement(body[: m.end("x")]), conf, negated, job)]
        org = _clean(m.group("org") or "", _CUT_AT)
        if org and not negated and org[:1].isupper():
            student = job.split()[-1].lower() in {"student", "undergrad", "undergraduate", "phd", "postdoc"}
            subject = "user.school" if student or _SCHOOLISH.search(org) else "user.work"
            verb = "studies at" if subject == "user.school" else "works at"
            hits.append(("work", subject, f"The user {verb} {org}.", 0.8, False, org))
        return hits
    m = _MAJOR.match(body)
    if m:
        x = _clean(m.group("x"), _CUT_AT)
        if x and not _long(x, 4) and not _PRONOUN_OBJECT.match(x) and not _NOT_A_FIELD.match(x) \
                and not _TIME.search(x):
            return [("work", "user.major", statement(body[: m.start("x")] + x), 0.7, False, x)]
    return None


_LIVE = re.compile(
    rf"^I\s*{_ADV}(?P<neg>(?:don't|dont|do not|no longer)\s+)?{_ADV}(?P<verb>live|moved|just moved|relocated|"
    r"have moved|'ve moved|have lived|'ve lived|have been living|'ve been living) (?P<prep>in|to|into|at) (?P<x>.+)$",
    re.I)
_BASED = re.compile(r"^(?:I'm|I am|Im) (?P<neg>not )?(?:currently |now )?(?:based|living|located|settled|staying) "
                    r"(?:in|at) (?P<x>.+)$", re.I)
_FROM = re.compile(r"^(?:(?:I'm|I am|Im) (?P<neg>not )?(?:originally |actually )?from|I (?:grew up|was born and raised|"
                   r"was born|come) (?:in|from)) (?P<x>.+)$", re.I)


@rule
def _place(body: str, lead: str, ann_lead: str, ann_body: str) -> list[Hit] | None:
    for pattern, subject, conf in ((_LIVE, "user.lives_in", 0.9), (_BASED, "user.lives_in", 0.85),
                                   (_FROM, "user.from", 0.9)):
        m = pattern.match(body)
        if not m:
            continue
        x = _clean(m.group("x"), _PLACE_CUT)
        if not x or _PRONOUN_OBJECT.match(x) or language(x) or _NOT_A_PLACE.match(x):
            return None
        if x.lower().startswith(("a ", "an ", "the ")) and not any(w[:1].isupper() for w in x.split()[1:]):
            conf = 0.45  # "I live in a flat": a home, not a place
        negated = bool(m.group("neg")) or bool(_ANYMORE.search(body))
        return [("place", subject, statement(body[: m.start("x")] + x), conf if not _long(x) else 0.5, negated, x)]
    return None


_REL_NAMED = re.compile(rf"^(?i:my) {_REL}(?i:'s name is|'s called| is called| is named| named| called| goes by|,)\s+"
                        rf"(?P<x>{_ANY_NAME})(?P<rest>.*)$")
_REL_IS = re.compile(rf"^(?i:my) {_REL} is (?P<x>{_NAME})\s*$")
_REL_APPOS = re.compile(rf"^(?i:my) {_REL} (?P<x>{_NAME})\b(?P<rest>.*)$")
_REL_ANY = re.compile(rf"^(?i:my) {_REL}(?:'s)?\s+(?P<rest>.+)$")
_HAVE_REL = re.compile(rf"^(?i:I (?:have|'ve got|have got) (?:a|an|one|two|three|four|\d+) (?:\w+ )?){_REL}(?i:s?)"
                       rf"(?:,? (?i:called|named) (?P<x>{_ANY_NAME}))?"
                       r"(?P<more>\s+and\s+(?:a|an|one|two|three|\d+)\s.*)?\s*$")


_IS_A = re.compile(r"(?:is|'s) (?:a|an) ", re.I)
_REL_WHERE = re.compile(r"(?:still |now |also )?(?:lives|is living|has lived|moved|has moved|works|is working|studies) "
                        r"(?:in|at|for|to) (?:an? |the )?[A-Z]")
_PERSON_REF = re.compile(rf"^(?i:my) {_REL}(?=\W|$)")
_PRONOUN = re.compile(r"^(?i:she|he)\s+(?=\w)")
_CONJ = re.compile(r"(?:and|or|,)\b")


def _rel_subject(m: re.Match[str]) -> str:
    return "user." + _REL_SUBJECT[m.group("rel").lower()]


def _rel_word(m: re.Match[str]) -> str:
    return ((m.group("mod") or "") + m.group("rel")).lower()


@rule
def _person(body: str, lead: str, ann_lead: str, ann_body: str) -> list[Hit] | None:
    m = _REL_NAMED.match(body) or _REL_IS.match(body) or _REL_APPOS.match(body)
    if m and m.group("x").split()[0].lower() not in _NOT_NAMES:
        x = _titled(m.group("x"))
        hits: list[Hit] = [("person", _rel_subject(m), f"The user's {_rel_word(m)} is called {x}.", 0.85, False, x)]
        rest = _clean(m.groupdict().get("rest") or "")
        if len(rest.split()) >= 2:
            hits.append(("person", _rel_subject(m), statement(body), 0.45, False, x))
        return hits
    m = _HAVE_REL.match(body)
    if m:
        x = m.group("x")
        hits = [("person", _rel_subject(m), statement(body[: m.start("more")] if m.group("more") else body),
                 0.85 if x else 0.7, False, _titled(x) if x else m.group("rel").lower())]
        more = _person("I have " + m.group("more").strip()[4:], lead, ann_lead, ann_body) if m.group("more") else None
        return hits + (more or [])  # "a cat named Luna and a dog named Rex"
    m = _REL_ANY.match(body)
    if m:
        rest = m.group("rest")
        if _IS_A.match(rest):
            return [("person", _rel_subject(m), statement(_clean(body, _CUT_AT)), 0.6, False, m.group("rel").lower())]
        if _CONJ.match(rest):
            return None
        if _REL_WHERE.match(rest):  # "my sister lives in Hamburg": as concrete as "my sister is a nurse"
            return [("person", _rel_subject(m), statement(_clean(body, _PLACE_CUT)), 0.7, False,
                     m.group("rel").lower())]
        return [("person", _rel_subject(m), statement(body), 0.4, False, m.group("rel").lower())]
    return None


_ALLERGY = re.compile(r"^(?:I'm|I am|Im) (?P<neg>not )?(?:very |severely |a bit |slightly |deathly )?"
                      r"allergic to (?P<x>.+)$"
                      r"|^I have (?:a |an )?(?:severe |bad |mild )?(?P<y>[\w -]{2,30}?) allerg(?:y|ies)\s*$"
                      r"|^(?:I'm|I am|Im) (?P<z>lactose|gluten) intolerant\b", re.I)
_DIET = re.compile(r"^(?:I'm|I am|Im) (?P<neg>not )?(?:a |an |strictly |fully |mostly )?"
                   r"(?P<x>vegetarian|vegan|pescatarian|"
                   rf"pescetarian|plant-based)\b|^I (?P<neg2>don't|do not|never|no longer) eat (?P<y>{_DIET_FOODS})\b"
                   r"|^I (?:keep|eat) (?P<w>kosher|halal)\b", re.I)
_CONDITION = re.compile(rf"^I (?:have|'ve got|suffer from|was diagnosed with) (?P<x>{_HEALTH})\b"
                        r"|^(?:I'm|I am|Im) (?P<y>diabetic|pregnant|asthmatic|epileptic|deaf|blind)\b", re.I)


@rule
def _health(body: str, lead: str, ann_lead: str, ann_body: str) -> list[Hit] | None:
    m = _ALLERGY.match(body)
    if m:
        x = _clean(m.group("x") or m.group("y") or m.group("z") or "", _REASON_CUT)
        if not x:
            return None
        neg = bool(m.group("neg"))
        text = statement(body[: m.start("x")] + x) if m.group("x") else statement(_clean(body))
        return [("health", "user.allergy", text, 0.9, neg, x)]
    m = _DIET.match(body)
    if m:
        x = (m.group("x") or m.group("y") or m.group("w")).lower()
        neg = bool(m.group("neg") or m.group("neg2"))
        return [("health", "user.diet", statement(_clean(body, _CUT_AT)), 0.9, neg, x)]
    m = _CONDITION.match(body)
    if m:
        x = (m.group("x") or m.group("y")).lower()
        return [("health", "user.health", statement(_clean(body, _CUT_AT)), 0.85, False, x)]
    return None


_PLAN_SURE = re.compile(
    r"^(?:I'm|I am|Im) (?P<neg>not )?(?:going to|gonna|planning to|planning on|about to|hoping to|"
    r"thinking (?:about|of)|"
    r"flying|leaving|visiting|meeting|starting|moving|travell?ing|heading|seeing|taking|driving|coming|attending|"
    r"going|off to|supposed to|scheduled to|due to)\b"
    r"|^I(?:'ll| will| shall|'m gonna) (?P<neg2>not )?"
    r"|^I (?P<neg3>won't|will not|am not going to)\b"
    r"|^I (?:plan|intend|want|hope|need|have|got|'ve got) to\b"
    r"|^I(?:'ve| have)? (?:decided|booked|scheduled|arranged|signed up)\b", re.I)
_PLAN_INTENT = re.compile(r"\b(?:planning|plan|intend|decided|thinking about|thinking of|booked|scheduled|signed up)\b",
                          re.I)
_HAVE_EVENT = re.compile(rf"^I(?:'ve got| have got| have) (?:(?:a|an|my|another|the|\w+'s|two|three|one more) )?"
                         rf"(?:[\w'-]+ ){{0,2}}{_EVENTS}\b(?! to\b)|^my (?:[\w'-]+ ){{0,2}}{_EVENTS} "
                         r"(?:is|are|was moved to|got moved "
                         r"to) ", re.I)
_VAGUE_OBJECT = re.compile(r"\b(?:it|that|this|there|so|something)\b", re.I)


@rule
def _plan(body: str, lead: str, ann_lead: str, ann_body: str) -> list[Hit] | None:
    event = _HAVE_EVENT.match(body)
    sure = None if event else _PLAN_SURE.match(body)
    if not event and not sure:
        return None
    timed = bool(_TIME.search(lead + " " + body)) or bool(features(lead + " " + body).dates)
    if event:
        if timed or _TODAY.search(lead + " " + body):
            conf = 0.85
        elif _BIG_EVENT.search(body):
            conf = 0.6
        else:
            return None
        negated = False
    else:
        assert sure is not None
        negated = bool(sure.group("neg") or sure.group("neg2") or sure.group("neg3"))
        if timed:
            conf = 0.85
        elif _PLAN_INTENT.search(body):
            conf = 0.55
        else:
            return None  # "I'm going to bed", "I'll try": intentions without a when are not worth keeping
        if _VAGUE_OBJECT.search(body[sure.end() :]):
            conf = min(conf, 0.45)
    text = statement(ann_body)
    lead = _TRAILING.sub("", ann_lead.strip())
    if lead:
        text = f"{lead[:1].upper()}{lead[1:]}, the user{text[len('The user') :]}" if text.startswith("The user") \
            else f"{lead}, {text}"
    return [("plan", "user.plan", text, conf, negated, "")]


_SELF = re.compile(r"^(?:(?:well|oh|so|also|actually|and|but|now|yeah)\W+)*(?:I|i)(?:['\s]|$)")


def speaks_for_self(clause: str) -> bool:
    """Whether the clause's subject is the user, so a following "and work at Google" is theirs too."""
    return bool(_SELF.match(clause.strip()))


def refers_to(clause: str) -> str | None:
    """The relative a clause is about ("my sister", …), for a "she"/"he" clause after it."""
    m = _PERSON_REF.match(clause.strip())
    return m.group(0) if m else None


def resolve_pronoun(clause: str, ref: str) -> str | None:
    """"she lives in Hamburg" after "my sister …" as "my sister lives in Hamburg"; None when it is no such clause."""
    m = _PRONOUN.match(clause.strip())
    return ref + " " + clause.strip()[m.end():] if m else None


def has_anchor(clause: str) -> bool:
    return bool(_ANCHOR.search(clause)) or "call me" in clause.lower()


_CALL_ME = re.compile(rf"^(?i:(?:(?:you can|u can|please|pls|just|people|everyone|my friends|friends) )*call me) "
                      rf"(?P<x>{_ANY_NAME})(?P<tail>.*)$")


def rules(clause: str, annotated: str) -> list[Hit]:
    """Hits from one clause (already split, no question). ``annotated`` carries timeparse's dates."""
    plain = _FILLERS.sub("", clause.strip()).replace("’", "'")
    m = _CALL_ME.match(plain)
    if m and m.group("x").lower() not in _NOT_NAMES and not m.group("tail").strip(" .!,").lower().startswith(
            ("when", "if", "back", "later", "tomorrow", "tonight")):
        x = _titled(m.group("x"))
        return [("identity", "user.nickname", f"The user likes to be called {x}.", 0.85, False, x)]
    a = _ANCHOR.search(plain)
    if a is None:
        return []
    lead, body = plain[: a.start()], plain[a.start() :]
    if len(lead.split()) > 5 or _LEAD_BLOCK.search(lead):
        return []
    hedge = 0.0
    h = _HEDGE.match(body)
    if h:
        body, hedge = body[h.end() :], 0.2
        if not _ANCHOR.match(body):
            return []
    if _WEAK.search(body):
        hedge = max(hedge, 0.2)
    body = body[0].upper() + body[1:] if body[:1] == "i" and body[1:2] in {" ", "'"} else body
    ann = _FILLERS.sub("", annotated.strip()).replace("’", "'")
    at = ann.lower().find(body[:12].lower())
    ann_lead, ann_body = (ann[:at], body[:1] + ann[at + 1 :]) if at >= 0 else (lead, body)
    for fn in _RULES:
        hits = fn(body, lead, ann_lead, ann_body)
        if hits:
            return [(k, s, t, round(max(0.05, c - hedge), 2), n, key) for k, s, t, c, n, key in hits]
    return []
