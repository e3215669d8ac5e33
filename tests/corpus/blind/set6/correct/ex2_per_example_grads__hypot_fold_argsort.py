# BLIND-SET: correct
# EXERCISE: ex2
# WHAT: Per-leaf norms over each example's flattened leaf are folded together with functools.reduce(jnp.hypot, ...) (hypot(a, b) = sqrt(a^2 + b^2)), and the index is the first entry of a stable argsort of the negated norms.
# SHOULD-SAY: full marks
"""Exercise 2: per-example gradients with jax.vmap over jax.grad (hypot-fold norms)."""

import functools

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


def per_example_grads(params, x, y):
    """Gradient of the loss on each example alone, stacked on a leading axis."""
    grad_one = jax.grad(lambda p, xi, yi: loss_fn(p, xi[None, :], yi[None]))
    return jax.vmap(grad_one, in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    leaves = jax.tree.leaves(grads)
    batch = leaves[0].shape[0]
    per_leaf = [jnp.linalg.norm(g.reshape(batch, -1), axis=1) for g in leaves]
    return functools.reduce(jnp.hypot, per_leaf)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return int(jnp.argsort(-norms)[0])
