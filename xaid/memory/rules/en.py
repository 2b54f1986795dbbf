"""English fact rules: one first-person clause in, zero or more hits out.

Patterns are anchored on the clause's own "I" or "my" so that "she thinks I like her" or "if I lived in
Paris" never become facts: only a short adverbial lead ("tomorrow", "these days") may precede the anchor.
Where the pattern is sure (a named employer, "my name is"), confidence is high and no model is asked;
where the words could mean something else ("I'm a gamer", "I work in Berlin"), it stays under 0.5 so
the consolidation asks the LLM instead of storing a guess.

This module finds the anchor and the lead and runs the rules in order; the rules themselves are in
en_people, en_likes and en_life, the pattern pieces and the third-person
rewrite they share in en_phrasing, and the words they read in lexicon_en.
"""

from __future__ import annotations

import re

from . import Rule, RuleHit
from . import en_life as life
from . import en_likes as likes
from . import en_people as people
from .en_phrasing import ANY_NAME, REL, titled
from .lexicon_en import NOT_NAMES

# In this order: the first rule with a hit decides.
RULES: tuple[Rule, ...] = (
    people.identity,
    likes.likes,
    likes.favourite,
    likes.uses,
    life.work,
    life.job_and_school,
    life.place,
    people.person,
    life.health,
    life.plan,
)

_FILLERS = re.compile(
    r"^(?:(?:well|oh|so|also|actually|btw|by the way|anyway|and|but|yeah|yes|ok|okay|um|uh|hmm+|haha+|lol|"
    r"honestly|fyi|fun fact|you know|just so you know|oh and|ps)\b[\s,:!-]*)+",
    re.I,
)
_ANCHOR = re.compile(r"(?<![\w'])(?:I|i)(?=['\s]|$)|(?<![\w'])(?:my|My|MY|im|Im)(?=\s)")
_LEAD_BLOCK = re.compile(
    r"\b(?:you|he|she|they|we|it|if|unless|whether|wish|would|could|should|imagine|suppose|said|says|say|thinks?|"
    r"told|tell|ask|asked|asks|when|because|that|what|who|dream|dreamt|dreamed|pretend|maybe|not)\b",
    re.I,
)
_HEDGE = re.compile(r"^I (?:think|guess|believe|suppose|feel like|reckon)\s+(?:that\s+)?", re.I)
_WEAK = re.compile(
    r"\b(?:maybe|probably|perhaps|might|kinda|kind of|sort of|i guess|not sure)\b", re.I
)
_PERSON_REF = re.compile(rf"^(?i:my) {REL}(?=\W|$)")
_PRONOUN = re.compile(r"^(?i:she|he)\s+(?=\w)")
_SELF = re.compile(r"^(?:(?:well|oh|so|also|actually|and|but|now|yeah)\W+)*(?:I|i)(?:['\s]|$)")


def speaks_for_self(clause: str) -> bool:
    """Whether the clause's subject is the user, so a following "and work at Google" is theirs too."""
    return bool(_SELF.match(clause.strip()))


def refers_to(clause: str) -> str | None:
    """The relative a clause is about ("my sister", …), for a "she"/"he" clause after it."""
    m = _PERSON_REF.match(clause.strip())
    return m.group(0) if m else None


def resolve_pronoun(clause: str, ref: str) -> str | None:
    """ "she lives in Hamburg" after "my sister …" as "my sister lives in Hamburg"; None when it is no such clause."""
    m = _PRONOUN.match(clause.strip())
    return ref + " " + clause.strip()[m.end() :] if m else None


def has_anchor(clause: str) -> bool:
    return bool(_ANCHOR.search(clause)) or "call me" in clause.lower()


_CALL_ME = re.compile(
    rf"^(?i:(?:(?:you can|u can|please|pls|just|people|everyone|my friends|friends) )*call me) "
    rf"(?P<x>{ANY_NAME})(?P<tail>.*)$"
)


def rules(clause: str, annotated: str) -> list[RuleHit]:
    """Hits from one clause (already split, no question). ``annotated`` carries timeparse's dates."""
    plain = _FILLERS.sub("", clause.strip()).replace("’", "'")
    m = _CALL_ME.match(plain)
    if (
        m
        and m.group("x").lower() not in NOT_NAMES
        and not m.group("tail")
        .strip(" .!,")
        .lower()
        .startswith(("when", "if", "back", "later", "tomorrow", "tonight"))
    ):
        x = titled(m.group("x"))
        return [
            RuleHit(
                "identity", "user.nickname", f"The user likes to be called {x}.", 0.85, False, x
            )
        ]
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
    for fn in RULES:
        hits = fn(body, lead, ann_lead, ann_body)
        if hits:
            return [h.hedged(hedge) for h in hits]
    return []
