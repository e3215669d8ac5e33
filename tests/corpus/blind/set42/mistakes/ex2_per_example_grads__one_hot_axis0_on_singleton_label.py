# BLIND-SET: 42
# EXERCISE: ex2
# WHAT: The per-example loss builds its target with jax.nn.one_hot(yi[None], 10, axis=0), which gives shape (10, 1) instead of (1, 10); broadcasting against the (1, 10) log-probabilities makes the loss -mean(log_softmax(logits)) over the 10 classes, independent of the label. Every per-example gradient (and so the norms and the largest index) is wrong.
# SHOULD-SAY: The per-example loss ignores the label: jax.nn.one_hot(..., axis=0) puts the class axis first, so the (10, 1) one-hot broadcasts with the (1, 10) log-probs and the sum/mean average all classes. Drop axis=0 (the class axis is the last one by default), or call loss_fn(params, xi[None], yi[None]) directly.
"""Exercise 2: per-example gradients with jax.vmap."""

from __future__ import annotations

import jax
import jax.numpy as jnp

Array = jax.Array
NUM_CLASSES = 10


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes; ``y`` is int32 ``(B,)``."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


def _example_loss(params, xi: Array, yi: Array) -> Array:
    """Cross-entropy of a single example, written as a batch of one."""
    logits = forward(params, xi[None, :])              # (1, 10)
    log_probs = jax.nn.log_softmax(logits, axis=-1)    # (1, 10)
    # one-hot over the class axis
    targets = jax.nn.one_hot(yi[None], NUM_CLASSES, axis=0)
    return -jnp.mean(jnp.sum(log_probs * targets, axis=-1))


def per_example_grads(params, x, y):
    """Gradient of the loss on each example alone, stacked on a leading batch axis."""
    grad_fn = jax.grad(_example_loss)
    # params are shared (None); x and y are mapped over their first axis.
    return jax.vmap(grad_fn, in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    leaves = jax.tree.leaves(grads)
    batch = leaves[0].shape[0]
    sq = sum(jnp.sum(jnp.reshape(g, (batch, -1)) ** 2, axis=1) for g in leaves)
    return jnp.sqrt(sq)


def largest_gradient_example(params, x, y) -> int:
    """Index (Python int) of the example with the largest gradient norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return int(jnp.argmax(norms))
