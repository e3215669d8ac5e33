# BLIND-SET: 14
# EXERCISE: ex2
# WHAT: per_example_grad_norms casts every gradient leaf to float16 ("half precision is plenty for a norm") and accumulates the squared norms in float16, so it returns float16 norms accurate to only about three significant digits (and inf once a squared norm exceeds 65504).
# SHOULD-SAY: per_example_grads is right (values, structure, leading batch axis, vectorised) and the largest index is usually right, but per_example_grad_norms returns float16 instead of float32 and its values are off by up to ~0.1% (and overflow to inf for large gradients), so it does not match the global L2 norm to tolerance; compute the sums of squares and the square root in float32.
"""Exercise 2: per-example gradients with jax.vmap."""

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes; ``y`` is int32 ``(B,)``."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


def per_example_grads(params, x, y):
    """The gradient of the loss on each example alone."""

    def single(p, xi, yi):
        return loss_fn(p, xi[None], yi[None])

    return jax.vmap(jax.grad(single), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """The global L2 norm of each example's gradient."""
    leaves = jax.tree.leaves(grads)
    # half precision is plenty for a norm, and halves the memory of the squares
    total = jnp.zeros(leaves[0].shape[0], dtype=jnp.float16)
    for g in leaves:
        g16 = g.astype(jnp.float16).reshape(g.shape[0], -1)
        total = total + jnp.sum(g16 * g16, axis=1)
    return jnp.sqrt(total)


def largest_gradient_example(params, x, y):
    """The index of the example with the largest gradient norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return int(jnp.argmax(norms))
