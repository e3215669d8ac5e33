# BLIND-SET: correct
# EXERCISE: ex2
# WHAT: Jits the vmapped gradient function, computes norms with jnp.linalg.norm over the concatenated flattened leaves, and picks the index with numpy's argmax and .item().
# SHOULD-SAY: full marks
"""Exercise 2: jitted per-example gradients, numpy argmax for the index."""

import jax
import jax.numpy as jnp
import numpy as np


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


def _single_loss(params, xi, yi):
    return loss_fn(params, xi.reshape(1, -1), yi.reshape(1))


_per_example_grads = jax.jit(jax.vmap(jax.grad(_single_loss), in_axes=(None, 0, 0)))


def per_example_grads(params, x, y):
    """Gradient of the loss on each example alone, stacked on a leading axis."""
    return _per_example_grads(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    leaves = jax.tree.leaves(grads)
    flat = jnp.concatenate([leaf.reshape(leaf.shape[0], -1) for leaf in leaves], axis=1)
    return jnp.linalg.norm(flat, axis=1)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    norms = np.asarray(per_example_grad_norms(per_example_grads(params, x, y)))
    return np.argmax(norms).item()
