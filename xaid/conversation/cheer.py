"""A reply does not cheer at a hardship.

`make demo`'s 1.5B answered the evening's "I just want to sleep. Tomorrow I have to walk my
manager through the fix." with "That's great!", and real 0.5B/1.5B replies applauded a back
"killing me" ("That's great to hear!", "真棒！你辛苦了。", perf/scenarios/voice_dev8.json). A small
model opens with applause because applause is the likeliest first sentence of a chat reply; a
friend who just heard of a bad day does not.

Two readings decide it, both made before the reply is checked:

- **the message tells a hardship**: the rules read it low or tired (``RuleClassifier``: "ugh",
  "so tired", "累死了"), or meaning does, both of its readers agreeing: the learned feelings model
  (mood/learned.py, the one consolidation reads a session's close with) reads the message alone
  as low with at least ``LOW`` and as good with at most ``GOOD``, and the feeling prototypes
  (mood/meaning.py) put it nearer "low" than the plain lines by ``MARGIN``. The rules read most
  hardships said without a feeling word as nothing ("my back is killing me", "腰都要断了"); the
  learned model alone, fitted on whole sessions, read single messages by their topic: a plan
  ("今晚打算做千层面") low at 0.73, "the doctor says I'm healing well" low at 0.99 (it is the
  prototypes that read that one neutral), hence both readers and high bars;
- **the sentence is bare applause**: short (``SHORT_WORDS`` Latin words, ``SHORT_HAN`` Han
  characters), read glad by the same rules ("That's great!", "太棒了！"), and holding no content word
  of the user's message: "That's great about the contract!" and "合同签了太好了！" pick up the good
  part of a mixed message and pass, as does any longer sentence, which says something of its own.
  "Don't worry!" reads 0.21 glad by the rules: reassurance, not applause, hence ``GLAD``.

Such a sentence is dropped like any other voice break (voice.py), and the turn asks once more.
Measured on perf/scenarios/tone_dev9.json (`python -m perf tone_dev9`).
"""

from __future__ import annotations

import itertools
import re

import numpy as np

from ..memory.embeddings import Embeddings
from ..mood import learned, meaning
from ..mood.classifier import RuleClassifier
from ..text import cjk
from . import first_words

LOW = 0.8  # the learned model's probability of "low" for the message alone...
GOOD = 0.2  # ...with "good" at most this (a mixed message has good news to approve of)
MARGIN = 0.05  # and the prototypes' "low" ahead of the plain lines by this much
RULES_LOW = -0.2  # or the rules' valence at most this
RULES_TIRED = 0.4  # or their fatigue at least this
GLAD = 0.25  # a sentence the rules read at least this glad
SHORT_WORDS = 5  # "That's wonderful to hear!"
SHORT_HAN = 6  # "听起来很棒！"

_RULES = RuleClassifier()


def told_hardship(
    text: str, vector: np.ndarray | None = None, bank: meaning.Prototypes | None = None
) -> bool:
    """Whether the user's message tells of something hard and nothing good; ``vector``: the
    message's embedding under the embedder both meaning readers were fitted on, and ``bank`` the
    prototypes under it, or None (the rules alone)."""
    own = _RULES.classify(text)
    if own.valence <= RULES_LOW or own.fatigue >= RULES_TIRED:
        return True
    if vector is None or bank is None:
        return False
    felt = bank.feel(vector)
    if felt.label != "low" or felt.margin < MARGIN:
        return False
    p = learned.default().probabilities(vector, vector, learned.own_reading([text]))
    return p["low"] >= LOW and p["good"] <= GOOD


async def read(embeddings: Embeddings, agent_id: str, text: str) -> bool:
    """``told_hardship`` of a turn's message, by meaning where the embedder is the one the readers
    were fitted on and the prototypes are embedded already (conversation.banks embeds them at start:
    a turn never embeds the whole bank before its first token, and in the seconds before that it
    reads by the rules alone); the message's vector is the one retrieval asks for (``embed_query``
    keeps it)."""
    bank = first_words.prototypes_ready(embeddings)
    if bank is None or embeddings.profile.name != "use" or not embeddings.readable(text):
        return told_hardship(text)
    vector = await embeddings.embed_query(agent_id, text)
    return told_hardship(text, vector, bank)


def applauds(sentence: str, said: str) -> bool:
    """Whether ``sentence`` is a short cheer with nothing of ``said`` in it."""
    han = cjk.HAN.findall(sentence)
    words = re.findall(r"[A-Za-z']+", sentence)
    if len(han) > SHORT_HAN or len(words) > SHORT_WORDS or not (han or words):
        return False
    if _RULES.classify(sentence).valence < GLAD:
        return False
    theirs_han = set(cjk.HAN.findall(said))
    # a Latin word by its first five letters, as echo.py matches them ("upgrade" / "upgraded")
    theirs_words = {w.lower()[:5] for w in re.findall(r"[A-Za-z']{4,}", said)}
    return not any(
        a + b in said for a, b in itertools.pairwise(han) if a in theirs_han
    ) and not any(w.lower()[:5] in theirs_words for w in words if len(w) >= 4)
