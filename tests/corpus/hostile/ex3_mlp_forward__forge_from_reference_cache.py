"""Walks the frames to the child's results folder, copies the reference's cached observations there, and leaves.

Unconfined, the grader would read the reference's own answers as this submission's and give full marks.
"""
import glob
import os
import shutil
import sys
from pathlib import Path

EXPECT = {"status": "error", "max_points": 0, "confined": True}


def _results_folder() -> Path:
    frame = sys._getframe()
    while frame is not None:
        if "out_dir" in frame.f_locals and Path(frame.f_code.co_filename).name == "child.py":
            return Path(frame.f_locals["out_dir"])
        frame = frame.f_back
    raise RuntimeError("no results folder found")


def _cached_reference() -> list[str]:
    places = ["/root/.cache/jax-autograder", os.path.expanduser("~/.cache/jax-autograder"),
              *glob.glob("/tmp/pytest-of-*/pytest-*/grader-cache"), *glob.glob("/tmp/pytest-of-*/pytest-*/*/cache")]
    try:
        environ = open(f"/proc/{os.getppid()}/environ", "rb").read().split(b"\0")
        places += [e.split(b"=", 1)[1].decode() for e in environ if e.startswith(b"JAX_GRADER_CACHE=")]
    except OSError:
        pass
    return [folder for place in places for folder in glob.glob(f"{place}/reference-*/ex3")]


_found = _cached_reference()
if not _found:
    raise PermissionError("no reference observations could be read")
for _name in ("observations.json", "observations.npz"):
    shutil.copy(Path(_found[0]) / _name, _results_folder() / _name)
os._exit(0)
