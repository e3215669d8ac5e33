# BLIND-SET: 15
# EXERCISE: ex2
# WHAT: per_example_grads vmaps jax.grad with out_axes=-1 and moves the batch axis back to the front with jnp.moveaxis; the norms fold per-leaf squared sums with jax.tree_util.tree_reduce(operator.add, ...); the index comes from Python's max over range(B) keyed on the norms as a list.
# SHOULD-SAY: All ex2 checks pass: per-example gradients match leaf by leaf with a leading axis of size B, the computation is one vmapped jax.grad (not a Python loop), the norms cover every weight and bias leaf, the index is a plain Python int at the largest norm, and results agree under jax.jit.
"""Exercise 2: per-example gradients with jax.vmap over jax.grad."""

import operator

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

    def one(p, xi, yi):
        return loss_fn(p, xi[None, :], yi[None])

    # Stack the examples on the last axis, then move that axis to the front.
    stacked_last = jax.vmap(jax.grad(one), in_axes=(None, 0, 0), out_axes=-1)(params, x, y)
    return jax.tree.map(lambda g: jnp.moveaxis(g, -1, 0), stacked_last)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    squares = jax.tree.map(lambda g: jnp.sum(jnp.square(g), axis=tuple(range(1, g.ndim))), grads)
    return jnp.sqrt(jax.tree_util.tree_reduce(operator.add, squares))


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y)).tolist()
    return max(range(len(norms)), key=norms.__getitem__)
