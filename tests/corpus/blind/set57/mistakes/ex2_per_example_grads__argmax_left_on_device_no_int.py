# BLIND-SET: 57
# EXERCISE: ex2
# WHAT: largest_gradient_example runs grads -> norms -> argmax in one jitted function and returns jnp.argmax's result directly, skipping int() to avoid a device-to-host sync. The value is the right index on every batch tried (B = 1 to 200), but it is a 0-d jax Array of dtype int32, not a Python int (isinstance(i, int) is False). per_example_grads and per_example_grad_norms match the reference (norms within 1.5e-7 relative).
# SHOULD-SAY: largest_gradient_example must return a plain Python int, but it returns the 0-d JAX array from jnp.argmax (you skipped int() to avoid a host sync). Convert at the end: return int(jnp.argmax(norms)); the sync is needed anyway for a Python int.
"""Exercise 2: per-example gradients with jax.vmap (tuned: jitted, fused reductions)."""

import jax
import jax.numpy as jnp
from jax import lax

# --- Given: the lesson's model and loss ----------------------------------------


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last.

    ``params`` is ``{"layer1": {"w": (784, 256), "b": (256,)}, ...,
    "layer3": {"w": (128, 10), "b": (10,)}}``; ``x`` is float32 ``(B, 784)``.
    """
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes; ``y`` is int32 ``(B,)``."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


# --- My code ------------------------------------------------------------------


def _example_loss(params, xi, yi):
    """The batch loss on a batch of one (xi: (784,), yi: scalar)."""
    return loss_fn(params, xi[None], yi[None])


# params are shared (in_axes None), only the examples are mapped; one compile per shape.
_grads = jax.jit(jax.vmap(jax.grad(_example_loss), in_axes=(None, 0, 0)))


def _flat_rows(grads):
    """All leaves as one (B, P) matrix: one reduction instead of one per leaf."""
    return jnp.concatenate([g.reshape(g.shape[0], -1) for g in jax.tree.leaves(grads)], axis=1)


def per_example_grads(params, x, y):
    """Per-example gradients, leaves stacked on a leading axis."""
    return _grads(params, x, y)


@jax.jit
def per_example_grad_norms(grads):
    """Global L2 norm per example: sum of squares of all leaves as one row-wise dot."""
    flat = _flat_rows(grads)
    return lax.sqrt(jnp.einsum("bp,bp->b", flat, flat))


@jax.jit
def _largest(params, x, y):
    # grads -> norms -> argmax in one compiled program
    return jnp.argmax(per_example_grad_norms(_grads(params, x, y)))


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    # No int(): converting would block on a device-to-host copy every call;
    # the index stays on device and can be fed straight into x[i].
    return _largest(params, x, y)
