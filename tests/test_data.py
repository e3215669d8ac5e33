"""Tests of grader.data: the embedded MNIST sample, IDX parsing and full-MNIST loading."""

from __future__ import annotations

import ast
import gzip
import hashlib
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from grader import data
from grader.data import MnistNotFound, Split, embedded_split, load_mnist, read_idx

REPO = Path(__file__).resolve().parents[1]
SHARED_T10K = REPO.parent / "shared/data/mnist-t10k"
T10K_IMAGES = SHARED_T10K / "t10k-images-idx3-ubyte.gz"
T10K_LABELS = SHARED_T10K / "t10k-labels-idx1-ubyte.gz"
MNIST_TEST_COUNTS = [980, 1135, 1032, 1010, 982, 892, 958, 1028, 974, 1009]

# Checksums documented in grader/_data/NOTICE.md.
EMBEDDED_IMAGES_SHA256 = "2913c6b6527114b7307e1086335a7665e3f94c74aba3d67525e6f116bf5ae20f"
EMBEDDED_LABELS_SHA256 = "41b7b0a9d94690a3a2f54a1d01a9f1cc1b9512e3954fb737ad5ed9f66972403d"
# split_digest(embedded_split()): pins the default split across machines and numpy versions.
DEFAULT_SPLIT_SHA256 = "52bb6c9318ecce0e9e8562030540cd4df1392f246c659edf19da0b273c0d0a52"

needs_t10k = pytest.mark.skipif(
    not (T10K_IMAGES.is_file() and T10K_LABELS.is_file()),
    reason=f"MNIST t10k IDX files not found in {SHARED_T10K}",
)


def split_digest(split: Split) -> str:
    digest = hashlib.sha256()
    for array in split:
        digest.update(f"{array.dtype.str}{array.shape}".encode())
        digest.update(array.tobytes())
    return digest.hexdigest()


def idx_bytes(array: np.ndarray) -> bytes:
    """Encode a uint8 array as an IDX file (images need 3 dimensions, labels 1)."""
    header = bytes([0, 0, 0x08, array.ndim]) + b"".join(d.to_bytes(4, "big") for d in array.shape)
    return header + array.astype(np.uint8).tobytes()


def keras_arrays(flat: bool) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(0)
    shape = (784,) if flat else (28, 28)
    return {
        "x_train": rng.integers(0, 256, (30, *shape), dtype=np.uint8),
        "y_train": np.arange(30) % 10,
        "x_test": rng.integers(0, 256, (20, *shape), dtype=np.uint8),
        "y_test": np.arange(20) % 10,
    }


# --- embedded sample ---------------------------------------------------------


def test_packaged_arrays_match_notice():
    images, labels = data._embedded_arrays()
    assert images.dtype == labels.dtype == np.uint8
    assert images.shape == (5000, 784) and labels.shape == (5000,)
    assert hashlib.sha256(images.tobytes()).hexdigest() == EMBEDDED_IMAGES_SHA256
    assert hashlib.sha256(labels.tobytes()).hexdigest() == EMBEDDED_LABELS_SHA256


