# BLIND-SET: 60
# EXERCISE: ex4
# WHAT: time_steps is right (a blocked warm-up, n_steps threaded calls, a final block, and the same call and block sequence as the reference), but it returns (end - start) * 1000, i.e. milliseconds instead of seconds. For a step that sleeps 0.02 s, 10 steps come back as 211.4 (reference 0.212). A real eager train_step over 20 steps gives 419 to 459 instead of 0.40 to 0.50. jit_speedup reports eager_s 2426 to 2725 and jit_s 287 to 338, 1000 times too large. The speedup ratio is unaffected (7.2 to 9.5).
# SHOULD-SAY: time_steps must return seconds, but it multiplies by 1000 and returns milliseconds, so every time (and eager_s / jit_s) is 1000 times too large; only the speedup ratio survives. Return end - start directly (perf_counter is already in seconds, with sub-microsecond resolution).
"""Exercise 4: how much does jax.jit buy?"""

import time

import jax
import jax.numpy as jnp
import optax

# --- Given: the lesson's model, loss, optimizer and training step -----------


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


# --- My code ------------------------------------------------------------------


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    # warm-up (compiling), not timed
    temp = step_fn(params, opt_state, x, y)
    temp = jax.block_until_ready(temp)
    params = temp[0]
    opt_state = temp[1]

    start = time.perf_counter()
    for i in range(n_steps):
        temp = step_fn(params, opt_state, x, y)
        params = temp[0]
        opt_state = temp[1]
    jax.block_until_ready(temp)
    end = time.perf_counter()

    # time.perf_counter is too small to read, use milliseconds
    elapsed = (end - start) * 1000
    return float(elapsed)


def jit_speedup(n_steps=100):
    # explicit keys for everything random
    key = jax.random.PRNGKey(0)
    keys = jax.random.split(key, 3)
    params = init_params(keys[0])
    x = jax.random.normal(keys[1], (128, 784))
    y = jax.random.randint(keys[2], (128,), 0, 10)

    # without jit
    opt_state = optimizer.init(params)
    eager_time = time_steps(train_step, params, opt_state, x, y, n_steps)

    # with jit, from a fresh optimizer state
    jitted_step = jax.jit(train_step)
    opt_state = optimizer.init(params)
    jit_time = time_steps(jitted_step, params, opt_state, x, y, n_steps)

    result = {}
    result["eager_s"] = eager_time
    result["jit_s"] = jit_time
    result["speedup"] = eager_time / jit_time
    return result
