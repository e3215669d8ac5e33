# BLIND-SET: 44
# EXERCISE: ex4
# WHAT: time_steps records an (n_steps, 2) table of [start, stop] perf_counter stamps, one row per step (each step blocked with jax.block_until_ready), but takes np.diff(laps, axis=0) (row to row, down the steps) instead of axis=-1 (stop minus start in each row) before summing. The result is (first start to last start) + (first stop to last stop): about 2*(n-1)/n times the real time, and exactly 0.0 for n_steps=1.
# SHOULD-SAY: The elapsed time is wrong: differencing the lap table along axis 0 subtracts consecutive steps' stamps instead of each step's start from its stop, so the total is nearly doubled for long runs and zero for a single step. Use np.diff(laps, axis=-1).sum() (stop - start per row), or simply perf_counter() after the final wait minus perf_counter() before the loop.
"""Exercise 4: timing the training step with and without jax.jit (lap table)."""

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


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Seconds for `n_steps` calls of `step_fn`, after one warm-up call."""
    state = (params, opt_state)
    *state, loss = jax.block_until_ready(step_fn(*state, x, y))     # warm-up: compile, then wait
    laps = np.zeros((n_steps, 2))                                    # (step, [start, stop])
    for i in range(n_steps):
        laps[i, 0] = time.perf_counter()
        *state, loss = jax.block_until_ready(step_fn(*state, x, y))  # thread (params, opt_state)
        laps[i, 1] = time.perf_counter()
    return float(np.diff(laps, axis=0).sum())


def jit_speedup(n_steps=100):
    """Time the training step eagerly and jitted; report both and their ratio."""
    key_params, key_x, key_y = jax.random.split(jax.random.PRNGKey(0), 3)
    params = init_params(key_params)
    x = jax.random.normal(key_x, (128, 784))            # (B, 784)
    y = jax.random.randint(key_y, (128,), 0, 10)        # (B,)
    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps)
    jit_s = time_steps(jax.jit(train_step), params, optimizer.init(params), x, y, n_steps)
    return {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}
