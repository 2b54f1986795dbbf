"""Check-in candidates: the first words of a check-in reply sampled again until they name the matter.

Given a suggestion (and often the daemon's lead), Qwen2.5-Coder-1.5B still answers "Morning." with
"Good morning! How are you?" in about a third of the dev scenes (perf/RESULTS.md, "Morning"): the
lead's "Last time you said" is sometimes followed by "that you were busy", and without a lead the
model greets and asks nothing of the matter. Sampled again, the same prompt often does name it. So
with ``scheduler.candidates`` above 1, the first words of a check-in reply are held (the lead still
goes out at once: it is the daemon's own and the same for every candidate) and judged:

- taken as soon as they name the matter, i.e. one of the suggestion's keywords (the user's own
  words, ``arm.keywords``, judged by ``arm.came_up`` as the scheduler judges that a matter came up)
  appears in what passed the voice check: the rest of the same generation then streams on, so a
  first candidate that names the matter costs nothing;
- dropped when the voice check broke a sentence of theirs, or when they have said ``SENTENCES``
  sentences or ``WINDOW_TOKENS`` tokens (or ended) without naming it: the model is asked again
  (the sampler's seed moves on with every call, so the next candidate differs);
- after ``scheduler.candidates`` tries none named it: the first that kept the voice is sent and
  continued after (``choose``), as the reply would have been without candidates.

The model writes every word; the daemon only picks among its words. Nothing here can raise a matter
the scheduler held back: a held-back matter has no suggestion and so no keywords and no candidates.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from ..scheduler.arm import came_up
from . import echo
from .voice import SENTENCE_END

SENTENCES = 2  # "Good morning! How are you?": two sentences of nothing
WINDOW_TOKENS = (
    24  # Han characters and Latin words of the model's own words before giving up on them
)


class Verdict(StrEnum):
    TAKE = "take"  # names the matter: send it and go on
    DROP = "drop"  # ask the model again


@dataclass
class Window:
    """One candidate's first words, held while they are judged: what the voice gate passed, less
    the daemon's lead (``lead``; sent once, by the first candidate, as ``add`` returns it)."""

    matter: tuple[str, ...]
    lead: str = ""
    lead_sent: bool = False  # an earlier candidate sent the lead
    held: str = ""
    verdict: Verdict | None = None
    broken: bool = False  # the voice check dropped a sentence of this candidate
    ended: bool = False  # the candidate's generation ended inside the window
    _lead_left: str = field(
        init=False, default=""
    )  # the lead's characters the gate has yet to pass

    def __post_init__(self) -> None:
        self._lead_left = self.lead

    @property
    def open(self) -> bool:
        """Still judging: what the gate passes is held."""
        return self.verdict is None

    def add(self, passed: str) -> str:
        """Hold ``passed`` (text the voice gate let through); what may go out now: the lead, once."""
        out = ""
        if self._lead_left:
            n = _common(self._lead_left, passed)
            lead, passed = passed[:n], passed[n:]
            self._lead_left = (
                self._lead_left[n:] if not passed else ""
            )  # a provider that changed it
            out = "" if self.lead_sent else lead
        self.held += passed
        return out

    def judge(self, broken: bool, ended: bool = False) -> Verdict | None:
        """The verdict once it can be given (``broken``: the gate dropped a sentence; ``ended``: the
        generation is over), else None; kept in ``verdict``."""
        if self.verdict is not None:
            return self.verdict
        self.broken, self.ended = broken, ended
        if broken:
            self.verdict = Verdict.DROP
        elif names_matter(self.held, self.matter):
            self.verdict = Verdict.TAKE
        elif ended or _spent(self.held):
            self.verdict = Verdict.DROP
        return self.verdict

    def release(self) -> str:
        """What was held, to be sent now."""
        out, self.held = self.held, ""
        return out


def names_matter(text: str, matter: Sequence[str]) -> bool:
    """``text`` names one of the matter's words (not an outcome word alone: "great!" names nothing)."""
    return bool(matter) and came_up(text, matter, happened=False)


def _common(a: str, b: str) -> int:
    """How many first characters ``a`` and ``b`` share."""
    return next(
        (i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b))
    )


def _spent(held: str) -> bool:
    return len(SENTENCE_END.findall(held)) >= SENTENCES or len(echo.tokens(held)) >= WINDOW_TOKENS


def choose(windows: Sequence[Window]) -> int | None:
    """Of candidates none of which named the matter, the one to send: the first that kept the
    companion's voice, or None when every one broke it (the turn then runs as without candidates)."""
    return next((i for i, w in enumerate(windows) if not w.broken), None)
