"""Loops forever on the first call: the child must be killed at the time limit (10 s here, EXPECT's "timeout")."""
import jax
import jax.numpy as jnp

EXPECT = {"status": "error", "message": "time limit", "timeout": 10}


def per_example_grads(params, x, y):
    while True:
        pass


def per_example_grad_norms(grads):
    while True:
        pass


def largest_gradient_example(params, x, y):
    while True:
        pass
