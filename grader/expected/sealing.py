"""Sealing: run the reference code through the harness and keep what it observed (``python -m grader seal``).

``python -m grader seal [--reference DIR] [--seed N] OUT`` seals into OUT (the
format is :mod:`grader.expected.sealed`'s). The package's own sealed
reference, ``grader/_sealed/``, is made with ``python -m grader seal
grader/_sealed``.
"""

from __future__ import annotations

import functools
import os
import platform
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from grader import inputs as grader_inputs
from grader.exercises import REFERENCED, WARMED
from grader.expected import sealed
from grader.expected.cache import code_digest, find_code_reference, load_reference
from grader.harness import xla_options
from grader.observations import Limits


class SealError(RuntimeError):
    """``seal`` cannot do what was asked; the message says why and what to do."""


def seal(out: Path, reference_dir: Path | None = None, seed: int | None = None, *,
         limits: Limits = Limits(), jobs: int = 0) -> sealed.Manifest:
    """Run the reference code on the inputs (public, or drawn from ``seed``) and seal what it observed.

    The reference runs afresh, not from a cache, and compiles everything itself: what they compiled is sealed
    as this machine's CPU's part of the compilation cache.
    """
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
    cpu = {task: cpu_key(task) for task in (*REFERENCED, *WARMED)}
    with tempfile.TemporaryDirectory(prefix="jax-grader-seal-") as tmp:
        inputs_path = grader_inputs.write(Path(tmp) / "inputs.npz", seed)
        with ThreadPoolExecutor(max_workers=jobs or os.cpu_count() or 1) as pool:
            ref = load_reference(REFERENCED + WARMED, inputs_path, Path(tmp), pool, reference_dir=code, use_cache=False,
                                 limits=limits, start_from_shipped=False)
        manifest = sealed.Manifest(tasks=REFERENCED, seed=seed, inputs_digest=sealed.file_digest(inputs_path),
                                   probes_digest=sealed.probes_digest(), reference_digest=code_digest(code))
        try:
            sealed.write(out, ref.root, manifest, ref.compilation_cache, cpu)
        finally:
            shutil.rmtree(ref.root, ignore_errors=True)
    return manifest


_CPU_KEY = ("import jax\nfrom jax._src.lib import xla_client\n"
            "print(xla_client.get_topology_for_devices(jax.devices()).fingerprint())")


#: The seal's name for the programs every x86-64 CPU with AVX2 of this system loads (:data:`sealed.CPUS`).
PORTABLE_KEY = f"portable-{xla_options.PORTABLE_CPU}"


def cpu_key(task: str) -> str:
    """This machine's CPU as ``task``'s runs key what they compile: :data:`PORTABLE_KEY` where they compile for any
    x86-64 CPU with AVX2 (:func:`~grader.harness.xla_options.for_exercise`), else XLA's topology fingerprint."""
    if xla_options.PORTABLE_ISA[0] in xla_options.for_exercise(task):
        return PORTABLE_KEY
    return _own_cpu_key()


@functools.cache
def _own_cpu_key() -> str:
    """XLA's topology fingerprint of this machine's CPU, as JAX keys compiled programs (read in a child: the grading
    process never imports jax), or its architecture and processor name if JAX cannot say."""
    try:
        done = subprocess.run([sys.executable, "-c", _CPU_KEY], capture_output=True, text=True, timeout=300,
                              env={**os.environ, "JAX_PLATFORMS": "cpu"}, check=True)
        return f"xla-{int(done.stdout.split()[-1])}"
    except (OSError, subprocess.SubprocessError, ValueError, IndexError):
        return f"{platform.machine()}-{platform.processor() or 'cpu'}"
