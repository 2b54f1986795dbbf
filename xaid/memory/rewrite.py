"""A text without the sentences that hold something forgotten: episode summaries and the profile.

A summary is several sentences about one evening ("They said: "…"" per quoted message) and the
profile (L3) one line per fact. Forgetting one of those things must not take the others with it, so
forget rewrites these texts instead of deleting them. A quoted message counts as one sentence:
forget deletes the message that said the text whole, so its quote goes whole as well.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

_ENDERS = ".!?。！？…"
# Sentences of a rule-made summary that say nothing of what was said: alone, they are no episode.
EPISODE_FRAMES: tuple[re.Pattern[str], ...] = (
    re.compile(r"^On \S+ .{0,80}talked with .{0,80}\.$"),
    re.compile(r"^There were \d+ messages from the user in all\.$"),
    re.compile(r"^\d{4}-\d{2}-\d{2}，.{0,80}和.{0,80}聊了天。$"),  # consolidate.FRAMES["zh"]
    re.compile(r"^用户一共发了\d+条消息。$"),
)


def sentences(text: str) -> list[str]:
    """Sentences, a quoted stretch never cut: 'They said: "A. B." C.' is two."""
    out: list[str] = []
    start, i, quoted = 0, 0, False
    while i < len(text):
        ch = text[i]
        if ch == '"':
            quoted = not quoted
            if not quoted and (
                i + 1 == len(text) or text[i + 1].isspace()
            ):  # 'They said: "…"' ends here
                out.append(text[start : i + 1].strip())
                start = i + 1
        elif ch in _ENDERS and not quoted:
            j = i
            while j + 1 < len(text) and text[j + 1] in _ENDERS + '"':
                j += 1
            if j + 1 == len(text) or text[j + 1].isspace() or ch in "。！？":
                out.append(text[start : j + 1].strip())
                start, i = j + 1, j
        i += 1
    if text[start:].strip():
        out.append(text[start:].strip())
    return [s for s in out if s]


def without(
    text: str, holds: Callable[[str], bool], frames: Sequence[re.Pattern[str]] = (), head: str = ""
) -> str | None:
    """``text`` minus the sentences (or quoted clauses) that ``holds``; None when nothing is left
    but ``head`` and sentences that only frame (``frames``)."""
    body = text[len(head) :] if head and text.startswith(head) else text
    prefix = head if head and text.startswith(head) else ""
    kept: list[str] = []
    for s in sentences(body):
        if not holds(s):
            kept.append(s)
    if not kept or all(any(f.match(s) for f in frames) for s in kept):
        return None
    joiner = "" if all(s[-1:] in "。！？" for s in kept) else " "
    return prefix + joiner.join(kept)
