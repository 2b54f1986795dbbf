"""L2 facts: what a candidate is worth, and whether it adds to, replaces or repeats what is known.

Value (DESIGN.md §2): ``0.2·recency + 0.3·specificity + 0.3·emotional_intensity +
0.2·user_reference_count`` with configurable weights; the raw signals are always stored. A stated
fact about the user (who they are, where they work, whom they love, what they like) is specific
by its nature even without a proper noun, so such candidates get a specificity floor of 0.5
(0.3 for other kinds): "我喜欢猫" must be able to become a fact.

Consistency (Mem0-style with a fast path). For each candidate (a session's repeats already merged
into one) the three nearest current facts are found by vector and the current facts of its subject
are read. The Mem0 rule is: all three below ``fast_path_cosine`` (0.6) → ADD with no LLM call. A
model call costs seconds on a Raspberry Pi, and most calls it left were for answers that are
certain, so ``settle`` widens the fast path where the answer can be read off the facts themselves:

- an exact restatement (same subject, same text up to case, whitespace and trailing punctuation,
  English or full-width) is NOOP: nothing to judge, in any language, even for an exclusive subject;
- an exclusive subject named again with the same object in other words ("works at Globex" beside
  用户在Globex上班), not negated and with no word of change, is NOOP: the same one value;
- a neighbour at ≥ 0.6 does not need the model when the candidate is ``apart`` from it: its subject
  can never hold the same statement (``user.allergy`` vs ``user.sister``; families of interchangeable
  subjects are in _FAMILIES), or both carry dates (timeparse's "[2026-02-09]") that do not overlap —
  two appointments on two days are two events — or the candidate names an object (``Candidate.key``)
  the neighbour does not mention: "allergic to peanuts" beside "allergic to gluten".

The model is still asked whenever judgment is needed: an EXCLUSIVE subject that already has a
current fact naming something else, or announcing a change (a possible UPDATE: "I mainly write
Rust now"); a negated candidate with any neighbour ≥ 0.6 ("I don't like hiking anymore"); a fact
of the same subject that names the same object (the only paraphrase signal for Chinese, which the
English-only embedder cannot read);
and, for a neighbour ≥ 0.6 of a related subject, words that announce a change ("now", "moved",
"instead", 改, 推迟…: ``_CHANGE``) or a near paraphrase, cosine ≥ PARAPHRASE (0.8), which outranks a
different ``key`` (but not dates that do not overlap).

The thresholds come from the default embedder (all-MiniLM-L6-v2, unit vectors), measured on pairs
like those it must tell apart: different objects of one subject score 0.47–0.72 ("really likes
hiking"/"…painting" 0.47, "…climbing" 0.72; "allergic to gluten"/"…peanuts" 0.71, "…cats" 0.63;
"friend is called Zoe"/"…Sam" 0.70), paraphrases 0.87–0.98 ("really likes hiking"/"enjoys hiking"
0.91, "loves going on hikes" 0.92; "likes Python"/"loves Python" 0.95; "works at Stark"/"works at
Stark Industries" 0.87), hence PARAPHRASE = 0.8. Dates have to decide plans, not cosine: "dentist
appointment next Monday [2026-02-09]" vs "… next Thursday [2026-03-12]" is 0.99, vs "doctor's
appointment next Wednesday [2026-02-18]" 0.77, while "dentist appointment got moved to Wednesday"
(0.75) is a change, caught by its words. A negation sits close to what it denies ("doesn't like
hiking"/"likes hiking" 0.80, "not allergic to gluten"/"allergic to gluten" 0.95), so a negated
candidate is never settled by cosine alone, and the rule fallback treats it before the
near-duplicate rule: superseding a fact by its own restatement loses nothing, keeping a denied fact
current does.

Otherwise one short LLM call must answer ADD / UPDATE <id> / DELETE <id> / NOOP; an answer that
does not parse falls back to rules, and the path that decided is recorded ('fast' | 'llm' |
'rules'). Facts planned earlier in the same session are shown to the model as known but have no id
yet (``fact_id`` ≤ 0), so they are never the target of an UPDATE, DELETE or NOOP.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from ..clock import DAY_MS
from ..config import MemoryConfig
from ..embed.profiles import MINILM, EmbedProfile
from ..store.memory import Fact, Signals
from . import change_cues
from .rules import extract

EXCLUSIVE = frozenset(
    {
        "user.name",
        "user.work",
        "user.job",
        "user.school",
        "user.lives_in",
        "user.from",
        "user.programming_language",
        "user.partner",
        "user.diet",
        "user.car",
    }
)
INTRINSIC = frozenset({"identity", "work", "person", "preference", "place", "health"})
# The cosine cuts below (near duplicate, paraphrase, negation) belong to the embedding model: they
# come from its profile (xaid.embed.profiles), MiniLM's by default; these names restate MiniLM's.
NEAR_DUPLICATE = MINILM.near_duplicate
PARAPHRASE = MINILM.paraphrase
NEGATION_NEAR = MINILM.negation_near
# Subjects one statement could be filed under either way ("I mainly use Python" is user.uses or
# user.programming_language; "I don't eat meat" is user.diet or user.likes). A subject in no family
# relates to itself only: a sister named Zoe and a colleague named Zoe are two facts.
_FAMILIES: dict[str, frozenset[str]] = {
    "identity": frozenset({"user.name", "user.nickname"}),
    "work": frozenset({"user.work", "user.job", "user.school", "user.major"}),
    "home": frozenset({"user.lives_in", "user.from", "user.nationality"}),
    "taste": frozenset(
        {
            "user.likes",
            "user.uses",
            "user.programming_language",
            "user.favourite.*",
            "user.diet",
            "user.car",
        }
    ),
    "health": frozenset({"user.allergy", "user.diet", "user.health"}),
}
_CHANGE = re.compile(
    r"\b(?:now|nowadays|these days|any ?more|no longer|instead|switched|changed|moved|rescheduled|postponed|"
    r"delayed|pushed back|put off|brought forward|cancel+ed|called off|quit|stopped)\b"
    r"|现在|如今|不再|改|换|推迟|延期|提前|取消|辞职|搬",
    re.I,
)
_DATES = re.compile(r"\[(\d{4}-\d{2}-\d{2})(?:\.\.(\d{4}-\d{2}-\d{2}))?\]")
_TRAILING = " .!?;:,~…。！？；：，、～·\"'”’)）"
_ANSWER = re.compile(r"^\s*(ADD|NOOP|UPDATE\s+\[?(\d+)\]?|DELETE\s+\[?(\d+)\]?)\b", re.I)

Ask = Callable[[str, int], Awaitable[str | None]]


def recency(ts_ms: int, now_ms: int, half_life_days: float = 30.0) -> float:
    return 2.0 ** (-max(0, now_ms - ts_ms) / (half_life_days * DAY_MS))


def signals(
    kind: str, text_specificity: float, intensity: float, mentions: int, ts_ms: int, now_ms: int
) -> Signals:
    floor = 0.5 if kind in INTRINSIC else 0.3
    return Signals(recency(ts_ms, now_ms), max(text_specificity, floor), intensity, mentions)


def value(s: Signals, cfg: MemoryConfig) -> float:
    refs = min(1.0, s.user_refs / 3)
    return (
        cfg.weight_recency * s.recency
        + cfg.weight_specificity * s.specificity
        + cfg.weight_intensity * s.intensity
        + cfg.weight_references * refs
    )


@dataclass(frozen=True, slots=True)
class Decision:
    action: str  # ADD | UPDATE | DELETE | NOOP
    target: int | None
    decided_by: str  # fast | llm | rules


@dataclass(frozen=True, slots=True)
class Claim:
    """A candidate as consistency sees it: the words to be stored and what they are about."""

    text: str  # as it would be stored (the user possibly named), timeparse's dates included
    subject: str
    negated: bool = False
    key: str = (
        ""  # the object as the user wrote it ("gluten", "花生"); empty when the rule has none
    )
    source: str = ""  # the clause it came from: "anymore" and the like survive there

    @property
    def announces_change(self) -> bool:
        """Whether the user's own words say something changed: then no neighbour is safely apart."""
        return bool(_CHANGE.search(self.text) or _CHANGE.search(self.source))


