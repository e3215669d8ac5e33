"""``--plots DIR``: the training loss with and without clipping, and per-example gradient norms."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from grader.checks import npref
from grader.sandbox import Observations


def _losses(observed) -> np.ndarray | None:
    if isinstance(observed, dict):  # the "train" observation: (params, losses) stored as a tree
        observed = observed.get("1")
    if observed is None:
        return None
    values = np.asarray(observed, dtype=np.float64).reshape(-1)
    return values if values.size else None


def save_plots(dest: Path, accuracy: Observations | None, ex2: Observations | None) -> list[Path]:
    """Write whichever plots the observations allow; return the files written."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    dest = Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    written = []
    if accuracy is not None:
        clipped = _losses(accuracy.values.get("train"))
        plain = _losses(accuracy.values.get("baseline_losses"))
        if clipped is not None:
            fig, ax = plt.subplots(figsize=(7, 4))
            ax.plot(clipped, label="your make_optimizer() (clip, then Adam)", lw=1)
            if plain is not None:
                ax.plot(plain, label="plain optax.adam(1e-3)", lw=1, alpha=0.8)
            ax.set(xlabel="step", ylabel="training loss", yscale="log", title="Training loss with and without clipping")
            ax.legend()
            fig.tight_layout()
            path = dest / "training_loss.png"
            fig.savefig(path, dpi=120)
            plt.close(fig)
            written.append(path)
    if ex2 is not None:
        grads = ex2.values.get("grads/lesson")
        if isinstance(grads, dict) and grads:
            try:
                norms = npref.per_example_norms(grads)
            except (ValueError, TypeError):
                norms = None
            if norms is not None:
                fig, ax = plt.subplots(figsize=(6, 3.5))
                ax.bar(np.arange(len(norms)), norms, color=["C3" if i == int(np.argmax(norms)) else "C0" for i in range(len(norms))])
                ax.set(xlabel="example", ylabel="gradient L2 norm", title="Per-example gradient norms (your per_example_grads)")
                fig.tight_layout()
                path = dest / "grad_norms.png"
                fig.savefig(path, dpi=120)
                plt.close(fig)
                written.append(path)
    return written
