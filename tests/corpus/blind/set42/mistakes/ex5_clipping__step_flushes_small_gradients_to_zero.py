# BLIND-SET: 42
# EXERCISE: ex5
# WHAT: The train step zeroes every gradient element with |g| < 1e-6 ("numerical noise") before the optimizer. Adam normalises per element, so those parameters, which should move by about learning_rate on the first step, do not move at all: the new params differ from the reference by up to ~learning_rate at those elements (29 of them for a batch of 128 in my check; Adam's moments change only negligibly). make_optimizer is correct.
# SHOULD-SAY: The step alters the gradients before the optimizer: flushing |g| < 1e-6 to zero is not harmless under Adam, which divides each element by its own running RMS, so a tiny gradient still produces a step of about the learning rate. Pass the gradients from jax.value_and_grad to optimizer.update unchanged.
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


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip by global norm, then Adam."""
    return optax.chain(
        optax.clip_by_global_norm(max_norm=max_norm),
        optax.adam(learning_rate=learning_rate),
    )


# Gradient entries below this are float noise from the matmuls.
GRAD_EPS = 1e-6


def _denoise(grads):
    """Flush tiny gradient entries to exact zeros."""
    return jax.tree.map(lambda g: jnp.where(jnp.abs(g) < GRAD_EPS, jnp.zeros_like(g), g), grads)


def make_train_step(optimizer):
    """Jitted training step using the given optimizer."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        grads = _denoise(grads)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
