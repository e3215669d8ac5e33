# BLIND-SET: 42
# EXERCISE: ex2
# WHAT: per_example_grad_norms builds a list of per-example leaf norms, layer by layer with the weight first ([||g_l1.w||, ||g_l1.b||, ||g_l2.w||, ...]), and sums their squares with jax.tree.reduce(lambda acc, n: acc + n**2, leaf_norms) without an initializer, so the first entry (layer1's weight norm, the largest) seeds the accumulator unsquared: the result is sqrt(||g_l1.w|| + sum of the other leaves' squared norms), far below the true norm, and the argmax can move.
# SHOULD-SAY: The norms are not the global L2 norm: jax.tree.reduce without an initializer starts from the first leaf itself, so the lambda never squares it and layer1's weight-gradient norm enters as ||g|| instead of ||g||^2. Pass an initializer (jax.tree.reduce(f, leaf_norms, jnp.zeros(B))), or square every leaf norm first and then sum.
"""Exercise 2: per-example gradients with jax.vmap."""

from __future__ import annotations

import jax
import jax.numpy as jnp

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
    """Per-example gradients: vmap of grad over a batch-of-one loss."""

    def single_loss(p, xi, yi):
        return loss_fn(p, xi[jnp.newaxis], yi[jnp.newaxis])

    return jax.vmap(jax.grad(single_loss), in_axes=(None, 0, 0))(params, x, y)


def _per_example_norm(g: Array) -> Array:
    """L2 norm of one leaf for each example: (B, ...) -> (B,)."""
    return jnp.linalg.norm(g.reshape(g.shape[0], -1), axis=1)


def _leaf_norms(grads) -> list[Array]:
    """Per-example norms of every leaf, layer by layer (weights, then biases)."""
    return [_per_example_norm(layer[k]) for layer in grads.values() for k in ("w", "b")]


def per_example_grad_norms(grads):
    """Global L2 norm per example: sqrt of the sum over leaves of each leaf's squared norm."""
    leaf_norms = _leaf_norms(grads)
    total_sq = jax.tree.reduce(lambda acc, n: acc + n**2, leaf_norms)
    return jnp.sqrt(total_sq)


def largest_gradient_example(params, x, y) -> int:
    """Index of the example whose gradient has the largest global norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return int(jnp.argmax(norms))
