"""The fact rules: one user clause in, statements about the user out, in English and Chinese.

A closed cluster: only ``extract`` (``extract.candidates``) is read from outside. The grammar
lives in ``en*`` and ``zh*``, the words in ``lexicon_en`` and ``lexicon_zh``, the subjects that
hold one value at a time in ``exclusive``; what every rule shares is here: the record a rule
returns (``RuleHit``; recall's ``retrieve.Hit`` is another thing, a memory that was found) and the
programming language an object names, which the English and the Chinese rules both read
("我现在主要写Rust" names Rust as "I mostly write Rust" does).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from ...text import cjk
from .lexicon_en import CASED_LANGUAGES, PROGRAMMING_LANGUAGES

MIN_CONFIDENCE = 0.05  # a hedged hit keeps a little confidence: the model may still confirm it


@dataclass(frozen=True, slots=True)
class RuleHit:
    kind: str  # identity, preference, work, place, person, health, plan
    subject: str  # "user.work", "user.sister", …
    text: str  # the statement to store, third person, in the clause's language
    confidence: float
    negated: bool
    key: str  # the object as the user wrote it, for counting later mentions

    def hedged(self, by: float) -> RuleHit:
        """The same hit said with "I think" / 可能: ``by`` less sure, never below MIN_CONFIDENCE."""
        return replace(self, confidence=round(max(MIN_CONFIDENCE, self.confidence - by), 2))


# A rule gets the clause body (from the anchor "I"/我 on), the lead before it, and both with
# timeparse's dates kept; it returns hits, or None to let the next rule try.
Rule = Callable[[str, str, str, str], list[RuleHit] | None]

_CODE_LEAD = re.compile(
    r"^(?:coding|programming|writing code|developing|working|building things|hacking)\s+"
    r"(?:in|with)\s+"
    r"|^(?:writing|using|learning|to (?:code|program|write) in|to write|to use)\s+",
    re.I,
)
_LANGUAGE_TAIL = re.compile(
    r"\s+(?:now|these days|nowadays|mostly|mainly|a lot|anymore|too|as well|instead)$", re.I
)
_LATIN_HEAD = re.compile(
    r"[A-Za-z][A-Za-z0-9+#/-]*(?=\s*[" + cjk.IDEOGRAPHS + r"])"
)  # "Python写后端" → Python


def language(obj: str) -> str | None:
    """The canonical programming language an object names ("coding in python" → Python), if any."""
    core = _CODE_LEAD.sub("", obj.strip()).strip()
    core = _LANGUAGE_TAIL.sub("", core)
    canon = PROGRAMMING_LANGUAGES.get(core.lower())
    head = _LATIN_HEAD.match(core) if canon is None else None
    if head is not None:
        core = head.group()
        canon = PROGRAMMING_LANGUAGES.get(core.lower())
    if canon is None or (core.lower() in CASED_LANGUAGES and not core[:1].isupper()):
        return None
    return canon