@pytest.mark.parametrize("n_test", [10, 1000, 2500])
def test_embedded_split_shapes_dtypes_and_range(n_test):
    split = embedded_split(n_test)
    assert split.x_train.shape == (5000 - n_test, 784) and split.x_test.shape == (n_test, 784)
    assert split.y_train.shape == (5000 - n_test,) and split.y_test.shape == (n_test,)
    assert split.x_train.dtype == split.x_test.dtype == np.float32
    assert split.y_train.dtype == split.y_test.dtype == np.int32
    for x in (split.x_train, split.x_test):
        assert x.min() == 0.0 and x.max() == 1.0
    assert np.array_equal(np.bincount(split.y_test, minlength=10), np.full(10, n_test // 10))
    assert np.array_equal(np.bincount(split.y_train, minlength=10), np.full(10, 500 - n_test // 10))


def test_embedded_split_train_and_test_are_disjoint_and_cover_the_sample():
    split = embedded_split()
    train = {row.tobytes() for row in split.x_train}
    test = {row.tobytes() for row in split.x_test}
    assert len(train) == 4000 and len(test) == 1000  # the sample has no duplicate images
    assert not train & test
    images, _ = data._embedded_arrays()
    assert train | test == {(row.astype(np.float32) / np.float32(255)).tobytes() for row in images}


def test_embedded_split_is_shuffled():
    split = embedded_split()
    # Sorted labels would mean the class-ordered file leaked through.
    assert np.any(np.diff(split.y_train) < 0) and np.any(np.diff(split.y_test) < 0)


def test_embedded_split_is_deterministic():
    first = embedded_split()
    data._embedded_split.cache_clear()
    data._embedded_arrays.cache_clear()
    second = embedded_split()
    assert first is not second
    assert split_digest(first) == split_digest(second) == DEFAULT_SPLIT_SHA256


def test_embedded_split_is_identical_in_a_fresh_process():
    code = (
        "import hashlib\n"
        "from grader.data import embedded_split\n"
        "digest = hashlib.sha256()\n"
        "for a in embedded_split():\n"
        "    digest.update(f'{a.dtype.str}{a.shape}'.encode()); digest.update(a.tobytes())\n"
        "print(digest.hexdigest())\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=REPO, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == split_digest(embedded_split())


def test_embedded_split_depends_on_seed():
    a, b = embedded_split(seed=0), embedded_split(seed=1)
    assert split_digest(a) != split_digest(b)
    assert {r.tobytes() for r in a.x_test} != {r.tobytes() for r in b.x_test}


def test_embedded_split_is_cached_and_read_only():
    split = embedded_split()
    assert embedded_split() is split
    for array in split:
        assert not array.flags.writeable
        with pytest.raises(ValueError, match="read-only"):
            array[0] = 0


@pytest.mark.parametrize("n_test", [0, 5, 1001, 5000, -10, 1000.0, True])
def test_embedded_split_rejects_bad_n_test(n_test):
    with pytest.raises(ValueError, match="n_test"):
        embedded_split(n_test)


def test_embedded_split_rejects_non_integer_seed():
    with pytest.raises(TypeError):
        embedded_split(seed=1.5)


def test_data_module_imports_neither_jax_nor_mlxtend_nor_sklearn_at_load():
    tree = ast.parse(Path(data.__file__).read_text())
    top_level = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            top_level.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            top_level.add(node.module.split(".")[0])
    assert not top_level & {"jax", "jaxlib", "mlxtend", "sklearn"}, top_level


# --- read_idx ------------------------------------------------------------------


@needs_t10k
def test_read_idx_on_mnist_t10k():
    images, labels = read_idx(T10K_IMAGES), read_idx(T10K_LABELS)
    assert images.shape == (10000, 28, 28) and images.dtype == np.uint8
    assert labels.shape == (10000,) and labels.dtype == np.uint8
    assert np.bincount(labels, minlength=10).tolist() == MNIST_TEST_COUNTS


def test_read_idx_reads_uncompressed_and_gzipped_files(tmp_path):
    images = np.arange(2 * 28 * 28, dtype=np.uint32).astype(np.uint8).reshape(2, 28, 28)
    (tmp_path / "plain").write_bytes(idx_bytes(images))
    (tmp_path / "zipped.gz").write_bytes(gzip.compress(idx_bytes(images)))
    assert np.array_equal(read_idx(tmp_path / "plain"), images)
    assert np.array_equal(read_idx(tmp_path / "zipped.gz"), images)


@pytest.mark.parametrize(
    "content, problem",
    [
        (b"\x00\x00\x08\x02" + (1).to_bytes(4, "big") * 2 + b"\x00", "bad magic number 0x00000802"),
        (b"\x00\x00\x0d\x03" + (1).to_bytes(4, "big") * 3 + b"\x00" * 4, "bad magic number 0x00000d03"),
        (idx_bytes(np.zeros((10, 28, 28), np.uint8))[:-784], "truncated"),
        (idx_bytes(np.zeros(10, np.uint8)) + b"\x00", "trailing data"),
        (b"\x00\x00\x08\x03" + (10).to_bytes(4, "big"), "truncated header"),
        (b"\x00\x00", "too short"),
        (gzip.compress(idx_bytes(np.zeros(1000, np.uint8)))[:-12], "gzip"),
    ],
    ids=["bad-ndim", "bad-dtype", "truncated-payload", "trailing-data", "truncated-header", "empty", "truncated-gzip"],
)
def test_read_idx_rejects_corrupt_files(tmp_path, content, problem):
    path = tmp_path / "corrupt-idx3-ubyte"
    path.write_bytes(content)
    with pytest.raises(ValueError, match=problem) as err:
        read_idx(path)
    assert str(path) in str(err.value)


# --- load_mnist --------------------------------------------------------------------


@needs_t10k
@pytest.mark.parametrize("gzipped", [True, False])
def test_load_mnist_from_idx_folder(tmp_path, gzipped):
    for prefix in ("train", "t10k"):
        for source, kind in ((T10K_IMAGES, "images-idx3"), (T10K_LABELS, "labels-idx1")):
            name = f"{prefix}-{kind}-ubyte"
            if gzipped:
                (tmp_path / f"{name}.gz").symlink_to(source)
            else:
                (tmp_path / name).write_bytes(gzip.decompress(source.read_bytes()))
    split = load_mnist(tmp_path)
    for x, y in ((split.x_train, split.y_train), (split.x_test, split.y_test)):
        assert x.shape == (10000, 784) and x.dtype == np.float32
        assert y.shape == (10000,) and y.dtype == np.int32
        assert x.min() == 0.0 and x.max() == 1.0
        assert np.bincount(y, minlength=10).tolist() == MNIST_TEST_COUNTS
    assert np.array_equal(split.x_test, split.x_train)
    assert np.array_equal(split.x_test.reshape(-1, 28, 28), read_idx(T10K_IMAGES) / np.float32(255))


@pytest.mark.parametrize("flat", [False, True], ids=["28x28", "784"])
def test_load_mnist_from_keras_npz(tmp_path, flat):
    arrays = keras_arrays(flat)
    np.savez(tmp_path / "mnist.npz", **arrays)
    split = load_mnist(str(tmp_path / "mnist.npz"))
    assert split.x_train.shape == (30, 784) and split.x_test.shape == (20, 784)
    assert split.x_train.dtype == np.float32 and split.y_train.dtype == np.int32
    np.testing.assert_array_equal(split.x_train * 255, arrays["x_train"].reshape(30, 784).astype(np.float32))
    np.testing.assert_array_equal(split.y_test, arrays["y_test"])


@pytest.mark.parametrize(
    "change, problem",
    [
        ({"y_train": np.arange(30) % 11}, "y_train must hold integer labels 0..9"),
        ({"x_test": np.zeros((20, 27, 28), np.uint8)}, r"x_test has shape \(20, 27, 28\)"),
        ({"x_train": np.zeros((30, 784), np.float32)}, "x_train must hold integer pixels 0..255"),
        ({"y_test": np.zeros(19, np.int64)}, r"y_test has shape \(19,\); expected \(20,\)"),
    ],
    ids=["label-10", "27x28", "float-pixels", "label-count"],
)
def test_load_mnist_rejects_malformed_npz(tmp_path, change, problem):
    np.savez(tmp_path / "mnist.npz", **{**keras_arrays(flat=False), **change})
    with pytest.raises(ValueError, match=problem):
        load_mnist(tmp_path / "mnist.npz")


def test_load_mnist_rejects_npz_without_keras_keys(tmp_path):
    np.savez(tmp_path / "mnist.npz", images=np.zeros((1, 784), np.uint8))
    with pytest.raises(ValueError, match=r"missing keys \['x_train', 'y_train', 'x_test', 'y_test'\]"):
        load_mnist(tmp_path / "mnist.npz")


def assert_names_the_three_fixes(message: str):
    assert "load_mnist(\"path/to/folder\")" in message and "train-images-idx3-ubyte" in message
    assert "load_mnist(\"path/to/mnist.npz\")" in message and "x_train, y_train, x_test, y_test" in message
    assert "load_mnist(allow_download=True)" in message


def test_load_mnist_missing_path_raises_mnist_not_found(tmp_path):
    missing = tmp_path / "no-such-folder"
    with pytest.raises(MnistNotFound) as err:
        load_mnist(missing)
    assert isinstance(err.value, FileNotFoundError)
    assert f"{missing} does not exist" in str(err.value)
    assert_names_the_three_fixes(str(err.value))


def test_load_mnist_folder_without_idx_files_names_the_missing_ones(tmp_path):
    (tmp_path / "train-images-idx3-ubyte.gz").write_bytes(gzip.compress(idx_bytes(np.zeros((1, 28, 28), np.uint8))))
    with pytest.raises(MnistNotFound) as err:
        load_mnist(tmp_path)
    message = str(err.value)
    lacking = "train-labels-idx1-ubyte[.gz], t10k-images-idx3-ubyte[.gz], t10k-labels-idx1-ubyte[.gz]"
    assert f"{tmp_path} lacks {lacking}" in message
    assert_names_the_three_fixes(message)


def test_load_mnist_without_source_or_download_raises_mnist_not_found():
    with pytest.raises(MnistNotFound, match="allow_download is False") as err:
        load_mnist(allow_download=False)
    assert_names_the_three_fixes(str(err.value))


def test_load_mnist_rejects_other_files(tmp_path):
    (tmp_path / "mnist.csv").write_text("0,0\n")
    with pytest.raises(ValueError, match="expected a folder of IDX files or an .npz file"):
        load_mnist(tmp_path / "mnist.csv")
