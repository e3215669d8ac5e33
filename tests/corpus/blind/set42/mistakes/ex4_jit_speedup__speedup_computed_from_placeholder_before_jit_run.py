# BLIND-SET: 42
# EXERCISE: ex4
# WHAT: jit_speedup fills a results dict that starts with placeholders {"eager_s": 0.0, "jit_s": 1.0, "speedup": 0.0}; after an edit the line computing "speedup" sits before the jit timing, so speedup = eager_s / 1.0 = eager_s instead of eager_s / jit_s. eager_s and jit_s themselves are right.
# SHOULD-SAY: "speedup" is not eager_s / jit_s: it is computed while results["jit_s"] still holds its placeholder 1.0, so it equals eager_s. Compute the ratio after both timings (or drop the placeholders so a missing value raises instead of being used).
"""Exercise 4: how much does jax.jit buy?"""

from __future__ import annotations

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


def _wait(tree):
    """Block until every array in `tree` has been computed."""
    return jax.block_until_ready(tree)


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Wall-clock seconds for n_steps calls, excluding the warm-up/compile call."""
    params, opt_state, loss = _wait(step_fn(params, opt_state, x, y))
    t0 = time.perf_counter()
    for _ in range(n_steps):
        params, opt_state, loss = step_fn(params, opt_state, x, y)
    _wait((params, opt_state, loss))
    return time.perf_counter() - t0


def jit_speedup(n_steps=100):
    """Time the training step eagerly and with jax.jit.

    Returns:
      {"eager_s": float, "jit_s": float, "speedup": eager_s / jit_s}
    """
    key_params, key_x, key_y = jax.random.split(jax.random.PRNGKey(0), 3)
    params = init_params(key_params)
    x = jax.random.normal(key_x, (128, 784))
    y = jax.random.randint(key_y, (128,), 0, 10)

    results = {"eager_s": 0.0, "jit_s": 1.0, "speedup": 0.0}
    results["eager_s"] = float(time_steps(train_step, params, optimizer.init(params), x, y, n_steps))
    results["speedup"] = results["eager_s"] / results["jit_s"]
    results["jit_s"] = float(time_steps(jax.jit(train_step), params, optimizer.init(params), x, y, n_steps))
    return results
