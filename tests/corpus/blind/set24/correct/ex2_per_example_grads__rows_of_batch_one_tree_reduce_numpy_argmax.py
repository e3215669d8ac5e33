# BLIND-SET: 24
# EXERCISE: ex2
# WHAT: correct rewrite: each example is given a batch axis of its own (x[:, None], y[:, None]) and jax.vmap maps jax.grad(loss_fn) over that leading axis with params broadcast (in_axes=(None, 0, 0)); norms are a jax.tree.reduce over per-leaf row sums of squares (leaf reshaped to (B, -1)) with an explicit zero initializer; the index comes from numpy's argmax on the host, converted with int().
# SHOULD-SAY: full marks
"""Exercise 2: per-example gradients as a vmap over batches of one."""

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


_grad_of_batch_of_one = jax.vmap(jax.grad(loss_fn), in_axes=(None, 0, 0))


def per_example_grads(params, x, y):
    """Leaf-wise (B, ...) gradients; row i is the gradient on example i alone."""
    return _grad_of_batch_of_one(params, x[:, None, :], y[:, None])


def per_example_grad_norms(grads):
    """sqrt of the per-row sum of squares over all leaves, shape (B,)."""
    batch = jax.tree.leaves(grads)[0].shape[0]

    def add_leaf(total, leaf):
        return total + jnp.sum(jnp.square(leaf.reshape(batch, -1)), axis=1)

    return jnp.sqrt(jax.tree.reduce(add_leaf, grads, jnp.zeros((batch,), jnp.float32)))


def largest_gradient_example(params, x, y):
    """Python int: the row with the largest gradient norm."""
    norms = np.asarray(per_example_grad_norms(per_example_grads(params, x, y)))
    return int(np.argmax(norms))
