# BLIND-SET: 38
# EXERCISE: ex2
# WHAT: Correct: an Equinox-style loss for one unbatched example (logits (10,), -sum(log_softmax * one_hot), equal to loss_fn on x[i:i+1]) is vmapped over a Flax-style batch dict with in_axes=(None, {"image": 0, "label": 0}). The norms keep the jax.Array leaves and take sqrt of each example's sum of squares over every leaf; the index is int(argmax).
# SHOULD-SAY: Nothing to fix: one gradient per example from vmap(grad) with params broadcast, global per-example norms over weights and biases, and a Python int index.
"""Exercise 2: per-example gradients with jax.vmap, written the Equinox way (per-example model, vmap outside)."""

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


def example_loss(params, example):
    """Cross-entropy of one unbatched example: image (784,), label ()."""
    logits = forward(params, example["image"])  # (10,): forward works on a single vector too
    return -jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(example["label"], 10))


_BATCH_AXES = {"image": 0, "label": 0}


def per_example_grads(params, x, y):
    """One gradient per example: params broadcast, the batch dict mapped on axis 0."""
    batch = {"image": x, "label": y}
    return jax.vmap(jax.grad(example_loss), in_axes=(None, _BATCH_AXES))(params, batch)


def _is_array(leaf):
    return isinstance(leaf, jax.Array)  # eqx.is_array without numpy leaves


def per_example_grad_norms(grads):
    """The global L2 norm of each example's gradient over every array leaf."""
    leaves = [g for g in jax.tree.leaves(grads) if _is_array(g)]
    sq = sum(jnp.sum(jnp.square(g), axis=tuple(range(1, g.ndim))) for g in leaves)
    return jnp.sqrt(sq)


def largest_gradient_example(params, x, y):
    """The index of the example with the largest gradient norm, as a Python int."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return int(jnp.argmax(norms))
