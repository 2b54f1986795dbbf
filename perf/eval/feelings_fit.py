"""Fit the learned feelings model (xaid/mood/learned.py) and write xaid/mood/feelings_model.npz.

``python -m perf.eval.feelings_fit``. What it learns from: the train halves of
perf/scenarios/feelings_dev4.json (split by author-style) and feelings_dev3.json, all of
feelings_dev.json and feelings_dev2.json (the earlier dev sets), and the feeling prototypes of
xaid/mood/meaning.py as one-line sessions; never a test half (what ``python -m perf feelings``
reports on) and never a held-out set.

The model is a softmax regression over the session's vector and its tail's (``learned.tail``: what
follows the last "but"/但是, else the last sentence), USE-multilingual-v3 (the daemon's default),
standardised by the training set, plus the rules' own reading of the session (valence, confidence)
times a gain; beside it a tiredness head (still tired the next morning, yes or no) over the same
vectors and the rules' fatigue, fitted on the rows labelled for fatigue (dev3, dev4). The L2
strength and the gain are chosen by cross-validation on the training rows alone, one fold per
dev4 author-style (each joined by a sixth of the other rows), so a fold's voice is never in its
training part, as the test half's voices are not; then each head is fitted on all rows. Plain
gradient descent in numpy (float32: ~500 rows of 1,026 features fit in a second or two), and the
daemon needs numpy only to read the weights.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from xaid.mood import learned, meaning

from . import softmax

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
TRAIN_SETS = ("feelings_dev4.json", "feelings_dev3.json", "feelings_dev.json", "feelings_dev2.json")
L2 = (0.03, 0.1, 0.3)
GAINS = (3.0, 10.0)
# feel11, measured and not kept (docs/mood.md): the valence head refitted with the later dev sets'
# train halves and the training corpus written for the fit (``--corpus``), at the packaged head's
# L2 and gain, with the packaged standardiser and tiredness head (a tiredness head refitted on the
# corpus lost three tests of tiredness said without a tired word).
CORPUS_SETS = (
    "feelings_dev5.json",
    "feelings_dev6.json",
    "feelings_dev7.json",
    "feelings_dev9.json",
    "feelings_dev10.json",
    "feelings_dev11.json",
    "feelings_corpus11.json",
)
CORPUS_L2 = 0.1
# feel12, kept (``--blend``): a head fitted on every train half, dev12's too, and the corpus, with each
# session's tail (what follows its last turn, else its last sentence) also a row of its own under the
# session's label: how they left is what carries. Its logits are averaged with the base head's
# (feel3's), so what that head was sure of (a layoff said as 被优化了, a diagnosis in three words,
# sarcasm that opens with "Great news") it still is, where the corpus head alone lost them (feel11).
BLEND_SETS = (*CORPUS_SETS, "feelings_dev12.json")
# feel13, measured and not kept (docs/mood.md): the same blend with these added, over texts whose faces
# are written as words (learned.whole, faces.gloss); the English test halves fell.
FEEL13_SETS = ("feelings_dev13.json", "feelings_corpus13.json")
BLEND = 0.5  # the base head's share of the logits; the new head has the rest
FOLDS = 6
STEPS = 800
RATE = 0.1


@dataclass(frozen=True, slots=True)
class Row:
    lines: tuple[str, ...]
    label: int | None  # index in learned.LABELS; None: the valence is not judged ("any")
    tired: bool | None  # still tired the next morning; None: not labelled
    fold: int


def training_rows(sets: Sequence[str] = TRAIN_SETS) -> list[Row]:
    """Every labelled session the fit may learn from (module doc), each with its fold: a dev4
    author-style's rows share one, the others are dealt round the folds."""
    rows: list[Row] = []
    authors: dict[str, int] = {}
    dealt = 0
    for name in sets:
        items = json.loads((SCENARIOS / name).read_text(encoding="utf-8"))["items"]
        for item in items:
            if item.get("split", "train") != "train":
                continue
            if "author" in item:
                fold = authors.setdefault(item["author"], len(authors) % FOLDS)
            else:
                fold, dealt = dealt % FOLDS, dealt + 1
            label = None if item["expect"] == "any" else learned.LABELS.index(item["expect"])
            rows.append(Row(tuple(item["lines"]), label, item.get("fatigue"), fold))
    for label_name, group in meaning.FEELINGS.items():
        for text in group:
            rows.append(Row((text,), learned.LABELS.index(label_name), None, dealt % FOLDS))
            dealt += 1
    return rows


