"""Calls os._exit(0) from time_steps: the process vanishes without reporting."""
import os

EXPECT = {"status": "error", "message": "before reporting any results"}


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    os._exit(0)


def jit_speedup(n_steps=100):
    os._exit(0)
