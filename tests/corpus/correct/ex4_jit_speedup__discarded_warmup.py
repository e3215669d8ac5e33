"""The warm-up call's result is discarded; the timed loop starts from the given state and threads it.

Each timed call still receives what the previous timed call returned. Also
blocks on every step (slower, but correct), and times with perf_counter_ns.
"""

import time

import jax
import jax.numpy as jnp
import optax


def loss_fn(params, x, y):
    h = x
    for name in ("layer1", "layer2"):
        h = jax.nn.relu(h @ params[name]["w"] + params[name]["b"])
    logits = h @ params["layer3"]["w"] + params["layer3"]["b"]
    return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()


opt = optax.adam(1e-3)


def train_step(params, opt_state, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = opt.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    jax.block_until_ready(step_fn(params, opt_state, x, y))  # compile, result not needed
    start = time.perf_counter_ns()
    for _ in range(n_steps):
        params, opt_state, loss = jax.block_until_ready(step_fn(params, opt_state, x, y))
    return (time.perf_counter_ns() - start) / 1e9


def jit_speedup(n_steps=100):
    k = jax.random.split(jax.random.PRNGKey(3), 4)
    params = {
        "layer1": {"w": jax.random.normal(k[0], (784, 256)) / jnp.sqrt(392.0), "b": jnp.zeros(256)},
        "layer2": {"w": jax.random.normal(k[1], (256, 128)) / jnp.sqrt(128.0), "b": jnp.zeros(128)},
        "layer3": {"w": jax.random.normal(k[2], (128, 10)) / jnp.sqrt(64.0), "b": jnp.zeros(10)},
    }
    x = jax.random.uniform(k[3], (128, 784))
    y = jnp.arange(128, dtype=jnp.int32) % 10
    eager_s = time_steps(train_step, params, opt.init(params), x, y, n_steps)
    jit_s = time_steps(jax.jit(train_step), params, opt.init(params), x, y, n_steps)
    return dict(eager_s=eager_s, jit_s=jit_s, speedup=eager_s / jit_s)
