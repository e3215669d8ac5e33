"""The Jacobian of the vector of per-example losses: row i is example i's gradient, exactly.

Norms with jnp.linalg.norm over the concatenated flattened leaves.
"""

import jax
import jax.numpy as jnp
import numpy as np


def _forward(params, x):
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def _losses(params, x, y):
    """One cross-entropy per example, shape (B,): loss i depends on example i only."""
    logp = jax.nn.log_softmax(_forward(params, x))
    return -jnp.take_along_axis(logp, y[:, None], axis=1)[:, 0]


def per_example_grads(params, x, y):
    return jax.jacrev(_losses)(params, x, y)


def per_example_grad_norms(grads):
    leaves = jax.tree_util.tree_leaves(grads)
    flat = jnp.concatenate([leaf.reshape(leaf.shape[0], -1) for leaf in leaves], axis=1)
    return jnp.linalg.norm(flat, axis=1)


def largest_gradient_example(params, x, y):
    norms = np.asarray(per_example_grad_norms(per_example_grads(params, x, y)))
    return int(np.argmax(norms))
