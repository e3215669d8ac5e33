# BLIND-SET: 35
# EXERCISE: ex2
# WHAT: largest_gradient_example finds the maximum with a lax.scan that starts from example 0 in the carry and scans over norms[1:], but pairs those norms with jnp.arange(B - 1) instead of jnp.arange(1, B); the returned index is one less than the true argmax whenever the largest norm is not at example 0.
# SHOULD-SAY: The indices fed to the scan must line up with the norms: scanning norms[1:] needs indices 1..B-1 (jnp.arange(1, B)). Simpler still: int(jnp.argmax(norms)).
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
    return jax.vmap(_tree_norm)(grads)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))

    def keep_larger(carry, item):
        best_i, best_n = carry
        i, n = item
        better = lax.gt(n, best_n)
        return (lax.select(better, i, best_i), lax.select(better, n, best_n)), None

    indices = jnp.arange(norms.shape[0] - 1, dtype=jnp.int32)
    (best_i, _), _ = lax.scan(keep_larger, (jnp.int32(0), norms[0]), (indices, norms[1:]))
    return int(best_i)
