# BLIND-SET: 29
# EXERCISE: ex4
# WHAT: Correct rewrite: one blocked warm-up call, then the (params, opt_state, loss) tuple threaded as state[0], state[1] through n_steps calls, the clock read into a float NumPy array of two stamps around the loop, blocked on the final state before the stop stamp; jit_speedup keeps the two timings in np.zeros(2) and returns Python floats.
# SHOULD-SAY: Nothing to fix: warm-up excluded, exactly n_steps threaded calls, waits for the results, float seconds, speedup == eager_s / jit_s.
"""Exercise 4 (reference): timing the training step with and without jax.jit."""

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
    state = step_fn(params, opt_state, x, y)  # warm-up: compiles step_fn if it is jitted
    jax.block_until_ready(state)
    stamps = np.zeros(2)  # [start, stop]
    stamps[0] = time.perf_counter()
    for _ in range(n_steps):
        state = step_fn(state[0], state[1], x, y)
    jax.block_until_ready(state)
    stamps[1] = time.perf_counter()
    return float(np.diff(stamps)[0])


def jit_speedup(n_steps=100):
    """Time the training step eagerly and jitted; report both and their ratio."""
    key_params, key_x, key_y = jax.random.split(jax.random.PRNGKey(0), 3)
    params = init_params(key_params)
    x = jax.random.normal(key_x, (128, 784))
    y = jax.random.randint(key_y, (128,), 0, 10)
    seconds = np.zeros(2)  # [eager, jit], float64
    for j, fn in enumerate([train_step, jax.jit(train_step)]):
        seconds[j] = time_steps(fn, params, optimizer.init(params), x, y, n_steps)
    eager_s, jit_s = float(seconds[0]), float(seconds[1])
    return {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}
