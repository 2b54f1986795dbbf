"""Fit the check-in reader (xaid/scheduler/matter.py) and write xaid/scheduler/checkin_model.npz.

``python -m perf.eval.checkin_fit``. What it learns from: the ``train`` half of
perf/scenarios/checkin_dev.json, one row per user line (the line that holds the session's matter is
``matter`` in an ``ask`` session and ``loss`` in a ``gentle`` one; every other line is ``none``),
perf/scenarios/losses_dev.json (deaths and break-ups against ordinary lines with the same
words) and the lines of the sessions labelled ``good`` in the train half of feelings_dev3.json (good
news told after the fact, "Aced the stats final. 94!": ``none``, nothing left open). Never the
test half (what ``python -m perf checkin_dev`` reports on), never a held-out set.

The reader is a softmax regression over the line's USE-multilingual-v3 vector (the daemon's
default), standardised by the training rows, and ``matter.cues`` times a gain. The L2 strength and
the gain are chosen by five-fold cross-validation on the training rows alone (log-likelihood of the
true label), then the model is fitted on all of them. The threshold for arming is chosen on the
out-of-fold readings: the lowest ``matter`` probability above every line of a ``none`` or ``gentle``
session that the rules leave to the reader (not a "don't bring it up" session, not an errand of the
rules' list), so the train half arms nothing intrusive; never below 0.5. The loss floor: half the lowest out-of-fold
``loss`` probability of a true loss.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass

import numpy as np

from xaid.scheduler import arm, matter

from .. import kit
from . import softmax
from .checkin_dev import START_MS

L2 = (0.01, 0.03, 0.1, 0.3)
GAINS = (1.0, 3.0, 6.0, 10.0, 15.0)
FOLDS = 5
STEPS = 600
RATE = 0.1
SEED = 25
MARGIN = 0.02  # the threshold sits this far above the highest intrusive out-of-fold reading


@dataclass(frozen=True, slots=True)
class Row:
    text: str
    label: int  # index in matter.LABELS
    session: str  # the case id ("" for losses_dev lines)
    judged: bool  # a line the threshold must keep quiet (none / gentle sessions the rules leave)


def _ruled_out(lines: list[str]) -> bool:
    """The rules already keep the session quiet: "don't bring it up", or an errand of their list."""
    return any(arm.do_not_ask(t) or arm._has(t, arm.TRIVIAL) for t in lines)


def training_rows() -> list[Row]:
    rows: list[Row] = []
    items = json.loads((kit.SCENARIOS / "checkin_dev.json").read_text(encoding="utf-8"))["items"]
    for item in items:
        if item["split"] != "train":
            continue
        user = [text for role, text in item["lines"] if role == "user"]
        quiet = item["expect"] != "ask" and not _ruled_out(user)
        for n, text in enumerate(user):
            label = "none"
            if n == item["at"]:
                label = "matter" if item["expect"] == "ask" else "loss"
            judged = quiet and label != "loss"
            rows.append(Row(text, matter.LABELS.index(label), item["id"], judged))
    losses = json.loads((kit.SCENARIOS / "losses_dev.json").read_text(encoding="utf-8"))["items"]
    for item in losses:
        label = "loss" if item["loss"] else "none"
        rows.append(Row(item["text"], matter.LABELS.index(label), "", False))
    feelings = json.loads((kit.SCENARIOS / "feelings_dev3.json").read_text(encoding="utf-8"))
    for item in feelings["items"]:  # good news told after the fact: nothing left to follow up
        if item["split"] == "train" and item["expect"] == "good":
            rows += [Row(text, matter.LABELS.index("none"), "", False) for text in item["lines"]]
    return rows


def softmax_fit(x: np.ndarray, y: np.ndarray, l2: float) -> tuple[np.ndarray, np.ndarray]:
    """The reader's softmax regression (perf/eval/softmax.py), in float64 as it was fitted."""
    return softmax.fit(x, y, l2, len(matter.LABELS), STEPS, RATE, np.float64)


def fit(
    vectors: np.ndarray, shapes: np.ndarray, y: np.ndarray, l2: float, gain: float
) -> matter.Reader:
    units = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    mean, scale = units.mean(axis=0), units.std(axis=0) + 1e-6
    reader = matter.Reader("use", mean, scale, gain, np.zeros((0,)), np.zeros((0,)), 1.0, 0.0)
    x = np.stack([matter.features(v, s, reader) for v, s in zip(vectors, shapes, strict=True)])
    weights, bias = softmax_fit(x, y, l2)
    return matter.Reader("use", mean, scale, gain, weights, bias, 1.0, 0.0)


def out_of_fold(
    vectors: np.ndarray, shapes: np.ndarray, y: np.ndarray, l2: float, gain: float
) -> np.ndarray:
    """Each row's probabilities from a model fitted without its fold."""
    order = np.random.default_rng(SEED).permutation(len(y))
    probs = np.zeros((len(y), len(matter.LABELS)))
    for fold in range(FOLDS):
        test = order[fold::FOLDS]
        train = np.setdiff1d(order, test)
        reader = fit(vectors[train], shapes[train], y[train], l2, gain)
        for i in test:
            r = reader.read_features(matter.features(vectors[i], shapes[i], reader))
            probs[i] = (r.matter, r.loss, r.none)
    return probs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m perf.eval.checkin_fit")
    parser.add_argument("--out", default=str(matter.MODEL_PATH))
    args = parser.parse_args(argv)
    from xaid.embed.use import UseEmbedder

    rows = training_rows()
    vectors = np.asarray(UseEmbedder().embed([r.text for r in rows]), dtype=np.float64)
    shapes = np.stack([matter.cues(r.text, START_MS) for r in rows])
    y = np.array([r.label for r in rows])
    scores: dict[tuple[float, float], float] = {}
    for l2 in L2:
        for gain in GAINS:
            p = out_of_fold(vectors, shapes, y, l2, gain)
            scores[(l2, gain)] = float(np.mean(np.log(p[np.arange(len(y)), y] + 1e-9)))
            print(f"l2 {l2:<5} gain {gain:<4} out-of-fold log-likelihood {scores[(l2, gain)]:.3f}")
    l2, gain = max(scores, key=lambda k: (scores[k], k[0]))
    oof = out_of_fold(vectors, shapes, y, l2, gain)
    quiet = [i for i, r in enumerate(rows) if r.judged]
    threshold = min(0.95, max(float(oof[quiet, 0].max()) + MARGIN, 0.5))
    losses = [i for i, r in enumerate(rows) if r.label == matter.LABELS.index("loss")]
    loss_floor = 0.5 * float(oof[losses, 1].min())
    asks = [i for i, r in enumerate(rows) if r.label == 0]
    print(
        f"chose l2 {l2}, gain {gain}; threshold {threshold:.3f} "
        f"(out-of-fold: {int((oof[asks, 0] >= threshold).sum())}/{len(asks)} matter lines over it, "
        f"0/{len(quiet)} quiet lines); loss floor {loss_floor:.3f}"
    )
    reader = fit(vectors, shapes, y, l2, gain)
    reader = matter.Reader(
        "use", reader.mean, reader.scale, gain, reader.weights, reader.bias, threshold, loss_floor
    )
    reader.save(
        args.out,
        f"{len(rows)} lines (train half of checkin_dev.json, losses_dev.json, good sessions of the train "
        f"half of feelings_dev3.json), USE-multilingual-v3; "
        f"l2 {l2}, cue gain {gain}, threshold {threshold:.3f}, loss floor {loss_floor:.3f}",
    )
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
