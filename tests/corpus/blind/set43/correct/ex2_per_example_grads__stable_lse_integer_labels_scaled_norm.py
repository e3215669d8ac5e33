# BLIND-SET: 43
# EXERCISE: ex2
# WHAT: correct. The per-example loss uses integer labels with take_along_axis and a max-shifted log-sum-exp whose shift is stop-gradiented in both places (so it cancels exactly in value and gradient); the norms are overflow-safe: each example's slice is divided by its largest absolute entry over all leaves (where-guarded against 0), squared, summed and multiplied back. Gradients, norms and the int index equal the reference to float32 tolerance.
# SHOULD-SAY: nothing to fix: full marks.
"""Exercise 2: per-example gradients with jax.vmap over jax.grad, written with
numerical range in mind."""

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


def _stable_nll(logits, labels):
    """-log softmax(logits)[label] per row; integer labels, no one-hot matrix."""
    m = jax.lax.stop_gradient(jnp.max(logits, axis=-1, keepdims=True))
    lse = jnp.log(jnp.sum(jnp.exp(logits - m), axis=-1, keepdims=True)) + m
    picked = jnp.take_along_axis(logits, labels[:, None].astype(jnp.int32), axis=-1)
    return (lse - picked)[:, 0]


def _example_loss(params, xi, yi):
    logits = forward(params, jnp.asarray(xi, dtype=jnp.float32)[None])
    return jnp.mean(_stable_nll(logits, jnp.reshape(yi, (1,))))


def per_example_grads(params, x, y):
    """Gradient of the loss on each example alone, stacked on a leading axis."""
    return jax.vmap(jax.grad(_example_loss), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient, computed without overflow."""
    flat = [jnp.reshape(g, (g.shape[0], -1)).astype(jnp.float32) for g in jax.tree.leaves(grads)]
    # Per-example scale: the largest |entry| over every leaf, kept as a (B, 1) column.
    scale = jnp.max(jnp.concatenate([jnp.max(jnp.abs(f), axis=1, keepdims=True) for f in flat], axis=1),
                    axis=1, keepdims=True)
    safe = jnp.where(scale > 0, scale, 1.0)
    sumsq = sum(jnp.sum(jnp.square(f / safe), axis=1, keepdims=True) for f in flat)
    return (safe * jnp.sqrt(sumsq))[:, 0]


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
