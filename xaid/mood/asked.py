"""What the embedder cannot tell of a session, asked of the chat model: one short call, one word.

Two questions: the session's closing feeling and tiredness (``prompt``; its words weighed,
``weighed``, or a word answered, ``label``), and whether what a low session told of is still alive
and with them (``alive_prompt``, ``alive``: a worry, not a loss).

Issue 24 item 5 names two ways of reading what a session leaves for the next day by meaning: the
embedder (meaning.py's prototypes, learned.py's reader) and the default model once per consolidated
session. The embedder reads a text by its topic before its feeling: irony ("What a treat this day
has been"), good news said flatly among errands ("Oh and the biopsy was benign"), a feeling said
between logistics. A chat model reads the whole situation.

The question offers plain feeling words (sad, happy, tired, fine) rather than the labels (low, good,
neutral): asked for "low, good or neutral" the 1.5B answered the last word offered for nearly
everything (docs/mood.md, feel3). The words are weighed, not generated (``weighed``; GenerateRequest.
choices): the 1.5B leans to "sad", greedily answering it to a standing ovation and a proposal, yet its
log-probability of "happy" against "sad" orders good sessions above low ones almost perfectly (AUC
0.95-0.99 on the feelings dev sets, the learned reader 0.87-0.96; docs/mood.md, feel29), so the sign is
read against an offset chosen on the dev sets' train halves (``HAPPY_OFFSET``). A provider that cannot
weigh answers in words, read only where the answer *begins* with an offered word (``label``); anything
else (an echo, a sentence, a refusal) is unreadable and the embedder's reading stands.
Pure: consolidation makes the call (``Consolidation.weigh``/``ask``, the memory's own questions' path).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..providers.base import logsumexp
from .meaning import Label, session_text

ANSWER_TOKENS = 4
_PROMPT = (
    "A friend told you this today:\n{said}\n\n"
    "How will they feel tomorrow because of it: sad, happy, tired, or fine (nothing to carry)? "
    "Answer with one word."
)
_ANSWERS: dict[str, Label] = {"sad": "low", "happy": "good", "tired": "neutral", "fine": "neutral"}
_FIRST_WORD = re.compile(r"\W*([a-z]+)")
# The offered words weighed as the answer's first token, each as the model may begin it.
CHOICES = ("sad", "Sad", "happy", "Happy", "tired", "Tired", "fine", "Fine")
# Nats added to "happy" before it is set against "sad": the default 1.5B gives "sad" more than its
# due. On the train halves of feelings_dev3-dev14 (where the learned reader reads a feeling) the
# fewest signs read wrong lie at 1.0-1.25 (en 28 and 27, zh 23 and 24 of ~210, 51 together); of the
# two, 1.0 reads fewer lows as good (en 5 against 10, zh 8 against 11): a cheerful morning after a
# layoff hurts more than a gentle one after good news.
HAPPY_OFFSET = 1.0
# Below this share of the next token on the offered words together the model would answer
# something else (an echo, a sentence): nothing is read. The 1.5B never gave them under 0.47.
READABLE = 0.05
# Where the reader reads nothing (an idiom, slang, a face it averages away), the model's feeling
# stands when it takes this share of sad, happy and fine (after HAPPY_OFFSET): carried as a trace,
# the sign the reader did not choose (learned.signed). The best of 0.6-0.95 on the train halves, no
# calm day given a tone there; the model's word alone carries calm days as feelings.
RAISE_AT = 0.6
# They will be tired when "tired" takes this share of the four words, whatever the reader's
# tiredness head read (learned.still_tired): "Up at 5 for the school run, then a double shift"
# names no tiredness. Of 0.2-0.7 on the train halves, the only share that adds sessions carried
# tired without a session carried tired that was not (en +1, zh 0; the head was fitted there).
TIRED_AT = 0.7


@dataclass(frozen=True, slots=True)
class Weighed:
    """What the weights of ``CHOICES`` read: the feeling to carry ("neutral": the reader's reading
    stands) and whether they will be tired tomorrow."""

    label: Label
    tired: bool


def prompt(lines: Sequence[str]) -> str:
    """The question for a session's user lines, the instruction last (DESIGN 3b)."""
    return _PROMPT.format(said=session_text(lines))


def _first_word(answer: str | None) -> str | None:
    """The answer's first word, lower-cased: the only part of it either question reads."""
    m = _FIRST_WORD.match(answer.lower()) if answer is not None else None
    return m.group(1) if m else None


def weighed(logprobs: Sequence[float], read: Label) -> Weighed | None:
    """What the weights of ``CHOICES`` say of a session the reader read as ``read``.

    The feeling, where it read one: "neutral" where "fine" leads sad and happy (the reading
    stands), else "good" where "happy" with ``HAPPY_OFFSET`` outweighs "sad", else "low". Where it
    read none: the leading word's of sad, happy and fine when it takes ``RAISE_AT`` of them, else
    "neutral". Tired where "tired" takes ``TIRED_AT`` of the four. None where the offered words
    together are unlikely (``READABLE``) or the weights are not the choices'."""
    if len(logprobs) != len(CHOICES):
        return None
    sad, happy, tired, fine = (logsumexp(logprobs[i : i + 2]) for i in range(0, len(CHOICES), 2))
    offered = logsumexp((sad, happy, tired, fine))
    if offered < math.log(READABLE):
        return None
    worn = math.exp(tired - offered) >= TIRED_AT
    if read != "neutral":
        if fine > max(sad, happy):
            return Weighed("neutral", worn)
        return Weighed("good" if happy + HAPPY_OFFSET > sad else "low", worn)
    scores: dict[Label, float] = {"low": sad, "good": happy + HAPPY_OFFSET, "neutral": fine}
    lead = max(scores, key=lambda k: scores[k])
    share = math.exp(scores[lead] - logsumexp(tuple(scores.values())))
    return Weighed(lead if share >= RAISE_AT else "neutral", worn)


def label(answer: str | None) -> Label | None:
    """The feeling the answer names, or None when it does not begin with one of the words offered."""
    word = _first_word(answer)
    return _ANSWERS.get(word) if word else None


# Whether what a low session told of is still there: a child with a fever, a rent rise, a parent
# in hospital (a worry to ask after) or someone gone (a loss, kept company). Asked as "still alive
# and still with them", the 1.5B answered yes to 6 of 6 such worries and no to 7 of 10 losses
# (deaths said softly, break-ups, a miscarriage); asked "did someone die?" it answered no to 7 of
# 10 losses, and asked "gone or ongoing" it answered gone to 5 of 6 worries (session 25, by hand).
_ALIVE = (
    "A friend told you this today:\n{said}\n\n"
    "Is the person or thing they talk about still alive and still with them? Answer yes or no."
)
_YES_NO = {"yes": True, "no": False}


def alive_prompt(lines: Sequence[str]) -> str:
    """The question whether what the session's user ``lines`` tell of is still there."""
    return _ALIVE.format(said=session_text(lines))


def alive(answer: str | None) -> bool | None:
    """True for a yes, False for a no, None for anything else (then nothing is decided by it)."""
    word = _first_word(answer)
    return _YES_NO.get(word) if word else None
