# BLIND-SET: 60
# EXERCISE: ex4
# WHAT: time_steps treats the warm-up as 'step 0' and times `for step in range(1, n_steps)`, which is only n_steps - 1 calls. A counting step_fn with n_steps=5 was called 5 times in all (warm-up + 4) instead of 6, and the last threaded params were 4 instead of 5. Warm-up, blocks and threading are otherwise right. For a step that sleeps 0.02 s, 10 steps take 0.190 s (reference 0.209 s). jit_speedup still gives plausible numbers: eager_s 1.1 to 1.7 s, jit_s 0.14 to 0.19 s and speedup 8.4 to 9.2, against a reference range of 7.2 to 11. With n_steps=1 nothing is timed: 1.3e-5 s for a step that sleeps 0.05 s.
# SHOULD-SAY: time_steps must time exactly n_steps calls after the warm-up, but range(1, n_steps) makes only n_steps - 1. The warm-up call is separate from the n_steps timed steps, so loop over range(n_steps).
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
    # step 0 is the warm-up (it compiles), so it is not timed
    result = step_fn(params, opt_state, x, y)
    jax.block_until_ready(result)
    params = result[0]
    opt_state = result[1]

    start = time.perf_counter()
    # the other steps
    for step in range(1, n_steps):
        result = step_fn(params, opt_state, x, y)
        params = result[0]
        opt_state = result[1]
    jax.block_until_ready(result)
    end = time.perf_counter()

    return float(end - start)


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
