# BLIND-SET: 45
# EXERCISE: ex2
# WHAT: correct. x is transposed so examples are columns and jax.vmap maps grad over axis 1 of X (and axis 0 of y) with params unbatched; the norms stack each leaf's per-example sum of squares into an (n_leaves, B) matrix and take sqrt(sum(S, 1)) as jnp.sum(S, axis=0); the index is MATLAB's 1-based max position converted back to a 0-based Python int.
# SHOULD-SAY: Nothing to fix: per-example gradients match the per-example computation with a leading B axis, the norms cover every leaf, and the index is a Python int.
"""Exercise 2: per-example gradients with jax.vmap (examples as columns)."""

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
    """grad of the loss of each column X(:, i) alone, stacked on a leading axis."""
    X = x.T  # (784, B)

    def col_loss(params, xcol, yi):
        return loss_fn(params, xcol.reshape(1, -1), yi.reshape(1))  # x(i, :) as a 1-row batch

    return jax.vmap(jax.grad(col_loss), in_axes=(None, 1, 0), out_axes=0)(params, X, y)


def per_example_grad_norms(grads):
    """S(k, i) = sum of squares of leaf k for example i; norms = sqrt(sum(S, 1))."""
    leaves = jax.tree.leaves(grads)
    B = leaves[0].shape[0]
    S = jnp.vstack([jnp.sum(jnp.reshape(g, (B, -1), order="F") ** 2, axis=1) for g in leaves])
    return jnp.sqrt(jnp.sum(S, axis=0))


def largest_gradient_example(params, x, y):
    """[~, i] = max(norms); return i - 1 (0-based)."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    i = int(jnp.argmax(norms)) + 1  # MATLAB position, 1..B
    return i - 1
