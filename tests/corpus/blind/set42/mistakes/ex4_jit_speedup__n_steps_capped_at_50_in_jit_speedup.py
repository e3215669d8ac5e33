# BLIND-SET: 42
# EXERCISE: ex4
# WHAT: jit_speedup clamps n_steps to at most MAX_BENCH_STEPS = 50 ("eager mode is slow; keep the notebook responsive") before calling time_steps, so jit_speedup(100) (the default) or any n_steps > 50 times only 50 steps for both runs and reports eager_s and jit_s for 50 steps; time_steps itself is correct and n_steps <= 50 is honoured.
# SHOULD-SAY: jit_speedup does not time the number of steps it is asked for: `n_steps = min(n_steps, 50)` silently caps both runs, so eager_s and jit_s are the times of 50 steps when 100 (the default) were requested. Pass n_steps through to time_steps unchanged.
"""Exercise 4: how much does jax.jit buy?"""

from __future__ import annotations

import time

import jax
import jax.numpy as jnp
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


# Eager steps of this MLP take a few ms each; more than this makes the notebook cell drag.
MAX_BENCH_STEPS = 50


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Seconds for `n_steps` threaded calls of `step_fn`, after one warm-up call."""
    if n_steps < 0:
        raise ValueError(f"n_steps must be >= 0, got {n_steps}")
    out = step_fn(params, opt_state, x, y)  # warm-up (compiles if jitted)
    params, opt_state, loss = jax.block_until_ready(out)

    start = time.perf_counter()
    for _ in range(n_steps):
        params, opt_state, loss = step_fn(params, opt_state, x, y)
    jax.block_until_ready((params, opt_state, loss))
    return time.perf_counter() - start


def jit_speedup(n_steps=100):
    """Compare eager and jitted train_step on one random batch of 128 examples."""
    n_steps = min(int(n_steps), MAX_BENCH_STEPS)
    k_params, k_x, k_y = jax.random.split(jax.random.PRNGKey(42), 3)
    params = init_params(k_params)
    x = jax.random.normal(k_x, (128, 784), dtype=jnp.float32)
    y = jax.random.randint(k_y, (128,), 0, 10, dtype=jnp.int32)

    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps)
    jit_s = time_steps(jax.jit(train_step), params, optimizer.init(params), x, y, n_steps)
    return {"eager_s": float(eager_s), "jit_s": float(jit_s), "speedup": float(eager_s / jit_s)}
