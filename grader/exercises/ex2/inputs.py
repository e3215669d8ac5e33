"""ex2's inputs: the fixed public ones, or drawn from a seed (see :mod:`grader.inputs`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from grader.checks import npref
from grader.exercises.ex2.shared import NUM_CLASSES, SATURATED, TINY_LARGEST_AT, VECTOR_BATCHES
from grader.inputs import LESSON_WIDTHS, batch, mlp_params

#: The seed of the public inputs; with a secret seed N, they are drawn from ``default_rng([N, PUBLIC_SEED])``.
PUBLIC_SEED = 202


def build(rng: np.random.Generator, seed: int | None = None) -> dict[str, Any]:
    small_widths = (784, 32, 16, 10)
    cases: dict[str, Any] = {}
    for name, widths, b in (("small", small_widths, 8), ("lesson", LESSON_WIDTHS, 5), ("single", small_widths, 1)):
        x, y = batch(rng, b)
        if b > 1:  # one example stands out, so the argmax is clear; where, the seed says
            x[b // 2 if seed is None else int(rng.integers(b))] *= 6.0
        cases[name] = {"params": mlp_params(rng, widths), "x": x, "y": y}
    for b, kept in zip((2, 16), VECTOR_BATCHES):  # traced, not run (shared.VECTOR_BATCHES says why 13)
        x, y = batch(rng, b)
        if b == 16:  # drawn as before (16 rows, one standing out), so every input drawn after it is unchanged
            x[b // 2 if seed is None else int(rng.integers(b))] *= 6.0
        cases[f"vec{kept}"] = {"params": mlp_params(rng, small_widths), "x": x[:kept], "y": y[:kept]}
    tree = {}
    for name, layer in mlp_params(rng, (40, 12, 10)).items():
        tree[name] = {
            "w": rng.standard_normal((6, *layer["w"].shape)).astype(np.float32) * 0.1,
            "b": rng.standard_normal((6, *layer["b"].shape)).astype(np.float32) * 3.0,
        }
    cases["norm_tree"] = tree
    # A third batch for largest_gradient_example, of the small batch's shapes: the student's functions have
    # already run on those, so asking costs no new compilation (a batch of 16 cost about a second and a half).
    # Their largest norms sit at the batch's two ends (the public batches' lie inside it): a search that leaves out
    # the first or the last example shows.
    cases["small2"] = _largest_at(_proxies_disagree(rng, small_widths, 8), 0)
    cases["small3"] = _largest_at(_ranked_among_all(rng, small_widths, 8), -1)
    # The lesson case holds as many examples as there are classes (10): labels of shape (10,) then have the shape
    # of one one-hot row, which code guessing the labels' form from their shape reads as such. Its last five are
    # drawn last, so every input drawn before is unchanged.
    small = cases["small"]  # drawn from no generator: every input is unchanged
    cases["small_reversed"] = {"params": small["params"], "x": small["x"][::-1].copy(), "y": small["y"][::-1].copy()}
    x, y = batch(rng, NUM_CLASSES - len(cases["lesson"]["y"]))
    lesson = cases["lesson"]
    cases["lesson"] = {**lesson, "x": np.concatenate([lesson["x"], x]), "y": np.concatenate([lesson["y"], y])}
    cases["small4"] = _largest_at(_leaf_summaries_disagree(rng, small_widths, 8), 2)  # drawn last, as above
    for name, margin in SATURATED.items():  # drawn from no generator: every input is unchanged
        cases[name] = _saturated(cases["small"], margin)
    cases["tiny"] = _largest_at(cases["tiny"], TINY_LARGEST_AT)
    return cases


def _saturated(case: dict[str, Any], margin: float) -> dict[str, Any]:
    """``case`` relabelled with the model's own predictions and its last layer scaled so the smallest margin
    between an example's top two logits is ``margin``: the larger the margin, the smaller every gradient."""
    params = {name: {k: np.array(v, copy=True) for k, v in layer.items()} for name, layer in case["params"].items()}
    logits = npref.mlp(params, np.asarray(case["x"], np.float64))
    top2 = np.sort(logits, axis=1)[:, -2:]
    scale = margin / float(np.min(top2[:, 1] - top2[:, 0]))
    last = npref.layer_names(params)[-1]
    params[last] = {k: (v * scale).astype(np.float32) for k, v in params[last].items()}
    return {"params": params, "x": case["x"].copy(), "y": np.argmax(logits, axis=1).astype(case["y"].dtype)}


