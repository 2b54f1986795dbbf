"""English rules for what the user likes and uses: likes and dislikes, favourites, the tools and
the programming language they work in (one main language at a time: "I switched to Rust")."""

from __future__ import annotations

import re

from . import RuleHit, language
from .en_phrasing import ADV, CUT_AT, NEG, PRONOUN_OBJECT, clean, statement, too_long
from .lexicon_en import CATEGORY_ALIASES, NEGATIVE_VERBS

_FAN = re.compile(
    r"^(?:I'm|I am|Im) (?P<neg>not )?(?:really |so |very |totally |super )?"
    r"(?:(?:a )?(?:big |huge |massive |"
    r"great |real )?fan of|into|obsessed with|crazy about|passionate about|keen on) (?P<x>.+)$",
    re.I,
)
_LIKE = re.compile(
    rf"^I {ADV}{NEG}{ADV}(?P<verb>like|love|adore|enjoy|prefer|dig|hate|dislike|detest|loathe|despise|"
    rf"can't stand|cannot stand|can't bear|care for|mind) (?P<x>.+)$",
    re.I,
)
_ADDITIVE = re.compile(r"\b(?:also|too|as well)\b", re.I)


def _preference(body: str, obj: str, negated: bool, base: float) -> list[RuleHit]:
    lang = language(obj)
    subject = "user.likes"
    if lang is not None and not negated and not _ADDITIVE.search(body):
        subject = (
            "user.programming_language"  # exclusive: the main language; a new one supersedes it
        )
    conf = base - (0.25 if too_long(obj) else 0.0)
    return [RuleHit("preference", subject, statement(body), conf, negated, lang or obj)]


def likes(body: str, lead: str, ann_lead: str, ann_body: str) -> list[RuleHit] | None:
    m = _FAN.match(body)
    if m:
        obj = clean(m.group("x"))
        if not obj or PRONOUN_OBJECT.match(obj):
            return None
        return _preference(body[: m.start("x")] + obj, obj, bool(m.group("neg")), 0.8)
    m = _LIKE.match(body)
    if not m:
        return None
    verb = m.group("verb").lower()
    obj = clean(m.group("x"))
    if verb == "mind" and not m.group("neg"):
        return None
    if not obj or PRONOUN_OBJECT.match(obj):
        return None
    if verb == "mind":  # "I don't mind X": a weak yes
        return [
            RuleHit(
                "preference", "user.likes", statement(body[: m.start("x")] + obj), 0.45, False, obj
            )
        ]
    negated = bool(m.group("neg")) != (verb in NEGATIVE_VERBS)  # "I don't hate it" is a weak yes
    return _preference(body[: m.start("x")] + obj, obj, negated, 0.85)


_FAVOURITE = re.compile(
    r"^my (?:all[- ]time |absolute )?(?:favou?rite|fave?|fav) (?P<cat>[a-z][a-z -]{0,30}?) "
    r"(?:is|are|was|has to be|'s) (?P<x>.+)$",
    re.I,
)
_NON_KEY = re.compile(r"[^a-z0-9]+")


def favourite(body: str, lead: str, ann_lead: str, ann_body: str) -> list[RuleHit] | None:
    m = _FAVOURITE.match(body)
    if not m:
        return None
    cat = m.group("cat").lower().strip()
    obj = clean(m.group("x"))
    if not obj:
        return None
    lang = language(obj)
    cat = CATEGORY_ALIASES.get(cat, cat)
    subject = (
        "user.programming_language"
        if lang and cat in {"language", "programming_language"}
        else "user.favourite." + _NON_KEY.sub("_", cat).strip("_")
    )
    return [
        RuleHit(
            "preference", subject, statement(body[: m.start("x")] + obj), 0.85, False, lang or obj
        )
    ]


_USES = re.compile(
    rf"^I(?:'ve| have)? {ADV}(?P<neg>(?:don't|dont|do not|no longer)\s+)?{ADV}(?P<verb>use|write|code in|program in|"
    r"develop in|work in|work with|switched to|moved to|migrated to|switched over to|am using|'m using|am writing|"
    r"'m writing|am coding in|'m coding in|rely on) (?P<x>.+)$",
    re.I,
)
_STRONG_USE = re.compile(
    r"\b(?:mainly|mostly|primarily|now|these days|nowadays|switched|migrated|moved|usually|"
    r"main|all the time|every day|daily)\b",
    re.I,
)


def uses(body: str, lead: str, ann_lead: str, ann_body: str) -> list[RuleHit] | None:
    m = _USES.match(body)
    if not m:
        return None
    verb = m.group("verb").lower()
    raw = m.group("x")
    obj = clean(raw, CUT_AT)
    lang = language(obj)
    negated = bool(m.group("neg"))
    text = statement(body)
    if lang is not None:
        subject = "user.likes" if negated or _ADDITIVE.search(body) else "user.programming_language"
        return [
            RuleHit(
                "preference",
                subject,
                text,
                0.85 if _STRONG_USE.search(body) else 0.7,
                negated,
                lang,
            )
        ]
    if verb in {"moved to", "work in", "work with", "write", "'m writing", "am writing"} or not obj:
        return None  # "I moved to Berlin", "I work in finance": the place and work rules read those
    if PRONOUN_OBJECT.match(obj) or too_long(obj, 4):
        return None
    conf = 0.6 if _STRONG_USE.search(body) else 0.4
    return [RuleHit("preference", "user.uses", text, conf, negated, obj)]