def softmax_fit(
    x: np.ndarray, y: np.ndarray, l2: float, classes: int = len(learned.LABELS)
) -> tuple[np.ndarray, np.ndarray]:
    """The readers' softmax regression (perf/eval/softmax.py)."""
    return softmax.fit(x, y, l2, classes, STEPS, RATE)


Features = Callable[
    [np.ndarray, np.ndarray, learned.Own, np.ndarray, np.ndarray, float], np.ndarray
]


def design(
    vectors: np.ndarray,
    owns: Sequence[learned.Own],
    gain: float,
    mean: np.ndarray,
    scale: np.ndarray,
    features: Features = learned.features,
) -> np.ndarray:
    """``vectors`` holds each row's session vector and tail vector side by side."""
    half = vectors.shape[1] // 2
    return np.stack(
        [
            features(v[:half], v[half:], o, mean, scale, gain)
            for v, o in zip(vectors, owns, strict=True)
        ]
    )


def standardiser(vectors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The unit vectors' mean and spread over every training row (no label is read), shared by
    both heads."""
    half = vectors.shape[1] // 2
    units = np.hstack(
        [
            part / np.linalg.norm(part, axis=1, keepdims=True)
            for part in (vectors[:, :half], vectors[:, half:])
        ]
    )
    return units.mean(axis=0), units.std(axis=0) + 1e-6


@dataclass(frozen=True, slots=True)
class Head:
    """One head's rows: the vectors, the rules' readings, the labels and the folds."""

    vectors: np.ndarray
    owns: list[learned.Own]
    y: np.ndarray
    folds: np.ndarray
    features: Features
    classes: int

    def fit(
        self, l2: float, gain: float, mean: np.ndarray, scale: np.ndarray, rows: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        x = design(
            self.vectors[rows], [self.owns[i] for i in rows], gain, mean, scale, self.features
        )
        return softmax_fit(x, self.y[rows], l2, self.classes)

    def cross_validated(self, l2: float, gain: float, mean: np.ndarray, scale: np.ndarray) -> float:
        """Held-fold accuracy of the label the head ranks first, one fold at a time."""
        hits = 0
        for fold in range(FOLDS):
            test = np.flatnonzero(self.folds == fold)
            weights, bias = self.fit(l2, gain, mean, scale, np.flatnonzero(self.folds != fold))
            x = design(
                self.vectors[test], [self.owns[i] for i in test], gain, mean, scale, self.features
            )
            hits += int(((x @ weights.T + bias).argmax(axis=1) == self.y[test]).sum())
        return hits / len(self.y)


def chosen(
    head: Head, name: str, mean: np.ndarray, scale: np.ndarray
) -> tuple[float, float, float]:
    """The L2 strength and gain of the best held-fold accuracy (the stronger L2 on a tie)."""
    scores = {
        (l2, gain): head.cross_validated(l2, gain, mean, scale) for l2 in L2 for gain in GAINS
    }
    for (l2, gain), score in sorted(scores.items()):
        print(f"{name}: l2 {l2:<6} gain {gain:<5} cross-validated accuracy {score:.3f}")
    l2, gain = max(scores, key=lambda k: (scores[k], k[0]))
    return l2, gain, scores[(l2, gain)]


def corpus_refit(
    kept: learned.Model,
    rows: list[Row],
    vectors: np.ndarray,
    owns: list[learned.Own],
    folds: np.ndarray,
    out: Path,
) -> int:
    """``--corpus``: the valence head refitted on ``rows``, everything else of ``kept`` as it is."""
    felt = [i for i, r in enumerate(rows) if r.label is not None]
    valence = Head(
        vectors[felt],
        [owns[i] for i in felt],
        np.array([rows[i].label or 0 for i in felt]),
        folds[felt],
        learned.features,
        len(learned.LABELS),
    )
    everything = np.arange(len(felt))
    weights, bias = valence.fit(CORPUS_L2, kept.rule_gain, kept.mean, kept.scale, everything)
    model = dataclasses.replace(
        kept, weights=weights.astype(np.float64), bias=bias.astype(np.float64)
    )
    about = (
        f"valence: {len(felt)} rows of {', '.join(TRAIN_SETS + CORPUS_SETS)} (train halves) and "
        f"meaning.FEELINGS, l2 {CORPUS_L2}, rule gain {kept.rule_gain}; standardiser and "
        "tiredness head kept from the packaged model"
    )
    model.save(out, about)
    print(about)
    print(f"wrote {out}")
    return 0


def with_tails(rows: list[Row]) -> list[Row]:
    """``rows`` and, for each labelled session whose tail is not the whole of it, the tail alone
    as a one-line row with the session's label and fold: the fit then learns the feeling a session
    ends on from its last word as well as from the whole ("rough start … but Jess surprised me with
    dinner" is good; "lovely lunch … came home to a break-in" is low)."""
    tails = [
        Row((tail,), r.label, None, r.fold)
        for r in rows
        if r.label is not None and (tail := learned.tail(r.lines)) != learned.whole(r.lines)
    ]
    return rows + tails


def blend_refit(
    base: learned.Model,
    base_path: Path,
    rows: list[Row],
    vectors: np.ndarray,
    owns: list[learned.Own],
    out: Path,
) -> int:
    """``--blend``: a valence head fitted on ``rows`` (``with_tails``) at CORPUS_L2 with the base
    model's standardiser and gain, its logits averaged with the base head's (weights and biases
    mixed by BLEND: one linear head again); the tiredness head kept."""
    felt = [i for i, r in enumerate(rows) if r.label is not None]
    x = design(vectors[felt], [owns[i] for i in felt], base.rule_gain, base.mean, base.scale)
    weights, bias = softmax_fit(x, np.array([rows[i].label or 0 for i in felt]), CORPUS_L2)
    model = dataclasses.replace(
        base,
        weights=BLEND * base.weights + (1 - BLEND) * weights.astype(np.float64),
        bias=BLEND * base.bias + (1 - BLEND) * bias.astype(np.float64),
    )
    with np.load(base_path) as data:
        tiredness = str(data["about"]).split("valence: ", 1)[0]  # the kept head's own account
    about = tiredness + (
        f"valence: logits {BLEND} x the base head ({valence_about(base_path)}) + "
        f"{1 - BLEND} x a head fitted on {len(felt)} rows (train halves of "
        f"{', '.join(TRAIN_SETS + BLEND_SETS)}, meaning.FEELINGS, each session's tail as a row of "
        f"its own), l2 {CORPUS_L2}, rule gain {base.rule_gain}; standardiser and tiredness head kept"
    )
    model.save(out, about)
    print(about)
    print(f"wrote {out}")
    return 0


def valence_about(path: Path) -> str:
    """What the packaged valence head was fitted on (a model before the tiredness head says only
    that; a later one after "valence: ")."""
    with np.load(path) as data:
        text = str(data["about"])
    return text.split("valence: ", 1)[-1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m perf.eval.feelings_fit")
    parser.add_argument("--out", type=Path, default=learned.MODEL_PATH)
    parser.add_argument(
        "--refit-valence",
        action="store_true",
        help="refit the valence head too (default: keep the packaged one, fit only tiredness)",
    )
    parser.add_argument(
        "--corpus",
        action="store_true",
        help="refit only the valence head, on CORPUS_SETS too (feel11: measured, not kept)",
    )
    parser.add_argument(
        "--blend",
        action="store_true",
        help="refit the valence head as feel12 keeps it: on BLEND_SETS too, with each session's tail "
        "as a row, averaged with the --base head",
    )
    parser.add_argument(
        "--base",
        type=Path,
        default=learned.MODEL_PATH,
        help="the model whose head --blend averages with (feel12: feel3's head, the "
        "feelings_model.npz of main before feel12)",
    )
    args = parser.parse_args(argv)
    from xaid.embed.use import UseEmbedder

    sets = TRAIN_SETS + (CORPUS_SETS if args.corpus else BLEND_SETS if args.blend else ())
    rows = training_rows(sets)
    if args.blend:
        rows = with_tails(rows)
    embedder = UseEmbedder()
    wholes = embedder.embed([learned.whole(r.lines) for r in rows])
    tails = embedder.embed([learned.tail(r.lines) for r in rows])
    vectors = np.hstack([np.asarray(wholes), np.asarray(tails)]).astype(np.float64)
    owns = [learned.own_reading(r.lines) for r in rows]
    folds = np.array([r.fold for r in rows])
    kept = None if args.refit_valence else learned.Model.load(args.base)
    mean, scale = standardiser(vectors) if kept is None else (kept.mean, kept.scale)
    if args.corpus and kept is not None:
        return corpus_refit(kept, rows, vectors, owns, folds, args.out)
    if args.blend and kept is not None:
        return blend_refit(kept, args.base, rows, vectors, owns, args.out)

    def head(keep: list[int], y: list[int], features: Features, classes: int) -> Head:
        return Head(
            vectors[keep], [owns[i] for i in keep], np.array(y), folds[keep], features, classes
        )

    felt = [i for i, r in enumerate(rows) if r.label is not None]
    valence = head(felt, [rows[i].label or 0 for i in felt], learned.features, len(learned.LABELS))
    said = [i for i, r in enumerate(rows) if r.tired is not None]
    tired = head(said, [int(bool(rows[i].tired)) for i in said], learned.tired_features, 2)
    t_l2, t_gain, t_score = chosen(tired, "tired", mean, scale)
    t_weights, t_bias = tired.fit(t_l2, t_gain, mean, scale, np.arange(len(tired.y)))
    about = (
        f"tiredness: {len(said)} rows of feelings_dev4.json and feelings_dev3.json's train halves "
        f"({sum(bool(rows[i].tired) for i in said)} tired), l2 {t_l2}, gain {t_gain}, "
        f"cross-validated accuracy {t_score:.3f}; USE-multilingual-v3 vectors; valence: "
    )
    if kept is None:
        l2, gain, score = chosen(valence, "valence", mean, scale)
        weights, bias = valence.fit(l2, gain, mean, scale, np.arange(len(valence.y)))
        about += (
            f"{len(felt)} rows (train halves of feelings_dev4.json and feelings_dev3.json, "
            f"feelings_dev.json, feelings_dev2.json, meaning.FEELINGS), l2 {l2}, rule gain {gain}, "
            f"cross-validated accuracy {score:.3f}"
        )
    else:
        gain, weights, bias = kept.rule_gain, kept.weights, kept.bias
        about += "kept from the packaged model: " + valence_about(learned.MODEL_PATH)
    model = learned.Model(
        mean,
        scale,
        gain,
        weights.astype(np.float64),
        bias.astype(np.float64),
        (t_weights[1] - t_weights[0]).astype(np.float64),  # two-way softmax as one logistic row
        float(t_bias[1] - t_bias[0]),
        t_gain,
    )
    model.save(args.out, about)
    print(about)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
