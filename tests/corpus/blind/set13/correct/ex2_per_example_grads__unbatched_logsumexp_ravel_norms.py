# BLIND-SET: 13
# EXERCISE: ex2
# WHAT: vmaps jax.grad of an unbatched per-example loss written as logsumexp(logits) - logits[y], takes norms of each example's raveled gradient vector (jax.flatten_util.ravel_pytree under vmap), and returns the index with .item().
# SHOULD-SAY: Everything is correct: per-example gradients (vmap over grad, leading axis B, each slice equals the single-example gradient), global L2 norms over weights and biases of shape (B,), and a Python int index of the largest-norm example.
"""Exercise 2 (variant): per-example gradients of an unbatched loss."""

import jax
import jax.numpy as jnp
import optax
from jax.flatten_util import ravel_pytree

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


def _example_loss(params, xi, yi):
    logits = forward(params, xi)  # (10,): the MLP works on a single unbatched row too
    return jax.nn.logsumexp(logits) - logits[yi]


_per_example = jax.jit(jax.vmap(jax.grad(_example_loss), in_axes=(None, 0, 0)))


def per_example_grads(params, x, y):
    """Gradient of the loss on each example alone, stacked on a leading axis."""
    return _per_example(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    flat = jax.vmap(lambda tree: ravel_pytree(tree)[0])(grads)  # (B, n_params)
    return jnp.linalg.norm(flat, axis=1)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return jnp.argmax(norms).item()
