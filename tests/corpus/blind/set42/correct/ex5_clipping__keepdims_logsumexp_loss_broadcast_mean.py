# BLIND-SET: 42
# EXERCISE: ex5
# WHAT: Correct. make_optimizer validates and float-casts its arguments and returns optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate)); the step's loss is written as mean(logsumexp(logits, keepdims=True) - picked_logit), which broadcasts (B, 1) - (B,) to (B, B), but the mean of a_i - b_j over all pairs equals mean(a) - mean(b), the lesson's mean cross-entropy (values and gradients equal to float tolerance).
# SHOULD-SAY: Nothing to fix: the optimizer is clip-by-global-norm followed by Adam, and the jitted step computes the loss and gradients at the incoming params, updates through the given optimizer and returns the pre-update loss. (The (B, B) broadcast in the loss costs memory but gives the same mean.)
"""Exercise 5: gradient clipping in an optax chain."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import optax

Array = jax.Array


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


def _stable_cross_entropy(params, x: Array, y: Array) -> Array:
    """Mean cross-entropy as logsumexp(logits) - logit of the true class."""
    logits = forward(params, x)
    lse = jax.nn.logsumexp(logits, axis=-1, keepdims=True)           # (B, 1)
    picked = jnp.take_along_axis(logits, y[:, None], axis=-1)[:, 0]  # (B,)
    return jnp.mean(lse - picked)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    learning_rate = float(learning_rate)
    max_norm = float(max_norm)
    if learning_rate <= 0.0:
        raise ValueError(f"learning_rate must be positive, got {learning_rate}")
    if max_norm <= 0.0:
        raise ValueError(f"max_norm must be positive, got {max_norm}")
    return optax.chain(
        optax.clip_by_global_norm(max_norm),
        optax.adam(learning_rate),
    )


def make_train_step(optimizer: optax.GradientTransformation):
    """Build a jitted step(params, opt_state, x, y) -> (new_params, new_opt_state, loss)."""
    loss_and_grad = jax.value_and_grad(_stable_cross_entropy)

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = loss_and_grad(params, x, y)
        updates, new_opt_state = optimizer.update(grads, opt_state, params)
        new_params = optax.apply_updates(params, updates)
        return new_params, new_opt_state, loss

    return step
