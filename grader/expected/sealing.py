"""Sealing: run the reference code through the harness and keep what it observed (``python -m grader seal``).

``python -m grader seal [--reference DIR] [--seed N] OUT`` seals into OUT (the
format is :mod:`grader.expected.sealed`'s). The package's own sealed
reference, ``grader/_sealed/``, is made with ``python -m grader seal
grader/_sealed``.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from grader import inputs as grader_inputs
from grader.exercises import REFERENCED
from grader.expected import sealed
from grader.expected.cache import code_digest, find_code_reference, load_reference
from grader.observations import Limits


class SealError(RuntimeError):
    """``seal`` cannot do what was asked; the message says why and what to do."""


def seal(out: Path, reference_dir: Path | None = None, seed: int | None = None, *, cache_dir: Path | None = None,
         use_cache: bool = True, limits: Limits = Limits(), jobs: int = 0) -> sealed.Manifest:
    """Run the reference code on the inputs (public, or drawn from ``seed``) and seal what it observed."""
    out = Path(out)
    code = find_code_reference(reference_dir)
    if code is None:
        where = f"{reference_dir} does not hold" if reference_dir else "cannot find"
        raise SealError(f"seal {where} the reference solutions (the five exercise files): pass "
                           "--reference DIR, set JAX_GRADER_REFERENCE, or run it from a checkout with reference/")
    if out.exists() and not sealed.is_sealed(out) and (not out.is_dir() or any(out.iterdir())):
        raise SealError(f"{out} exists and is not a sealed reference; seal into a new or empty folder")
    if out.resolve() == code.resolve():
        raise SealError(f"{out} holds the reference code; seal into another folder")
    with tempfile.TemporaryDirectory(prefix="jax-grader-seal-") as tmp:
        inputs_path = grader_inputs.write(Path(tmp) / "inputs.npz", seed)
        with ThreadPoolExecutor(max_workers=jobs or os.cpu_count() or 1) as pool:
            ref = load_reference(REFERENCED, inputs_path, Path(tmp), pool, reference_dir=code, cache_dir=cache_dir,
                                 use_cache=use_cache, limits=limits)
        manifest = sealed.Manifest(tasks=REFERENCED, seed=seed, inputs_digest=sealed.file_digest(inputs_path),
                                   probes_digest=sealed.probes_digest(), reference_digest=code_digest(code))
        try:
            sealed.write(out, ref.root, manifest, ref.compilation_cache)
        finally:
            if not use_cache and ref.root is not None:
                shutil.rmtree(ref.root, ignore_errors=True)
    return manifest
