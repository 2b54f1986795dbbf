"""The text as the rules' English patterns read it: lower case, a curly apostrophe straight ("don’t"
as "don't", as phones type it), its runs of spaces and line breaks one space.

One fold for every reader that compares a message with its patterns (the forget requests and their
classifier's cues, the scheduler's matter and moot readers): each had written the same line itself.
"""

from __future__ import annotations


def fold(text: str) -> str:
    """``text`` lower-cased, its curly apostrophes straight and its whitespace single."""
    return " ".join(text.lower().replace("\u2019", "'").split())
