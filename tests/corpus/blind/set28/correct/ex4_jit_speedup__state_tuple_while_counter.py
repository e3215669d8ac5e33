# BLIND-SET: 28
# EXERCISE: ex4
# WHAT: Correct rewrite: params, state and loss carried in one tuple through a while loop with a countdown; block_until_ready on the whole tuple; jit_speedup builds its keys with fold_in and times eager then jitted.
# SHOULD-SAY: Nothing to fix: one warm-up, n_steps threaded calls, waiting before the clock stops, and speedup = eager_s / jit_s are all right.
"""Exercise 4: timing with and without jax.jit (rewritten)."""

import time

import jax
import jax.numpy as jnp
import optax


def init_params(key, sizes=(784, 256, 128, 10)):
    params = {}
    for i, (n_in, n_out) in enumerate(zip(sizes[:-1], sizes[1:]), start=1):
        key, sub = jax.random.split(key)
        params[f"layer{i}"] = {
            "w": jax.random.normal(sub, (n_in, n_out)) * jnp.sqrt(2.0 / n_in),
            "b": jnp.zeros(n_out),
        }
    return params


def forward(params, x):
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


optimizer = optax.adam(1e-3)


def train_step(params, opt_state, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    carry = jax.block_until_ready(step_fn(params, opt_state, x, y))
    remaining = n_steps
    t0 = time.perf_counter()
    while remaining > 0:
        carry = step_fn(carry[0], carry[1], x, y)
        remaining -= 1
    jax.block_until_ready(carry)
    return float(time.perf_counter() - t0)


def jit_speedup(n_steps=100):
    root = jax.random.PRNGKey(42)
    params = init_params(jax.random.fold_in(root, 0))
    x = jax.random.normal(jax.random.fold_in(root, 1), (128, 784))
    y = jax.random.randint(jax.random.fold_in(root, 2), (128,), 0, 10)
    timings = {}
    for label, fn in (("eager_s", train_step), ("jit_s", jax.jit(train_step))):
        timings[label] = time_steps(fn, params, optimizer.init(params), x, y, n_steps=n_steps)
    timings["speedup"] = timings["eager_s"] / timings["jit_s"]
    return timings
