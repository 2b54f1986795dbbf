"""What a fact rule returns: one statement about the user, before ``extract.candidates`` makes a
Candidate of it (with the clause it came from). Not to be confused with ``retrieve.Hit``, a memory
that recall found.

One record for the English, Chinese and exclusive-subject rules, so that ``facts_exclusive.refile``
and ``extract.candidates`` read a hit the same way whichever language produced it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

MIN_CONFIDENCE = 0.05  # a hedged hit keeps a little confidence: the model may still confirm it


@dataclass(frozen=True, slots=True)
class Hit:
    kind: str  # identity, preference, work, place, person, health, plan
    subject: str  # "user.work", "user.sister", …
    text: str  # the statement to store, third person, in the clause's language
    confidence: float
    negated: bool
    key: str  # the object as the user wrote it, for counting later mentions

    def hedged(self, by: float) -> Hit:
        """The same hit said with "I think" / 可能: ``by`` less sure, never below MIN_CONFIDENCE."""
        return replace(self, confidence=round(max(MIN_CONFIDENCE, self.confidence - by), 2))


# A rule gets the clause body (from the anchor "I"/我 on), the lead before it, and both with
# timeparse's dates kept; it returns hits, or None to let the next rule try.
Rule = Callable[[str, str, str, str], list[Hit] | None]
