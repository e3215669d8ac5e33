# BLIND-SET: 42
# EXERCISE: ex4
# WHAT: Correct. time_steps validates n_steps (>= 0, int), warms up with one blocked call whose outputs seed the loop, times exactly n_steps threaded calls with time.perf_counter and blocks on the final (params, opt_state, loss) through a helper before reading the clock; jit_speedup builds a 128-example float32/int32 batch from split keys and returns speedup = eager_s / jit_s (with an inf fallback only for a zero jit time).
# SHOULD-SAY: Nothing to fix: compilation is excluded, the clock waits for the results, step_fn is called n_steps times after the warm-up with state threaded, and jit_speedup reports positive times and speedup == eager_s / jit_s.
"""Exercise 4: how much does jax.jit buy?"""

from __future__ import annotations

import time
from typing import Any, Callable, TypedDict

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


class SpeedupReport(TypedDict):
    eager_s: float
    jit_s: float
    speedup: float


StepFn = Callable[[Any, Any, jax.Array, jax.Array], tuple[Any, Any, jax.Array]]


def _wait_for(tree: Any) -> Any:
    """JAX dispatches asynchronously: block until every leaf is computed."""
    return jax.block_until_ready(tree)


def time_steps(step_fn: StepFn, params, opt_state, x, y, n_steps: int = 100) -> float:
    """Wall-clock seconds for `n_steps` threaded calls of `step_fn`, compilation excluded."""
    if int(n_steps) != n_steps or n_steps < 0:
        raise ValueError(f"n_steps must be a non-negative integer, got {n_steps!r}")
    n_steps = int(n_steps)

    # One untimed call: compiles a jitted step_fn; its outputs start the timed run.
    params, opt_state, loss = _wait_for(step_fn(params, opt_state, x, y))

    start = time.perf_counter()
    for _ in range(n_steps):
        params, opt_state, loss = step_fn(params, opt_state, x, y)
    _wait_for((params, opt_state, loss))
    stop = time.perf_counter()
    return float(stop - start)


def _make_batch(key, batch_size: int = 128):
    key_x, key_y = jax.random.split(key)
    x = jax.random.normal(key_x, (batch_size, 784), dtype=jnp.float32)
    y = jax.random.randint(key_y, (batch_size,), 0, 10, dtype=jnp.int32)
    return x, y


def jit_speedup(n_steps: int = 100) -> SpeedupReport:
    """Time train_step eagerly and under jax.jit, each from a fresh optimizer state."""
    key_params, key_batch = jax.random.split(jax.random.PRNGKey(0))
    params = init_params(key_params)
    x, y = _make_batch(key_batch)

    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps)
    jit_s = time_steps(jax.jit(train_step), params, optimizer.init(params), x, y, n_steps)
    speedup = eager_s / jit_s if jit_s > 0 else float("inf")
    return {"eager_s": eager_s, "jit_s": jit_s, "speedup": speedup}
