"""The environment a child runs in: nothing of the grader's own but what it needs, and JAX's settings.

Its own module, importing nothing heavy, so that a grade can start the fork server
(:func:`grader.sandbox.forkserver.start_shared`) before it imports numpy: every run waits for that
server's import of JAX.
"""

from __future__ import annotations

import os
from pathlib import Path

from grader.sandbox import machine


def run_env(workdir: Path, compilation_cache: Path | None = None, cache_writable: bool = True) -> dict[str, str]:
    """The variables of a child working in ``workdir``, with JAX's persistent cache in ``compilation_cache``."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(workdir),
        "TMPDIR": str(workdir),
        "LANG": "C.UTF-8",
        "PYTHONHASHSEED": "0",
        "PYTHONDONTWRITEBYTECODE": "1",
        "JAX_PLATFORMS": "cpu",
        "TF_CPP_MIN_LOG_LEVEL": "3",
        "JAX_ENABLE_X64": "0",
        "MPLBACKEND": "Agg",  # a submission's plots are drawn nowhere and never block (grader.harness.child)
    }
    if compilation_cache is not None:
        # Eager JAX compiles every primitive on first use; the cache makes that a file read.
        env["JAX_COMPILATION_CACHE_DIR"] = str(compilation_cache)
        # Keep everything compiled, or (a run that may only read the folder) nothing: no compilation takes a year.
        env["JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS"] = "0" if cache_writable else "3e7"
        env["JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES"] = "0"
        # Keep the cache folder's path out of the cache keys, so a copy of the folder still hits.
        env["JAX_PERSISTENT_CACHE_ENABLE_XLA_CACHES"] = "none"
    for name in ("VIRTUAL_ENV", "XLA_FLAGS"):
        if name in os.environ:
            env[name] = os.environ[name]
    env.update(machine.child_env(workdir))
    return env


def server_env() -> dict[str, str]:
    """The fork server's variables: a run's, working from ``/``; each child it forks is given its own."""
    return run_env(Path("/"))
