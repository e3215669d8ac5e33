# BLIND-SET: 35
# EXERCISE: ex2
# WHAT: correct rewrite: each example is lifted to a batch of one with lax.expand_dims inside a function vmapped over jax.grad (params unbatched); squared norms come from jnp.einsum("b...,b...->b") per leaf, summed across leaves with jax.tree_util.tree_reduce(lax.add, ...) and lax.sqrt; the index is lax.argmax converted with int().
# SHOULD-SAY: nothing to fix: full marks.
"""Exercise 2 (reference): per-example gradients with jax.vmap over jax.grad."""

import jax
import jax.numpy as jnp
from jax import lax


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

    def grad_one(xi, yi):
        return jax.grad(loss_fn)(params, lax.expand_dims(xi, (0,)), lax.expand_dims(yi, (0,)))

    return jax.vmap(grad_one)(x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    squares = jax.tree_util.tree_map(lambda g: jnp.einsum("b...,b...->b", g, g), grads)
    return lax.sqrt(jax.tree_util.tree_reduce(lax.add, squares))


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return int(lax.argmax(norms, 0, jnp.int32))
