# BLIND-SET: 30
# EXERCISE: ex2
# WHAT: correct rewrite: the per-example loss is optax.softmax_cross_entropy_with_integer_labels on one unbatched example (a scalar), vmapped over jax.grad with a functools.partial(jax.vmap, in_axes=...) decorator; the squared norms come from optax.tree_utils.tree_vdot(g, g) under vmap, and the index from jnp.argmax(...).item().
# SHOULD-SAY: Nothing to fix: per-example gradients match loss_fn on each example alone, norms cover every leaf, and the index is a Python int.
"""Exercise 2 (reference): per-example gradients with jax.vmap over jax.grad."""

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


def _example_loss(params: dict, xi: jax.Array, yi: jax.Array) -> jax.Array:
    """Cross-entropy of one unbatched example: xi (784,), yi () -> scalar."""
    return optax.softmax_cross_entropy_with_integer_labels(forward(params, xi), yi)


# Map over examples (x and y), share params.
@functools.partial(jax.vmap, in_axes=(None, 0, 0))
def _example_grad(params: dict, xi: jax.Array, yi: jax.Array) -> dict:
    return jax.grad(_example_loss)(params, xi, yi)


def per_example_grads(params, x, y):
    """Gradient of the loss on each example alone, stacked on a leading axis."""
    return _example_grad(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    squared = jax.vmap(lambda g: optax.tree_utils.tree_vdot(g, g))(grads)
    return jnp.sqrt(squared)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return jnp.argmax(norms).item()
