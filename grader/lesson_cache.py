"""The lesson's answers a submission's run gave, kept by the submission's content (shown, never scored).

ex2's run also answers the lesson's question (which of 32 MNIST images has the largest gradient), which costs
that run about a sixth of its CPU. A student grades the same file again and again (``--watch``, a notebook, a
second run after fixing another exercise): the answer is kept under a key of what it depends on (the exercise's
source, the inputs, the code that observes, the libraries' versions), and a run whose key is kept skips the
question and takes the kept answer. Only arrays are kept (an answer that raised is asked again), in the user's
cache folder, read without pickles.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path

import numpy as np

from grader.exercises import BY_ID
from grader.submission import Submission

#: The observations of each run that answer a lesson's question and nothing a check reads.
ANSWERS: dict[str, tuple[str, ...]] = {"ex2": ("mnist/logits", "mnist/norms")}


def key(task: str, submission: Submission, inputs_path: Path) -> str:
    """What the task's lesson answers depend on, hashed."""
    from grader.expected.sealed import library_versions, probes_digest

    digest = hashlib.sha256()
    for module in BY_ID[task].modules:
        digest.update(module.encode() + b"\0" + submission.sources.get(module, "").encode() + b"\0")
    digest.update(Path(inputs_path).read_bytes())
    digest.update(probes_digest().encode())
    digest.update(json.dumps(library_versions(), sort_keys=True).encode())
    return digest.hexdigest()[:32]


def _path(cache_dir: Path, task: str, name: str) -> Path:
    return Path(cache_dir) / "lesson" / f"{task}-{name}.npz"


def load(cache_dir: Path, task: str, name: str) -> dict[str, np.ndarray] | None:
    """The task's answers kept under ``name``, or None (none kept, or a file that does not read as them)."""
    try:
        with np.load(_path(cache_dir, task, name), allow_pickle=False) as kept:
            answers = {observation: np.asarray(kept[observation.replace("/", "__")])
                       for observation in ANSWERS.get(task, ())}
    except (OSError, KeyError, ValueError):
        return None
    return answers or None


def store(cache_dir: Path, task: str, name: str, values: dict) -> None:
    """Keep the task's answers from ``values`` under ``name`` when every one is an array; a cache that cannot be
    written is left as it is (the next run asks again)."""
    answers = {observation: values.get(observation) for observation in ANSWERS.get(task, ())}
    if not answers or not all(isinstance(a, np.ndarray) and a.dtype.kind in "biuf" for a in answers.values()):
        return
    path = _path(cache_dir, task, name)
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".npz")
        with os.fdopen(fd, "wb") as out:
            np.savez(out, **{k.replace("/", "__"): v for k, v in answers.items()})
        os.replace(tmp, path)
    except OSError:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)
