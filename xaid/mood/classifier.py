"""Reading a feeling from one message: the rule classifier, and how several classifiers are joined.

Rules rather than a model because they run in well under a millisecond on a Pi, explain themselves
(``cues``) and say plainly when they found nothing (confidence 0), so small talk leaves the mood alone
instead of dragging it toward neutral. A learned classifier can join later through CombinedClassifier (combined.py).

The rules keep valence, arousal and fatigue apart all the way through: "so tired but so excited" is
tired *and* happy *and* keyed up, and averaging the cues into one point would make it none of these.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from ..text import cjk
from . import faces
from . import lexicon_en as en
from . import lexicon_zh as zh
from .lexicon_en import Cue, Entry
from .loss import losses

BASELINE_AROUSAL = 0.3


@dataclass(frozen=True, slots=True)
class Reading:
    valence: float  # -1..1
    arousal: float  # 0..1: activation; 0.3 is the calm baseline
    fatigue: float  # 0..1
    intensity: float  # 0..1: how strong the strongest feeling in the text is
    confidence: float  # 0..1: how sure the rules are; 0 when no cue was found
    cues: tuple[str, ...]  # the cues that fired, for explain and debugging
    lasting: float = 1.0  # how long the feeling lasts, as a multiple of what its intensity says


NEUTRAL_READING = Reading(0.0, BASELINE_AROUSAL, 0.0, 0.0, 0.0, ())


class Classifier(Protocol):
    name: str

    def classify(self, text: str) -> Reading: ...


# Item kinds. An item is (kind, text, factor, entry): factor is an intensifier's multiplier, a
# negator's fullness or a booster's multiplier; entry is a cue's (Cue, strength) or an intensifier's
# fallback cue.
(
    _WORD,
    _BOUNDARY,
    _CUE,
    _IDIOM,
    _NEG,
    _INT,
    _SUFFIX,
    _CONTRAST,
    _FILLER,
    _CONCEDE,
    _EMPHATIC,
    _CONSOLE,
) = range(12)
_Item = tuple[int, str, float, Entry | None]
# A fired cue: (label, valence, arousal, fatigue, strength, reliability, valence weight, arousal weight,
# persistence).
_Hit = tuple[str, float, float, float, float, float, float, float, float]

_BOUNDARY_ITEM: _Item = (_BOUNDARY, "", 1.0, None)
_EN_WINDOW = 3  # an English negator reaches this many items back: "don't really feel happy"
_NEGATED_RELIABILITY = 0.75  # negation rules misfire more often than plain cues
_EMOJI_RELIABILITY = 0.85  # an emoji is sometimes irony
_BEFORE_CONTRAST = 0.7  # "tired but happy": what comes after "but" is the point
_LOSS_STRENGTH = 0.85  # "lost my dad", 外婆走了: a death said without a word for dying
_CONCEDED = 0.5  # "although I was nervous, ...": a granted feeling counts for half
_TENSE_AROUSAL = (
    0.5  # a negative feeling at least this activated is a worry: denied, it is assurance
)
_DENIED_WORRY = Cue(0.4, 0.0, 0.0)  # "not worried", 不紧张: what a full denial of a worry says
_PARTICLES = frozenset("了的啊呀吧呢哦哈嘛啦噢")
_FULL_FEELING = (
    0.6  # a profile this far from neutral is a full-blown feeling; "ok" (0.05) is barely one
)


def _table(
    cues: dict[str, Entry],
    idioms: dict[str, Entry],
    negators: dict[str, float],
    intensifiers: dict[str, float],
    boosters: dict[str, float],
    contrasts: frozenset[str],
    ignored: frozenset[str],
    concessives: frozenset[str],
    consolers: frozenset[str],
    fillers: frozenset[str] = frozenset(),
    fallback: dict[str, Entry] | None = None,
    emphatic: dict[str, float] | None = None,
) -> dict[str, _Item]:
    """One lookup for every kind of entry; later kinds win a clash, so idioms beat everything."""
    table: dict[str, _Item] = {}
    for word in ignored:
        table[word] = (_WORD, word, 1.0, None)
    for word in concessives:
        table[word] = (_CONCEDE, word, 1.0, None)
    for word in consolers:  # a cue of the same word (还好, "fine") wins: _conceded reads both
        table[word] = (_CONSOLE, word, 1.0, None)
    for word, factor in (emphatic or {}).items():
        table[word] = (_EMPHATIC, word, factor, None)
    for word in fillers:
        table[word] = (_FILLER, word, 1.0, None)
    for word in contrasts:
        table[word] = (_CONTRAST, word, 1.0, None)
    for word, factor in negators.items():
        table[word] = (_NEG, word, factor, None)
    for word, factor in intensifiers.items():
        table[word] = (_INT, word, factor, (fallback or {}).get(word))
    for word, factor in boosters.items():
        table[word] = (_SUFFIX, word, factor, None)
    for word, entry in cues.items():
        table[word] = (_CUE, word, 1.0, entry)
    for word, entry in idioms.items():
        table[word] = (_IDIOM, word, 1.0, entry)
    return table


def _lengths(keys: Sequence[str], by_token: bool) -> dict[str, tuple[int, ...]]:
    """For each first token (English) or character (Chinese), the lengths to try, longest first."""
    by_first: dict[str, set[int]] = {}
    for key in keys:
        parts: Sequence[str] = key.split() if by_token else key
        by_first.setdefault(parts[0], set()).add(len(parts))
    return {k: tuple(sorted(v, reverse=True)) for k, v in by_first.items()}


_EN_FLAT = _table(
    en.CUES,
    en.IDIOMS,
    en.NEGATORS,
    en.INTENSIFIERS,
    en.SUFFIX_BOOSTERS,
    en.CONTRASTS,
    en.IGNORED,
    en.CONCESSIVES,
    en.CONSOLERS,
    emphatic=en.EMPHATIC_DENIALS,
)
_EN_TABLE: dict[tuple[str, ...], _Item] = {tuple(k.split()): v for k, v in _EN_FLAT.items()}
_EN_LENGTHS = _lengths(list(_EN_FLAT), by_token=True)
_ZH_TABLE = _table(
    zh.CUES,
    zh.IDIOMS,
    zh.NEGATORS,
    zh.INTENSIFIERS,
    zh.SUFFIX_BOOSTERS,
    zh.CONTRASTS,
    zh.IGNORED,
    zh.CONCESSIVES,
    zh.CONSOLERS,
    zh.FILLERS,
    zh.INTENSIFIER_FALLBACK,
)
_ZH_LENGTHS = _lengths(list(_ZH_TABLE), by_token=False)

_EN_TOKEN = re.compile(r"[a-z]+(?:'[a-z]+)*|[^\sa-z0-9']+")
_LATIN = re.compile(r"[A-Za-z]")
_ELONGATED = re.compile(r"([a-z])\1{2,}")
_EXCLAIM_RUN = re.compile(r"[!！]{2,}")
_ELLIPSIS = re.compile(r"\.{3,}|…+|。{2,}")
_CAPS = re.compile(r"(?<![A-Za-z])[A-Z]{3,}(?![A-Za-z])")


def _en_items(text: str) -> tuple[list[_Item], int]:
    """English items by longest phrase match, and how many words were stretched ("sooo tiiired")."""
    lowered = text.lower().replace("\u2019", "'").replace("\u2018", "'")
    toks = _EN_TOKEN.findall(lowered)
    stretched = 0
    if _ELONGATED.search(lowered):
        for i, tok in enumerate(toks):
            if tok not in _EN_LENGTHS and _ELONGATED.search(tok):
                for repl in (r"\1", r"\1\1"):
                    shorter = _ELONGATED.sub(repl, tok)
                    if shorter in _EN_LENGTHS:
                        toks[i] = shorter
                        stretched += 1
                        break
    items: list[_Item] = []
    i, n = 0, len(toks)
    while i < n:
        tok = toks[i]
        if not "a" <= tok[0] <= "z":
            items.append(_BOUNDARY_ITEM)
            i += 1
            continue
        item: _Item | None = None
        span = 1
        for length in _EN_LENGTHS.get(tok, ()):
            if i + length <= n:
                item = _EN_TABLE.get(tuple(toks[i : i + length]))
                if item is not None:
                    span = length
                    break
        if item is None:
            item = (_NEG, tok, 1.0, None) if tok.endswith("n't") else (_WORD, tok, 1.0, None)
        elif (
            item[0] == _CUE
            and item[1] in en.NEEDS_PREV
            and (i == 0 or toks[i - 1] not in en.NEEDS_PREV[item[1]])
        ):
            item = (_WORD, tok, 1.0, None)
        items.append(item)
        i += span
    return items, stretched


def _zh_items(text: str) -> list[_Item]:
    """Chinese items by longest match over each run of Han characters; punctuation separates runs."""
    items: list[_Item] = []
    for m in cjk.RUN.finditer(text):
        run = m.group()
        if items:
            items.append(_BOUNDARY_ITEM)
        start = len(items)
        i, n, word_at = 0, len(run), -1
        while i < n:
            item = None
            for length in _ZH_LENGTHS.get(run[i], ()):
                if i + length <= n:
                    item = _ZH_TABLE.get(run[i : i + length])
                    if item is not None:
                        break
            if item is None:
                if word_at < 0:
                    word_at = i
                i += 1
                continue
            if word_at >= 0:
                items.append((_WORD, run[word_at:i], 1.0, None))
                word_at = -1
            items.append(item)
            i += len(item[1])
        if word_at >= 0:
            items.append((_WORD, run[word_at:], 1.0, None))
        _fallbacks(items, start)
    return items


def _fallbacks(items: list[_Item], start: int) -> None:
    """Turn an intensifier that modifies nothing into its own cue: "很好", "不好", but not "好多"."""
    for k in range(start, len(items)):
        kind, word, _, entry = items[k]
        if kind != _INT or entry is None:
            continue
        nxt = items[k + 1] if k + 1 < len(items) else None
        prev = items[k - 1][0] if k > start else _BOUNDARY
        ends = (
            nxt is None
            or nxt[0] in (_BOUNDARY, _CONTRAST)
            or (nxt[0] == _WORD and nxt[1][0] in _PARTICLES)
        )
        if ends and prev in (_BOUNDARY, _CONTRAST, _INT, _NEG, _FILLER):
            items[k] = (_CUE, word, 1.0, entry)


def _negate(cue: Cue, fullness: float) -> Cue:
    """What a denied feeling leaves: "not happy" is mildly negative, "not sad" mildly positive,
    "not tired" no fatigue at all; a partial denial ("not very", 不太) keeps some of the original.
    A denied worry ("not worried", 一点都不紧张) is assurance: bright and settled, not a faded worry."""
    v, a, f = cue
    if v < 0 and a >= _TENSE_AROUSAL and fullness >= 1.0:
        return _DENIED_WORRY
    if v > 0:
        v = -v * (0.2 + 0.3 * fullness)
    elif v < 0:
        v = v * (1 - fullness) * 0.5 - v * 0.3 * fullness
    return Cue(v, a * (1 - fullness) * 0.5, f * (1 - fullness) * 0.6)


def _hits(items: list[_Item], strict: bool) -> list[_Hit]:
    """Resolve each cue against its intensifiers, negator and booster.

    ``strict`` is the Chinese rule: the negator must sit right before the cue, with only intensifiers
    or fillers between (不太累, 不觉得累); English allows a few words (don't really feel happy).
    """
    hits: list[_Hit] = []
    last_contrast = max((k for k, it in enumerate(items) if it[0] == _CONTRAST), default=-1)
    granted = _conceded(items)
    for k, (kind, word, _, entry) in enumerate(items):
        if (kind != _CUE and kind != _IDIOM) or entry is None or k in granted.markers:
            continue
        cue, strength = entry
        label = [word]
        mult = 1.0
        j = k - 1
        while j >= 0 and items[j][0] == _INT:
            mult *= items[j][2]
            label.insert(0, items[j][1])
            j -= 1
        fullness = 0.0
        if kind == _CUE:
            neg_at = -1
            if strict:
                while j >= 0 and items[j][0] in (_FILLER, _INT):
                    j -= 1
                neg_at = j if j >= 0 and items[j][0] == _NEG else -1
            else:
                for j in range(k - 1, max(-1, k - 1 - _EN_WINDOW), -1):
                    if items[j][0] == _NEG:
                        neg_at = j
                        break
                    if items[j][0] in (_BOUNDARY, _CONTRAST, _CUE, _IDIOM):
                        break
            if neg_at >= 0:
                fullness = items[neg_at][2]
                if (
                    fullness > 1.0
                ):  # 一点都不, 根本不: an emphatic denial says the opposite more loudly
                    mult *= fullness
                    fullness = 1.0
                # "not very happy", 不是很开心: a softened denial, no amplification
                if mult != 1.0 and items[neg_at][2] <= 1.0:
                    fullness *= 0.5
                    mult = 1.0
                label.insert(0, items[neg_at][1])
        if k + 1 < len(items) and items[k + 1][0] == _SUFFIX:
            mult *= items[k + 1][2]
            label.append(items[k + 1][1])
        if fullness and k + 1 < len(items) and items[k + 1][0] == _EMPHATIC:
            mult *= items[k + 1][2]
            label.append(items[k + 1][1])
        persistence = 1.0
        if fullness:
            cue = _negate(cue, fullness)
        else:
            persistence = en.PERSISTENCE.get(cue, 1.0)
        reliability = _NEGATED_RELIABILITY if fullness else 1.0
        vw = aw = 1.0
        if k in granted.consoled:
            vw, aw = (0.0 if cue[0] > 0 else _CONCEDED), _CONCEDED
        elif k in granted.conceded:
            vw = aw = _CONCEDED
        elif k < last_contrast:
            vw = _BEFORE_CONTRAST
        hits.append(
            (
                "+".join(label),
                cue[0],
                cue[1],
                cue[2],
                strength * mult,
                reliability,
                vw,
                aw,
                persistence,
            )
        )
    return _settle_granted(hits)


_CONSOLERS = en.CONSOLERS | zh.CONSOLERS


@dataclass(frozen=True, slots=True)
class _Granted:
    """Positions of cues a message grants rather than means (``_conceded``)."""

    conceded: set[int]  # inside "although …" / 虽然…: half weight
    consoled: set[int]  # inside a consoling clause: its brightness is not the speaker's
    markers: set[int]  # consolers that open one (还好 there is "luckily", not "fine")


def _conceded(items: list[_Item]) -> _Granted:
    """Positions inside a conceded clause: from "although" / 虽然 to the clause's end or the "but";
    and a consoling clause, from "at least" / 还好 / 算了 to the clause's end, where it opens a clause
    after an earlier one ("failed again. at least the examiner was nice lol"): the silver lining is
    what the speaker holds on to after the news, so its brightness ("nice", "lol") is not how they
    feel, and the news before it is the point. At a message's start a consoler is the message's own
    word ("还好，不累": fine)."""
    conceded: set[int] = set()
    consoled: set[int] = set()
    markers: set[int] = set()
    inside: set[int] | None = None
    said = False  # a word before the current clause: a consoler there follows a point
    for k, (kind, word, _, _) in enumerate(items):
        if kind == _CONCEDE:
            inside = conceded
        elif kind in (_BOUNDARY, _CONTRAST):
            inside = None
            continue
        elif (
            (kind == _CONSOLE or word in _CONSOLERS)
            and said
            and items[k - 1][0] in (_BOUNDARY, _CONTRAST)
        ):
            inside = consoled
            markers.add(k)
        elif inside is not None:
            inside.add(k)
        said = True
    return _Granted(conceded, consoled, markers)


def _settle_granted(hits: list[_Hit]) -> list[_Hit]:
    """When the point of a message is a settled, bright feeling (calm, confident), the worry it grants
    or sets aside before "but" no longer keys the reading up: its activation counts like its valence."""
    point = [h for h in hits if h[6] == 1.0]
    if not any(h[1] > 0.2 and h[2] < 0.1 for h in point):
        return hits
    return [h if h[6] == 1.0 or h[1] >= 0 else (*h[:7], min(h[7], _CONCEDED), h[8]) for h in hits]


class RuleClassifier:
    """Lexicon rules for Chinese and English (and both in one message)."""

    name = "rules"

    def classify(self, text: str) -> Reading:
        hits: list[_Hit] = []
        stretched = 0
        if _LATIN.search(text):
            items, stretched = _en_items(text)
            hits.extend(_hits(items, strict=False))
        if cjk.has(text):
            hits.extend(_hits(_zh_items(text), strict=True))
        for said in losses(text):
            hits.append((said, *en.GRIEF, _LOSS_STRENGTH, 1.0, 1.0, 1.0, en.PERSISTENCE[en.GRIEF]))
        emoji = faces.RULED_PATTERN.findall(text)
        for e in emoji:
            cue, strength = faces.RULED[e]
            hits.append(
                (
                    e,
                    cue[0],
                    cue[1],
                    cue[2],
                    strength,
                    _EMOJI_RELIABILITY,
                    1.0,
                    1.0,
                    en.PERSISTENCE.get(cue, 1.0),
                )
            )
        if not hits:
            return NEUTRAL_READING
        return _aggregate(hits, _emphasis(text, stretched, max(0, len(emoji) - 1)))


def _emphasis(text: str, stretched: int, extra_emoji: int) -> tuple[float, float, tuple[str, ...]]:
    """How much "!!!", CAPS, "..." and stretched words raise arousal and intensity, and their labels."""
    runs = _EXCLAIM_RUN.findall(text)
    singles = text.count("!") + text.count("！") - sum(len(r) for r in runs)
    caps = len(_CAPS.findall(text))
    dots = len(_ELLIPSIS.findall(text))
    arousal = min(0.4, 0.2 * len(runs) + 0.08 * singles + 0.1 * caps + 0.05 * stretched)
    intensity = min(
        0.25,
        0.1 * len(runs) + 0.04 * singles + 0.08 * caps + 0.05 * (dots + stretched + extra_emoji),
    )
    labels = (
        tuple(runs) + ("!",) * min(singles, 1) + ("CAPS",) * min(caps, 1) + ("...",) * min(dots, 1)
    )
    return arousal, intensity, labels


def _aggregate(hits: list[_Hit], emphasis: tuple[float, float, tuple[str, ...]]) -> Reading:
    """Each dimension on its own: a noisy-or per dimension so two cues of a kind add up, and one of
    another kind cannot cancel it (only positive and negative valence pull against each other)."""
    arousal_boost, intensity_boost, labels = emphasis
    boost = 1.0 + intensity_boost
    pos = neg = calm = tired = settled = doubt = 1.0
    intensity = 0.0
    for _, v, a, f, s, reliability, vw, aw, _ in hits:
        s = min(1.0, s * boost)
        if v > 0:
            pos *= 1.0 - v * s * vw
        else:
            neg *= 1.0 + v * s * vw
        calm *= 1.0 - a * s * aw
        tired *= 1.0 - f * s
        if a < 0.1 and (f > 0.3 or v > 0.2):  # sleepy or at ease: below the resting baseline
            settled *= 1.0 - 0.8 * s
        intensity = max(intensity, s * min(1.0, max(abs(v), a, f) / _FULL_FEELING))
        doubt *= 1.0 - (0.25 + 0.5 * s) * reliability
    activation = 1.0 - calm * (1.0 - arousal_boost)
    arousal = (
        BASELINE_AROUSAL
        + (1 - BASELINE_AROUSAL) * activation
        - 0.15 * (1.0 - settled) * (1.0 - activation)
    )
    return Reading(
        valence=round(max(-1.0, min(1.0, neg - pos)), 4),
        arousal=round(max(0.0, min(1.0, arousal)), 4),
        fatigue=round(1.0 - tired, 4),
        intensity=round(min(1.0, intensity), 4),
        confidence=round(min(0.95, 1.0 - doubt), 4),
        cues=tuple(h[0] for h in hits) + labels,
        lasting=_lasting(hits),
    )


def _lasting(hits: list[_Hit]) -> float:
    """A lasting feeling (grief) sets how long the whole reading lasts, whatever came with it; a
    reading of only fleeting ones (annoyance, a shrug) lasts as they do, weighted by strength."""
    lasting = max(h[8] for h in hits)
    if lasting > 1.0:
        return lasting
    total = sum(h[4] for h in hits)
    return round(sum(h[4] * h[8] for h in hits) / total, 4) if total > 0 else 1.0