def normalise(text: str) -> str:
    """The text as an exact restatement is compared: NFKC (full-width letters and ！？ fold to ASCII),
    case-folded, whitespace runs collapsed, trailing punctuation of either script dropped."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split()).rstrip(_TRAILING)


def mentions(text: str, key: str) -> bool:
    """Whether ``text`` names the object ``key``. A substring test, so it errs towards "same object",
    which only costs an LLM call."""
    return bool(normalise(key)) and normalise(key) in normalise(text)


def dates(text: str) -> tuple[str, str] | None:
    """The span of the dates timeparse wrote into the text ("[2026-02-09]", "[2026-03-01..2026-03-31]")."""
    found = _DATES.findall(text)
    if not found:
        return None
    return min(a for a, _ in found), max(b or a for a, b in found)


def _families(subject: str) -> frozenset[str] | None:
    """The families a subject belongs to, itself if none; None outside the vocabulary (say an
    imported "user.other"), where nothing is known and everything must be assumed related."""
    if extract.describe(subject) is None:
        return None
    key = "user.favourite.*" if subject.startswith("user.favourite.") else subject
    return frozenset(name for name, members in _FAMILIES.items() if key in members) or frozenset(
        {subject}
    )


def related(a: str, b: str) -> bool:
    """Whether a statement of subject ``a`` could restate or contradict one of subject ``b``."""
    if a == b:
        return True
    fa, fb = _families(a), _families(b)
    return fa is None or fb is None or bool(fa & fb)


def restated(claim: Claim, same_subject: Sequence[Fact]) -> Fact | None:
    """The known fact of the claim's subject that it repeats word for word, if any."""
    words = normalise(claim.text)
    return next((f for f in same_subject if normalise(f.text) == words), None)


