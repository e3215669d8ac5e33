# BLIND-SET: 29
# EXERCISE: ex2
# WHAT: Correct rewrite: jax.vmap over the example index with jax.grad of the loss on lax.dynamic_slice(x, (i, 0), (1, D)) and the matching label; norms from one (B, n_params) matrix of flattened leaves with jnp.einsum('bp,bp->b'); the index from np.argmax converted to int.
# SHOULD-SAY: Nothing to fix: per-example gradients, norms over every leaf and a Python int index all match, and it is vectorised with vmap over grad.
"""Exercise 2 (reference): per-example gradients with jax.vmap over jax.grad."""

import jax
import jax.numpy as jnp
import numpy as np
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
    B, D = x.shape

    def grad_of_example(i):
        xi = jax.lax.dynamic_slice(x, (i, 0), (1, D))  # row i, kept as a batch of one
        yi = jax.lax.dynamic_slice(y, (i,), (1,))
        return jax.grad(loss_fn)(params, xi, yi)

    return jax.vmap(grad_of_example)(jnp.arange(B))


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    leaves = jax.tree.leaves(grads)
    B = leaves[0].shape[0]
    G = jnp.concatenate([g.reshape(B, -1) for g in leaves], axis=1)  # (B, n_params)
    return jnp.sqrt(jnp.einsum("bp,bp->b", G, G))


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    norms = np.asarray(per_example_grad_norms(per_example_grads(params, x, y)))
    return int(np.argmax(norms))
