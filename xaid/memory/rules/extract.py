"""Fact candidates from one user utterance, rules first: the cheap half of L2 extraction (DESIGN.md §2).

A message is cut into clauses (. ! ? 。！？；; and "and I…", "but…", 但是, Chinese commas) and each clause that
is not a question goes to the English or the Chinese rules (en, zh). A rule that is sure
says so with confidence >= 0.5; below that the consolidation asks the LLM rather than trusting the guess.

Subjects are a closed vocabulary (SUBJECTS) because the consistency step finds the fact a candidate may
supersede by subject before it looks at vectors: "I like Python" and, a week later, "I mainly write Rust
now" both land on ``user.programming_language``, so the second can replace the first without a search.
Subjects that facts.EXCLUSIVE lists (name, work, lives_in, partner, …) hold one current value each.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...text import cjk, owed
from . import en as en
from . import exclusive, lexicon_en, lexicon_zh
from . import zh as zh

# The words for the people (and pets) of a user's life, in both languages: "my sister", 我闺蜜. Read
# from outside (memory.change_cues) to tell someone else's change from the user's own.
PEOPLE: frozenset[str] = frozenset(lexicon_en.RELATIONS) | frozenset(lexicon_zh.RELATIONS)
KINDS = ("identity", "preference", "work", "person", "plan", "place", "health", "other")

# The subject vocabulary other modules rely on. Keys are exact, except ``user.favourite.*`` whose tail is
# the category ("food", "color", …); see describe().
SUBJECTS: dict[str, str] = {
    "user.name": "identity: the user's name; one current value",
    "user.nickname": "identity: what the user asked to be called ('call me Al', 叫我小王)",
    "user.age": "identity: age in years",
    "user.nationality": "identity: nationality ('I'm Chinese'); apart from user.from, so a hometown never replaces it",
    "user.work": "work: employer or workplace ('works at Google', 在谷歌工作); one current value",
    "user.job": "work: occupation or field ('a nurse', 程序员, 'works in marketing'); one current value",
    "user.school": "work: school or university the user attends; one current value",
    "user.major": "work: field of study",
    "user.lives_in": "place: where the user lives now; a move supersedes it",
    "user.from": "place: hometown or home region ('from Boston', 来自四川, 是北京人)",
    "user.likes": "preference: things liked, and with negated=True disliked; the object is in text and key",
    "user.uses": "preference: a tool or product the user mainly uses now ('I mainly use Vim now')",
    "user.programming_language": "preference: the user's main programming language ('I like Python', "
    "'I mainly write Rust now', 我现在主要写Rust); one current value. Dislikes and "
    "'also likes Go' go to user.likes instead, so they never supersede it",
    "user.favourite.*": "preference: the favourite of a category, e.g. user.favourite.food, user.favourite.color",
    "user.partner": "person: wife, husband, boyfriend, girlfriend, partner (老婆, 老公, 男/女朋友, 对象); one current",
    "user.sister": "person: a sister (妹妹, 姐姐)",
    "user.brother": "person: a brother (哥哥, 弟弟)",
    "user.mother": "person: the user's mother",
    "user.father": "person: the user's father",
    "user.child": "person: a son, daughter or child",
    "user.grandparent": "person: a grandparent",
    "user.friend": "person: a friend",
    "user.boss": "person: the user's boss or manager",
    "user.colleague": "person: a colleague",
    "user.roommate": "person: a roommate",
    "user.cat": "person: a pet cat (pets are people here: they have names and get asked about)",
    "user.dog": "person: a pet dog",
    "user.allergy": "health: an allergy or intolerance ('allergic to peanuts', 对花生过敏)",
    "user.diet": "health: a diet ('vegetarian', 吃素, 'doesn't eat meat'); one current value",
    "user.car": "preference: the car the user drives ('drives a Kia EV6', 开一辆小鹏); one current value",
    "user.health": "health: a lasting condition (asthma, diabetes, pregnancy)",
    "user.plan": "plan: something the user will do or attend, with its time when said (timeparse dates kept)",
}


def describe(subject: str) -> str | None:
    """What a subject means, or None for a subject outside the vocabulary."""
    if subject in SUBJECTS:
        return SUBJECTS[subject]
    if subject.startswith("user.favourite.") and len(subject) > len("user.favourite."):
        return SUBJECTS["user.favourite.*"]
    return None


@dataclass(frozen=True, slots=True)
class Candidate:
    kind: str  # one of KINDS
    subject: str  # a SUBJECTS key: what consistency compares
    text: str  # self-contained third-person statement in the user's language
    source: str  # the clause it came from, verbatim (timeparse annotations removed)
    confidence: float  # 0..1; < 0.5 means the rule is unsure and the LLM path should decide
    negated: bool  # the statement denies: "I don't like coffee", "我不在谷歌工作了"
    key: str = (
        ""  # the object as the user wrote it ("Google", "谷歌", "Python"): counts later mentions
    )


_ANNOTATION = re.compile(r"\s*\[\d{4}-\d{2}-\d{2}(?:\.\.\d{4}-\d{2}-\d{2})?\]")
_EN_STARTERS = (
    r"(?:also\s+|now\s+|currently\s+|still\s+|really\s+|mainly\s+|mostly\s+)*(?:work|live|like|love|enjoy|"
    r"prefer|hate|study|moved|use|write|have|just|grew|got|joined|am|'m|can't|don't|never|speak|play)\b"
)
_EN_CONTINUES = re.compile(_EN_STARTERS, re.I)
_BOUNDARY = re.compile(
    r"(?P<end>(?<!\bDr)(?<!\bMr)(?<!\bMrs)(?<!\bMs)(?<!\bSt)(?<!\bProf)(?<!\bvs)[.!?…]+(?=\s|$)[\"'”’)]*"
    r"|[。！？；;!?\n]+"
    r"|，(?!\s*(?:叫|名叫|叫做))"
    r"|,(?=\s*[" + cjk.IDEOGRAPHS + r"]|\s*(?:I|i)['\s]|\s*[Mm]y\s"
    r"|\s*(?:do|did|are|have|can|would|will|what about|how about|and)\s+(?:you|u)\b))"
    rf"|(?P<cut>\s*,?\s+(?:and|but|though|plus|so|because|cause|while)\s+(?=(?:I|i)['\s]|[Mm]y\s|{_EN_STARTERS})"
    r"|\s*(?:但是|可是|不过|而且|并且|然后|所以|因为)\s*)"
)
_CONDITIONAL = re.compile(r"^\W*(?:if|unless|in case|suppose|如果|要是|假如|假设|万一|除非)", re.I)
_EN_QUESTION = re.compile(
    r"^(?:(?:so|and|but|well|oh|hey|ok|okay|um|also|btw)\W+)*"
    r"(?:(?:do|does|did|is|are|am|was|were|can|could|would|will|should|shall|have|has|may|might|must|didn't|don't|"
    r"doesn't|isn't|aren't|won't|wouldn't|can't|couldn't|shouldn't)\s+(?:i|you|we|he|she|they|it|my|your|the|there|"
    r"this|that|anyone|anybody|u|ya)\b"
    r"|(?:what|where|when|who|whom|whose|why|how|which)(?:'s|'re|'d|\s+(?:do|does|did|is|are|am|was|were|can|could|"
    r"would|will|should|have|has|about|many|much|long|often|old|far|come|if|else)\b))",
    re.I,
)
# A clause that opens with a question word is a question even without its mark ("whats his name").
_EN_WH_START = re.compile(
    r"^(?:(?:so|and|but|well|oh|hey|ok|okay|um|also|btw)\W+)*"
    r"(?:what|which|where|who|whom|whose|when|why|how)(?:s|'s|'re)?\b",
    re.I,
)
_ZH_QUESTION = re.compile(
    r"(?<![没不])什么(?![都也])|为什么|为啥|(?<!不)怎么(?!都)|哪(?:里|儿|个|些|家|位|天|年|种)(?![都也])|谁(?![都也])|"
    # where, said bare before the verb ("我现在在哪上班来着", "周末去哪玩")
    r"[在去]哪(?![里儿怕都也])|"
    r"多少|几点|几岁|几号|啥(?![都也])|(.)[不没]\1"
)
_ZH_ENDING_Q = re.compile(r"(?:吗|(?<![这那什怎多要])么)[呀啊呢]?$")
_SOFT_PUNCT = " \t.,!~…。，！～、:：;；\"'”’)）"


def _split(text: str) -> list[tuple[str, bool]]:
    """Clauses, each with whether it was joined to the one before softly (comma, "and", 但是): only those
    may inherit its "I"."""
    out: list[tuple[str, bool]] = []
    start, soft = 0, False
    for m in _BOUNDARY.finditer(text):
        if m.group("end"):
            piece, next_soft = text[start : m.end()], m.group().lstrip()[:1] in {",", "，"}
        else:
            piece, next_soft = text[start : m.start()], True
        if piece.strip():
            out.append((piece.strip(), soft))
        start, soft = m.end(), next_soft
    if text[start:].strip():
        out.append((text[start:].strip(), soft))
    return out


def _asked_in_form(clause: str) -> bool:
    """A clause that asks by its form, a question mark or a final 吗: a question word alone may be
    indefinite ("哪天地铁修到我家门口，我就不骑了": some day; "when the lease ends, I'll move")."""
    s = clause.strip()
    core = s.rstrip(_SOFT_PUNCT)
    if core.endswith(("?", "？")) or s.rstrip(_SOFT_PUNCT + "?？").endswith(("?", "？")):
        return True
    return bool(core) and cjk.has(core) and bool(_ZH_ENDING_Q.search(core))


def _is_question_clause(clause: str) -> bool:
    """A clause that asks by its form, or by a question word it opens with or holds."""
    if _asked_in_form(clause):
        return True
    core = clause.strip().rstrip(_SOFT_PUNCT)
    if not core:
        return False
    if cjk.has(core):
        return bool(_ZH_QUESTION.search(core))
    return bool(_EN_QUESTION.match(core))


def is_question(text: str) -> bool:
    """Whether the message only asks: "do I like coffee?" and "你喜欢什么？" state nothing about the user,
    while "I like tea, do you?" still does."""
    clauses = [c for c, _ in _split(text) if c.strip(_SOFT_PUNCT)]
    return bool(clauses) and all(_is_question_clause(c) for c in clauses)


def stated(text: str) -> str:
    """The part of a message that states rather than asks: its clauses that are not questions by
    their form, in order ("Wow, Mel! Any more paintings coming up?" states "Wow, Mel"). A change said inside a
    question ("how's the new job?", 你换新工作了吗) is asked about, not told."""
    clauses = [c for c, _ in _split(text) if c.strip(_SOFT_PUNCT)]
    kept = [c for c in clauses if not _asked_in_form(c)]
    if len(kept) == len(clauses):
        return text  # asks nothing: the message as said
    return "".join(c if cjk.has(c) else c + " " for c in kept).strip()


def asks(text: str) -> bool:
    """Whether any part of the message asks, or begins like a question without its mark ("which
    college is my day release at", "我们哪天搬家？阿杰问我我居然忘了", "周四又要去抱石了，要不要缠胶布？"):
    a message that asks nothing is a mention ("salsa tonight, legs still sore"). Generous on purpose:
    read as a question, a message is searched as before; read as a mention, it also sees history."""
    return any(
        _is_question_clause(c) or _EN_WH_START.match(c)
        for c, _ in _split(text)
        if c.strip(_SOFT_PUNCT)
    )


_ZH_OTHER_OPENING = re.compile(r"^\W*[你他她它]")


def _goes_on(clause: str, chinese: bool) -> bool:
    """A clause with no subject of its own, going on with the one before: Chinese with no 我 and
    no other person opening it (换了台理想), English opening on a verb ("got a flat in Partick")."""
    if chinese:
        return "我" not in clause and not _ZH_OTHER_OPENING.match(clause)
    return bool(_EN_CONTINUES.match(clause))


def candidates(text: str) -> list[Candidate]:
    """Fact candidates from one user utterance (possibly carrying timeparse's " [2026-05-06]" dates)."""
    out: list[Candidate] = []
    seen: set[tuple[str, str]] = set()
    speaker_is_user = skip_next = False
    person: str | None = (
        None  # "my sister" / 我妹妹 of the clause before, for a she/he/她/他 clause after it
    )
    for clause, soft in _split(text):
        plain = _ANNOTATION.sub("", clause).strip()
        chinese = cjk.has(plain)
        lang = zh if chinese else en
        resolved = lang.resolve_pronoun(plain, person) if person else None
        if resolved is None and person and soft and _goes_on(plain, chinese):
            # no subject of its own after a relative's clause: still theirs, nothing of the user's
            # ("我爸把老车卖了，换了台理想" is the father's new car)
            speaker_is_user = False
            continue
        if resolved is not None:
            plain = clause = resolved
        person = lang.refers_to(plain) or (person if resolved is not None else None)
        conditional_consequence = soft and skip_next
        skip_next = bool(_CONDITIONAL.match(plain))
        if conditional_consequence or _is_question_clause(plain):
            speaker_is_user = False
            continue
        body, annotated = plain, clause
        if soft and speaker_is_user:
            if chinese and zh.continues_subject(plain):
                body, annotated = "我" + plain, "我" + clause
            elif not chinese and _EN_CONTINUES.match(plain):
                body, annotated = "I " + plain, "I " + clause
        elif owed.dropped(plain):  # "明天还得跟经理讲…", "gotta call mum tomorrow": the speaker's
            body, annotated = owed.with_speaker(plain), owed.with_speaker(clause)
        hits = zh.rules(body, annotated) if chinese else []
        if not hits and en.has_anchor(body):
            hits = en.rules(body, annotated)
        hits = [exclusive.refile(h, body) for h in hits] or exclusive.rules(body, chinese)
        speaker_is_user = zh.speaks_for_self(body) if chinese else en.speaks_for_self(body)
        for h in hits:
            if (h.subject, h.text) in seen:
                continue
            seen.add((h.subject, h.text))
            out.append(
                Candidate(
                    h.kind,
                    h.subject,
                    h.text,
                    plain.rstrip(" ,，;；"),
                    h.confidence,
                    h.negated,
                    h.key,
                )
            )
    return out
