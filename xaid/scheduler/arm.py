"""Arming: which unresolved matters a finished session leaves, and when asking about them fits.

Three scenes, in English and Chinese, decided by rules over what consolidation already read:
- plan: the user named something ahead of them with a time ("meeting the client next week",
  "下周去见客户", an exam, an interview). Ask *after* it: from the day after the resolved date
  (after the whole range for "next week") until a week later;
- worry: an anxious reading about something ahead; same window as a plan;
- emotion: the session closed on a strong low (exhausted, sad, angry); ask from six hours later
  (typically the next morning) for three days.
Keywords remember how to tell that the matter came up again, in either language.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..memory import features, timeparse
from ..memory.consolidate import Draft, Utterance
from ..memory.index import STOPWORDS

HOUR_MS = 3_600_000
DAY_MS = 24 * HOUR_MS
MAX_PER_EPISODE = 2
_LATIN = re.compile(r"[A-Za-z][A-Za-z'-]{3,}")
_CJK_RUN = re.compile(r"[\u4e00-\u9fff]+")
_CJK_STOP = set("的了很我你他她它们是在有就都也还吗呢吧啊呀太真好最近今天明天昨天这那个一不没")


@dataclass(frozen=True, slots=True)
class Arm:
    topic: str
    keywords: tuple[str, ...]
    scene: str
    not_before: int
    not_after: int
    priority: float


def keywords(text: str) -> tuple[str, ...]:
    """Words that would show the matter came up again: names, content words, Chinese word pairs."""
    f = features.features(text)
    out = [n.lower() for n in f.proper_nouns]
    out += [w.lower() for w in _LATIN.findall(text) if w.lower() not in STOPWORDS]
    for run in _CJK_RUN.findall(text):
        out += [run[i : i + 2] for i in range(len(run) - 1) if not (set(run[i : i + 2]) & _CJK_STOP)]
    return tuple(dict.fromkeys(out))[:12]


def came_up(text: str, words: Sequence[str]) -> bool:
    low = text.lower()
    return any(w in low for w in words)


def _short(text: str, limit: int = 90) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _day_start(d: dt.date) -> int:
    return int(dt.datetime(d.year, d.month, d.day, tzinfo=dt.UTC).timestamp() * 1000)


def _plan(u: Utterance) -> Arm | None:
    refs = timeparse.find_times(u.message.text, u.message.ts_ms)
    ahead = timeparse.earliest_future(refs)
    if ahead is None:
        return None
    is_plan = any(c.kind == "plan" for c in u.candidates)
    worried = u.intensity >= 0.4
    if not (is_plan or worried):
        return None
    not_before = _day_start(ahead.date_to) + DAY_MS
    scene = "plan" if is_plan else "worry"
    topic = f'how it went: "{_short(u.message.text)}"'
    priority = 0.6 + 0.4 * u.intensity if scene == "worry" else 0.6 + 0.2 * u.intensity
    return Arm(topic, keywords(u.message.text), scene, not_before, not_before + 7 * DAY_MS, round(priority, 3))


def _emotion(d: Draft, closing: tuple[float, float, float] | None) -> Arm | None:
    if closing is None:
        return None
    valence, _arousal, fatigue = closing
    if valence > -0.3 and fatigue < 0.5:
        return None
    peak = max(d.utterances, key=lambda u: u.intensity, default=None)
    if peak is None or peak.intensity < 0.5:
        return None
    feeling = "worn out" if fatigue >= 0.5 else "low"
    topic = f'how they are doing now; last time they sounded {feeling}: "{_short(peak.message.text)}"'
    strength = max(fatigue, -valence)
    return Arm(topic, keywords(peak.message.text), "emotion", d.ended_ms + 6 * HOUR_MS, d.ended_ms + 3 * DAY_MS,
               round(min(1.0, 0.5 + 0.5 * strength), 3))


def matters(d: Draft, closing: tuple[float, float, float] | None) -> list[Arm]:
    found = [a for u in d.utterances if (a := _plan(u)) is not None]
    if (e := _emotion(d, closing)) is not None:
        found.append(e)
    found.sort(key=lambda a: -a.priority)
    return found[:MAX_PER_EPISODE]
