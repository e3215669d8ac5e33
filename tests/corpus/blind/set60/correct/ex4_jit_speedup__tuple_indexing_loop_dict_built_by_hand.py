# BLIND-SET: 60
# EXERCISE: ex4
# WHAT: correct: time_steps makes one warm-up call, blocks on its result and takes params/state from it by index. It then starts time.perf_counter and runs `for i in range(n_steps)`, feeding result[0]/result[1] into the next call. It blocks on the last result, stops the clock and returns float(end - start). jit_speedup uses the reference's keys (split(PRNGKey(0), 3)), batch 128 and a fresh optimizer.init for each run, and builds the result dict by hand. A counting step_fn with n_steps=5 was called 6 times (warm-up + 5), with the same order of calls and blocks and the same threaded values as the reference. A step that sleeps 0.02 s, with 10 steps, timed 0.206 s (reference 0.207 s). jit_speedup(100) in fresh processes gave eager_s 1.3 to 1.8 s, jit_s 0.15 to 0.21 s and speedup 7.0 to 11.8 (reference 7.2 to 11.0); all floats, with speedup == eager_s / jit_s.
# SHOULD-SAY: full marks
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
    # warm-up: the first call compiles (if step_fn is jitted), do not time it
    result = step_fn(params, opt_state, x, y)
    result = jax.block_until_ready(result)
    params = result[0]
    opt_state = result[1]

    start = time.perf_counter()
    for i in range(n_steps):
        result = step_fn(params, opt_state, x, y)
        # feed the new params and state into the next step
        params = result[0]
        opt_state = result[1]
    # JAX runs in the background: wait until everything is really done
    jax.block_until_ready(result)
    end = time.perf_counter()

    total = end - start
    return float(total)


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
