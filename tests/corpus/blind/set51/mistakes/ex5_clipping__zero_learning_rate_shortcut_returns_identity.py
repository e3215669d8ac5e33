# BLIND-SET: 51
# EXERCISE: ex5
# WHAT: make_optimizer has an early return for learning_rate == 0, "nothing to learn, skip Adam": it returns optax.identity(). That transform passes the raw gradients through as updates, so with learning_rate=0 params move by +grad (and the state is EmptyState) instead of staying put. Every positive learning rate matches the reference.
# SHOULD-SAY: With learning_rate = 0, clip-then-Adam gives all-zero updates. optax.identity() is not a no-op optimizer: it returns the gradients themselves as updates. Drop the shortcut (optax.adam(0.0) already gives zero updates), or use optax.set_to_zero() if you really want one.
"""Exercise 5: gradient clipping in an optax chain (defensive)."""

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


def _positive_float(name, value, allow_zero=False):
    try:
        value = float(value)
    except (TypeError, ValueError) as err:
        raise ValueError(f"{name} must be a number, got {value!r}") from err
    if math.isnan(value) or value < 0 or (value == 0 and not allow_zero):
        raise ValueError(f"{name} must be {'>= 0' if allow_zero else '> 0'}, got {value}")
    return value


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to max_norm, then apply Adam."""
    learning_rate = _positive_float("learning_rate", learning_rate, allow_zero=True)
    max_norm = _positive_float("max_norm", max_norm)
    if learning_rate == 0.0:
        # Nothing will be learned: no need to build clipping and Adam state.
        return optax.identity()
    return optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through optimizer."""
    if not hasattr(optimizer, "update") or not hasattr(optimizer, "init"):
        raise TypeError("optimizer must be an optax GradientTransformation")

    @jax.jit
    def step(params, opt_state, x, y):
        x = jnp.asarray(x, dtype=jnp.float32)
        y = jnp.asarray(y, dtype=jnp.int32)
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, new_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), new_state, loss

    return step
