"""The lesson's ex2 question, answered from what the student's code did (shown, never scored).

Which of 32 MNIST images has the largest per-example gradient, and why? The
child ran the student's functions on those images at the lesson's initial
params (``mnist/norms``) and the harness's own forward pass on them
(``mnist/logits``); here the parent adds the image's label, the model's
prediction and its loss.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from grader.exercises.ex2.shared import LESSON_IMAGES


def lesson_batch() -> tuple[np.ndarray, np.ndarray]:
    """The 32 images (float32, (32, 784)) and labels the ex2 child used."""
    from grader.data import embedded_split

    split = embedded_split()
    return np.asarray(split.x_train[:LESSON_IMAGES]), np.asarray(split.y_train[:LESSON_IMAGES])


def question(observations: Any) -> dict[str, Any] | None:
    """The largest-gradient example among the 32 images, with its label, prediction, loss and norm."""
    if observations is None or not observations.has("mnist/norms"):
        return None
    try:
        norms = np.asarray(observations["mnist/norms"], np.float64).reshape(-1)
    except (TypeError, ValueError):
        return None
    if norms.shape != (LESSON_IMAGES,) or not np.all(np.isfinite(norms)):
        return None
    try:
        logits = np.asarray(observations["mnist/logits"], np.float64)  # the harness's forward pass, in the child
    except KeyError:
        return None
    _, y = lesson_batch()
    if logits.shape != (LESSON_IMAGES, 10):
        return None
    shifted = logits - logits.max(axis=1, keepdims=True)
    logp = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    losses = -logp[np.arange(len(y)), y]
    index = int(np.argmax(norms))
    return {
        "images": LESSON_IMAGES, "norms": [round(float(n), 6) for n in norms], "index": index,
        "label": int(y[index]), "prediction": int(np.argmax(logits[index])),
        "loss": round(float(losses[index]), 4), "norm": round(float(norms[index]), 4),
        "median_norm": round(float(np.median(norms)), 4), "mean_loss": round(float(losses.mean()), 4),
    }


def describe(answer: dict[str, Any]) -> str:
    """The answer in one sentence, for the terminal and the notebook."""
    ratio = answer["norm"] / answer["median_norm"] if answer["median_norm"] else float("inf")
    return (f"ex2 on {answer['images']} MNIST images at the initial params: example {answer['index']} has the "
            f"largest gradient norm ({answer['norm']:.3g}, {ratio:.1f}x the median); its label is {answer['label']}, "
            f"the model predicts {answer['prediction']}, its loss is {answer['loss']:.3g} "
            f"(mean loss {answer['mean_loss']:.3g}).")
