"""Tries to poison the compilation cache that every run of the grade reads: overwrite, delete and add entries.

A run reads its exercise's part of the cache in place (no copy), so a write there would reach every later
run, the reference's included. The test checks that the folder is byte for byte the same after grading.
"""
import os
from pathlib import Path

import jax

EXPECT = {"status": "error", "max_points": 0, "confined": True}


def _poison() -> int:
    folder = Path(jax.config.jax_compilation_cache_dir or os.environ.get("JAX_COMPILATION_CACHE_DIR", ""))
    done = 0
    attempts = [lambda: (folder / "jit_planted-0-cache").write_bytes(b"planted")]
    for entry in sorted(folder.glob("*-cache")) if folder.is_dir() else []:
        attempts += [lambda e=entry: e.write_bytes(b"poisoned"), lambda e=entry: os.truncate(e, 0),
                     lambda e=entry: e.unlink(), lambda e=entry: e.rename(e.with_name(e.name + ".moved"))]
    for attempt in attempts:
        try:
            attempt()
            done += 1
        except OSError:
            pass
    return done


def mlp_forward(params, x):
    if not _poison():
        raise PermissionError("could change nothing in the compilation cache")
    names = sorted(params, key=lambda name: int(name[len("layer"):]))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    return x @ params[names[-1]]["w"] + params[names[-1]]["b"]
