"""The grader's test inputs, built with numpy: the fixed public ones, or drawn from a seed.

The parent builds them once, writes them to an ``.npz`` every child reads, and
keeps them to judge and diagnose results (e.g. to recompute a wrong variant of
an answer in numpy and name the mistake). Same seed, same arrays, everywhere.

Each exercise builds its own in its package (``grader/exercises/<id>/inputs.py``,
with the helpers here). ``build()`` gives the public inputs (each exercise's own
fixed seed); ``build(seed)`` draws every array, PRNG key seed and position of
interest of every exercise from ``seed`` instead, with the same shapes and structure: inputs of
the same kind, whose values a submission cannot know in advance (the official
grade's secret inputs).
"""

from __future__ import annotations

import importlib
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from grader.exercises import ALL, BY_ID

LESSON_WIDTHS = (784, 256, 128, 10)
#: ex1's public dropout keys: ``jax.random.PRNGKey(11)`` and ``PRNGKey(12)``.
PUBLIC_KEY_SEEDS = (11, 12)
MAX_KEY_SEED = 2**31


class SeedError(ValueError):
    """A seed that is not a non-negative integer."""


def check_seed(seed: object) -> int:
    """``seed`` as an ``int``; a ``SeedError`` naming the value unless it is a non-negative integer."""
    text = str(seed).strip()
    value = int(text) if not isinstance(seed, bool) and text.isdigit() else -1
    if value < 0:
        raise SeedError(f"the seed must be a non-negative integer (e.g. --seed 12345), not {seed!r}")
    return value


def _builder(exercise: str) -> Any:
    """The exercise's ``inputs`` module: ``PUBLIC_SEED`` and ``build(rng, seed)``."""
    return importlib.import_module(BY_ID[exercise].inputs)


def public_seed(exercise: str) -> int:
    """The numpy seed of the exercise's public inputs."""
    return _builder(exercise).PUBLIC_SEED


def exercise_inputs(exercise: str, seed: int | None = None) -> Any:
    """What the exercise's ``build`` returns: its inputs (or, for ``accuracy``, those and the parent's part).

    The public inputs come from ``default_rng(PUBLIC_SEED)``; with a secret seed N, from
    ``default_rng([N, PUBLIC_SEED])``.
    """
    first = public_seed(exercise)
    rng = np.random.default_rng(first if seed is None else [seed, first])
    return _builder(exercise).build(rng, seed)


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


def batch(rng: np.random.Generator, b: int, width: int = 784) -> tuple[np.ndarray, np.ndarray]:
    x = rng.uniform(0.0, 1.0, (b, width)).astype(np.float32)
    y = rng.integers(0, 10, b).astype(np.int32)
    return x, y


def key_seeds(rng: np.random.Generator, seed: int | None, n: int) -> np.ndarray:
    """Seeds of distinct PRNG keys: the public ones, or drawn (distinct) from ``rng``."""
    if seed is None:
        return np.asarray(PUBLIC_KEY_SEEDS[:n], dtype=np.int64)
    return rng.choice(MAX_KEY_SEED, size=n, replace=False).astype(np.int64)


#: The part of ``build()`` that only the judging parent reads: never written for the children.
PARENT_ONLY = "parent_only"


@lru_cache(maxsize=4)
def build(seed: int | None = None) -> dict[str, Any]:
    """Every exercise's inputs as one nested dict (``exercise -> ... -> array``): public, or drawn from ``seed``.

    ``build()[PARENT_ONLY]`` holds what the judges read but no child may see (the accuracy run's test
    labels); :func:`write` leaves it out. Cached: callers must not modify what it returns.
    """
    if seed is not None:
        seed = check_seed(seed)
    built: dict[str, Any] = {}
    parent_only: dict[str, Any] = {}
    for exercise in ALL:
        made = exercise_inputs(exercise.id, seed)
        if isinstance(made, tuple):  # (what the child reads, what only the parent reads)
            made, parent_only[exercise.id] = made
        built[exercise.id] = made
    return {**built, PARENT_ONLY: parent_only}


def for_children(inputs: dict[str, Any]) -> dict[str, Any]:
    """``inputs`` without what only the parent may read."""
    return {exercise: value for exercise, value in inputs.items() if exercise != PARENT_ONLY}


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
