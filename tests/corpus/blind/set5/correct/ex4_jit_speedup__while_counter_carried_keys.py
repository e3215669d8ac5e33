# BLIND-SET: correct
# EXERCISE: ex4
# WHAT: time_steps keeps the whole (params, opt_state, loss) tuple as its state and counts calls in a while loop; jit_speedup carries a key through three sequential splits, uses uniform inputs, and times the jitted step first and the eager one second from fresh optimizer states.
# SHOULD-SAY: full marks
"""Exercise 4 (alternative solution): timing the training step with and without jax.jit."""

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
    """Seconds for `n_steps` calls of `step_fn`, after one warm-up call."""
    state = step_fn(params, opt_state, x, y)
    jax.block_until_ready(state)  # compilation happens here, outside the clock
    done = 0
    start = time.perf_counter()
    while done < n_steps:
        state = step_fn(state[0], state[1], x, y)
        done += 1
    jax.block_until_ready(state)
    stop = time.perf_counter()
    return stop - start


def jit_speedup(n_steps=100):
    """Time the training step jitted first, then eagerly; report both and their ratio."""
    key = jax.random.PRNGKey(42)
    key, params_key = jax.random.split(key)
    key, x_key = jax.random.split(key)
    key, y_key = jax.random.split(key)
    params = init_params(params_key)
    x = jax.random.uniform(x_key, (128, 784), dtype=jnp.float32)
    y = jax.random.randint(y_key, (128,), 0, 10, dtype=jnp.int32)
    timings = {}
    for label, fn in (("jit_s", jax.jit(train_step)), ("eager_s", train_step)):
        timings[label] = time_steps(fn, params, optimizer.init(params), x, y, n_steps)
    return {
        "eager_s": timings["eager_s"],
        "jit_s": timings["jit_s"],
        "speedup": timings["eager_s"] / timings["jit_s"],
    }
