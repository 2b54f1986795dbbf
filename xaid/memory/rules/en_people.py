"""English rules for who the user is and who is in their life: name, nickname, age, nationality
("I'm Ana", "I'm 34", "I'm Brazilian"), and relatives and pets, named or not ("my sister Mia",
"I have two cats")."""

from __future__ import annotations

import re

from ...mood.lexicon_en import CUES
from . import RuleHit, language
from .en_phrasing import ANY_NAME, CUT_AT, NAME, PLACE_CUT, REL, clean, statement, titled
from .lexicon_en import DEMONYMS, NOT_NAMES, OCCUPATIONS, RELATIONS

_MY_NAME = re.compile(
    rf"^(?i:my (?:first |full |real |actual )?name(?:'s| is)) (?P<x>{ANY_NAME})\b(?P<tail>.*)$"
)
_IM_NAME = re.compile(
    rf"^(?:I'm|I am|Im) (?P<x>(?:(?:Dr|Mr|Mrs|Ms|Prof)\.? )?{NAME})"
    r"(?P<tail>(?:\s*(?:,|!|\.|-|\bfrom\b|\bbtw\b|\bby the way\b|"
    r"\band\b|\bhere\b|\bnice\b).*)?)$"
)
_GO_BY = re.compile(
    rf"^(?i:I (?:go by|prefer to be called|'d like to be called|like to be called)) "
    rf"(?P<x>{ANY_NAME})\b"
)
# "I'm Exhausted": capitalised feelings are not names (the mood lexicon lists them); these endings are doubtful.
_ADJECTIVE = re.compile(r"(?:ed|ing|ful|ous|less|ive|able|ible|ish)$")
_TAIL_FROM = re.compile(r"\s*,?\s*from ([A-Z][\w .'-]+)")
_IM_WORD = re.compile(r"^(?:I'm|I am|Im) (?P<x>[a-z]+)$", re.I)
_AGE = re.compile(
    r"^(?:I'm|I am|Im|I turned|I just turned) (?P<x>\d{1,3})(?P<y> years? old| yo| y/o|)(?:\s+now)?$",
    re.I,
)


def identity(body: str, lead: str, ann_lead: str, ann_body: str) -> list[RuleHit] | None:
    m = _MY_NAME.match(body)
    if m and m.group("x").lower() not in NOT_NAMES:
        x = titled(m.group("x"))
        return [RuleHit("identity", "user.name", f"The user's name is {x}.", 0.9, False, x)]
    m = _GO_BY.match(body)
    if m:
        x = titled(m.group("x"))
        return [
            RuleHit(
                "identity", "user.nickname", f"The user likes to be called {x}.", 0.85, False, x
            )
        ]
    m = _AGE.match(body)
    if m:
        age = int(m.group("x"))
        if 3 <= age <= 110:
            conf = 0.9 if m.group("y") or body.lower().startswith(("i turned", "i just")) else 0.55
            return [
                RuleHit(
                    "identity", "user.age", f"The user is {age} years old.", conf, False, str(age)
                )
            ]
    m = _IM_NAME.match(body)
    if m:
        x = m.group("x")
        first = x.split()[0].lower()
        if first in DEMONYMS:
            return [RuleHit("identity", "user.nationality", f"The user is {x}.", 0.8, False, x)]
        if (
            first not in NOT_NAMES
            and first not in OCCUPATIONS
            and first not in CUES
            and language(x) is None
        ):
            conf = (
                0.4 if _ADJECTIVE.search(first) else 0.75
            )  # "I'm Stressed" or "I'm Ned"? the model decides
            hits: list[RuleHit] = [
                RuleHit("identity", "user.name", f"The user's name is {x}.", conf, False, x)
            ]
            place = _TAIL_FROM.match(m.group("tail"))
            if place:
                p = clean(place.group(1), PLACE_CUT)
                hits.append(RuleHit("place", "user.from", f"The user is from {p}.", 0.8, False, p))
            return hits
    m = _IM_WORD.match(body)
    if m and m.group("x").lower() in DEMONYMS:
        x = m.group("x").capitalize()
        return [RuleHit("identity", "user.nationality", f"The user is {x}.", 0.8, False, x)]
    return None


