"""English rules for the user's circumstances: work and school, where they live and come from,
allergies, diet and conditions, and plans with a when ("I have an interview on Friday")."""

from __future__ import annotations

import re

from ...text.features import features
from . import RuleHit, language
from .en_phrasing import (
    ADV,
    CUT_AT,
    NOT_A_PLACE,
    PLACE_CUT,
    PRONOUN_OBJECT,
    REASON_CUT,
    TIME,
    TRAILING,
    clean,
    statement,
    too_long,
)
from .lexicon_en import BIG_EVENTS, DIET_FOODS, EVENTS, HEALTH, OCCUPATIONS

_BIG_EVENT = re.compile(rf"\b(?:{BIG_EVENTS})s?\b", re.I)
_TODAY = re.compile(r"\b(?:today|this afternoon|this evening|later)\b", re.I)


_WORK = re.compile(
    rf"^I {ADV}(?P<neg>(?:don't|dont|do not|no longer)\s+)?(?:currently\s+|still\s+)?(?P<verb>work|worked|intern|"
    r"am interning|'m interning|got a job|got a new job|started (?:a new job|working|a job)|just started|joined|"
    r"have joined|'ve joined|"
    r"quit my job|left my job|got hired|was hired) (?P<prep>at|for|in|with|as)?\s*(?P<x>.+)$",
    re.I,
)
_WORK_AS = re.compile(r"^(?:a|an)\s+", re.I)
_WORK_WHERE = re.compile(r"^\s+in\s+((?:[A-Z][\w'-]*)(?:\s+[A-Z][\w'-]*){0,2})\b")


_AGENT_NOUN = re.compile(r"(?:er|or|ist|ian|ant|ent|eer|ologist)$")
_ANYMORE = re.compile(r"\b(?:anymore|any more)\b", re.I)


def _occupation_confidence(phrase: str) -> float:
    last = phrase.lower().split()[-1].rstrip("s") if phrase.split() else ""
    if last in OCCUPATIONS or phrase.lower().split()[-1] in OCCUPATIONS:
        return 0.85
    if _AGENT_NOUN.search(last):
        return 0.45
    return 0.0


def work(body: str, lead: str, ann_lead: str, ann_body: str) -> list[RuleHit] | None:
    m = _WORK.match(body)
    if not m:
        return None
    verb, prep = m.group("verb").lower(), (m.group("prep") or "").lower()
    past_only = verb == "worked"
    negated = (
        bool(m.group("neg")) or verb.startswith(("quit", "left")) or bool(_ANYMORE.search(body))
    )
    if prep == "as":
        job = clean(_WORK_AS.sub("", m.group("x")), CUT_AT)
        conf = max(_occupation_confidence(job), 0.7) if job else 0.0
        if not job or past_only:
            return None
        return [
            RuleHit(
                "work",
                "user.job",
                statement(body[: m.start("x")] + clean(m.group("x"), CUT_AT)),
                conf,
                negated,
                job,
            )
        ]
    if (past_only and not negated) or (verb in {"work", "worked", "intern"} and not prep):
        return None
    x = clean(m.group("x"), CUT_AT)
    if not x or PRONOUN_OBJECT.match(x) or NOT_A_PLACE.match(x):
        return None
    head = body[: m.start("x")]
    if prep == "in" and x[:1].islower():
        return [RuleHit("work", "user.job", statement(head + x), 0.6, negated, x)]
    conf = 0.9 if prep in {"at", "for"} else 0.45  # "work in Berlin" may be a city
    if verb in {"joined", "have joined", "'ve joined", "just started"}:
        if not x[:1].isupper() and prep not in {"at", "with"}:
            return None  # "I joined a gym"; "I just started at a startup" is a job
        conf = 0.8
    where = _WORK_WHERE.match(
        m.group("x")[len(x) :]
    )  # "at a startup in Berlin": the city belongs to the fact
    said = x + (f" in {where.group(1)}" if where else "")
    return [
        RuleHit(
            "work",
            "user.work",
            statement(head + said),
            conf if not too_long(x) else 0.5,
            negated,
            x,
        )
    ]


