# BLIND-SET: 35
# EXERCISE: ex5
# WHAT: the hand-written clipping stage keeps the largest gradient norm seen so far in its state (for the answers.md question) and, by slip, computes the clip factor from that running maximum instead of the current norm: each gradient is scaled by max_norm / (largest norm so far), so the updates differ from clip-then-Adam whenever an earlier gradient was larger, in particular at every step after a norm spike (the first update is right).
# SHOULD-SAY: Clip each gradient by its own global norm: scale = min(1, max_norm / g_norm) with g_norm computed from the current updates. The running maximum may be recorded in the state, but it must not feed the scale (or just use optax.clip_by_global_norm).
"""Exercise 5 (reference): gradient clipping chained before Adam."""

from typing import NamedTuple

import jax
import jax.numpy as jnp
import optax
from jax import lax


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


class ClipState(NamedTuple):
    """The largest global gradient norm seen so far (to report what clipping did)."""

    max_seen: jax.Array


def _clip_by_global_norm(max_norm):
    """Global-norm clipping as an optax GradientTransformation."""

    def init_fn(params):
        del params
        return ClipState(max_seen=jnp.zeros([], jnp.float32))

    def update_fn(updates, state, params=None):
        del params
        squares = jax.tree_util.tree_map(lambda g: jnp.sum(lax.square(g)), updates)
        g_norm = lax.sqrt(jax.tree_util.tree_reduce(lax.add, squares))
        max_seen = lax.max(state.max_seen, g_norm)
        scale = lax.select(max_seen > max_norm, max_norm / max_seen, jnp.float32(1.0))
        updates = jax.tree_util.tree_map(lambda g: g * scale, updates)
        return updates, ClipState(max_seen=max_seen)

    return optax.GradientTransformation(init_fn, update_fn)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    return optax.chain(_clip_by_global_norm(max_norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
