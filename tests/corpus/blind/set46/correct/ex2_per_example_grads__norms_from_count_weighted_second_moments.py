# BLIND-SET: 46
# EXERCISE: ex2
# WHAT: correct: vmap of jax.grad over (None, 0, 0); the norm of each example is sqrt of the total sum of squares, written as the count-weighted sum of per-leaf second moments (size_leaf * mean(g^2)), which equals the L2 norm to float32 tolerance; the index is numpy's argmax of the norms, returned as a Python int.
# SHOULD-SAY: nothing to fix: per_example_grads, per_example_grad_norms and largest_gradient_example meet the contract.
"""Exercise 2: per-example gradients as samples, norms from pooled second moments."""

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
    """B gradient samples; their mean is the batch gradient."""

    def single_example_loss(params, xi, yi):
        return loss_fn(params, xi[None], yi[None])

    return jax.vmap(jax.grad(single_example_loss), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """sqrt(sum of squares) per example, as count-weighted second moments.

    For each leaf, size * mean(g^2) is that leaf's sum of squares; adding the
    leaves gives the total sum of squares over weights and biases.
    """
    leaves = jax.tree.leaves(grads)
    n = leaves[0].shape[0]
    total = jnp.zeros((n,), dtype=jnp.float32)
    for leaf in leaves:
        flat = leaf.reshape(n, -1)
        count = flat.shape[1]
        total = total + count * jnp.mean(flat * flat, axis=1)
    return jnp.sqrt(total)


def largest_gradient_example(params, x, y):
    """Index (a Python int) of the example with the largest gradient norm."""
    norms = np.asarray(per_example_grad_norms(per_example_grads(params, x, y)))
    return int(np.argmax(norms))
