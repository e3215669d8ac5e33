"""The grader's test inputs, built with numpy: the fixed public ones, or drawn from a seed.

The parent builds them once, writes them to an ``.npz`` every child reads, and
keeps them to judge and diagnose results (e.g. to recompute a wrong variant of
an answer in numpy and name the mistake). Same seed, same arrays, everywhere.

``build()`` gives the public inputs (each task's own fixed seed, below);
``build(seed)`` draws every array, PRNG key seed and position of interest of
every task from ``seed`` instead, with the same shapes and structure: inputs of
the same kind, whose values a submission cannot know in advance (the official
grade's secret inputs).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from grader.data import N_CLASSES, N_PIXELS, embedded_split
from grader.protocol import ACCURACY_SEED, EX4_ASYNC_COST, EX4_COUNT_COST, EX5_SPIKE_STEP

LESSON_WIDTHS = (784, 256, 128, 10)
#: Each task's seed for the public inputs; with a secret seed N, task t draws from ``default_rng([N, PUBLIC_SEEDS[t]])``.
PUBLIC_SEEDS = {"ex1": 101, "ex2": 202, "ex3": 303, "ex4": 404, "ex5": 505, "accuracy": 707}
#: ex1's public dropout keys: ``jax.random.PRNGKey(11)`` and ``PRNGKey(12)``.
PUBLIC_KEY_SEEDS = (11, 12)
_MAX_KEY_SEED = 2**31


class SeedError(ValueError):
    """A seed that is not a non-negative integer."""


def check_seed(seed: object) -> int:
    """``seed`` as an ``int``; a ``SeedError`` naming the value unless it is a non-negative integer."""
    text = str(seed).strip()
    value = int(text) if not isinstance(seed, bool) and text.isdigit() else -1
    if value < 0:
        raise SeedError(f"the seed must be a non-negative integer (e.g. --seed 12345), not {seed!r}")
    return value


def _rng(task: str, seed: int | None) -> np.random.Generator:
    return np.random.default_rng(PUBLIC_SEEDS[task] if seed is None else [seed, PUBLIC_SEEDS[task]])


def mlp_params(rng: np.random.Generator, widths: tuple[int, ...], bias_scale: float = 0.1,
               order: str = "numeric") -> dict[str, dict[str, np.ndarray]]:
    """He-initialised float32 params ``layer1..layerN``; ``order="reversed"`` lists them backwards."""
    layers = {}
    for i, (n_in, n_out) in enumerate(zip(widths[:-1], widths[1:]), start=1):
        layers[f"layer{i}"] = {
            "w": (rng.standard_normal((n_in, n_out)) * np.sqrt(2.0 / n_in)).astype(np.float32),
            "b": (rng.standard_normal(n_out) * bias_scale).astype(np.float32),
        }
    names = list(layers)
    if order == "reversed":
        names.reverse()
    return {name: layers[name] for name in names}


def _batch(rng: np.random.Generator, b: int, width: int = 784) -> tuple[np.ndarray, np.ndarray]:
    x = rng.uniform(0.0, 1.0, (b, width)).astype(np.float32)
    y = rng.integers(0, 10, b).astype(np.int32)
    return x, y


def _key_seeds(rng: np.random.Generator, seed: int | None, n: int) -> np.ndarray:
    """Seeds of distinct PRNG keys: the public ones, or drawn (distinct) from ``rng``."""
    if seed is None:
        return np.asarray(PUBLIC_KEY_SEEDS[:n], dtype=np.int64)
    return rng.choice(_MAX_KEY_SEED, size=n, replace=False).astype(np.int64)


def _ex1(seed: int | None = None) -> dict[str, Any]:
    rng = _rng("ex1", seed)
    params = mlp_params(rng, LESSON_WIDTHS, bias_scale=0.0)
    for layer in params.values():  # positive biases: hidden units active, logits away from 0
        layer["b"] = np.abs(rng.standard_normal(layer["b"].shape) * 0.2 + 0.3).astype(np.float32)
    return {
        "x": rng.uniform(0.5, 1.5, (64, 512)).astype(np.float32),
        "params": params,
        "xb": rng.uniform(0.0, 1.0, (32, 784)).astype(np.float32),
        "key_seeds": _key_seeds(rng, seed, 2),
    }


def _ex2(seed: int | None = None) -> dict[str, Any]:
    rng = _rng("ex2", seed)
    small_widths = (784, 32, 16, 10)
    cases: dict[str, Any] = {}
    for name, widths, b in (("small", small_widths, 8), ("lesson", LESSON_WIDTHS, 5), ("single", small_widths, 1)):
        x, y = _batch(rng, b)
        if b > 1:  # one example stands out, so the argmax is clear; where, the seed says
            x[b // 2 if seed is None else int(rng.integers(b))] *= 6.0
        cases[name] = {"params": mlp_params(rng, widths), "x": x, "y": y}
    for b in (2, 16):
        x, y = _batch(rng, b)
        if b == 16:  # also asked for its largest example: one stands out there too
            x[b // 2 if seed is None else int(rng.integers(b))] *= 6.0
        cases[f"vec{b}"] = {"params": mlp_params(rng, small_widths), "x": x, "y": y}
    tree = {}
    for name, layer in mlp_params(rng, (40, 12, 10)).items():
        tree[name] = {
            "w": rng.standard_normal((6, *layer["w"].shape)).astype(np.float32) * 0.1,
            "b": rng.standard_normal((6, *layer["b"].shape)).astype(np.float32) * 3.0,
        }
    cases["norm_tree"] = tree
    return cases


EX3_CASES = {
    # name: (widths, batch, insertion order)
    "d1": ((20, 7), 5, "numeric"),
    "d2": ((20, 16, 7), 5, "numeric"),
    "d3": (LESSON_WIDTHS, 4, "numeric"),
    "d5": ((20, 30, 9, 25, 12, 7), 6, "reversed"),
    "d12": ((16,) * 13, 6, "numeric"),
}


def _ex3(seed: int | None = None) -> dict[str, Any]:
    rng = _rng("ex3", seed)
    cases = {}
    for name, (widths, b, order) in EX3_CASES.items():
        x = rng.standard_normal((b, widths[0])).astype(np.float32)
        cases[name] = {"params": mlp_params(rng, widths, bias_scale=0.5, order=order), "x": x}
    return cases


def _ex4(seed: int | None = None) -> dict[str, Any]:
    """The cost per call of the work the instrumented steps queue, in seconds: a timer must find it."""
    if seed is None:
        return {"async_cost": np.asarray(EX4_ASYNC_COST), "count_cost": np.asarray(EX4_COUNT_COST)}
    rng = _rng("ex4", seed)
    # Far from the public costs (60 and 40 ms), so that a time computed from them (n_steps times the public
    # cost) fits no timer at any seed: its ratios to the known times, at most 0.57 and at least 1.6, are
    # neither those of a correct timer nor of one off by a step, a unit or a per-step average.
    return {"async_cost": np.asarray(rng.uniform(0.105, 0.12)), "count_cost": np.asarray(rng.uniform(0.02, 0.025))}


def _ex5(seed: int | None = None) -> dict[str, Any]:
    rng = _rng("ex5", seed)
    params = mlp_params(rng, (784, 32, 16, 10))
    grads = {}
    for i in range(6):
        scale = 40.0 if i == EX5_SPIKE_STEP else 0.5
        leaves = {name: {k: rng.standard_normal(v.shape).astype(np.float32) for k, v in layer.items()}
                  for name, layer in params.items()}
        norm = np.sqrt(sum(float(np.sum(a * a)) for layer in leaves.values() for a in layer.values()))
        grads[str(i)] = {name: {k: (a * scale / norm).astype(np.float32) for k, a in layer.items()}
                         for name, layer in leaves.items()}
        if i == EX5_SPIKE_STEP:  # a few huge elements, so element-wise clipping shows too
            w = grads[str(i)]["layer1"]["w"].reshape(-1)
            spots = rng.choice(w.size, 16, replace=False)
            w[spots] = np.sign(rng.standard_normal(16)).astype(np.float32) * 8.0
    x, y = _batch(rng, 16)
    return {"params": params, "grads": grads, "x": x, "y": y}


def _accuracy(seed: int | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
    """The accuracy run's inputs for the child, and the test labels only the judging parent reads.

    The child gets the training images and labels and the test images of the
    embedded MNIST split, never the test labels. With a seed, the pixels of
    every image are permuted by one secret permutation and the classes renamed
    by another (train and test alike): an MLP learns the permuted task just as
    well, while a table of the shipped images' labels finds nothing.
    """
    rng = _rng("accuracy", seed)
    params = mlp_params(rng, LESSON_WIDTHS, bias_scale=0.0)
    train_seed = ACCURACY_SEED if seed is None else int(rng.integers(_MAX_KEY_SEED))
    split = embedded_split()
    pixels = np.arange(N_PIXELS) if seed is None else rng.permutation(N_PIXELS)
    classes = np.arange(N_CLASSES) if seed is None else rng.permutation(N_CLASSES)
    child = {"params": params, "train_seed": np.asarray(train_seed, dtype=np.int64),
             "x_train": np.ascontiguousarray(split.x_train[:, pixels]),
             "y_train": classes[split.y_train].astype(np.int32),
             "x_test": np.ascontiguousarray(split.x_test[:, pixels])}
    return child, {"y_test": classes[split.y_test].astype(np.int32)}


#: The part of ``build()`` that only the judging parent reads: never written for the children.
PARENT_ONLY = "parent_only"


@lru_cache(maxsize=4)
def build(seed: int | None = None) -> dict[str, Any]:
    """Every task's inputs as one nested dict (``task -> ... -> array``): public, or drawn from ``seed``.

    ``build()[PARENT_ONLY]`` holds what the judges read but no child may see (the accuracy run's test
    labels); :func:`write` leaves it out. Cached: callers must not modify what it returns.
    """
    if seed is not None:
        seed = check_seed(seed)
    accuracy, accuracy_labels = _accuracy(seed)
    return {"ex1": _ex1(seed), "ex2": _ex2(seed), "ex3": _ex3(seed), "ex4": _ex4(seed), "ex5": _ex5(seed),
            "accuracy": accuracy, PARENT_ONLY: {"accuracy": accuracy_labels}}


def for_children(inputs: dict[str, Any]) -> dict[str, Any]:
    """``inputs`` without what only the parent may read."""
    return {task: value for task, value in inputs.items() if task != PARENT_ONLY}


def flatten(tree: dict[str, Any], prefix: str = "") -> dict[str, np.ndarray]:
    """``{"a": {"b": x}}`` -> ``{"a/b": x}``, keeping insertion order."""
    flat: dict[str, np.ndarray] = {}
    for name, value in tree.items():
        key = f"{prefix}{name}"
        if isinstance(value, dict):
            flat.update(flatten(value, key + "/"))
        else:
            flat[key] = value
    return flat


def write(path: Path, seed: int | None = None) -> Path:
    """Write all inputs (public, or drawn from ``seed``) to ``path`` (an ``.npz``) for the children to read."""
    np.savez(path, **flatten(for_children(build(seed))))
    return path
