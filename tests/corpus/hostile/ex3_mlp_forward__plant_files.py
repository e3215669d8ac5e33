"""Tries to leave files where later processes would find them: site-packages, /tmp, the grader, the caches.

A ``.pth`` file in site-packages runs in every later Python of that environment; this one holds only a
comment. The test checks that none of these files exists after grading.
"""
import glob
import os
import sys
import sysconfig
from pathlib import Path

import jax

EXPECT = {"status": "error", "max_points": 0, "confined": True}
NAME = "zz_jax_grader_planted"


def _targets() -> list[Path]:
    places = [Path(sysconfig.get_paths()["purelib"]) / f"{NAME}.pth", Path("/tmp") / NAME, Path("/var/tmp") / NAME,
              Path("/root/.cache/jax-autograder") / NAME, Path(sys.path[0]).parent / NAME]
    frame = sys._getframe()
    while frame is not None:
        path = Path(frame.f_code.co_filename)
        if path.name == "child.py" and path.parent.name == "harness":
            places += [path.parents[1] / NAME, path.parents[2] / NAME]
        frame = frame.f_back
    places += [Path(p) / NAME for p in glob.glob("/tmp/pytest-of-*/pytest-*/grader-cache")]
    return places


def _plant() -> int:
    planted = 0
    for target in _targets():
        try:
            target.write_text("# planted by a submission\n")
            planted += 1
        except OSError:
            pass
    return planted


def mlp_forward(params, x):
    if not _plant():
        raise PermissionError("could write nothing outside its own folders")
    names = sorted(params, key=lambda name: int(name[len("layer"):]))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    return x @ params[names[-1]]["w"] + params[names[-1]]["b"]
