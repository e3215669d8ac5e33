"""Calls sys.exit while being imported."""
import sys

EXPECT = {"status": "error", "message": "sys.exit"}

sys.exit(0)


def mlp_forward(params, x):
    return x
