"""Fit the learned feelings model (xaid/mood/learned.py) and write xaid/mood/feelings_model.npz.

``python -m perf.eval.feelings_fit``. What it learns from: the train half of
perf/scenarios/feelings_dev3.json, all of feelings_dev.json and feelings_dev2.json (the earlier dev
sets), and the feeling prototypes of xaid/mood/meaning.py as one-line sessions; never the test half
of feelings_dev3.json (what ``python -m perf feelings`` reports on) and never a held-out set.

The model is a softmax regression over the session's vector and its tail's (``learned.tail``: what
follows the last "but"/但是, else the last sentence), USE-multilingual-v3 (the daemon's default),
standardised by the training set, plus the rules' own reading of the session (valence, confidence)
times a gain. The L2 strength and the gain are chosen by five-fold cross-validation on the training
rows alone; then the model is fitted on all of them. Plain gradient descent in numpy: ~370 rows of
1,026 features fit in a few seconds, and the daemon needs numpy only to read the weights.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from xaid.mood import learned, meaning

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
TRAIN_SETS = ("feelings_dev3.json", "feelings_dev.json", "feelings_dev2.json")
L2 = (0.003, 0.01, 0.03, 0.1)
GAINS = (0.0, 3.0, 6.0, 10.0)
FOLDS = 5
STEPS = 800
RATE = 0.1
SEED = 24


@dataclass(frozen=True, slots=True)
class Row:
    lines: tuple[str, ...]
    label: int  # index in learned.LABELS


def training_rows() -> list[Row]:
    """Every labelled session the fit may learn from (module doc)."""
    rows: list[Row] = []
    for name in TRAIN_SETS:
        items = json.loads((SCENARIOS / name).read_text(encoding="utf-8"))["items"]
        for item in items:
            if item.get("split", "train") != "train":
                continue
            rows.append(Row(tuple(item["lines"]), learned.LABELS.index(item["expect"])))
    for label, group in meaning.FEELINGS.items():
        rows += [Row((text,), learned.LABELS.index(label)) for text in group]
    return rows


def softmax_fit(x: np.ndarray, y: np.ndarray, l2: float) -> tuple[np.ndarray, np.ndarray]:
    """Weights and biases of a softmax regression with an L2 penalty (not on the biases)."""
    n, dims = x.shape
    classes = len(learned.LABELS)
    weights, bias = np.zeros((classes, dims)), np.zeros(classes)
    onehot = np.eye(classes)[y]
    for _ in range(STEPS):
        z = x @ weights.T + bias
        p = np.exp(z - z.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        grad = (p - onehot) / n
        weights -= RATE * (grad.T @ x + l2 * weights)
        bias -= RATE * grad.sum(axis=0)
    return weights, bias


def design(
    vectors: np.ndarray,
    owns: Sequence[learned.Own],
    gain: float,
    mean: np.ndarray,
    scale: np.ndarray,
) -> np.ndarray:
    """``vectors`` holds each row's session vector and tail vector side by side."""
    half = vectors.shape[1] // 2
    return np.stack(
        [
            learned.features(v[:half], v[half:], o, mean, scale, gain)
            for v, o in zip(vectors, owns, strict=True)
        ]
    )


def standardiser(vectors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    half = vectors.shape[1] // 2
    units = np.hstack(
        [
            part / np.linalg.norm(part, axis=1, keepdims=True)
            for part in (vectors[:, :half], vectors[:, half:])
        ]
    )
    return units.mean(axis=0), units.std(axis=0) + 1e-6


def fit(
    vectors: np.ndarray, owns: Sequence[learned.Own], y: np.ndarray, l2: float, gain: float
) -> learned.Model:
    mean, scale = standardiser(vectors)
    weights, bias = softmax_fit(design(vectors, owns, gain, mean, scale), y, l2)
    return learned.Model(mean, scale, gain, weights, bias)


def cross_validated(
    vectors: np.ndarray, owns: Sequence[learned.Own], y: np.ndarray, l2: float, gain: float
) -> float:
    """Mean held-fold accuracy of the label the model ranks first."""
    order = np.random.default_rng(SEED).permutation(len(y))
    hits = 0
    for fold in range(FOLDS):
        test = order[fold::FOLDS]
        train = np.setdiff1d(order, test)
        model = fit(vectors[train], [owns[i] for i in train], y[train], l2, gain)
        half = vectors.shape[1] // 2
        for i in test:
            p = model.probabilities(vectors[i, :half], vectors[i, half:], owns[i])
            hits += learned.LABELS.index(max(p, key=lambda k: p[k])) == y[i]
    return hits / len(y)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m perf.eval.feelings_fit")
    parser.add_argument("--out", type=Path, default=learned.MODEL_PATH)
    args = parser.parse_args(argv)
    from xaid.embed.use import UseEmbedder

    rows = training_rows()
    embedder = UseEmbedder()
    wholes = embedder.embed([meaning.session_text(r.lines) for r in rows])
    tails = embedder.embed([learned.tail(r.lines) for r in rows])
    vectors = np.hstack([np.asarray(wholes), np.asarray(tails)]).astype(np.float64)
    owns = [learned.own_reading(r.lines) for r in rows]
    y = np.array([r.label for r in rows])
    scores = {
        (l2, gain): cross_validated(vectors, owns, y, l2, gain) for l2 in L2 for gain in GAINS
    }
    for (l2, gain), score in sorted(scores.items()):
        print(f"l2 {l2:<6} gain {gain:<5} cross-validated accuracy {score:.3f}")
    l2, gain = max(scores, key=lambda k: (scores[k], -k[0]))
    model = fit(vectors, owns, y, l2, gain)
    model.save(
        args.out,
        f"{len(rows)} rows (train half of feelings_dev3.json, feelings_dev.json, feelings_dev2.json, "
        f"meaning.FEELINGS), USE-multilingual-v3 vectors; l2 {l2}, rule gain {gain}, "
        f"cross-validated accuracy {scores[(l2, gain)]:.3f}",
    )
    print(f"chose l2 {l2}, gain {gain}; wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
