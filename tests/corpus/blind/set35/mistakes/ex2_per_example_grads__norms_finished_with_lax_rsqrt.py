# BLIND-SET: 35
# EXERCISE: ex2
# WHAT: per_example_grad_norms sums the squares correctly (einsum over every leaf, tree_reduce with lax.add) but finishes with lax.rsqrt, the reciprocal square root, so each entry is 1/||g_i|| instead of ||g_i||; largest_gradient_example then returns the example with the smallest gradient.
# SHOULD-SAY: lax.rsqrt(s) is 1/sqrt(s), not sqrt(s); use lax.sqrt (or jnp.sqrt) on the summed squares. The norms and the argmax both follow from that fix.
"""Exercise 2 (reference): per-example gradients with jax.vmap over jax.grad."""

import jax
import jax.numpy as jnp
import optax
from jax import lax

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

    def single_example_loss(params, xi, yi):
        return loss_fn(params, xi[None], yi[None])

    return jax.vmap(jax.grad(single_example_loss), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    squares = jax.tree_util.tree_map(lambda g: jnp.einsum("b...,b...->b", g, g), grads)
    return lax.rsqrt(jax.tree_util.tree_reduce(lax.add, squares))


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
