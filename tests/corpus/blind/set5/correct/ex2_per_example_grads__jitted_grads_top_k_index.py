# BLIND-SET: correct
# EXERCISE: ex2
# WHAT: per_example_grads is decorated with jax.jit around vmap(grad) of a single-example loss; the norms sum squares per leaf with tree.map and add the leaves with functools.reduce before the sqrt; the index comes from jax.lax.top_k(norms, 1) converted to int.
# SHOULD-SAY: full marks
"""Exercise 2: jitted per-example gradients, top_k for the largest one."""

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


def _one_example_loss(params, xi, yi):
    return loss_fn(params, jnp.expand_dims(xi, 0), jnp.expand_dims(yi, 0))


_per_example_grad_fn = jax.vmap(jax.grad(_one_example_loss), in_axes=(None, 0, 0))


@jax.jit
def per_example_grads(params, x, y):
    """Gradient of the loss on each example alone, stacked on a leading axis."""
    return _per_example_grad_fn(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    squared = jax.tree.map(lambda g: jnp.sum(jnp.square(g), axis=tuple(range(1, g.ndim))), grads)
    return jnp.sqrt(functools.reduce(jnp.add, jax.tree.leaves(squared)))


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    _, index = jax.lax.top_k(norms, 1)
    return int(index[0])
