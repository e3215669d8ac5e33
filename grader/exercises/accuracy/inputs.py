"""accuracy's inputs: the fixed public ones, or drawn from a seed (see :mod:`grader.inputs`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from grader.data import N_CLASSES, N_PIXELS, embedded_split
from grader.exercises.accuracy.shared import SEED
from grader.inputs import LESSON_WIDTHS, MAX_KEY_SEED, mlp_params

#: The seed of the public inputs; with a secret seed N, they are drawn from ``default_rng([N, PUBLIC_SEED])``.
PUBLIC_SEED = 707


def build(rng: np.random.Generator, seed: int | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
    """The accuracy run's inputs for the child, and the test labels only the judging parent reads.

    The child gets the training images and labels and the test images of the
    embedded MNIST split, never the test labels. With a seed, the pixels of
    every image are permuted by one secret permutation and the classes renamed
    by another (train and test alike): an MLP learns the permuted task just as
    well, while a table of the shipped images' labels finds nothing.
    """
    params = mlp_params(rng, LESSON_WIDTHS, bias_scale=0.0)
    train_seed = SEED if seed is None else int(rng.integers(MAX_KEY_SEED))
    split = embedded_split()
    pixels = np.arange(N_PIXELS) if seed is None else rng.permutation(N_PIXELS)
    classes = np.arange(N_CLASSES) if seed is None else rng.permutation(N_CLASSES)
    child = {"params": params, "train_seed": np.asarray(train_seed, dtype=np.int64),
             "x_train": np.ascontiguousarray(split.x_train[:, pixels]),
             "y_train": classes[split.y_train].astype(np.int32),
             "x_test": np.ascontiguousarray(split.x_test[:, pixels])}
    return child, {"y_test": classes[split.y_test].astype(np.int32)}
