# BLIND-SET: 59
# EXERCISE: ex2
# WHAT: per_example_grad_norms builds the squared norms as a (B, 1) column (keepdims, for a debug print next to the labels) and returns norms.squeeze(). For B >= 2 the result has shape (B,) and matches the reference within 9e-8 relative. For B = 1 the squeeze also drops the batch axis: it returns a 0-d array of shape () instead of (1,), eagerly and under jit. Grads are bit-identical. largest_gradient_example still returns the right Python int (0 at B = 1).
# SHOULD-SAY: per_example_grad_norms must return shape (B,), but for a batch of one it returns a scalar of shape (): .squeeze() removes the batch axis as well when B = 1. Sum over axis=1 without keepdims, or squeeze only axis 1.
"""Exercise 2: per-example gradients with jax.vmap."""

import time

import jax
import jax.numpy as jnp

DEBUG = False
_timings = []   # (B, seconds) of every eager per_example_grads call


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


# --- Your code ----------------------------------------------------------------


def _example_loss(params, xi, yi):
    # one example at a time: add the batch axis back for loss_fn
    return loss_fn(params, xi[None], yi[None])


_per_example_grad_fn = jax.vmap(jax.grad(_example_loss), in_axes=(None, 0, 0))


def per_example_grads(params, x, y):
    """The gradient of the loss on each example alone, stacked on axis 0."""
    t0 = time.perf_counter()
    grads = _per_example_grad_fn(params, x, y)
    if not isinstance(x, jax.core.Tracer):
        jax.block_until_ready(grads)
        _timings.append((x.shape[0], time.perf_counter() - t0))
    return grads


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient, over every leaf."""
    leaves = jax.tree.leaves(grads)
    # (B, 1) column so it prints next to the labels
    sq = sum(jnp.sum(jnp.square(g).reshape(g.shape[0], -1), axis=1, keepdims=True) for g in leaves)
    norms = jnp.sqrt(sq)
    if DEBUG:
        jax.debug.print("per-example grad norms:\n{n}", n=norms)
    return norms.squeeze()


def largest_gradient_example(params, x, y):
    """Index of the example with the largest gradient norm, as a Python int."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    # print(jnp.argsort(norms)[::-1][:5])
    return int(jnp.argmax(norms))
