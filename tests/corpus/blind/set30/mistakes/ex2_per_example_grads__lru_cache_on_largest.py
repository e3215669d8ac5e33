# BLIND-SET: 30
# EXERCISE: ex2
# WHAT: largest_gradient_example is decorated with @functools.lru_cache to avoid recomputing the gradients; lru_cache hashes its arguments and the params dict (and JAX arrays) are unhashable, so every call raises TypeError: unhashable type. per_example_grads and the norms are right.
# SHOULD-SAY: functools.lru_cache only works with hashable arguments; dicts of arrays are not. Drop the cache (the function is cheap enough), or cache on something hashable you control; then return int(jnp.argmax(norms)).
"""Exercise 2 (reference): per-example gradients with jax.vmap over jax.grad."""

import functools

import jax
import jax.numpy as jnp
import optax

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


@functools.lru_cache(maxsize=8)
def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm.

    Cached: asking twice about the same batch (e.g. once to print, once to plot)
    should not recompute B backward passes.
    """
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
