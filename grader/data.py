"""MNIST for the exercises: an embedded 5,000-image sample and loaders for the full set.

Numpy only, so loading data never pulls in JAX or a download library. The
embedded sample (``grader/_data/mnist_5k.npz``, see ``NOTICE.md`` beside it)
makes grading work offline and identically on every machine; the full
60,000/10,000 MNIST is read from files the user provides, or fetched through
scikit-learn only when explicitly allowed.
"""

from __future__ import annotations

import functools
import gzip
import operator
import os
import zlib
from importlib import resources
from pathlib import Path
from typing import NamedTuple

import numpy as np

__all__ = ["MnistNotFound", "Split", "embedded_split", "load_mnist", "read_idx"]

N_PIXELS = 28 * 28
N_CLASSES = 10
EMBEDDED_SIZE = 5000

# Split field -> standard IDX base name; each is accepted with or without ".gz".
IDX_NAMES = {
    "x_train": "train-images-idx3-ubyte",
    "y_train": "train-labels-idx1-ubyte",
    "x_test": "t10k-images-idx3-ubyte",
    "y_test": "t10k-labels-idx1-ubyte",
}
IDX_MAGIC = {0x00000803: "images", 0x00000801: "labels"}

MNIST_NOT_FOUND = """\
Full MNIST not found: {what}.
Fix it in one of three ways:
  1. load_mnist("path/to/folder"), a folder holding the four standard IDX files
     {idx_files}
     (gzipped or not), as published at https://yann.lecun.com/exdb/mnist/;
  2. load_mnist("path/to/mnist.npz"), an .npz in the Keras layout with the keys
     x_train, y_train, x_test, y_test (x as uint8 of shape (n, 28, 28) or (n, 784));
  3. load_mnist(allow_download=True), which fetches "mnist_784" from OpenML once with
     scikit-learn and keeps it in scikit-learn's data cache (needs network access)."""


def _not_found(what: str) -> str:
    idx_files = ", ".join(IDX_NAMES.values())
    return MNIST_NOT_FOUND.format(what=what, idx_files=idx_files)


class MnistNotFound(FileNotFoundError):
    """Full MNIST was asked for but none of the accepted sources is available."""


class Split(NamedTuple):
    """A train/test split: images float32 (n, 784) scaled to [0, 1], labels int32 (n,) in 0..9."""

    x_train: np.ndarray
    y_train: np.ndarray
    x_test: np.ndarray
    y_test: np.ndarray


def read_idx(path: str | os.PathLike) -> np.ndarray:
    """Read an MNIST IDX file (gzipped or not) into a uint8 array of the shape its header declares.

    Only the two MNIST layouts are accepted: images (magic 0x00000803, three
    dimensions) and labels (magic 0x00000801, one dimension), both of unsigned bytes.
    Raises ValueError naming the file if the header or the payload length is wrong.
    """
    path = Path(path)
    raw = path.read_bytes()
    if raw[:2] == b"\x1f\x8b":
        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError, zlib.error) as err:
            raise ValueError(f"{path}: corrupt or truncated gzip data ({err})") from None
    if len(raw) < 4:
        raise ValueError(f"{path}: {len(raw)} bytes, too short for an IDX header")
    magic = int.from_bytes(raw[:4], "big")
    if magic not in IDX_MAGIC:
        raise ValueError(
            f"{path}: bad magic number 0x{magic:08x}; expected 0x00000803 (images) "
            "or 0x00000801 (labels), i.e. unsigned bytes (type code 0x08)"
        )
    ndim = raw[3]
    header = 4 + 4 * ndim
    if len(raw) < header:
        raise ValueError(f"{path}: truncated header; {ndim} dimensions need {header} bytes, file has {len(raw)}")
    dims = tuple(int.from_bytes(raw[4 + 4 * i : 8 + 4 * i], "big") for i in range(ndim))
    expected = header + int(np.prod(dims))
    if len(raw) != expected:
        problem = "truncated" if len(raw) < expected else "trailing data"
        raise ValueError(
            f"{path}: {problem}; header declares {IDX_MAGIC[magic]} of shape {dims}, "
            f"which needs {expected} bytes, file has {len(raw)}"
        )
    return np.frombuffer(raw, dtype=np.uint8, offset=header).reshape(dims).copy()


def _check_split(origin: str, **arrays: np.ndarray) -> Split:
    """Validate raw MNIST arrays (uint8 pixels, labels 0..9) and convert them to a Split."""
    out = {}
    for part in ("train", "test"):
        x, y = np.asarray(arrays[f"x_{part}"]), np.asarray(arrays[f"y_{part}"])
        if x.ndim < 2 or int(np.prod(x.shape[1:])) != N_PIXELS:
            raise ValueError(f"{origin}: x_{part} has shape {x.shape}; expected (n, 28, 28) or (n, {N_PIXELS})")
        if not np.issubdtype(x.dtype, np.integer) or (x.size and (x.min() < 0 or x.max() > 255)):
            raise ValueError(f"{origin}: x_{part} must hold integer pixels 0..255 (uint8); got dtype {x.dtype}")
        if y.shape != (len(x),):
            raise ValueError(f"{origin}: y_{part} has shape {y.shape}; expected ({len(x)},), one label per image")
        if not np.issubdtype(y.dtype, np.integer) or (y.size and (y.min() < 0 or y.max() >= N_CLASSES)):
            found = np.unique(y)[:20]
            raise ValueError(f"{origin}: y_{part} must hold integer labels 0..9; found {found} (dtype {y.dtype})")
        out[f"x_{part}"] = x.reshape(len(x), N_PIXELS).astype(np.float32) / np.float32(255)
        out[f"y_{part}"] = y.astype(np.int32)
    return Split(**out)


