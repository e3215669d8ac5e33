# BLIND-SET: 42
# EXERCISE: ex2
# WHAT: Correct. per_example_grads vmaps jax.grad(loss_fn) over x[:, None, :] and y[:, None], so each mapped call sees a batch of one; per_example_grad_norms computes each example's norm as exp(0.5 * logsumexp(log g^2)) over all leaves (an overflow-safe form of sqrt(sum g^2), exact for zero entries since log 0 = -inf); the index is int(jnp.argmax(norms)).
# SHOULD-SAY: Nothing to fix: the gradients match the per-example gradients leaf by leaf with a leading axis B, the norms equal the global L2 norm over weights and biases, and the index is a Python int pointing at the largest norm.
"""Exercise 2: per-example gradients with jax.vmap."""

from __future__ import annotations

import jax
import jax.numpy as jnp
from jax.scipy.special import logsumexp

Array = jax.Array


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes; ``y`` is int32 ``(B,)``."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


def per_example_grads(params, x, y):
    """Per-example gradients.

    Each row becomes its own batch of one ((B, 1, 784) and (B, 1)), and
    jax.vmap maps jax.grad(loss_fn) over the leading axis with params shared.
    """
    if x.ndim != 2 or y.shape != (x.shape[0],):
        raise ValueError(f"expected x (B, D) and y (B,), got {x.shape} and {y.shape}")
    x_rows = x[:, None, :]
    y_rows = y[:, None]
    return jax.vmap(jax.grad(loss_fn), in_axes=(None, 0, 0))(params, x_rows, y_rows)


def per_example_grad_norms(grads):
    """Global L2 norm per example, computed in log space to avoid overflow.

    ||g|| = sqrt(sum g^2) = exp(0.5 * logsumexp(log g^2)); zero entries give
    log 0 = -inf, which logsumexp ignores.
    """
    leaves = jax.tree.leaves(grads)
    batch = leaves[0].shape[0]
    flat = jnp.concatenate([g.reshape(batch, -1) for g in leaves], axis=1)
    log_sq = jnp.log(jnp.square(flat))
    return jnp.exp(0.5 * logsumexp(log_sq, axis=1))


def largest_gradient_example(params, x, y) -> int:
    """Python int index of the example with the largest gradient norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return int(jnp.argmax(norms))
