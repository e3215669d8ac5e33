# BLIND-SET: correct
# EXERCISE: ex2
# WHAT: the per-example gradient function is built with stacked decorators (@functools.partial(jax.vmap, in_axes=(None, 0, 0)) over @jax.grad) on an unbatched loss that indexes log_softmax by the label; norms are sqrt(optax.tree_utils.tree_vdot(g, g)) vmapped over examples; the index comes from .item().
# SHOULD-SAY: full marks
"""Exercise 2: per-example gradients with stacked vmap/grad decorators."""

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


@functools.partial(jax.vmap, in_axes=(None, 0, 0))
@jax.grad
def _grad_one(params, xi, yi):
    # xi: (784,), yi: () -- the loss of this one example
    return -jax.nn.log_softmax(forward(params, xi))[yi]


def per_example_grads(params, x, y):
    """Gradient of the loss on each example alone, stacked on a leading axis."""
    return _grad_one(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    return jax.vmap(lambda g: jnp.sqrt(optax.tree_utils.tree_vdot(g, g)))(grads)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return jnp.argmax(norms).item()
