# BLIND-SET: 44
# EXERCISE: ex2
# WHAT: per_example_grads takes jax.jacrev of a vector of per-example losses, but that vector is built as -jnp.sum(logp * onehot, axis=0), which sums over the batch axis and gives one value per class, shape (10,), instead of one per example. Every leaf gets a leading axis of 10 whatever B is, and slice c is the gradient of the summed log-prob of class c over the examples labelled c. For B = 10 the shapes look right but the values are still wrong.
# SHOULD-SAY: The per-example losses are reduced over the wrong axis: summing logp * onehot over axis 0 collapses the batch and keeps the 10 classes, so the Jacobian has one row per class, not per example. Sum over the class axis (axis=-1) to get a (B,) loss vector, or use jax.vmap(jax.grad(...), in_axes=(None, 0, 0)) on a one-example loss.
"""Exercise 2: per-example gradients as the Jacobian of the per-example losses."""

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


def per_example_losses(params, x, y):
    """Cross-entropy of every example: (B, 784), (B,) -> (B,)."""
    logp = jax.nn.log_softmax(forward(params, x), axis=-1)   # (B, 10)
    onehot = jax.nn.one_hot(y, logp.shape[-1])               # (B, 10)
    return -jnp.sum(logp * onehot, axis=0)


def per_example_grads(params, x, y):
    """Gradient of the loss on each example alone, stacked on a leading axis."""
    # jacrev is vmap over vjp: each leaf comes back as (len(losses), *leaf.shape)
    return jax.jacrev(per_example_losses)(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    flat = jnp.concatenate([g.reshape(g.shape[0], -1) for g in jax.tree.leaves(grads)], axis=-1)  # (B, P)
    return jnp.linalg.norm(flat, axis=-1)   # (B,)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
