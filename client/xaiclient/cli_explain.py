"""A turn's ``explain`` context as a person reads it: what was recalled, the mood, the suggestion.

``session.send`` with ``explain`` returns everything the model was given besides the conversation
(docs/protocol.md, ``context``); the whole map is for debugging, these few lines are for seeing why
the companion answered as it did. ``xaictl send --explain`` and ``xaictl demo`` print them.
"""

from __future__ import annotations

from typing import Any

WIDTH = 110  # a recalled memory is cut to about this many characters


def mood_line(m: dict[str, Any]) -> str:
    return (
        f"valence {m['valence']:+.2f}  arousal {m['arousal']:.2f}  fatigue {m['fatigue']:.2f}  "
        f"confidence {m['confidence']:.2f}  (half-life {m['half_life_h']:.1f} h)"
    )


def _clip(text: str, width: int = WIDTH) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def summary(context: dict[str, Any] | None, indent: str = "  ") -> str:
    """The explain context in a few lines; "" when the turn carried none."""
    if not context:
        return ""
    lines: list[str] = []
    memories = context.get("memories") or []
    if memories:
        lines.append("recalled:")
        lines += [
            f"  {m['kind']}:{m['id']} ({m['when']}, score {m['score']:.2f}) {_clip(m['text'])}"
            for m in memories
        ]
    else:
        lines.append("recalled: nothing")
    if context.get("profile"):
        lines.append(f"profile: {_clip(context['profile'])}")
    mood = context.get("mood")
    lines.append("mood: " + (mood_line(mood) if mood else "off for this agent"))
    if context.get("tone"):
        lines.append(f"tone: {_clip(context['tone'], 2 * WIDTH)}")
    if context.get("suggestion"):
        lines.append(f"suggestion: {_clip(context['suggestion'], 2 * WIDTH)}")
    else:
        lines.append(f"suggestion: none ({context.get('suggestion_reason', 'no reason given')})")
    if context.get("lead"):
        lines.append(f"lead (the daemon began the reply): {context['lead']}")
    forgotten = context.get("forgotten")
    if forgotten:
        lines.append(f"forgotten: {forgotten['deleted']} item(s) ({forgotten['kind']})")
    return "\n".join(indent + line for line in lines)
