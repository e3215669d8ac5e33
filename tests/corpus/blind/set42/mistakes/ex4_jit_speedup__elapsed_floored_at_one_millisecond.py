# BLIND-SET: 42
# EXERCISE: ex4
# WHAT: time_steps returns max(elapsed, MIN_ELAPSED_S) with MIN_ELAPSED_S = 1e-3 ("perf_counter resolution, avoid a zero denominator"), so any run that really takes under 1 ms is reported as exactly 0.001 s; longer runs are reported correctly, and warm-up, threading and blocking are right.
# SHOULD-SAY: time_steps does not report the measured wall-clock time for fast runs: the floor max(elapsed, 1e-3) turns every sub-millisecond measurement into 0.001 s (time.perf_counter has sub-microsecond resolution, and a real run is never 0). Return time.perf_counter() - start as measured; if you need a guard against division by zero, put it in the speedup, not in the timing.
"""Exercise 4: how much does jax.jit buy?"""

from __future__ import annotations

import time
from typing import Any, Callable

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


# Timer resolution guard: never report less than this, so ratios stay finite.
MIN_ELAPSED_S = 1e-3

StepFn = Callable[[Any, Any, jax.Array, jax.Array], tuple[Any, Any, jax.Array]]


def time_steps(step_fn: StepFn, params, opt_state, x, y, n_steps: int = 100) -> float:
    """Wall-clock seconds for `n_steps` calls of `step_fn`, compilation excluded."""
    # Warm-up: triggers tracing/compilation for jitted functions.
    params, opt_state, loss = jax.block_until_ready(step_fn(params, opt_state, x, y))

    start = time.perf_counter()
    for _ in range(n_steps):
        params, opt_state, loss = step_fn(params, opt_state, x, y)
    jax.block_until_ready((params, opt_state, loss))
    elapsed = time.perf_counter() - start

    return float(max(elapsed, MIN_ELAPSED_S))


def _benchmark_inputs(batch_size: int = 128, seed: int = 0):
    key_params, key_x, key_y = jax.random.split(jax.random.PRNGKey(seed), 3)
    params = init_params(key_params)
    x = jax.random.normal(key_x, (batch_size, 784))
    y = jax.random.randint(key_y, (batch_size,), 0, 10)
    return params, x, y


def jit_speedup(n_steps: int = 100) -> dict[str, float]:
    """Time train_step eagerly and under jax.jit; return both and their ratio."""
    params, x, y = _benchmark_inputs()
    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps)
    jit_s = time_steps(jax.jit(train_step), params, optimizer.init(params), x, y, n_steps)
    return {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}
