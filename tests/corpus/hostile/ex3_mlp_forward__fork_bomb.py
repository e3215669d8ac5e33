"""Forks (a bounded bomb: 64 sleeping children, on the first call) and starts programs; confined, no new
process can exist."""
import os
import subprocess
import time

import jax

EXPECT = {"status": "error", "max_points": 0, "confined": True}


def _spawn() -> int:
    started = 0
    for _ in range(64):
        try:
            pid = os.fork()
        except OSError:
            break
        if pid == 0:
            time.sleep(30)
            os._exit(0)
        started += 1
    try:
        subprocess.Popen(["sleep", "30"])
        started += 1
    except OSError:
        pass
    return started


_STARTED = []


def mlp_forward(params, x):
    if not _STARTED:
        _STARTED.append(_spawn())
    if not _STARTED[0]:
        raise PermissionError("could start no process")
    names = sorted(params, key=lambda name: int(name[len("layer"):]))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    return x @ params[names[-1]]["w"] + params[names[-1]]["b"]
