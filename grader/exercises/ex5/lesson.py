"""The lesson's ex5 question, answered from what the student's code did (shown, never scored).

What did clipping change? With ``--plots`` (or in a notebook) the accuracy run
also trains with plain Adam and records the gradient norm of every step.
"""

from __future__ import annotations

from typing import Any

import numpy as np

MAX_NORM = 1.0
"""``make_optimizer()``'s default clipping threshold: a step clips when its gradient norm is above it."""


def question(observations: Any) -> dict[str, Any] | None:
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


def describe(answer: dict[str, Any]) -> str:
    """The answer in one sentence, for the terminal and the notebook."""
    return (f"ex5 training: clipping (norm > {answer['max_norm']:g}) was active on {answer['clipped_steps']} of "
            f"{answer['steps']} steps (largest gradient norm {answer['max_grad_norm']:.3g}); final loss "
            f"{answer['final_loss_clipped']:.3g} with clipping, {answer['final_loss_plain']:.3g} with plain Adam.")
