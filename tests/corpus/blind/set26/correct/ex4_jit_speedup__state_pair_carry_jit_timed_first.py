# BLIND-SET: 26
# EXERCISE: ex4
# WHAT: correct rewrite: time_steps threads a (params, opt_state) pair through a counted while loop after one blocked warm-up call and blocks on the last (params, opt_state, loss) before reading time.perf_counter; jit_speedup builds its own keys and times the jitted step first, then the eager one, each from a fresh optimizer.init.
# SHOULD-SAY: nothing to fix: one warm-up outside the clock, exactly n_steps timed calls with params and state threaded, results waited for before the clock stops, and a dict with eager_s, jit_s and speedup = eager_s / jit_s.
"""Exercise 4: timing the lesson's training step with and without jax.jit."""

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
    """Seconds for n_steps threaded calls of step_fn, compilation excluded."""
    warm = step_fn(params, opt_state, x, y)
    jax.block_until_ready(warm)
    state = (warm[0], warm[1])
    result = warm

    t0 = time.perf_counter()
    done = 0
    while done < n_steps:
        result = step_fn(state[0], state[1], x, y)
        state = (result[0], result[1])
        done += 1
    jax.block_until_ready(result)
    t1 = time.perf_counter()
    return float(t1 - t0)


def jit_speedup(n_steps=100):
    """Eager and jitted timings of train_step on one batch of 128, and their ratio."""
    root = jax.random.PRNGKey(42)
    k_init, k_data = jax.random.split(root)
    k_x, k_y = jax.random.split(k_data)
    params = init_params(k_init)
    x = jax.random.normal(k_x, (128, 784))
    y = jax.random.randint(k_y, (128,), 0, 10)

    jitted_step = jax.jit(train_step)
    jit_s = time_steps(jitted_step, params, optimizer.init(params), x, y, n_steps=n_steps)
    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps=n_steps)
    return {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}
