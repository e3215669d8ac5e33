"""What a submission's own exercise runs compiled, kept for that submission's next grade.

A run loads from JAX's persistent compilation cache what the reference's runs compiled on this machine. A
sealed reference (the one an installed grader ships) was compiled elsewhere: its entries load on every x86-64 CPU
with AVX2 (the runs but the training's compile for that and key what they compile so:
``grader.harness.xla_options.portable``), but on any other CPU (Apple silicon, ARM Linux) every run compiles
every program again, about two and a half times the grade's time. There, a student's single grade lets its runs
keep what they compile, in a folder of the user's cache of its own per submission path and exercise (started as
a copy of the sealed reference's, whose entries load where the CPU is of the same kind), so the next grade of
the same folder loads it.

Only a student's own grades of the public inputs keep anything (``Options.keep_compiled``): what a run writes
there is read by later runs of the same submission path only, never by the reference's runs nor by a batch (a
batch never sets it, so no submission's runs read what another's wrote), and never under a secret seed (the
official grade). A folder that has grown past :data:`MAX_BYTES` is removed after the run.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path

#: A kept folder larger than this after a run is removed (it is made again by the next run): a run's own
#: programs take a few MB; anything far above that is not JAX's.
MAX_BYTES = 256 * 2**20


def folder(cache_dir: Path, origin: str | Path, task: str, start_from: Path | None) -> Path | None:
    """The folder ``task``'s runs of the submission at ``origin`` keep their compiled programs in, made (as a copy
    of ``start_from``, the sealed reference's part for ``task``, if any) when missing; None when it cannot be made
    (the runs then compile everything, as without it)."""
    from grader.expected.sealed import library_versions

    digest = hashlib.sha256(os.path.abspath(str(origin)).encode() + b"\0" + task.encode())
    digest.update(json.dumps(library_versions(), sort_keys=True).encode())
    path = Path(cache_dir) / "compiled" / f"{task}-{digest.hexdigest()[:24]}"
    if path.is_dir() and not path.is_symlink():
        return path
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{task}-", dir=path.parent))
    except OSError:
        return None
    try:
        if start_from is not None and start_from.is_dir():
            shutil.copytree(start_from, staging, dirs_exist_ok=True, symlinks=True)
        staging.rename(path)  # another grade that got there first keeps its own
    except OSError:
        shutil.rmtree(staging, ignore_errors=True)
    return path if path.is_dir() and not path.is_symlink() else None


def size(path: Path) -> int:
    """Bytes in the files under ``path``, links not followed."""
    total = 0
    for root, dirs, files in os.walk(path, followlinks=False):
        for name in files:
            try:
                total += os.lstat(os.path.join(root, name)).st_size
            except OSError:
                pass
    return total


def trim(path: Path) -> None:
    """Remove ``path`` when it holds more than :data:`MAX_BYTES`: a run may have filled it with anything."""
    if path.is_dir() and not path.is_symlink() and size(path) > MAX_BYTES:
        shutil.rmtree(path, ignore_errors=True)
