# BLIND-SET: 21
# EXERCISE: ex2
# WHAT: correct: an unbatched single-example loss (optax.softmax_cross_entropy_with_integer_labels on (10,) logits) differentiated with jax.grad and mapped by a functools.partial(jax.vmap, in_axes=(None, 0, 0)) decorator; norms from functools.reduce over the leaves (jax.tree_util.tree_leaves), adding per-example row sums of squares; the index from the builtin max over range(B).
# SHOULD-SAY: full marks: per-example gradients shaped like params with a leading batch axis and equal to the one-example gradients, vectorised with jax.vmap over jax.grad, global L2 norms over every weight and bias, and a plain Python int for the largest one.
"""Exercise 2: per-example gradients, written with a vmap decorator and functools.reduce."""

import functools

import jax
import jax.numpy as jnp
import optax


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
    """Cross-entropy of one unbatched example: xi (784,), yi a scalar label."""
    return optax.softmax_cross_entropy_with_integer_labels(forward(params, xi), yi)


@functools.partial(jax.vmap, in_axes=(None, 0, 0))
def _grad_per_example(params, xi, yi):
    return jax.grad(_example_loss)(params, xi, yi)


def per_example_grads(params, x, y):
    """One gradient pytree per example, stacked on a new leading axis."""
    return _grad_per_example(params, x, y)


def per_example_grad_norms(grads):
    """sqrt of the sum of squares of every element of every leaf, per example."""

    def add_leaf(total, leaf):
        return total + jnp.sum(jnp.square(leaf).reshape(leaf.shape[0], -1), axis=1)

    leaves = jax.tree_util.tree_leaves(grads)
    zero = jnp.zeros(leaves[0].shape[0], dtype=leaves[0].dtype)
    return jnp.sqrt(functools.reduce(add_leaf, leaves, zero))


def largest_gradient_example(params, x, y):
    """Index of the example with the largest gradient norm, as a Python int."""
    norms = per_example_grad_norms(per_example_grads(params, x, y)).tolist()
    return max(range(len(norms)), key=norms.__getitem__)
