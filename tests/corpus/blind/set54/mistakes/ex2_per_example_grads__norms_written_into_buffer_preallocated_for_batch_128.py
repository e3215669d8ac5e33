# BLIND-SET: 54
# EXERCISE: ex2
# WHAT: per_example_grad_norms writes the norms into an output buffer preallocated at import for the lesson's batch of 128 (buffer.at[arange(B)].set(norms)) and returns buffer[:B]. Up to B = 128 the values are right; for B > 128 JAX drops the out-of-range writes silently and the slice stops at 128, so the result has shape (128,) instead of (B,), and largest_gradient_example never returns an index >= 128.
# SHOULD-SAY: Your norms go through a buffer sized for 128 examples, so larger batches lose every norm past index 127 (and the output has the wrong length). Return the computed (B,) array directly; JAX arrays are immutable, so a preallocated buffer saves nothing.
"""Exercise 2: per-example gradients with jax.vmap, outputs in a reused buffer."""

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

def _example_loss(params, xi, yi):
    return loss_fn(params, xi[None], yi[None])


_batched_grad = jax.jit(jax.vmap(jax.grad(_example_loss), in_axes=(None, 0, 0)))

_LESSON_BATCH = 128
_NORM_BUFFER = jnp.zeros((_LESSON_BATCH,), jnp.float32)  # allocated once


def per_example_grads(params, x, y):
    """Gradient of the loss on each example alone, stacked on a leading axis."""
    return _batched_grad(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    leaves = jax.tree.leaves(grads)
    n = leaves[0].shape[0]
    sq = sum(jnp.sum(jnp.square(leaf.reshape(n, -1)), axis=1) for leaf in leaves)
    out = _NORM_BUFFER.at[jnp.arange(n)].set(jnp.sqrt(sq))
    return out[:n]


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
