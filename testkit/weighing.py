"""Log-probabilities of the weighed yes/no questions (scheduler/weighed.py's ``CHOICES``) for a model
that gives "yes" the probability ``p_yes``: what the pure tests of a threshold read."""

from __future__ import annotations

import math


def logprobs(p_yes: float) -> tuple[float, ...]:
    """The log-probabilities of ``weighed.CHOICES`` (yes, Yes, 是, no, No, 否), the mass on the
    lower-case words."""
    yes = [math.log(p_yes), -30.0, -30.0]
    no = [math.log(1 - p_yes), -30.0, -30.0]
    return tuple(yes + no)
