# BLIND-SET: 12
# EXERCISE: ex2
# WHAT: The single-example loss runs the forward pass on an unbatched (784,) row and takes a dot product with the one-hot label; norms are the square root of the diagonal of the Gram matrix of the flattened per-example gradients; the index is argmin of the negated norms.
# SHOULD-SAY: Everything correct: per-example gradients equal the reference (vmap over grad, leading axis B on every leaf); the Gram diagonal is each example's squared norm over all leaves; largest_gradient_example returns a Python int at the largest norm; jit-compatible.
"""Exercise 2: per-example gradients with jax.vmap (Gram-diagonal norms)."""

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

    def row_loss(p, row, label):
        log_probs = jax.nn.log_softmax(forward(p, row))
        return -jnp.dot(log_probs, jax.nn.one_hot(label, 10))

    return jax.vmap(jax.grad(row_loss), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """The global L2 norm of each example's gradient."""
    leaves = jax.tree.leaves(grads)
    batch = leaves[0].shape[0]
    flat = jnp.concatenate([leaf.reshape(batch, -1) for leaf in leaves], axis=1)
    gram = jnp.matmul(flat, flat.T, precision=jax.lax.Precision.HIGHEST)
    return jnp.sqrt(jnp.diagonal(gram))


def largest_gradient_example(params, x, y):
    """The index of the example with the largest gradient norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return int(jnp.argmin(-norms))
