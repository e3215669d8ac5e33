"""Tries to reach into the grader to change how it is judged."""
import grader.checks.ex3 as checks  # noqa: F401

EXPECT = {"status": "error", "message": "may not import 'grader"}


def mlp_forward(params, x):
    return x