def _largest_at(case: dict[str, Any], position: int) -> dict[str, Any]:
    """``case`` with the example of the largest gradient norm swapped with the one at ``position``."""
    x, y = case["x"].copy(), case["y"].copy()
    top = int(np.argmax(npref.per_example_grad_norms(case["params"], x, npref.one_hot(y))))
    order = np.arange(len(y))
    order[[top, position]] = order[[position, top]]
    return {**case, "x": x[order], "y": y[order]}


def _proxies_disagree(rng: np.random.Generator, widths: tuple[int, ...], b: int) -> dict[str, Any]:
    """A batch whose largest per-example gradient norm (clear of the next by 2%) belongs to neither the example
    with the largest loss, nor the one with the largest softmax(logits) - one_hot(y), nor the largest input, and
    those three are three examples: each stands in for the gradient's norm only where it happens to agree."""
    params = mlp_params(rng, widths)
    for _ in range(1000):
        x, y = batch(rng, b)
        x *= rng.uniform(0.3, 3.0, (b, 1)).astype(np.float32)  # inputs of different sizes
        norms = npref.per_example_grad_norms(params, x, npref.one_hot(y))
        first, second = np.sort(norms)[::-1][:2]
        proxies = {int(np.argmax(score)) for score in npref.norm_stand_ins(params, x, y).values()}
        if first > 1.02 * second and len(proxies) == 3 and int(np.argmax(norms)) not in proxies:
            return {"params": params, "x": x, "y": y}
    raise RuntimeError("no batch found whose largest gradient norm is not also the largest loss, residual or input")


def _leaf_summaries_disagree(rng: np.random.Generator, widths: tuple[int, ...], b: int) -> dict[str, Any]:
    """A batch whose largest gradient norm (clear of the next by 2%) is not the largest by any score made from the
    per-leaf norms (summed unsquared, per-leaf z-scores summed): each ranks the examples as the
    global norm does only where the leaves happen to agree."""
    params = mlp_params(rng, widths)
    for _ in range(5000):
        x, y = batch(rng, b)
        x *= rng.uniform(0.3, 3.0, (b, 1)).astype(np.float32)
        norms = npref.per_example_grad_norms(params, x, npref.one_hot(y))
        first, second = np.sort(norms)[::-1][:2]
        top = int(np.argmax(norms))
        if first > 1.02 * second and all(int(np.argmax(score)) != top
                                          for score in npref.leaf_norm_summaries(params, x, y).values()):
            return {"params": params, "x": x, "y": y}
    raise RuntimeError("no batch found whose largest gradient norm is not also the largest by its leaves' norms")


def _ranked_among_all(rng: np.random.Generator, widths: tuple[int, ...], b: int) -> dict[str, Any]:
    """A batch whose largest gradient norm (clear of the next by 2%) belongs to an example the model classifies
    correctly, while another is misclassified, and whose smallest norm (a tiny input) lies further from the
    batch's mean and median norms than the largest: an argmax over the misclassified examples only, or a search
    for the norm furthest from the rest, picks another example."""
    params = mlp_params(rng, widths)
    for _ in range(5000):
        x, y = batch(rng, b)
        x[int(rng.integers(b))] *= 0.02
        predicted = np.argmax(npref.mlp(params, x), axis=1)
        y = np.where(rng.random(b) < 0.6, predicted, y).astype(np.int32)  # about half classified correctly
        norms = npref.per_example_grad_norms(params, x, npref.one_hot(y))
        first, second = np.sort(norms)[::-1][:2]
        top, wrong = int(np.argmax(norms)), predicted != y
        spread = [np.abs(norms - centre) for centre in (np.mean(norms), np.median(norms))]
        if (first > 1.02 * second and not wrong[top] and wrong.any()
                and all(np.max(s) > 1.2 * s[top] for s in spread)):
            return {"params": params, "x": x, "y": y}
    raise RuntimeError("no batch found whose largest gradient norm is a correctly classified example's and not "
                       "the furthest from the others")
