# BLIND-SET: 38
# EXERCISE: ex2
# WHAT: per_example_grads vmaps with axis_name="batch" and, as in a Flax pmap train_step, applies jax.lax.pmean(grads, "batch") to each example's gradient, so every slice is the batch-mean gradient instead of example i's own. Shapes are right, all B norms are equal, and largest_gradient_example always returns 0.
# SHOULD-SAY: Your per-example gradients are all identical: the lax.pmean over the vmap axis (a habit from pmap data-parallel training) averages them across the batch. For per-example gradients return jax.grad's result for each example as it is: vmap(grad(single_example_loss), in_axes=(None, 0, 0)) with no collective.
"""Exercise 2: per-example gradients with jax.vmap (I come from Flax pmap training loops)."""

import jax
import jax.numpy as jnp
import optax


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes; ``y`` is int32 ``(B,)``."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


AXIS = "batch"


def _example_grad(params, xi, yi):
    grads = jax.grad(loss_fn)(params, xi[None], yi[None])
    # same line as in my pmap train_step: keep replicas in sync
    return jax.lax.pmean(grads, axis_name=AXIS)


def per_example_grads(params, x, y):
    """One gradient per example: vmap over the batch axis, params broadcast."""
    return jax.vmap(_example_grad, in_axes=(None, 0, 0), axis_name=AXIS)(params, x, y)


def per_example_grad_norms(grads):
    """The global L2 norm of each example's gradient over all leaves."""
    return jax.vmap(optax.global_norm)(grads)


def largest_gradient_example(params, x, y):
    """The index of the example with the largest gradient norm, as a Python int."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return int(jnp.argmax(norms))