_REL_NAMED = re.compile(
    rf"^(?i:my) {REL}(?i:'s name is|'s called| is called| is named| named| called| goes by|,)\s+"
    rf"(?P<x>{ANY_NAME})(?P<rest>.*)$"
)
_REL_IS = re.compile(rf"^(?i:my) {REL} is (?P<x>{NAME})\s*$")
_REL_APPOS = re.compile(rf"^(?i:my) {REL} (?P<x>{NAME})\b(?P<rest>.*)$")
_REL_ANY = re.compile(rf"^(?i:my) {REL}(?:'s)?\s+(?P<rest>.+)$")
_HAVE_REL = re.compile(
    rf"^(?i:I (?:have|'ve got|have got) (?:a|an|one|two|three|four|\d+) (?:\w+ )?){REL}(?i:s?)"
    rf"(?:,? (?i:called|named) (?P<x>{ANY_NAME}))?"
    r"(?P<more>\s+and\s+(?:a|an|one|two|three|\d+)\s.*)?\s*$"
)


_IS_A = re.compile(r"(?:is|'s) (?:a|an) ", re.I)
_REL_WHERE = re.compile(
    r"(?:still |now |also )?(?:lives|is living|has lived|moved|has moved|works|is working|studies) "
    r"(?:in|at|for|to) (?:an? |the )?[A-Z]"
)
_CONJ = re.compile(r"(?:and|or|,)\b")


def _rel_subject(m: re.Match[str]) -> str:
    return "user." + RELATIONS[m.group("rel").lower()]


def _rel_word(m: re.Match[str]) -> str:
    return ((m.group("mod") or "") + m.group("rel")).lower()


def person(body: str, lead: str, ann_lead: str, ann_body: str) -> list[RuleHit] | None:
    m = _REL_NAMED.match(body) or _REL_IS.match(body) or _REL_APPOS.match(body)
    if m and m.group("x").split()[0].lower() not in NOT_NAMES:
        x = titled(m.group("x"))
        hits: list[RuleHit] = [
            RuleHit(
                "person",
                _rel_subject(m),
                f"The user's {_rel_word(m)} is called {x}.",
                0.85,
                False,
                x,
            )
        ]
        rest = clean(m.groupdict().get("rest") or "")
        if len(rest.split()) >= 2:
            hits.append(RuleHit("person", _rel_subject(m), statement(body), 0.45, False, x))
        return hits
    m = _HAVE_REL.match(body)
    if m:
        x = m.group("x")
        hits = [
            RuleHit(
                "person",
                _rel_subject(m),
                statement(body[: m.start("more")] if m.group("more") else body),
                0.85 if x else 0.7,
                False,
                titled(x) if x else m.group("rel").lower(),
            )
        ]
        more = (
            person("I have " + m.group("more").strip()[4:], lead, ann_lead, ann_body)
            if m.group("more")
            else None
        )
        return hits + (more or [])  # "a cat named Luna and a dog named Rex"
    m = _REL_ANY.match(body)
    if m:
        rest = m.group("rest")
        if _IS_A.match(rest):
            return [
                RuleHit(
                    "person",
                    _rel_subject(m),
                    statement(clean(body, CUT_AT)),
                    0.6,
                    False,
                    m.group("rel").lower(),
                )
            ]
        if _CONJ.match(rest):
            return None
        if _REL_WHERE.match(
            rest
        ):  # "my sister lives in Hamburg": as concrete as "my sister is a nurse"
            return [
                RuleHit(
                    "person",
                    _rel_subject(m),
                    statement(clean(body, PLACE_CUT)),
                    0.7,
                    False,
                    m.group("rel").lower(),
                )
            ]
        return [
            RuleHit("person", _rel_subject(m), statement(body), 0.4, False, m.group("rel").lower())
        ]
    return None
