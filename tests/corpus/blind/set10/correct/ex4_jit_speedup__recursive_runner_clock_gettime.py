# BLIND-SET: correct
# EXERCISE: ex4
# WHAT: the n_steps timed calls are run by a divide-and-conquer recursive helper (depth log2 n, so any n_steps works) and the clock is time.clock_gettime(time.CLOCK_MONOTONIC); jit_speedup times the jitted step first, then the eager one, each from a fresh state.
# SHOULD-SAY: full marks
"""Exercise 4: timing with a recursive step runner and the monotonic clock."""

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


def _run(step_fn, state, x, y, count):
    """Apply step_fn `count` times, threading (params, opt_state); recursion depth ~log2(count)."""
    if count == 0:
        return state
    if count == 1:
        params, opt_state, _ = state
        return step_fn(params, opt_state, x, y)
    half = count // 2
    return _run(step_fn, _run(step_fn, state, x, y, half), x, y, count - half)


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Seconds for `n_steps` threaded calls of `step_fn`, after one blocked warm-up call."""
    state = jax.block_until_ready(step_fn(params, opt_state, x, y))
    t0 = time.clock_gettime(time.CLOCK_MONOTONIC)
    state = _run(step_fn, state, x, y, n_steps)
    jax.block_until_ready(state)
    return float(time.clock_gettime(time.CLOCK_MONOTONIC) - t0)


def jit_speedup(n_steps=100):
    """Time the training step jitted and eagerly; report both and their ratio."""
    k_init, k_data, k_label = jax.random.split(jax.random.PRNGKey(42), 3)
    params = init_params(k_init)
    x = jax.random.normal(k_data, (128, 784))
    y = jax.random.randint(k_label, (128,), 0, 10)
    jit_s = time_steps(jax.jit(train_step), params, optimizer.init(params), x, y, n_steps)
    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps)
    return {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}
