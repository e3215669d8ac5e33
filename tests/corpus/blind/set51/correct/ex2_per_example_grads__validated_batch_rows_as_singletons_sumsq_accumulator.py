# BLIND-SET: 51
# EXERCISE: ex2
# WHAT: Correct. Defensive per-example gradients: x and y are cast and checked, each example is fed to the given loss_fn as a (1, 784) row, and jax.vmap(jax.grad) runs with in_axes=(None, 0, 0). The norms accumulate per-example sums of squares over every leaf (each viewed as (B, -1)) after a check that all leaves share B, and return shape (B,) for every B. The index comes from jnp.argmax, returned as a Python int after a range check.
# SHOULD-SAY: Nothing to fix: slice i is the gradient of the lesson's loss on example i alone, the norms cover weights and biases, and the index is a plain int.
"""Exercise 2: per-example gradients with jax.vmap (defensive, correct)."""

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes; y is int32 (B,)."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


def _checked_batch(x, y):
    x = jnp.asarray(x, dtype=jnp.float32)
    y = jnp.asarray(y, dtype=jnp.int32)
    if x.ndim != 2:
        raise ValueError(f"x must be (B, features), got {x.shape}")
    if y.shape != (x.shape[0],):
        raise ValueError(f"y must be ({x.shape[0]},), got {y.shape}")
    return x, y


def _loss_on_row(params, row, label):
    return loss_fn(params, row[None, :], label[None])


def per_example_grads(params, x, y):
    """Gradient of the loss on each example alone, stacked on a leading axis."""
    x, y = _checked_batch(x, y)
    return jax.vmap(jax.grad(_loss_on_row), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    leaves = jax.tree.leaves(grads)
    if not leaves:
        raise ValueError("grads has no leaves")
    batch_sizes = {int(leaf.shape[0]) for leaf in leaves}
    if len(batch_sizes) != 1:
        raise ValueError(f"leaves disagree on the batch size: {sorted(batch_sizes)}")
    (batch,) = batch_sizes
    acc = jnp.zeros((batch,), dtype=jnp.float32)
    for leaf in leaves:
        rows = jnp.asarray(leaf, dtype=jnp.float32).reshape(batch, -1)
        acc = acc + jnp.einsum("bi,bi->b", rows, rows)
    return jnp.sqrt(acc)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    index = int(jnp.argmax(norms))
    if not 0 <= index < norms.shape[0]:
        raise RuntimeError("argmax returned an index outside the batch")
    return index
