# BLIND-SET: 14
# EXERCISE: ex4
# WHAT: time_steps keeps params/opt_state/loss in a dict updated from each call, measures wall-clock time with datetime.datetime.now() and timedelta.total_seconds(), and blocks on the whole dict; jit_speedup builds its batch from jax.random.fold_in keys.
# SHOULD-SAY: Everything correct: one un-timed warm-up call, exactly n_steps timed calls with params and opt_state threaded from each call into the next, jax.block_until_ready on the results before the clock stops, a Python float in seconds; jit_speedup returns positive eager_s and jit_s with speedup == eager_s / jit_s and jit faster.
"""Exercise 4 (variant): a datetime-based timing harness."""

import datetime
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


def _advance(state, step_fn, x, y):
    """One training step; returns the new state dict."""
    p, s, l = step_fn(state["params"], state["opt_state"], x, y)
    return {"params": p, "opt_state": s, "loss": l}


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Seconds for `n_steps` threaded calls of `step_fn`, after one warm-up call."""
    state = {"params": params, "opt_state": opt_state, "loss": None}
    state = jax.block_until_ready(_advance(state, step_fn, x, y))  # warm-up / compile
    t0 = datetime.datetime.now()
    for _ in range(n_steps):
        state = _advance(state, step_fn, x, y)
    jax.block_until_ready(state)
    return (datetime.datetime.now() - t0).total_seconds()


def jit_speedup(n_steps=100):
    """Time train_step eagerly and under jax.jit."""
    root = jax.random.PRNGKey(2024)
    params = init_params(jax.random.fold_in(root, 0))
    x = jax.random.normal(jax.random.fold_in(root, 1), (128, 784))
    y = jax.random.randint(jax.random.fold_in(root, 2), (128,), 0, 10)
    timings = {}
    for label, fn in (("eager_s", train_step), ("jit_s", jax.jit(train_step))):
        timings[label] = float(time_steps(fn, params, optimizer.init(params), x, y, n_steps))
    timings["speedup"] = timings["eager_s"] / timings["jit_s"]
    return timings
