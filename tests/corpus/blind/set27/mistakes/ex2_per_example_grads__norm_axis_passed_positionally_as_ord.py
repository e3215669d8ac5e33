# BLIND-SET: 27
# EXERCISE: ex2
# WHAT: per_example_grad_norms flattens each example's gradient into a (B, P) matrix and calls jnp.linalg.norm(flat, 1), meaning axis 1; but the second positional parameter of jnp.linalg.norm is ord, so it returns one scalar (the matrix 1-norm, the largest column sum of absolute values) instead of a (B,) vector. largest_gradient_example then always returns 0; per_example_grads is right.
# SHOULD-SAY: jnp.linalg.norm(x, ord=None, axis=None): a bare 1 in second position is ord=1, not axis=1. Pass the axis by keyword, jnp.linalg.norm(flat, axis=1), to get one L2 norm per example.
"""Exercise 2 (reference): per-example gradients with jax.vmap over jax.grad."""

import jax
import jax.numpy as jnp
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

    def single_example_loss(params, xi, yi):
        return loss_fn(params, xi[None], yi[None])

    return jax.vmap(jax.grad(single_example_loss), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    flat = jnp.concatenate([g.reshape(g.shape[0], -1) for g in jax.tree.leaves(grads)], axis=1)
    return jnp.linalg.norm(flat, 1)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
