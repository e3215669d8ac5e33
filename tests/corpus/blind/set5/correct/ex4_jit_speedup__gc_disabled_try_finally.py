# BLIND-SET: correct
# EXERCISE: ex4
# WHAT: time_steps pauses the garbage collector during the timed loop (restored in a finally block, as timeit does), warms up and blocks before starting time.perf_counter, threads the state and blocks on the results before stopping; jit_speedup derives its keys with two nested splits.
# SHOULD-SAY: full marks
"""Exercise 4 (alternative solution): timing the training step with and without jax.jit."""

import gc
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
    """Seconds for `n_steps` calls of `step_fn`, garbage collector paused like timeit does."""
    params, opt_state, loss = step_fn(params, opt_state, x, y)  # warm-up (compilation)
    jax.block_until_ready((params, opt_state, loss))
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        start = time.perf_counter()
        for _ in range(n_steps):
            params, opt_state, loss = step_fn(params, opt_state, x, y)
        jax.block_until_ready((params, opt_state, loss))
        elapsed = time.perf_counter() - start
    finally:
        if gc_was_enabled:
            gc.enable()
    return float(elapsed)


def jit_speedup(n_steps=100):
    """Time the training step eagerly and jitted; report both and their ratio."""
    data_key, params_key = jax.random.split(jax.random.PRNGKey(2024))
    x_key, y_key = jax.random.split(data_key)
    params = init_params(params_key)
    x = jax.random.normal(x_key, (128, 784), dtype=jnp.float32)
    y = jax.random.randint(y_key, (128,), 0, 10, dtype=jnp.int32)
    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps=n_steps)
    jit_s = time_steps(jax.jit(train_step), params, optimizer.init(params), x, y, n_steps=n_steps)
    return {"eager_s": float(eager_s), "jit_s": float(jit_s), "speedup": float(eager_s) / float(jit_s)}
