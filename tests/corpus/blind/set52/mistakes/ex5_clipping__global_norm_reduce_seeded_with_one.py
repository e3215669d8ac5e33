# BLIND-SET: 52
# EXERCISE: ex5
# WHAT: the hand-written clip computes the global norm as sqrt(functools.reduce(add vdot(g, g), leaves, 1.0)): the reduce is seeded with 1.0 instead of 0.0, so the norm is sqrt(1 + sum of squares). Gradients get scaled by max_norm / sqrt(1 + ||g||^2): some below max_norm are clipped and clipped ones are over-shrunk, so updates differ from clip_by_global_norm followed by Adam (most visibly around a norm spike and for small max_norm).
# SHOULD-SAY: The clipping norm is too large by the reduce's initial value: reduce(..., leaves, 1.0) adds 1 to the sum of squares. Seed it with 0.0 (or use optax.clip_by_global_norm / optax.tree.norm).
"""Exercise 5: gradient clipping in an optax chain (hand-written clip, reduce norm)."""

import operator
from functools import reduce

import jax
import jax.numpy as jnp
import optax


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


# --- Your code ----------------------------------------------------------------


def _clip_by_global_norm(max_norm, global_norm):
    """Stateless transform: scale the whole update tree down to max_norm."""

    def update(updates, state, params=None):
        scale = jnp.minimum(1.0, max_norm / global_norm(updates))
        return jax.tree.map(lambda g: g * scale, updates), state

    return optax.GradientTransformation(lambda params: optax.EmptyState(), update)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Global-norm clipping, then Adam."""

    norm = lambda tree: jnp.sqrt(reduce(lambda acc, g: acc + jnp.vdot(g, g), jax.tree.leaves(tree), 1.0))
    return optax.chain(_clip_by_global_norm(max_norm, norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted step: loss and grads at the incoming params, update through optimizer."""

    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, new_state = optimizer.update(grads, opt_state, params)
        return jax.tree.map(operator.add, params, updates), new_state, loss

    return jax.jit(step)

