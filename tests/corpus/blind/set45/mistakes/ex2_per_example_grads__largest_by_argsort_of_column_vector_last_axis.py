# BLIND-SET: 45
# EXERCISE: ex2
# WHAT: largest_gradient_example turns the norms into a column vector (B, 1) and sorts it MATLAB-style with jnp.argsort, which sorts along the last axis (of length 1), so every row's order is [0] and the last entry of idx(:) is 0; the function returns 0 for every batch, which is wrong whenever example 0 is not the one with the largest norm.
# SHOULD-SAY: largest_gradient_example always returns 0: argsort on a (B, 1) column sorts along the last axis, which has length 1, not down the column as MATLAB's sort does. Keep the norms as a 1-D (B,) array and use int(jnp.argmax(norms)) (or argsort(norms)[-1] on the 1-D array).
"""Exercise 2: per-example gradients with jax.vmap."""

import jax
import jax.numpy as jnp

# --- Given: the lesson's model and loss ----------------------------------------


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes; ``y`` is int32 ``(B,)``."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


# --- Your code ----------------------------------------------------------------


def per_example_grads(params, x, y):
    """One gradient per example: vmap over rows of x and y, params shared."""

    def one(params, xi, yi):
        return loss_fn(params, xi[None, :], yi[None])  # batch of one: x(i,:), y(i)

    return jax.vmap(jax.grad(one), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """sqrt of the sum of squares over all leaves, one value per example."""
    leaves = jax.tree.leaves(grads)
    B = leaves[0].shape[0]
    S = jnp.vstack([jnp.sum(g.reshape(B, -1) ** 2, axis=1) for g in leaves])  # (n_leaves, B)
    return jnp.sqrt(jnp.sum(S, axis=0))  # sum(S, 1) in MATLAB: down the columns


def largest_gradient_example(params, x, y):
    """[~, idx] = sort(norms); idx(end) is the largest (0-based already in Python)."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    n = norms.reshape(-1, 1)          # column vector, as in MATLAB
    idx = jnp.argsort(n)              # [~, idx] = sort(n)
    return int(idx.ravel()[-1])       # idx(end), linear indexing: the largest
