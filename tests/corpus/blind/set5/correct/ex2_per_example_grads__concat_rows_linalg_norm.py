# BLIND-SET: correct
# EXERCISE: ex2
# WHAT: per_example_grads vmaps jax.grad(loss_fn) over x[:, None, :] and y[:, None] (each mapped slice is a batch of one); the norms flatten every leaf to (B, -1), concatenate along axis 1 and take jnp.linalg.norm per row; the index comes from numpy argmax converted to int.
# SHOULD-SAY: full marks
"""Exercise 2: per-example gradients; norms from one concatenated (B, P) matrix."""

import jax
import jax.numpy as jnp
import numpy as np


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
    batches_of_one_x = x[:, None, :]  # (B, 1, 784): vmap hands loss_fn a batch of one
    batches_of_one_y = y[:, None]  # (B, 1)
    return jax.vmap(jax.grad(loss_fn), in_axes=(None, 0, 0))(params, batches_of_one_x, batches_of_one_y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    leaves = jax.tree.leaves(grads)
    batch = leaves[0].shape[0]
    flat = jnp.concatenate([leaf.reshape(batch, -1) for leaf in leaves], axis=1)
    return jnp.linalg.norm(flat, axis=1)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    norms = np.asarray(per_example_grad_norms(per_example_grads(params, x, y)))
    return int(np.argmax(norms))