def names_the_same_one(claim: Claim, same_subject: Sequence[Fact]) -> Fact | None:
    """The known value of an exclusive subject that the claim names again in other words ("I work at
    Globex" and 我在Globex上班, or "works at Globex in Berlin"): one employer at a time, the same one,
    nothing negated and no word of change ("now", "moved", 换…), so nothing to replace."""
    if claim.subject not in EXCLUSIVE or not claim.key or claim.negated or claim.announces_change:
        return None
    return next((f for f in reversed(same_subject) if mentions(f.text, claim.key)), None)


def apart(claim: Claim, fact: Fact, cos: float, profile: EmbedProfile = MINILM) -> bool:
    """Whether the claim can neither restate nor contradict ``fact``, whatever their cosine says."""
    changes = claim.announces_change
    mine, theirs = dates(claim.text), dates(fact.text)
    if not changes and mine and theirs and (mine[1] < theirs[0] or theirs[1] < mine[0]):
        return True  # two events on different days
    if not related(claim.subject, fact.subject):
        return True
    if changes or cos >= profile.paraphrase:
        return False
    return not mentions(fact.text, claim.key) if claim.key else False


def needs_judgment(
    claim: Claim,
    neighbours: Sequence[tuple[Fact, float]],
    same_subject: Sequence[Fact],
    cfg: MemoryConfig,
    profile: EmbedProfile = MINILM,
) -> bool:
    """Whether only a model can tell ADD from UPDATE or NOOP (see the module docstring for the cases)."""
    if claim.subject in EXCLUSIVE and same_subject:
        return (
            True  # one employer at a time: other words for the subject may replace the known value
        )
    if claim.key and any(mentions(f.text, claim.key) for f in same_subject):
        return (
            True  # same subject, same object, other words: a paraphrase, a refinement or a reversal
        )
    near = [(f, cos) for f, cos in neighbours[:3] if cos >= cfg.fast_path_cosine]
    if claim.negated:
        return bool(near)
    return not all(apart(claim, f, cos, profile) for f, cos in near)


def settle(
    claim: Claim,
    neighbours: Sequence[tuple[Fact, float]],
    same_subject: Sequence[Fact],
    cfg: MemoryConfig,
    profile: EmbedProfile = MINILM,
) -> Decision | None:
    """The fast path: the decision when the known facts make it certain, else None."""
    twin = restated(claim, same_subject) or names_the_same_one(claim, same_subject)
    if twin is not None:
        return Decision("NOOP", twin.fact_id if twin.fact_id > 0 else None, "fast")
    if needs_judgment(claim, neighbours, same_subject, cfg, profile):
        return None
    return Decision("ADD", None, "fast")


