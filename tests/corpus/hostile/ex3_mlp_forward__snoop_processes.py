"""Reads the grading process's environment and command line, the grade's scratch folder and the home folder."""
import os
import sys
from pathlib import Path

import jax

EXPECT = {"status": "error", "max_points": 0, "confined": True, "message": "nothing outside its own inputs"}


def _snoop() -> list[str]:
    leaked = []
    for attempt in (lambda: open(f"/proc/{os.getppid()}/environ", "rb").read(),
                    lambda: open(f"/proc/{os.getppid()}/cmdline", "rb").read(),
                    lambda: os.listdir(f"/proc/{os.getppid()}/fd"),
                    lambda: os.listdir(Path(sys.path[0]).parent),  # the grade's scratch: inputs, other runs
                    lambda: os.listdir("/root"),
                    lambda: os.listdir("/home"),
                    lambda: open("/etc/shadow").read()):
        try:
            attempt()
            leaked.append("leaked")
        except OSError:
            pass
    return leaked


def mlp_forward(params, x):
    if not _snoop():
        raise PermissionError("could read nothing outside its own inputs")
    names = sorted(params, key=lambda name: int(name[len("layer"):]))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    return x @ params[names[-1]]["w"] + params[names[-1]]["b"]
