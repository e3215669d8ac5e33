"""Kills the grading process, its process group, and attaches to it with ptrace."""
import ctypes
import os
import signal

import jax

EXPECT = {"status": "error", "max_points": 0, "confined": True}


def _attack() -> bool:
    hit = False
    for attempt in (lambda: os.kill(os.getppid(), signal.SIGKILL),
                    lambda: os.killpg(os.getpgid(os.getppid()), signal.SIGKILL),
                    lambda: os.kill(os.getppid(), signal.SIGSTOP)):
        try:
            attempt()
            hit = True
        except OSError:
            pass
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.ptrace(16, os.getppid(), None, None) == 0:  # PTRACE_ATTACH
        hit = True
    return hit


def mlp_forward(params, x):
    if not _attack():
        raise PermissionError("could signal nothing outside its own process")
    names = sorted(params, key=lambda name: int(name[len("layer"):]))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    return x @ params[names[-1]]["w"] + params[names[-1]]["b"]
