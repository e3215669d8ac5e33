# BLIND-SET: 54
# EXERCISE: ex4
# WHAT: Correct. jax.jit(train_step) is kept in a module dict keyed by the step function itself (looked up at call time); the benchmark params and batch (128 examples) are built once at import from explicit keys (arrays are immutable and nothing is donated), and each run starts from a fresh optimizer.init(params). time_steps threads a (params, opt_state) carry through exactly n_steps timed calls after one blocked warm-up and blocks on the final carry and loss before reading time.perf_counter.
# SHOULD-SAY: Nothing to fix: time_steps and jit_speedup meet the contract (full marks).
"""Exercise 4: timing the training step, compiled step and inputs built once."""

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


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Seconds for `n_steps` calls of `step_fn`, after one warm-up call."""
    *carry, last_loss = step_fn(params, opt_state, x, y)
    jax.block_until_ready((carry, last_loss))
    carry = tuple(carry)
    t_start = time.perf_counter()
    remaining = n_steps
    while remaining > 0:
        *carry, last_loss = step_fn(carry[0], carry[1], x, y)
        carry = tuple(carry)
        remaining -= 1
    jax.block_until_ready((carry, last_loss))
    return float(time.perf_counter() - t_start)


_COMPILED = {}  # step function -> its jax.jit wrapper


def _jitted(fn):
    wrapped = _COMPILED.get(fn)
    if wrapped is None:
        wrapped = _COMPILED[fn] = jax.jit(fn)
    return wrapped


# the benchmark model and batch, built once at import (immutable, never donated)
_K_PARAMS, _K_X, _K_Y = jax.random.split(jax.random.PRNGKey(0), 3)
_BENCH_PARAMS = init_params(_K_PARAMS)
_BENCH_X = jax.random.normal(_K_X, (128, 784))
_BENCH_Y = jax.random.randint(_K_Y, (128,), 0, 10)


def jit_speedup(n_steps=100):
    """Time the training step eagerly and jitted; report both and their ratio."""
    params, x, y = _BENCH_PARAMS, _BENCH_X, _BENCH_Y
    timings = {}
    for label, fn in (("eager_s", train_step), ("jit_s", _jitted(train_step))):
        timings[label] = time_steps(fn, params, optimizer.init(params), x, y, n_steps)
    timings["speedup"] = timings["eager_s"] / timings["jit_s"]
    return timings