_JOB = re.compile(
    r"^(?:I'm|I am|Im) (?P<neg>not )?(?:a|an) (?P<x>[a-z][\w -]{1,40}?)(?:\s+(?P<prep>at|for|in|with) "
    r"(?P<org>.+))?$",
    re.I,
)
_STUDY = re.compile(
    rf"^(?:I(?:'m|\s+am)?\s+{ADV}(?:study|studied|go to school|studying|a student|an? \w+ student|doing an? \w+) "
    r"(?P<prep>at|in) (?P<x>.+)|I (?:go to|attend) (?P<y>.+(?:University|College|School|Academy|"
    r"Institute|High|Uni)\b.*))$",
    re.I,
)
_MAJOR = re.compile(
    rf"^I(?:'m|\s+am)?\s+{ADV}(?:study|major in|majoring in|studying) (?P<x>[a-z].+)$", re.I
)
_NOT_A_FIELD = re.compile(
    r"^(?:for|to|with|on|about|hard|late|all|every|at|in|tonight|today|tomorrow|a lot|so)\b", re.I
)
_SCHOOLISH = re.compile(
    r"\b(?:University|College|School|Academy|Institute|Uni|MIT|UCLA|Stanford|Harvard|Oxford|"
    r"Cambridge)\b|大学|学院|中学"
)


def job_and_school(body: str, lead: str, ann_lead: str, ann_body: str) -> list[RuleHit] | None:
    m = _STUDY.match(body)
    if m:
        x = clean(m.group("x") or m.group("y"), CUT_AT)
        if not x:
            return None
        if not (x[:1].isupper() or _SCHOOLISH.search(x)):
            return None  # "I study at home"
        conf = 0.85 if (m.group("prep") or "at").lower() == "at" or _SCHOOLISH.search(x) else 0.5
        said = body[: (m.start("x") if m.group("x") else m.start("y"))] + x
        return [RuleHit("work", "user.school", statement(said), conf, False, x)]
    m = _JOB.match(body)
    if m:
        job = clean(m.group("x"))
        conf = _occupation_confidence(job)
        if conf == 0.0:
            return None
        negated = bool(m.group("neg"))
        hits: list[RuleHit] = [
            RuleHit("work", "user.job", statement(body[: m.end("x")]), conf, negated, job)
        ]
        org = clean(m.group("org") or "", CUT_AT)
        if org and not negated and org[:1].isupper():
            student = job.split()[-1].lower() in {
                "student",
                "undergrad",
                "undergraduate",
                "phd",
                "postdoc",
            }
            subject = "user.school" if student or _SCHOOLISH.search(org) else "user.work"
            verb = "studies at" if subject == "user.school" else "works at"
            hits.append(RuleHit("work", subject, f"The user {verb} {org}.", 0.8, False, org))
        return hits
    m = _MAJOR.match(body)
    if m:
        x = clean(m.group("x"), CUT_AT)
        if (
            x
            and not too_long(x, 4)
            and not PRONOUN_OBJECT.match(x)
            and not _NOT_A_FIELD.match(x)
            and not TIME.search(x)
        ):
            return [
                RuleHit("work", "user.major", statement(body[: m.start("x")] + x), 0.7, False, x)
            ]
    return None


_LIVE = re.compile(
    rf"^I\s*{ADV}(?P<neg>(?:don't|dont|do not|no longer)\s+)?{ADV}(?P<verb>live|moved|just moved|relocated|"
    r"have moved|'ve moved|have lived|'ve lived|have been living|'ve been living) (?P<prep>in|to|into|at) (?P<x>.+)$",
    re.I,
)
_BASED = re.compile(
    r"^(?:I'm|I am|Im) (?P<neg>not )?(?:currently |now )?(?:based|living|located|settled|staying) "
    r"(?:in|at) (?P<x>.+)$",
    re.I,
)
_FROM = re.compile(
    r"^(?:(?:I'm|I am|Im) (?P<neg>not )?(?:originally |actually )?from|I (?:grew up|was born and raised|"
    r"was born|come) (?:in|from)) (?P<x>.+)$",
    re.I,
)


def place(body: str, lead: str, ann_lead: str, ann_body: str) -> list[RuleHit] | None:
    for pattern, subject, conf in (
        (_LIVE, "user.lives_in", 0.9),
        (_BASED, "user.lives_in", 0.85),
        (_FROM, "user.from", 0.9),
    ):
        m = pattern.match(body)
        if not m:
            continue
        x = clean(m.group("x"), PLACE_CUT)
        if not x or PRONOUN_OBJECT.match(x) or language(x) or NOT_A_PLACE.match(x):
            return None
        if x.lower().startswith(("a ", "an ", "the ")) and not any(
            w[:1].isupper() for w in x.split()[1:]
        ):
            conf = 0.45  # "I live in a flat": a home, not a place
        negated = bool(m.group("neg")) or bool(_ANYMORE.search(body))
        return [
            RuleHit(
                "place",
                subject,
                statement(body[: m.start("x")] + x),
                conf if not too_long(x) else 0.5,
                negated,
                x,
            )
        ]
    return None


