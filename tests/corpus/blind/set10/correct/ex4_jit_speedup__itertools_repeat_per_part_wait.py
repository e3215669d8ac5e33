# BLIND-SET: correct
# EXERCISE: ex4
# WHAT: the timed loop is driven by itertools.repeat(None, n_steps) with the state kept as one tuple re-splatted into step_fn(*state[:2], x, y), and the wait blocks params, opt_state and loss by separate jax.block_until_ready calls.
# SHOULD-SAY: full marks
"""Exercise 4: timing with itertools.repeat and per-part waits."""

import itertools
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
    """Seconds for `n_steps` threaded calls of `step_fn`, after one blocked warm-up call."""
    state = step_fn(params, opt_state, x, y)  # warm-up: compiles if step_fn is jitted
    for part in state:
        jax.block_until_ready(part)
    begin = time.perf_counter()
    for _ in itertools.repeat(None, n_steps):
        state = step_fn(*state[:2], x, y)
    for part in state:
        jax.block_until_ready(part)
    end = time.perf_counter()
    return end - begin


def jit_speedup(n_steps=100):
    """Time the training step eagerly and jitted; report both and their ratio."""
    keys = jax.random.split(jax.random.PRNGKey(2024), 3)
    params = init_params(keys[0])
    x = jax.random.normal(keys[1], (128, 784), dtype=jnp.float32)
    y = jax.random.randint(keys[2], (128,), 0, 10, dtype=jnp.int32)
    timings = {}
    for label, fn in (("eager_s", train_step), ("jit_s", jax.jit(train_step))):
        timings[label] = time_steps(fn, params, optimizer.init(params), x, y, n_steps)
    timings["speedup"] = timings["eager_s"] / timings["jit_s"]
    return timings
