# BLIND-SET: 51
# EXERCISE: ex2
# WHAT: The per-example loss is written as -log(clip(softmax(logits)[y], 1e-7, 1)) "to avoid log(0)". While the true-class probability is above 1e-7 the gradients match the reference. For a confidently wrong example (true-class probability below 1e-7, e.g. inputs scaled up by 50) the clip has zero derivative, so that example's whole gradient (and norm) is 0 instead of the largest. largest_gradient_example then picks another example.
# SHOULD-SAY: Per-example gradients must be the gradient of the lesson's cross-entropy. Clamping the probability before the log sets the gradient to zero exactly for the examples that are most wrong (the ones with the largest gradients). Use jax.nn.log_softmax, which is already stable, or call the given loss_fn on x[i:i+1], y[i:i+1].
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


_NUM_CLASSES = 10
_PROB_FLOOR = 1e-7


def _example_loss(params, xi, yi):
    """Cross-entropy of one example, protected against log(0)."""
    logits = forward(params, xi[None, :])[0]
    probs = jax.nn.softmax(logits)
    p_true = jnp.clip(probs[yi], _PROB_FLOOR, 1.0)
    return -jnp.log(p_true)


def _canonical_batch(x, y):
    x = jnp.asarray(x, dtype=jnp.float32)
    y = jnp.asarray(y, dtype=jnp.int32).reshape(-1)
    if x.ndim != 2:
        x = x.reshape(x.shape[0], -1)
    if x.shape[0] != y.shape[0]:
        raise ValueError(f"x has {x.shape[0]} rows but y has {y.shape[0]} labels")
    return x, y


def per_example_grads(params, x, y):
    """Gradient of the loss on each example alone, stacked on a leading axis."""
    x, y = _canonical_batch(x, y)
    return jax.vmap(jax.grad(_example_loss), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    leaves = jax.tree.leaves(grads)
    if not leaves:
        raise ValueError("grads has no leaves")
    batch = leaves[0].shape[0]
    total = jnp.zeros((batch,), dtype=jnp.float32)
    for leaf in leaves:
        total = total + jnp.sum(jnp.reshape(leaf, (batch, -1)) ** 2, axis=1)
    return jnp.sqrt(total)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return int(jnp.argmax(norms))