def _read_idx_folder(folder: Path) -> Split:
    found, missing = {}, []
    for field, name in IDX_NAMES.items():
        path = next((p for p in (folder / f"{name}.gz", folder / name) if p.is_file()), None)
        if path is None:
            missing.append(f"{name}[.gz]")
        else:
            found[field] = path
    if missing:
        raise MnistNotFound(_not_found(f"{folder} lacks {', '.join(missing)}"))
    return _check_split(str(folder), **{field: read_idx(path) for field, path in found.items()})


def _read_keras_npz(path: Path) -> Split:
    with np.load(path, allow_pickle=False) as npz:
        missing = [key for key in IDX_NAMES if key not in npz.files]
        if missing:
            raise ValueError(
                f"{path}: missing keys {missing}; a Keras-layout npz has {list(IDX_NAMES)}, found {npz.files}"
            )
        return _check_split(str(path), **{key: npz[key] for key in IDX_NAMES})


def _fetch_openml() -> Split:
    from sklearn.datasets import fetch_openml  # only on explicit request: heavy, and may download

    x, y = fetch_openml("mnist_784", version=1, as_frame=False, parser="liac-arff", return_X_y=True)
    x, y = np.asarray(x).astype(np.uint8), np.asarray(y).astype(np.int64)
    return _check_split("OpenML mnist_784", x_train=x[:60000], y_train=y[:60000], x_test=x[60000:], y_test=y[60000:])


def load_mnist(source: str | os.PathLike | None = None, *, allow_download: bool = False) -> Split:
    """Load the full MNIST, 60,000 training and 10,000 test images.

    ``source`` is a folder of the four standard IDX files or a Keras-layout
    ``.npz``. With no source, MNIST is fetched from OpenML through scikit-learn
    only if ``allow_download`` is true, so grading never touches the network by
    surprise. Raises MnistNotFound, listing the ways to provide the data, when
    nothing is available; ValueError when the data is malformed.
    """
    if source is None:
        if allow_download:
            return _fetch_openml()
        raise MnistNotFound(_not_found("no source was given and allow_download is False"))
    path = Path(source)
    if path.is_dir():
        return _read_idx_folder(path)
    if path.is_file():
        if path.suffix != ".npz":
            kind = f"a {path.suffix} file" if path.suffix else "a file without extension"
            raise ValueError(f"{path}: expected a folder of IDX files or an .npz file, got {kind}")
        return _read_keras_npz(path)
    raise MnistNotFound(_not_found(f"{path} does not exist"))


@functools.lru_cache(maxsize=1)
def _embedded_arrays() -> tuple[np.ndarray, np.ndarray]:
    """The packaged sample as stored: images uint8 (5000, 784), labels uint8 (5000,), sorted by class."""
    with resources.files(__package__).joinpath("_data", "mnist_5k.npz").open("rb") as f, np.load(f) as npz:
        return npz["images"], npz["labels"]


@functools.lru_cache(maxsize=16)
def _embedded_split(n_test: int, seed: int) -> Split:
    images, labels = _embedded_arrays()
    rng = np.random.default_rng(seed)
    per_class = n_test // N_CLASSES
    test, train = [], []
    for c in range(N_CLASSES):
        members = rng.permutation(np.flatnonzero(labels == c))
        test.append(members[:per_class])
        train.append(members[per_class:])
    train_idx = rng.permutation(np.concatenate(train))
    test_idx = rng.permutation(np.concatenate(test))
    split = _check_split(
        "embedded MNIST sample",
        x_train=images[train_idx], y_train=labels[train_idx], x_test=images[test_idx], y_test=labels[test_idx],
    )
    for array in split:
        array.flags.writeable = False
    return split


def embedded_split(n_test: int = 1000, seed: int = 0) -> Split:
    """A stratified split of the embedded 5,000-image MNIST sample (500 images per class).

    The test set holds ``n_test // 10`` images of each class, the rest are for
    training; both are shuffled. The split depends only on ``n_test`` and
    ``seed``, so every machine and run grades on the same images. Results are
    cached and read-only: copy an array before changing it.
    """
    if isinstance(n_test, bool) or not isinstance(n_test, (int, np.integer)) or n_test % N_CLASSES:
        raise ValueError(f"n_test must be an integer multiple of {N_CLASSES} (n_test/10 per class), got {n_test!r}")
    if not 0 < n_test < EMBEDDED_SIZE:
        raise ValueError(f"n_test must be between {N_CLASSES} and {EMBEDDED_SIZE - N_CLASSES}, got {n_test}")
    return _embedded_split(int(n_test), operator.index(seed))
