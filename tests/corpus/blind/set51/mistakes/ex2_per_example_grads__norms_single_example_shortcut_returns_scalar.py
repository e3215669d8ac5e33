# BLIND-SET: 51
# EXERCISE: ex2
# WHAT: per_example_grad_norms has an early return for a batch of one, "the norm of the only example is the global norm": it returns optax.global_norm(grads), a 0-d scalar. At B = 1 the result has shape () instead of (1,). For B > 1, and for the gradients themselves, it matches the reference.
# SHOULD-SAY: per_example_grad_norms must return shape (B,) for every B, including B = 1. The single-example shortcut drops the batch axis. Remove it (the general path already handles B = 1), or return jnp.reshape(norm, (1,)).
"""Exercise 2: per-example gradients with jax.vmap (defensive version)."""

import jax
import jax.numpy as jnp
import optax


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes; y is int32 (B,)."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))



def per_example_grads(params, x, y):
    """Gradient of the loss on each example alone, stacked on a leading axis."""
    x = jnp.asarray(x, dtype=jnp.float32)
    y = jnp.asarray(y, dtype=jnp.int32)
    if x.shape[:1] != y.shape[:1]:
        raise ValueError("x and y must have the same number of examples")
    grad_one = jax.grad(lambda p, xi, yi: loss_fn(p, xi[None], yi[None]))
    return jax.vmap(grad_one, in_axes=(None, 0, 0))(params, x, y)


def _batch_size(grads):
    leaves = jax.tree.leaves(grads)
    if not leaves:
        raise ValueError("empty gradient tree")
    return int(leaves[0].shape[0])


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    batch = _batch_size(grads)
    if batch == 1:
        # One example: its norm is simply the global norm of the tree.
        return optax.global_norm(grads)
    squares = jax.tree.map(lambda g: jnp.sum(jnp.square(g.reshape(batch, -1)), axis=1), grads)
    return jnp.sqrt(sum(jax.tree.leaves(squares)))


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    norms = jnp.atleast_1d(per_example_grad_norms(per_example_grads(params, x, y)))
    return int(jnp.argmax(norms))
