"""--plots writes PNGs from what the children observed (no grading needed here)."""

from __future__ import annotations

import numpy as np

from grader.plots import save_plots
from grader.sandbox import Observations


def _image_is_not_blank(path) -> bool:
    import matplotlib.image

    pixels = matplotlib.image.imread(path)
    return pixels.std() > 0.01


def test_plots_show_both_losses_and_the_norms(tmp_path):
    losses = np.linspace(2.3, 0.1, 50)
    accuracy = Observations({"train": {"0/layer1/w": np.zeros((2, 2)), "1": losses}, "baseline_losses": losses * 1.1})
    grads = {"layer1/w": np.ones((5, 3, 2)), "layer1/b": np.arange(10.0).reshape(5, 2)}
    ex2 = Observations({"grads/lesson": grads})
    written = save_plots(tmp_path / "plots", accuracy, ex2)
    assert sorted(p.name for p in written) == ["grad_norms.png", "training_loss.png"]
    assert all(_image_is_not_blank(p) for p in written)


def test_plots_skip_what_was_not_observed(tmp_path):
    assert save_plots(tmp_path, Observations(), None) == []
    failed = Observations(values={"grads/lesson": "not a tree"})
    assert save_plots(tmp_path, None, failed) == []
