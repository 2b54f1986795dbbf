"""Whether an evening that closed tired was worn out or just over, by meaning.

The feeling check-in (arm.py, scene "emotion") is armed on a session whose closing mood is tired
though no line read strong to the rules: the tiredness was read by meaning at consolidation (the
tiredness head of mood/learned.py). That head learned that a session ending in bed is often a tired
one, and an ordinary evening said with a goodnight ("今天就正常上班下班，吃了碗面，没啥特别的 / 睡啦",
"made some soup, read a few chapters… off to bed") read 0.52 to 0.66 tired on arm_dev19.json's
train half: the next morning asked how they were doing, "last time they sounded worn out". And
"absolutely shattered after today / I feel like I've been hit by a truck", said in words neither
the lexicons nor the head know (0.21), armed nothing.

What sets the two apart is what kind of evening it was, so the session's user lines together are
compared, on the daemon's multilingual embedder, with two small banks of prototypes written as
kinds in both languages: a person worn out (drained, aching, running on empty) and an ordinary
evening (dinner, a programme, bed). ``Contrast.lead``: how much nearer the worn-out bank (the mean
of the two nearest of each, ``meaning.nearest``).

- ``FLOOR``: below it, a tiredness only meaning read is not armed as a check-in (the mood still
  carries what it carries). On the train halves of the Morning dev sets and arm_dev19.json, the
  routine evenings read -0.105 to -0.27, the tired sessions that relied on meaning alone from
  -0.05 up (the one lower, "今天在工地跑了一整天，累瘫了 / 饭都不想吃，直接睡了", -0.096, is read by the
  rules: 累瘫了); midway.
- ``SURE``: at or above it, a session that closed low (though not tired to the head, nor strong to
  the rules) and arms nothing else is checked on as worn out. The tired sessions of those train
  halves read up to +0.18; of the sessions with nothing to ask about, only those that ask not to
  be asked (which arm nothing) or tell of a loss (whose gentle check-in replaces the feeling's)
  read above +0.1.

The same ordinary evenings also stand against everything a friend follows up (``FOLLOWED``: the
occasions of occasion.py, the open worries of mood/meaning.py, the worn-out evenings): a session
whose lines together read ``ORDINARY`` nearer an ordinary evening than those arms nothing that
meaning alone found, neither an undated matter of the check-in reader ("今天挺平常的，下班去超市买了点
菜" read as a matter) nor a feeling only meaning read. On the same train halves the routine evenings
read +0.105 to +0.27, the scenes with something to ask about +0.125 at most (an anxious night
that cannot sleep); the routine evenings that were armed read +0.162 and more: ``ORDINARY`` is
between the two.

Under another embedder than the one the margins were set on, nothing is read. Pure: the caller
embeds.
"""

from __future__ import annotations

import numpy as np

from ..mood.meaning import OPEN, Contrast, Written
from .occasion import OCCASIONS

FITTED_ON = "use"  # the embedder the margins were measured under (embed/profiles.py)
FLOOR = -0.08  # nearer an ordinary evening than this: no check-in on a tiredness meaning read
SURE = 0.12  # nearer a worn-out evening by this much: a low session is checked on as worn out
ORDINARY = 0.15  # nearer an ordinary evening than anything followed up: nothing meaning alone armed

WORN_OUT: tuple[str, ...] = (
    "I'm completely exhausted, I have nothing left",
    "what a draining day, I can barely stand",
    "I'm so tired I can't think",
    "my whole body aches, I'm spent",
    "I worked myself into the ground today",
    "worked a double shift and I'm dead on my feet",
    "I've been up since five and I'm running on empty",
    "累得要命，一点力气都没有了",
    "今天把我累坏了，浑身都疼",
    "太累了，脑子都转不动了",
    "忙了一整天，整个人都虚脱了",
    "累得什么都不想做",
    "加了一周的班，困得站着都能睡着",
    "熬到半夜，眼睛都睁不开了",
)
EVENINGS: tuple[str, ...] = (
    "just an ordinary day, heading to bed now",
    "nothing special happened today, good night",
    "had dinner and watched some TV, going to sleep",
    "a quiet day at home, night",
    "usual day at work, time for bed",
    "cooked, read a bit, early night",
    "今天很平常，准备睡觉了",
    "没什么特别的，晚安",
    "吃了饭看了会电视，睡了",
    "在家待了一天，晚安",
    "正常上班的一天，该睡了",
    "做了饭，看了会书，早点睡",
)

# The worn-out evenings (near) and the ordinary ones (far).
BANK = Written(WORN_OUT, EVENINGS)
# What a friend follows up: occasions, open worries, worn-out evenings.
FOLLOWED: tuple[str, ...] = (*OCCASIONS, *OPEN, *WORN_OUT)
# The ordinary evenings (near) and what a friend follows up (far).
PLAIN = Written(EVENINGS, FOLLOWED)


def lead(bank: Contrast, vector: np.ndarray) -> float:
    """How much nearer the bank's near side than its far one (``bank``: ``BANK`` or ``PLAIN``
    embedded)."""
    return bank.lead(vector)
