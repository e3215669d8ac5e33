# BLIND-SET: 51
# EXERCISE: ex5
# WHAT: Correct. Defensive optimizer: learning_rate and max_norm go through float() and a NaN/negative check (a learning rate of 0 is accepted as-is, and max_norm must be > 0), then optax.chain(optax.clip_by_global_norm, optax.adam) is built in that order. The step checks that it got a GradientTransformation, casts x and y to float32/int32, takes loss and grads from jax.value_and_grad(loss_fn) at the incoming params, updates through the given optimizer, and is wrapped in jax.jit.
# SHOULD-SAY: Nothing to fix: clip-then-Adam numerically equal to the reference chain, and a jitted step that returns the new params, the new state and the loss before the update.
"""Exercise 5: gradient clipping in an optax chain (defensive, correct)."""

import math

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


def _as_float(name, value):
    if isinstance(value, bool):
        raise TypeError(f"{name} must be a number, not a bool")
    value = float(value)
    if math.isnan(value) or value < 0.0:
        raise ValueError(f"{name} must be a non-negative number, got {value}")
    return value


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to max_norm, then apply Adam."""
    learning_rate = _as_float("learning_rate", learning_rate)
    max_norm = _as_float("max_norm", max_norm)
    if max_norm == 0.0:
        raise ValueError("max_norm must be positive")
    stages = [
        ("clip", optax.clip_by_global_norm(max_norm)),
        ("adam", optax.adam(learning_rate)),
    ]
    return optax.chain(*(transform for _, transform in stages))


def make_train_step(optimizer):
    """A jitted training step that updates params through optimizer."""
    if not isinstance(optimizer, optax.GradientTransformation):
        raise TypeError(f"expected an optax GradientTransformation, got {type(optimizer).__name__}")
    value_and_grad = jax.value_and_grad(loss_fn)

    def step(params, opt_state, x, y):
        x = jnp.asarray(x, dtype=jnp.float32)
        y = jnp.asarray(y, dtype=jnp.int32)
        loss, grads = value_and_grad(params, x, y)
        updates, new_state = optimizer.update(grads, opt_state, params)
        new_params = optax.apply_updates(params, updates)
        return new_params, new_state, loss

    return jax.jit(step)
