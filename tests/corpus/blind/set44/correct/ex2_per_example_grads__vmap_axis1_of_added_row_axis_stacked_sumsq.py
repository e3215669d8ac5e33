# BLIND-SET: 44
# EXERCISE: ex2
# WHAT: Correct. per_example_grads adds a leading unit axis, x[None] of shape (1, B, 784) and y[None] of shape (1, B), and vmaps jax.grad(loss_fn) over axis 1 with in_axes=(None, 1, 1), so each mapped slice is already a batch of one, (1, 784) and (1,), and every leaf comes back as (B, *leaf.shape). The norms tree_map a sum of squares over every non-batch axis, stack the leaves to (B, L) and sum axis -1 before the sqrt; the index is int(argmax(axis=0)).
# SHOULD-SAY: Nothing to fix: slice i of every leaf is the gradient of the loss on example i alone, the norms cover all weights and biases per example, and the largest index is a Python int.
"""Exercise 2: per-example gradients with jax.vmap over jax.grad (shape-first version)."""

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
    xs = x[jnp.newaxis]   # (1, B, 784): mapping axis 1 hands loss_fn a (1, 784) batch of one
    ys = y[jnp.newaxis]   # (1, B)     : mapping axis 1 hands loss_fn a (1,) label vector
    return jax.vmap(jax.grad(loss_fn), in_axes=(None, 1, 1), out_axes=0)(params, xs, ys)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    sq = jax.tree.map(lambda g: jnp.sum(jnp.square(g), axis=tuple(range(1, g.ndim))), grads)  # leaf -> (B,)
    table = jnp.stack(jax.tree.leaves(sq), axis=-1)     # (B, L)
    return jnp.sqrt(jnp.sum(table, axis=-1))            # (B,)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))   # (B,)
    return int(jnp.argmax(norms, axis=0))
