# BLIND-SET: 41
# EXERCISE: ex4
# WHAT: Correct. A careful perf_counter harness in the style of timeit: one warm-up call whose results are blocked on and threaded into the loop, garbage collection switched off during the timed loop (restored in a finally), n_steps threaded calls, and a block on the whole final (params, opt_state, loss) tree before the clock is read. jit_speedup uses init_params, explicit PRNG keys, a batch of 128, a fresh optimizer.init for each run, and speedup = eager_s / jit_s.
# SHOULD-SAY: Nothing to fix: every ex4 check passes. The warm-up is excluded, the results are waited for, there are n_steps threaded calls, and the speedup is eager_s / jit_s.
"""Exercise 4: how much does jax.jit buy? (timing done as timeit does it)."""

import gc
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
# --- Your code ----------------------------------------------------------------


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Seconds for n_steps threaded calls of step_fn, compilation excluded."""
    # Warm-up (the lesson's advice): compile and run once, and wait for it.
    params, opt_state, loss = jax.block_until_ready(step_fn(params, opt_state, x, y))
    gc_was_enabled = gc.isenabled()
    gc.disable()  # as timeit does: no collector pauses inside the measurement
    try:
        start = time.perf_counter()
        for _ in range(n_steps):
            params, opt_state, loss = step_fn(params, opt_state, x, y)
        jax.block_until_ready((params, opt_state, loss))
        stop = time.perf_counter()
    finally:
        if gc_was_enabled:
            gc.enable()
    return float(stop - start)


def jit_speedup(n_steps=100):
    """Time train_step eagerly and under jax.jit from the same starting point."""
    key_params, key_x, key_y = jax.random.split(jax.random.PRNGKey(0), 3)
    params = init_params(key_params)
    x = jax.random.normal(key_x, (128, 784))
    y = jax.random.randint(key_y, (128,), 0, 10)
    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps)
    jit_s = time_steps(jax.jit(train_step), params, optimizer.init(params), x, y, n_steps)
    return {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}
