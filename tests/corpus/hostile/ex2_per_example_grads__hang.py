"""Loops forever on the first call: the child must be killed at the time limit (6 s here, EXPECT's "timeout")."""
import jax
import jax.numpy as jnp

EXPECT = {"status": "error", "message": "time limit", "timeout": 6}


def per_example_grads(params, x, y):
    while True:
        pass


def per_example_grad_norms(grads):
    while True:
        pass


def largest_gradient_example(params, x, y):
    while True:
        pass
