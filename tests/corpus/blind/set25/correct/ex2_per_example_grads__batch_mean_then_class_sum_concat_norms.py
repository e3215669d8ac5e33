# BLIND-SET: 25
# EXERCISE: ex2
# WHAT: correct rewrite: the single-example loss averages over the batch axis first and then sums over classes (the same number as the lesson's sum-then-mean), vmapped with functools.partial(jax.vmap, in_axes=(None, 0, 0)); norms from the leaves reshaped to (B, -1), concatenated along axis 1 and reduced along axis 1; the index via .item().
# SHOULD-SAY: nothing to fix: gradients, norms and the Python int index match the reference.
"""Exercise 2: per-example gradients with jax.vmap over jax.grad (tree_util style)."""

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


def _example_loss(params, xi, yi):
    # One example as a batch of one; mean over the batch axis, then sum over classes.
    logp = jax.nn.log_softmax(forward(params, xi[None, :]), axis=-1)
    target = jax.nn.one_hot(jnp.reshape(yi, (1,)), 10)
    return -jnp.sum(jnp.mean(logp * target, axis=0))


@functools.partial(jax.vmap, in_axes=(None, 0, 0))
def _grad_one(params, xi, yi):
    return jax.grad(_example_loss)(params, xi, yi)


def per_example_grads(params, x, y):
    """Gradient of the loss on each example alone, stacked on a leading axis."""
    return _grad_one(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    leaves = jax.tree_util.tree_leaves(grads)
    n = leaves[0].shape[0]
    flat = jnp.concatenate([leaf.reshape(n, -1) for leaf in leaves], axis=1)
    return jnp.sqrt(jnp.sum(flat * flat, axis=1))


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return jnp.argmax(norms).item()
