# BLIND-SET: correct
# EXERCISE: ex2
# WHAT: norms are the L2 norm of the per-leaf norm matrix (B, n_leaves) built with jnp.stack; the index is found with jnp.flatnonzero(norms == norms.max()); gradients use jax.vmap(jax.grad) with jnp.expand_dims.
# SHOULD-SAY: full marks
"""Exercise 2: per-example gradients; the norm as a norm of leaf norms."""

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

    def loss_on_one(p, xi, yi):
        return loss_fn(p, jnp.expand_dims(xi, 0), jnp.expand_dims(yi, 0))

    batched_grad = jax.vmap(jax.grad(loss_on_one, argnums=0), in_axes=(None, 0, 0), out_axes=0)
    return batched_grad(params, x, y)


def per_example_grad_norms(grads):
    """sqrt(sum of squared leaf norms) == norm of the vector of leaf norms."""
    leaf_norms = jnp.stack(
        [jnp.linalg.norm(g.reshape(g.shape[0], -1), axis=1) for g in jax.tree.leaves(grads)],
        axis=1,
    )
    return jnp.linalg.norm(leaf_norms, axis=1)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return int(jnp.flatnonzero(norms == norms.max())[0])
