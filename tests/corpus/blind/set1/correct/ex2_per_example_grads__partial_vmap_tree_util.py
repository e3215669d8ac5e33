# BLIND-SET: correct
# EXERCISE: ex2
# WHAT: functools.partial(jax.vmap, in_axes=...) decorator, jax.tree_util sum of per-leaf squares, numpy argmax.
# SHOULD-SAY: full marks
"""Exercise 2 (reference): per-example gradients with jax.vmap over jax.grad."""

import functools

import jax
import numpy as np
import jax.numpy as jnp
import optax

# optax.tree.norm is the current name; optax.global_norm is the older one.
_tree_norm = optax.tree.norm if hasattr(optax, "tree") else optax.global_norm


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

    @functools.partial(jax.vmap, in_axes=(None, 0, 0))
    def one(p, xi, yi):
        return jax.grad(loss_fn)(p, xi[jnp.newaxis, :], yi[jnp.newaxis])

    return one(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    sq = jax.tree_util.tree_map(lambda g: jnp.sum(g.reshape(g.shape[0], -1) ** 2, axis=-1), grads)
    return jnp.sqrt(jax.tree_util.tree_reduce(jnp.add, sq))


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return int(np.argmax(np.asarray(norms)))
