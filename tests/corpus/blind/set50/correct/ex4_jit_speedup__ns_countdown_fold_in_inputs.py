# BLIND-SET: 50
# EXERCISE: ex4
# WHAT: Correct. time_steps validates n_steps (a non-negative int), makes one warm-up call and blocks on all of its outputs, then counts down n_steps calls in a while loop threading (params, opt_state) through, blocks on the whole final (params, opt_state, loss) and converts time.perf_counter_ns() ticks to float seconds. It works for n_steps of 1 and 2 and for very short or long steps, and it adds no corrections. jit_speedup builds its inputs from separate fold_in keys, times eager and jitted steps from fresh optimizer states and returns the plain ratio.
# SHOULD-SAY: Nothing to fix: full marks for ex4.
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
def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Wall-clock seconds for ``n_steps`` threaded calls of ``step_fn``."""
    if isinstance(n_steps, bool) or int(n_steps) != n_steps or n_steps < 0:
        raise ValueError(f"n_steps must be a non-negative integer, got {n_steps!r}")
    remaining = int(n_steps)

    # Warm-up (compilation for a jitted step) happens before the clock starts.
    warm = step_fn(params, opt_state, x, y)
    jax.block_until_ready(warm)
    params, opt_state, loss = warm

    t0 = time.perf_counter_ns()
    while remaining > 0:
        params, opt_state, loss = step_fn(params, opt_state, x, y)
        remaining -= 1
    jax.block_until_ready((params, opt_state, loss))
    t1 = time.perf_counter_ns()
    return (t1 - t0) / 1e9


def jit_speedup(n_steps=100):
    """Time ``train_step`` eagerly and under ``jax.jit``; report both and their ratio."""
    root = jax.random.PRNGKey(2024)
    params = init_params(jax.random.fold_in(root, 0))
    x = jax.random.normal(jax.random.fold_in(root, 1), (128, 784), dtype=jnp.float32)
    y = jax.random.randint(jax.random.fold_in(root, 2), (128,), 0, 10, dtype=jnp.int32)

    timings = {}
    for label, fn in (("eager_s", train_step), ("jit_s", jax.jit(train_step))):
        timings[label] = float(time_steps(fn, params, optimizer.init(params), x, y, n_steps))
    timings["speedup"] = timings["eager_s"] / timings["jit_s"]
    return timings
