# BLIND-SET: 46
# EXERCISE: ex2
# WHAT: largest_gradient_example standardises each leaf's per-example norms across the batch (z-scores with ddof=1) and returns the argmax of the summed z-scores instead of the argmax of the global L2 norm, so it can name an example whose gradient is not the largest; grads and norms themselves are right.
# SHOULD-SAY: the index is chosen by a sum of per-leaf z-scores, not by the global gradient norm, so it can point at a different example. Return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y)))).
"""Exercise 2: per-example gradients; the most extreme example by standardised norms."""

import jax
import jax.numpy as jnp
import optax

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
    """Index of the example whose gradient stands out most.

    Leaves live on very different scales (a 784x256 weight matrix against a
    10-vector of biases), so each leaf's per-example norms are standardised
    across the batch before they are combined; the example with the largest
    total z-score is the largest.
    """
    grads = per_example_grads(params, x, y)
    leaves = jax.tree.leaves(grads)
    n = leaves[0].shape[0]
    leaf_norms = jnp.stack(
        [jnp.linalg.norm(leaf.reshape(n, -1), axis=1) for leaf in leaves], axis=1
    )  # (B, n_leaves)
    z = (leaf_norms - leaf_norms.mean(axis=0)) / leaf_norms.std(axis=0, ddof=1)
    return int(jnp.argmax(z.sum(axis=1)))
