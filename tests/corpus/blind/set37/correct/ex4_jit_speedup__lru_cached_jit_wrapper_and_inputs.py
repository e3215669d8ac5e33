# BLIND-SET: 37
# EXERCISE: ex4
# WHAT: Correct rewrite: the jitted step comes from an lru_cache'd jax.jit wrapper keyed by the step function (no donation, no static arguments), the benchmark's params and batch come from an lru_cache'd setup (read-only, never donated), and time_steps threads an explicit (params, opt_state) carry through a while loop after a blocked warm-up, then waits on the whole final carry and loss before reading the clock.
# SHOULD-SAY: Nothing to fix: one warm-up call outside the clock, exactly n_steps threaded calls, jax.block_until_ready before stopping the clock, and eager_s / jit_s from the lesson's step timed both ways.
"""Exercise 4: timing the training step with and without jax.jit (setup and jit wrapper cached)."""

import functools
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


@functools.lru_cache(maxsize=None)
def _jitted(step_fn):
    """One jax.jit wrapper per step function, so its compiled program is reused across runs."""
    return jax.jit(step_fn)


@functools.lru_cache(maxsize=None)
def _benchmark_inputs(batch_size=128):
    """Params and one batch for the benchmark; arrays are immutable, so sharing them is safe."""
    key_params, key_x, key_y = jax.random.split(jax.random.PRNGKey(0), 3)
    params = init_params(key_params)
    x = jax.random.normal(key_x, (batch_size, 784))
    y = jax.random.randint(key_y, (batch_size,), 0, 10)
    return params, x, y


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Seconds for `n_steps` calls of `step_fn`, after one warm-up call."""
    *carry, loss = step_fn(params, opt_state, x, y)
    jax.block_until_ready((carry, loss))
    remaining = n_steps
    tic = time.perf_counter()
    while remaining > 0:
        *carry, loss = step_fn(carry[0], carry[1], x, y)
        remaining -= 1
    jax.block_until_ready((carry, loss))
    return float(time.perf_counter() - tic)


def jit_speedup(n_steps=100):
    """Time the training step eagerly and jitted; report both and their ratio."""
    params, x, y = _benchmark_inputs()
    timings = {}
    for label, step_fn in (("eager_s", train_step), ("jit_s", _jitted(train_step))):
        timings[label] = time_steps(step_fn, params, optimizer.init(params), x, y, n_steps)
    timings["speedup"] = timings["eager_s"] / timings["jit_s"]
    return timings
