"""The softmax regression the learned readers are fitted with (perf/eval/feelings_fit.py,
perf/eval/checkin_fit.py): plain gradient descent in numpy, so a fit needs nothing the daemon does not
already ship, and the weights it writes are read by xaid/mood/learned.py and xaid/scheduler/matter.py."""

from __future__ import annotations

import numpy as np


def fit(
    x: np.ndarray,
    y: np.ndarray,
    l2: float,
    classes: int,
    steps: int,
    rate: float = 0.1,
    dtype: type[np.floating] = np.float32,
) -> tuple[np.ndarray, np.ndarray]:
    """Weights and biases of a softmax regression with an L2 penalty (not on the biases). float32 by
    default: float64 made a fit ten times slower on a shared 2-core machine."""
    x = x.astype(dtype)
    n, dims = x.shape
    weights = np.zeros((classes, dims), dtype=dtype)
    bias = np.zeros(classes, dtype=dtype)
    onehot = np.eye(classes, dtype=dtype)[y]
    for _ in range(steps):
        z = x @ weights.T + bias
        p = np.exp(z - z.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        grad = (p - onehot) / n
        weights -= rate * (grad.T @ x + l2 * weights)
        bias -= rate * grad.sum(axis=0)
    return weights, bias
