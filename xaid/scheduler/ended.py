"""Whether a later session told how an earlier matter ended, weighed by the chat model where the
rules read nothing settled: one question per such matter and session.

retire.py reads a settling by how it is said ("cancelled", "no longer", 搞定, 修好了) in a line or a
session about the matter. The words people use to tell an end are wider than any such reading:
"FOUND HIM omg" after a dog slipped out of the gate, "call me dr. okafor now 😎" after a thesis
defence, "回来了！！！" after a cat got out, "结果出来了 良性" after a biopsy. The design's fallback
where rules and meaning cannot tell is the model (DESIGN.md 3c). Asked greedily a small model says
"yes" to most questions; the probability it gives "yes" against "no" is what is read
(GenerateRequest.choices), with a per-language threshold set on retire_dev38's train half.

Asked only where the session is near the matter in meaning (``ASK_FROM``, the cosine of the user's
lines together to the words the item quotes), no line says it is still going on, and the session
moves it nowhere: a session about something else is not asked about every pending matter.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..text.lang import Lang
from . import weighed

QUESTION: dict[Lang, str] = {
    "en": (
        "Earlier, someone told a friend:\n{before}\n\nToday they said:\n{said}\n\nDo today's words "
        "say how that turned out, or that it is over? Answer yes or no."
    ),
    "zh": (
        "之前，一个人跟朋友说：\n{before}\n\n今天他说：\n{said}\n\n今天的话有没有说出那件事的结果，或者说那件事"
        "已经过去了？只回答“是”或“否”。"
    ),
}
CHOICES = weighed.CHOICES
# P(yes) from which the matter counts as told, per language of the session's lines.
# On retire_dev38's train half (retire_dev8's and dev9's train halves beside it, read offline with
# the session 1 lines as the matter's words) the tellings of an end read 0.44-0.84 and the sessions
# that end nothing (progress, something else, a move, a mention, sad news) up to 0.69 in English and
# 0.74 in Chinese ("我姐生了！！！" beside a sick hamster): the thresholds sit above both.
ENDED_AT: dict[Lang, float] = {"en": 0.75, "zh": 0.80}
# The session's meaning from which the question is asked (retire.SAME_SESSION decides alone above
# it when a line reads as settled).
ASK_FROM = 0.2
MAX_ITEMS = 2  # matters asked about per session, the closest first
MAX_LINES = 8
MAX_CHARS = 600


def prompt(before: str, lines: Sequence[str], lang: Lang) -> str:
    """The question: the matter's words as the item quotes them, then the session's user lines one a
    line (the last ``MAX_LINES``, cut to ``MAX_CHARS``)."""
    said = "\n".join(f"- {t.strip()}" for t in lines[-MAX_LINES:] if t.strip())
    return QUESTION[lang].format(before=before.strip()[:MAX_CHARS], said=said[-MAX_CHARS:])


def is_ended(logprobs: Sequence[float], lang: Lang) -> bool:
    p = weighed.p_yes(logprobs)
    return p is not None and p >= ENDED_AT[lang]
