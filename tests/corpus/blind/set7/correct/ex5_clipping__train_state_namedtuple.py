# BLIND-SET: correct
# EXERCISE: ex5
# WHAT: the jitted inner function works on a TrainState NamedTuple (params, opt_state) and returns (TrainState, loss); the public step (itself jitted, so the inner jit is inlined) packs its arguments into a TrainState, calls it, and unpacks to (params, opt_state, loss). make_optimizer names its arguments by keyword (optax.clip_by_global_norm(max_norm=...), optax.adam(learning_rate=...)).
# SHOULD-SAY: full marks
"""Exercise 5 (reference): gradient clipping chained before Adam."""

from typing import Any, NamedTuple

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


class TrainState(NamedTuple):
    params: Any
    opt_state: Any


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    return optax.chain(
        optax.clip_by_global_norm(max_norm=max_norm),
        optax.adam(learning_rate=learning_rate),
    )


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def _advance(state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(state.params, x, y)
        updates, opt_state = optimizer.update(grads, state.opt_state, state.params)
        return TrainState(optax.apply_updates(state.params, updates), opt_state), loss

    @jax.jit
    def step(params, opt_state, x, y):
        new_state, loss = _advance(TrainState(params, opt_state), x, y)
        return new_state.params, new_state.opt_state, loss

    return step
