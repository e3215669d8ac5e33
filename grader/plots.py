"""The lesson's pictures: training loss with and without clipping, per-example gradient norms.

Written as PNG by ``--plots DIR`` and shown inline by ``grader.check`` in a notebook.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from grader.checks import npref
from grader.observations import Observations

#: The pictures of the lesson's own questions (ex2 on 32 MNIST images, ex5's loss curves), shown in a notebook.
LESSON_PICTURES = ("mnist_grad_norms.png", "training_loss.png")


def _losses(observed) -> np.ndarray | None:
    if isinstance(observed, dict):  # the "train" observation: (params, losses) stored as a tree
        observed = observed.get("1")
    if observed is None:
        return None
    values = np.asarray(observed, dtype=np.float64).reshape(-1)
    return values if values.size else None


def _save(fig, path: Path, plt) -> Path:
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def save_plots(dest: Path, accuracy: Observations | None, ex2: Observations | None,
               lesson: dict[str, Any] | None = None) -> list[Path]:
    """Write whichever plots the observations allow; return the files written."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    dest = Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    lesson = lesson or {}
    written = []
    if accuracy is not None:
        clipped = _losses(accuracy.values.get("train"))
        plain = _losses(accuracy.values.get("baseline_losses"))
        norms = accuracy.values.get("clipped_grad_norms")
        if clipped is not None:
            fig, ax = plt.subplots(figsize=(7, 4))
            ax.plot(clipped, label="your make_optimizer() (clip, then Adam)", lw=1)
            if plain is not None:
                ax.plot(plain, label="plain optax.adam(1e-3)", lw=1, alpha=0.8)
            if norms is not None and "ex5" in lesson:
                active = np.asarray(norms, np.float64).reshape(-1) > lesson["ex5"]["max_norm"]
                for step in np.flatnonzero(active):
                    ax.axvspan(step - 0.5, step + 0.5, color="C3", alpha=0.15, lw=0)
                ax.plot([], [], color="C3", alpha=0.3, lw=6,
                        label=f"clipping active ({int(active.sum())} of {active.size} steps)")
            ax.set(xlabel="step", ylabel="training loss", yscale="log", title="Training loss with and without clipping")
            ax.legend()
            written.append(_save(fig, dest / LESSON_PICTURES[1], plt))
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
                written.append(_save(fig, dest / "grad_norms.png", plt))
    question = lesson.get("ex2")
    if question:
        from grader.exercises.ex2.lesson import lesson_batch

        images, _ = lesson_batch()
        norms, index = np.asarray(question["norms"]), question["index"]
        fig, (bars, picture) = plt.subplots(1, 2, figsize=(10, 3.6), gridspec_kw={"width_ratios": [2.4, 1]})
        bars.bar(np.arange(norms.size), norms, color=["C3" if i == index else "C0" for i in range(norms.size)])
        bars.set(xlabel="MNIST image", ylabel="gradient L2 norm",
                 title=f"Per-example gradient norms of {norms.size} MNIST images (initial params)")
        picture.imshow(np.asarray(images[index]).reshape(28, 28), cmap="gray_r")
        picture.set_axis_off()
        picture.set_title(f"image {index}: label {question['label']}, predicted {question['prediction']}\n"
                          f"loss {question['loss']:.3g}, gradient norm {question['norm']:.3g}", fontsize=9)
        written.append(_save(fig, dest / LESSON_PICTURES[0], plt))
    return written
