# BLIND-SET: 17
# EXERCISE: ex2
# WHAT: per-example gradients come from a vmap (over the B examples) of a vmap (over a size-1 axis) of jax.grad(loss_fn), on x reshaped to (B, 1, 1, 784) so loss_fn sees batches of one; the singleton axis is dropped afterwards; norms are the L2 norm of the stacked per-leaf norms; the index comes from sorted(enumerate(norms.tolist()))
# SHOULD-SAY: full marks
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
    """The gradient of the loss on each example alone."""
    n = x.shape[0]
    xs = x.reshape(n, 1, 1, x.shape[-1])  # (B, 1, 1, 784): B batches of one
    ys = y.reshape(n, 1, 1)
    inner = jax.vmap(jax.grad(loss_fn), in_axes=(None, 0, 0))  # over the size-1 axis
    outer = jax.vmap(inner, in_axes=(None, 0, 0))  # over the B examples
    stacked = outer(params, xs, ys)  # every leaf is (B, 1, ...)
    return jax.tree.map(lambda g: g[:, 0], stacked)


def per_example_grad_norms(grads):
    """The global L2 norm of each example's gradient."""
    leaf_norms = [
        jnp.linalg.norm(g.reshape(g.shape[0], -1), axis=1) for g in jax.tree.leaves(grads)
    ]
    return jnp.linalg.norm(jnp.stack(leaf_norms, axis=1), axis=1)


def largest_gradient_example(params, x, y):
    """The index of the example with the largest gradient norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y)).tolist()
    ranked = sorted(enumerate(norms), key=lambda pair: (-pair[1], pair[0]))
    return ranked[0][0]
