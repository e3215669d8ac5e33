# BLIND-SET: 51
# EXERCISE: ex2
# WHAT: per_example_grad_norms guards the square root with jnp.where(sumsq > 1e-6, sqrt(sumsq), 0) "so tiny values are treated as noise". Any example whose gradient norm is below 1e-3 is reported as exactly 0 (a norm of 5e-4 becomes 0.0). Larger norms match the reference.
# SHOULD-SAY: The norm must be the exact global L2 norm, however small. The noise-floor threshold of 1e-6 on the sum of squares zeroes every norm below 1e-3, for example well-fitted examples. Use jnp.sqrt(sum of squares) directly; if a safe gradient of sqrt at 0 is wanted, use a double-where with a tiny threshold that does not change values.
"""Exercise 2: per-example gradients with jax.vmap (defensive version)."""

import jax
import jax.numpy as jnp
import optax


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes; y is int32 (B,)."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


_NOISE_FLOOR = 1e-6


def per_example_grads(params, x, y):
    """Gradient of the loss on each example alone, stacked on a leading axis."""
    x = jnp.asarray(x, dtype=jnp.float32)
    y = jnp.asarray(y, dtype=jnp.int32)
    if x.ndim != 2 or y.ndim != 1:
        raise ValueError(f"expected x (B, 784) and y (B,), got {x.shape} and {y.shape}")
    if x.shape[0] != y.shape[0]:
        raise ValueError("x and y disagree on the batch size")

    def one(p, xi, yi):
        return loss_fn(p, xi.reshape(1, -1), yi.reshape(1))

    return jax.vmap(jax.grad(one), in_axes=(None, 0, 0))(params, x, y)


def _sum_of_squares(leaf):
    leaf = jnp.asarray(leaf, dtype=jnp.float32)
    if leaf.ndim == 1:
        return leaf ** 2
    return jnp.sum(leaf.reshape(leaf.shape[0], -1) ** 2, axis=1)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    leaves = jax.tree.leaves(grads)
    sizes = {leaf.shape[0] for leaf in leaves}
    if len(sizes) != 1:
        raise ValueError(f"leaves disagree on the batch axis: {sorted(sizes)}")
    sumsq = sum(_sum_of_squares(leaf) for leaf in leaves)
    # sqrt has an infinite derivative at 0: keep it away from numerical noise.
    safe = sumsq > _NOISE_FLOOR
    return jnp.where(safe, jnp.sqrt(jnp.where(safe, sumsq, 1.0)), 0.0)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    if norms.shape[0] == 1:
        return 0
    return int(jnp.argmax(norms))
