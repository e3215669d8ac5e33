# BLIND-SET: correct
# EXERCISE: ex2
# WHAT: params are physically broadcast to B copies and jax.vmap maps over all three arguments (params, x, y) with in_axes=0; the loss uses take_along_axis; norms sum squares with functools.reduce; the index is converted with operator.index.
# SHOULD-SAY: full marks
"""Exercise 2: per-example gradients from B explicit copies of the params."""

import functools
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


def _example_loss(p, xi, yi):
    logits = forward(p, xi[None])
    picked = jnp.take_along_axis(jax.nn.log_softmax(logits), yi.reshape(1, 1), axis=-1)
    return -jnp.mean(picked)


def per_example_grads(params, x, y):
    """Gradient of the loss on each example alone, stacked on a leading axis."""
    batch = x.shape[0]
    copies = jax.tree.map(lambda p: jnp.broadcast_to(p, (batch,) + p.shape), params)
    return jax.vmap(jax.grad(_example_loss))(copies, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    squares = [jnp.square(g).reshape(g.shape[0], -1).sum(axis=-1) for g in jax.tree.leaves(grads)]
    return jnp.sqrt(functools.reduce(jnp.add, squares))


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return operator.index(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
