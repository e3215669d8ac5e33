# BLIND-SET: 42
# EXERCISE: ex2
# WHAT: per_example_grad_norms "also accepts a single gradient": if the first leaf has ndim < 3 it adds a leading axis of 1 to every leaf. jax.tree.leaves puts layer1/b first, whose batched shape (B, 256) has ndim 2, so the batched tree is always treated as one example; the result is a (1,) array holding the norm of the whole batch of gradients, and largest_gradient_example always returns 0.
# SHOULD-SAY: per_example_grad_norms returns shape (1,) instead of (B,): its "unbatched gradient" check looks at jax.tree.leaves(grads)[0], which is layer1's bias ((B, 256), ndim 2) because leaves come in sorted key order ("b" before "w"), so it wraps the per-example tree in an extra axis and takes one norm over everything. Remove the guard (the input is always per-example) and reduce every leaf over all axes but the first.
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
    """One gradient per example, vectorised with jax.vmap over jax.grad."""

    def example_loss(p, xi, yi):
        # loss_fn expects a batch, so give it a batch of one.
        return loss_fn(p, jnp.expand_dims(xi, 0), jnp.expand_dims(yi, 0))

    return jax.vmap(jax.grad(example_loss), in_axes=(None, 0, 0))(params, x, y)


def _ensure_batched(grads):
    """Accept either per-example grads or a single gradient tree.

    A single gradient has 2-D weight leaves; per-example ones have a leading
    batch axis on top (3-D weights).
    """
    first = jax.tree.leaves(grads)[0]
    if first.ndim < 3:
        return jax.tree.map(lambda g: g[None], grads)
    return grads


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient, over weights and biases."""
    grads = _ensure_batched(grads)
    sq_per_leaf = [
        jnp.sum(jnp.square(g), axis=tuple(range(1, g.ndim))) for g in jax.tree.leaves(grads)
    ]
    return jnp.sqrt(jnp.sum(jnp.stack(sq_per_leaf, axis=0), axis=0))


def largest_gradient_example(params, x, y) -> int:
    """Python int index of the example with the largest gradient norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return int(jnp.argmax(norms))
