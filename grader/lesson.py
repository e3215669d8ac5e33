"""The lesson's own questions, answered from what the student's code did (shown, never scored).

ex2 asks which of 32 MNIST images has the largest per-example gradient, and
why: the child ran the student's functions on those images at the lesson's
initial params (``mnist/norms``) and the harness's own
forward pass on them (``mnist/logits``); here the parent adds the image's
label, the model's prediction and its loss. ex5
asks what clipping changed: with ``--plots`` (or in a notebook) the accuracy
run also trains with plain Adam and records the gradient norm of every step.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from grader.protocol import EX2_LESSON_IMAGES

MAX_NORM = 1.0
"""``make_optimizer()``'s default clipping threshold: a step clips when its gradient norm is above it."""


def lesson_batch() -> tuple[np.ndarray, np.ndarray]:
    """The 32 images (float32, (32, 784)) and labels the ex2 child used."""
    from grader.data import embedded_split

    split = embedded_split()
    return np.asarray(split.x_train[:EX2_LESSON_IMAGES]), np.asarray(split.y_train[:EX2_LESSON_IMAGES])


def ex2_question(observations: Any) -> dict[str, Any] | None:
    """The largest-gradient example among the 32 images, with its label, prediction, loss and norm."""
    if observations is None or not observations.has("mnist/norms"):
        return None
    try:
        norms = np.asarray(observations["mnist/norms"], np.float64).reshape(-1)
    except (TypeError, ValueError):
        return None
    if norms.shape != (EX2_LESSON_IMAGES,) or not np.all(np.isfinite(norms)):
        return None
    try:
        logits = np.asarray(observations["mnist/logits"], np.float64)  # the harness's forward pass, in the child
    except KeyError:
        return None
    _, y = lesson_batch()
    if logits.shape != (EX2_LESSON_IMAGES, 10):
        return None
    shifted = logits - logits.max(axis=1, keepdims=True)
    logp = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    losses = -logp[np.arange(len(y)), y]
    index = int(np.argmax(norms))
    return {
        "images": EX2_LESSON_IMAGES, "norms": [round(float(n), 6) for n in norms], "index": index,
        "label": int(y[index]), "prediction": int(np.argmax(logits[index])),
        "loss": round(float(losses[index]), 4), "norm": round(float(norms[index]), 4),
        "median_norm": round(float(np.median(norms)), 4), "mean_loss": round(float(losses.mean()), 4),
    }


def ex5_question(observations: Any) -> dict[str, Any] | None:
    """Loss curves with and without clipping, and the steps where clipping was active."""
    if observations is None:
        return None
    train = observations.values.get("train")
    clipped = np.asarray(train.get("1"), np.float64).reshape(-1) if isinstance(train, dict) and "1" in train else None
    plain = observations.values.get("baseline_losses")
    norms = observations.values.get("clipped_grad_norms")
    if clipped is None or plain is None or norms is None:
        return None
    plain, norms = np.asarray(plain, np.float64).reshape(-1), np.asarray(norms, np.float64).reshape(-1)
    active = np.flatnonzero(norms > MAX_NORM)
    return {
        "steps": int(clipped.size), "final_loss_clipped": round(float(clipped[-1]), 4),
        "final_loss_plain": round(float(plain[-1]), 4), "clipped_steps": int(active.size),
        "first_clipped_steps": [int(i) for i in active[:10]], "max_grad_norm": round(float(norms.max()), 4),
        "max_norm": MAX_NORM,
    }


def describe(lesson: dict[str, Any]) -> list[str]:
    """One sentence per question answered, for the terminal and the notebook."""
    lines = []
    ex2 = lesson.get("ex2")
    if ex2:
        ratio = ex2["norm"] / ex2["median_norm"] if ex2["median_norm"] else float("inf")
        lines.append(
            f"ex2 on {ex2['images']} MNIST images at the initial params: example {ex2['index']} has the largest "
            f"gradient norm ({ex2['norm']:.3g}, {ratio:.1f}x the median); its label is {ex2['label']}, the model "
            f"predicts {ex2['prediction']}, its loss is {ex2['loss']:.3g} (mean loss {ex2['mean_loss']:.3g}).")
    ex5 = lesson.get("ex5")
    if ex5:
        lines.append(
            f"ex5 training: clipping (norm > {ex5['max_norm']:g}) was active on {ex5['clipped_steps']} of "
            f"{ex5['steps']} steps (largest gradient norm {ex5['max_grad_norm']:.3g}); final loss "
            f"{ex5['final_loss_clipped']:.3g} with clipping, {ex5['final_loss_plain']:.3g} with plain Adam.")
    return lines