def prompt(text: str, known: Sequence[Fact]) -> str:
    lines = [
        f"[{f.fact_id}] {f.text}" if f.fact_id > 0 else f"(said earlier today) {f.text}"
        for f in known
    ]
    return (
        "Known facts about the user:\n" + "\n".join(lines) + f"\nNew information: {text}\n"
        "Reply with exactly one line: ADD (new fact), UPDATE <id> (replaces that fact), "
        "DELETE <id> (that fact is no longer true), or NOOP (already known)."
    )


def parse(answer: str | None, known_ids: set[int]) -> Decision | None:
    if not answer:
        return None
    first = answer.strip().splitlines()[0] if answer.strip() else ""
    m = _ANSWER.match(first)
    if m is None:
        return None
    verb = m.group(1).split()[0].upper()
    target = int(m.group(2) or m.group(3)) if (m.group(2) or m.group(3)) else None
    if verb in {"UPDATE", "DELETE"} and target not in known_ids:
        return None
    return Decision(verb, target, "llm")


def fallback(
    claim: Claim,
    neighbours: Sequence[tuple[Fact, float]],
    same_subject: Sequence[Fact],
    profile: EmbedProfile = MINILM,
) -> Decision:
    """What the rules decide when the model's answer is unusable (or no model is consulted). Only
    stored facts are targets: one planned earlier in this session has no row to supersede yet."""
    stored = [f for f in same_subject if f.fact_id > 0]
    if claim.negated:
        denied = next(
            (f for f in reversed(stored) if claim.key and mentions(f.text, claim.key)), None
        )
        if denied is None and neighbours and neighbours[0][1] >= profile.negation_near:
            denied = neighbours[0][0]
        if denied is not None:
            return Decision("UPDATE", denied.fact_id, "rules")
    if (
        claim.subject in EXCLUSIVE
        and stored
        and claim.key
        and not mentions(stored[-1].text, claim.key)
    ):
        return Decision(
            "UPDATE", stored[-1].fact_id, "rules"
        )  # another value, however alike the words
    if neighbours and neighbours[0][1] >= profile.near_duplicate:
        return Decision("NOOP", neighbours[0][0].fact_id, "rules")
    if claim.subject in EXCLUSIVE and stored:
        return Decision("UPDATE", stored[-1].fact_id, "rules")
    return Decision("ADD", None, "rules")


_LOOK_ALIKES = frozenset(
    {"unreal", "once", "temporary", "past", "addition", "advice", "refused", "trial"}
)


def replaces_nothing(claim: Claim) -> bool:
    """The claim's own words say it cannot replace what is known: a plan or a hypothetical ("next
    month I'll be at Alibaba"), a one-off, a stretch with an end ("for now … until the boiler is
    fixed", 暂时…等…再), past narration, an addition, advice, an offer declined, a first try.
    Such a claim is added, never an UPDATE or DELETE of the known value (change_cues reads the
    words, as for turns). Someone else's change is not among them here: "my sister moved to Leeds"
    does replace where the sister lives."""
    return change_cues.reads_other(claim.source or claim.text) in _LOOK_ALIKES


async def decide(
    claim: Claim,
    neighbours: Sequence[tuple[Fact, float]],
    same_subject: Sequence[Fact],
    cfg: MemoryConfig,
    ask: Ask | None,
    profile: EmbedProfile = MINILM,
) -> Decision:
    """ADD / UPDATE / DELETE / NOOP for one claim: the fast path when certain, else the model, else
    rules; a claim that replaces nothing (``replaces_nothing``) is never an UPDATE or DELETE."""
    decision = await _decide(claim, neighbours, same_subject, cfg, ask, profile)
    if decision.action in {"UPDATE", "DELETE"} and replaces_nothing(claim):
        return Decision("ADD", None, decision.decided_by)
    return decision


async def _decide(
    claim: Claim,
    neighbours: Sequence[tuple[Fact, float]],
    same_subject: Sequence[Fact],
    cfg: MemoryConfig,
    ask: Ask | None,
    profile: EmbedProfile,
) -> Decision:
    certain = settle(claim, neighbours, same_subject, cfg, profile)
    if certain is not None:
        return certain
    known = list({f.fact_id: f for f in [*same_subject, *(f for f, _ in neighbours[:3])]}.values())
    if ask is not None:
        decision = parse(
            await ask(prompt(claim.text, known), 8), {f.fact_id for f in known if f.fact_id > 0}
        )
        if decision is not None:
            return decision
    return fallback(claim, neighbours, same_subject, profile)