_ALLERGY = re.compile(
    r"^(?:I'm|I am|Im) (?P<neg>not )?(?:very |severely |a bit |slightly |deathly )?"
    r"allergic to (?P<x>.+)$"
    r"|^I have (?:a |an )?(?:severe |bad |mild )?(?P<y>[\w -]{2,30}?) allerg(?:y|ies)\s*$"
    r"|^(?:I'm|I am|Im) (?P<z>lactose|gluten) intolerant\b",
    re.I,
)
_DIET = re.compile(
    r"^(?:I'm|I am|Im) (?P<neg>not )?(?:a |an |strictly |fully |mostly )?"
    r"(?P<x>vegetarian|vegan|pescatarian|"
    rf"pescetarian|plant-based)\b|^I (?P<neg2>don't|do not|never|no longer) eat (?P<y>{DIET_FOODS})\b"
    r"|^I (?:keep|eat) (?P<w>kosher|halal)\b",
    re.I,
)
_CONDITION = re.compile(
    rf"^I (?:have|'ve got|suffer from|was diagnosed with) (?P<x>{HEALTH})\b"
    r"|^(?:I'm|I am|Im) (?P<y>diabetic|pregnant|asthmatic|epileptic|deaf|blind)\b",
    re.I,
)


def health(body: str, lead: str, ann_lead: str, ann_body: str) -> list[RuleHit] | None:
    m = _ALLERGY.match(body)
    if m:
        x = clean(m.group("x") or m.group("y") or m.group("z") or "", REASON_CUT)
        if not x:
            return None
        neg = bool(m.group("neg"))
        text = statement(body[: m.start("x")] + x) if m.group("x") else statement(clean(body))
        return [RuleHit("health", "user.allergy", text, 0.9, neg, x)]
    m = _DIET.match(body)
    if m:
        x = (m.group("x") or m.group("y") or m.group("w")).lower()
        neg = bool(m.group("neg") or m.group("neg2"))
        return [RuleHit("health", "user.diet", statement(clean(body, CUT_AT)), 0.9, neg, x)]
    m = _CONDITION.match(body)
    if m:
        x = (m.group("x") or m.group("y")).lower()
        return [RuleHit("health", "user.health", statement(clean(body, CUT_AT)), 0.85, False, x)]
    return None


_PLAN_SURE = re.compile(
    r"^(?:I'm|I am|Im) (?P<neg>not )?(?:going to|gonna|planning to|planning on|about to|hoping to|"
    r"thinking (?:about|of)|"
    r"flying|leaving|visiting|meeting|starting|moving|travell?ing|heading|seeing|taking|driving|coming|attending|"
    r"going|off to|supposed to|scheduled to|due to)\b"
    r"|^I(?:'ll| will| shall|'m gonna) (?P<neg2>not )?"
    r"|^I (?P<neg3>won't|will not|am not going to)\b"
    r"|^I (?:plan|intend|want|hope|need|have|got|'ve got) to\b"
    r"|^I(?:'ve| have)? (?:decided|booked|scheduled|arranged|signed up)\b",
    re.I,
)
_PLAN_INTENT = re.compile(
    r"\b(?:planning|plan|intend|decided|thinking about|thinking of|booked|scheduled|signed up)\b",
    re.I,
)
_HAVE_EVENT = re.compile(
    rf"^I(?:'ve got| have got| have) (?:(?:a|an|my|another|the|\w+'s|two|three|one more) )?"
    rf"(?:[\w'-]+ ){{0,2}}{EVENTS}\b(?! to\b)|^my (?:[\w'-]+ ){{0,2}}{EVENTS} "
    r"(?:is|are|was moved to|got moved "
    r"to) ",
    re.I,
)
_VAGUE_OBJECT = re.compile(r"\b(?:it|that|this|there|so|something)\b", re.I)


def plan(body: str, lead: str, ann_lead: str, ann_body: str) -> list[RuleHit] | None:
    event = _HAVE_EVENT.match(body)
    sure = None if event else _PLAN_SURE.match(body)
    if not event and not sure:
        return None
    timed = bool(TIME.search(lead + " " + body)) or bool(features(lead + " " + body).dates)
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
    lead = TRAILING.sub("", ann_lead.strip())
    if lead:
        text = (
            f"{lead[:1].upper()}{lead[1:]}, the user{text[len('The user') :]}"
            if text.startswith("The user")
            else f"{lead}, {text}"
        )
    return [RuleHit("plan", "user.plan", text, conf, negated, "")]
