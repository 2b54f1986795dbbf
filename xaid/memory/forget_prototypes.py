"""What a request to forget means, as sentences: the prototypes ``forget_request`` measures an
unframed message against.

The frames in forget_request.py take the wordings they name; people also say "I'd rather you let
that go" or "那事你别往心里记", which no frame lists. A message that carries a memory word (the
gate in forget_request.py) is compared by meaning with these two sets: close to a request and
clearly closer to it than to any look-alike (a report of forgetting, a reminder, a wish to forget,
a question about memory, a task on a file) is a request. Both languages, because the embedder is
multilingual and people mix them. The sentences are the intent in general terms, not copies of
any test or dev wording; adding a look-alike here is how a new kind of mis-fire is fixed.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

REQUESTS: tuple[str, ...] = (
    "Please forget what I told you about that.",
    "Please erase what I said about it from your memory.",
    "I don't want you to keep what I told you about him.",
    "Let go of what I shared with you about my family, don't remember it.",
    "I regret telling you that, please don't hold on to it.",
    "Remove what I said about my problem from your memory.",
    "Act as if I never told you about that.",
    "I'd rather you didn't remember the thing I said about her.",
    "Would you mind forgetting that thing I said about my friend?",
    "Can I take back what I told you about them? Don't keep it.",
    "请忘掉我跟你说过的那件事。",
    "我跟你说的那些事，你别记着了。",
    "把我说的关于他的话从你的记忆里删掉。",
    "那件事你就当我没说过吧。",
    "我不想让你记住我说的那些事。",
    "我说过的那些话，你别留着了，删了吧。",
    "那事你别往心里记，忘了吧。",
    "我后悔告诉你那件事了，你忘了它吧。",
)

LOOKALIKES: tuple[str, ...] = (
    "I forgot my keys at home.",
    "Don't forget to remind me tomorrow.",
    "Forget about that for a minute and help me with this.",
    "Do you remember what I told you about him?",
    "Did you forget what I said?",
    "I wish I could forget that day.",
    "I can't let go of what happened.",
    "Please remember this for me.",
    "Delete the file and start over.",
    "Remove the typo from this paragraph.",
    "I told you about him before, and it happened again.",
    "Forget it, it doesn't matter.",
    "My mother keeps forgetting things.",
    "How do I forget someone?",
    "Scratch that, I meant the other day.",
    "What do you remember about me?",
    "我又忘了带钥匙。",
    "别忘了提醒我明天的事。",
    "先别管那个了，帮我做这个。",
    "你还记得我跟你说过的那件事吗？",
    "我真想把那段记忆从脑子里抹掉。",
    "帮我把这个文件删掉。",
    "记住我说的话。",
    "算了，忘了吧，不重要。",
    "我跟你说过的那件事，又发生了。",
    "我怎么才能忘掉一个人？",
    "我把他的照片都删了。",
    "我妈总是忘事。",
)


@dataclass(frozen=True, slots=True)
class Prototypes:
    """The two sets as unit vectors, one row per sentence."""

    requests: np.ndarray
    lookalikes: np.ndarray

    @classmethod
    def of(cls, vectors: np.ndarray) -> Prototypes:
        """From the vectors of ``REQUESTS + LOOKALIKES``, in that order."""
        unit = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-9)
        return cls(unit[: len(REQUESTS)], unit[len(REQUESTS) :])

    def scores(self, vector: np.ndarray) -> tuple[float, float]:
        """The closest request's and the closest look-alike's cosine to ``vector``."""
        v = vector / max(float(np.linalg.norm(vector)), 1e-9)
        return float(np.max(self.requests @ v)), float(np.max(self.lookalikes @ v))


def texts() -> list[str]:
    """The sentences to embed, for ``Prototypes.of``."""
    return [*REQUESTS, *LOOKALIKES]
