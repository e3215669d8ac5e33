# BLIND-SET: 27
# EXERCISE: ex2
# WHAT: Correct rewrite: params are closed over and jax.vmap maps a one-example jax.grad over (x, y) with default in_axes; norms are the square root of per-leaf sums of squares over every non-batch axis, added with functools.reduce; the index is int(norms.argmax()).
# SHOULD-SAY: Nothing to fix: per-example gradients with a leading batch axis, vectorised with vmap, global norms over all weights and biases, and a Python int index.
"""Exercise 2 (reference): per-example gradients with jax.vmap over jax.grad."""

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

    def grad_for(xi, yi):
        return jax.grad(loss_fn)(params, xi[jnp.newaxis], yi[jnp.newaxis])

    return jax.vmap(grad_for)(x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    squares = [jnp.sum(jnp.square(g), axis=tuple(range(1, g.ndim))) for g in jax.tree.leaves(grads)]
    return jnp.sqrt(functools.reduce(jnp.add, squares))


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return int(norms.argmax())
