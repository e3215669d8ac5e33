# BLIND-SET: 42
# EXERCISE: ex5
# WHAT: make_optimizer "normalises" its arguments to the annotated types, learning_rate: float and max_norm: int, so max_norm is truncated with int(): 0.5 becomes 0 (every gradient is scaled to zero, so Adam's updates are all 0 and params never move) and 2.5 becomes 2; integer-valued max_norm (1.0, 5.0) and all learning rates behave correctly.
# SHOULD-SAY: max_norm is truncated to an integer: the type hint `max_norm: int` plus `int(max_norm)` turns 0.5 into 0 (all updates zero) and 2.5 into 2. max_norm is a float threshold; keep it as float(max_norm) and pass it to optax.clip_by_global_norm unchanged.
"""Exercise 5: gradient clipping in an optax chain."""

from __future__ import annotations

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


def make_optimizer(learning_rate: float = 1e-3, max_norm: int = 1) -> optax.GradientTransformation:
    """Global-norm clipping followed by Adam.

    Args:
      learning_rate: Adam's step size.
      max_norm: largest allowed global L2 norm of the gradient.
    """
    # Coerce to the annotated types so numpy / JAX scalars from a config work too.
    learning_rate = float(learning_rate)
    max_norm = int(max_norm)
    if learning_rate <= 0 or max_norm < 0:
        raise ValueError("learning_rate must be > 0 and max_norm >= 0")
    return optax.chain(
        optax.clip_by_global_norm(max_norm),
        optax.adam(learning_rate=learning_rate),
    )


def make_train_step(optimizer: optax.GradientTransformation):
    """Return a jitted step(params, opt_state, x, y) -> (params, opt_state, loss)."""
    grad_fn = jax.value_and_grad(loss_fn)

    def step(params, opt_state, x, y):
        loss, grads = grad_fn(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        params = optax.apply_updates(params, updates)
        return params, opt_state, loss

    return jax.jit(step)
