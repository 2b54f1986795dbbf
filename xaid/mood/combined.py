"""Several mood classifiers as one: the rules and, say, a small learned model beside them.

Each reading counts in proportion to its confidence (times an optional fixed weight), so a
classifier that found nothing has no say and the rules' "I found nothing" never drags a learned
model's reading toward neutral.
"""

from __future__ import annotations

from collections.abc import Sequence

from .classifier import NEUTRAL_READING, Classifier, Reading


class CombinedClassifier:
    """Several classifiers as one: each reading counts in proportion to its confidence (times an
    optional fixed weight), so a classifier that found nothing has no say."""

    name = "combined"

    def __init__(self, classifiers: Sequence[Classifier], weights: Sequence[float] | None = None):
        if weights is not None and len(weights) != len(classifiers):
            raise ValueError("one weight per classifier")
        self.classifiers = tuple(classifiers)
        self.weights = tuple(weights) if weights is not None else (1.0,) * len(self.classifiers)

    def classify(self, text: str) -> Reading:
        readings = [
            (c, c.classify(text), w) for c, w in zip(self.classifiers, self.weights, strict=True)
        ]
        total = sum(r.confidence * w for _, r, w in readings)
        if total <= 0.0:
            return NEUTRAL_READING

        def mean(field: str) -> float:
            return sum(getattr(r, field) * r.confidence * w for _, r, w in readings) / total

        cues = tuple(
            f"{c.name}:{cue}" for c, r, w in readings if r.confidence * w > 0 for cue in r.cues
        )
        return Reading(
            valence=round(mean("valence"), 4),
            arousal=round(mean("arousal"), 4),
            fatigue=round(mean("fatigue"), 4),
            intensity=round(mean("intensity"), 4),
            confidence=round(mean("confidence"), 4),
            cues=cues,
            lasting=round(mean("lasting"), 4),
        )
