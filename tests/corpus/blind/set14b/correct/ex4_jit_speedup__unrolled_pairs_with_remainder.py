# BLIND-SET: 14
# EXERCISE: ex4
# WHAT: time_steps unrolls the timed loop by two (divmod(n_steps, 2) pairs of calls plus one remainder call), and jit_speedup compiles once, times the jitted step first and the eager step second, from fresh optimizer states.
# SHOULD-SAY: Full marks: one warm-up call waited on before the clock starts, exactly n_steps timed calls (pairs plus remainder, also for odd and zero n_steps) threading params and optimizer state, jax.block_until_ready on the last results before reading the clock, seconds as a float; jit_speedup returns positive eager_s and jit_s with speedup == eager_s / jit_s, and jit is faster.
"""Exercise 4: how much does jax.jit buy?"""

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
    """Wall-clock seconds for ``n_steps`` training steps."""
    params, opt_state, loss = step_fn(params, opt_state, x, y)  # warm-up / compile
    jax.block_until_ready((params, opt_state, loss))
    pairs, remainder = divmod(n_steps, 2)
    start = time.perf_counter()
    for _ in range(pairs):
        params, opt_state, loss = step_fn(params, opt_state, x, y)
        params, opt_state, loss = step_fn(params, opt_state, x, y)
    if remainder:
        params, opt_state, loss = step_fn(params, opt_state, x, y)
    jax.block_until_ready((params, opt_state, loss))
    stop = time.perf_counter()
    return float(stop - start)


def jit_speedup(n_steps=100):
    """Time ``train_step`` eagerly and under ``jax.jit``."""
    data_key, params_key = jax.random.split(jax.random.PRNGKey(7))
    x_key, y_key = jax.random.split(data_key)
    params = init_params(params_key)
    x = jax.random.uniform(x_key, (128, 784), minval=0.0, maxval=1.0)
    y = jax.random.randint(y_key, (128,), 0, 10, dtype=jnp.int32)
    jitted_step = jax.jit(train_step)
    jit_s = time_steps(jitted_step, params, optimizer.init(params), x, y, n_steps)
    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps)
    return {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}
