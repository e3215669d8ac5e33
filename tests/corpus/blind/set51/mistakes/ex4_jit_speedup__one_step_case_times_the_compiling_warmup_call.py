# BLIND-SET: 51
# EXERCISE: ex4
# WHAT: time_steps special-cases n_steps == 1 ("the warm-up call is the one step") and times that single first call. For n_steps = 1, step_fn is called once instead of twice, and the reported time includes tracing and compilation (about 0.48 s for a freshly jitted lesson step here, against about 0.002 s for the reference). For n_steps >= 2 it matches the reference.
# SHOULD-SAY: Compilation must be excluded for every n_steps, including 1. Always make one untimed warm-up call, then time exactly n_steps further calls. The n_steps == 1 shortcut times the compiling first call.
"""Exercise 4: timing the training step with and without jax.jit (defensive)."""

import time

import jax
import jax.numpy as jnp
import numpy as np
import optax


def init_params(key, sizes=(784, 256, 128, 10)):
    """He-initialised weights and zero biases for an MLP of the given widths."""
    params = {}
    for i, (n_in, n_out) in enumerate(zip(sizes[:-1], sizes[1:]), start=1):
        key, sub = jax.random.split(key)
        params[f"layer{i}"] = {
            "w": jax.random.normal(sub, (n_in, n_out)) * jnp.sqrt(2.0 / n_in),
            "b": jnp.zeros(n_out),
        }
    return params


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


optimizer = optax.adam(1e-3)


def train_step(params, opt_state, x, y):
    """The lesson's training step, not yet jitted."""
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


def _n_steps(n_steps):
    if isinstance(n_steps, bool) or int(n_steps) != n_steps:
        raise ValueError(f"n_steps must be a whole number, got {n_steps!r}")
    n_steps = int(n_steps)
    if n_steps < 0:
        raise ValueError(f"n_steps must be >= 0, got {n_steps}")
    return n_steps


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Seconds for n_steps calls of step_fn, excluding compilation."""
    if not callable(step_fn):
        raise TypeError("step_fn must be callable")
    n_steps = _n_steps(n_steps)
    if n_steps == 1:
        # A single step: the warm-up call *is* the step, so time it directly.
        start = time.perf_counter()
        out = step_fn(params, opt_state, x, y)
        jax.block_until_ready(out)
        return float(time.perf_counter() - start)
    params, opt_state, loss = jax.block_until_ready(step_fn(params, opt_state, x, y))
    start = time.perf_counter()
    for _ in range(n_steps):
        params, opt_state, loss = step_fn(params, opt_state, x, y)
    jax.block_until_ready((params, opt_state, loss))
    return float(time.perf_counter() - start)


def jit_speedup(n_steps=100):
    """Time the training step eagerly and jitted; report both and their ratio."""
    n_steps = _n_steps(n_steps)
    key_params, key_x, key_y = jax.random.split(jax.random.PRNGKey(0), 3)
    params = init_params(key_params)
    x = jax.random.normal(key_x, (128, 784), dtype=jnp.float32)
    y = jax.random.randint(key_y, (128,), 0, 10, dtype=jnp.int32)
    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps)
    jit_s = time_steps(jax.jit(train_step), params, optimizer.init(params), x, y, n_steps)
    speedup = eager_s / jit_s if jit_s > 0 else float("inf")
    return {"eager_s": float(eager_s), "jit_s": float(jit_s), "speedup": float(speedup)}
