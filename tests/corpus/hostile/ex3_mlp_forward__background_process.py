"""Starts a process in a new session (escaping the process group) that would outlive grading; confined, none starts."""
import subprocess
import sys

import jax

EXPECT = {"status": "error", "leftover": "sleep 987653", "confined": True}

subprocess.Popen(["sleep", "987653"], start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def mlp_forward(params, x):
    names = sorted(params, key=lambda name: int(name[len("layer"):]))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    return x @ params[names[-1]]["w"] + params[names[-1]]["b"]
