# BLIND-SET: 14
# EXERCISE: ex4
# WHAT: time_steps keeps (params, opt_state, loss) in a list that a closure overwrites, drives the n_steps calls by exhausting map(advance, range(n_steps)) into a zero-length collections.deque, and jit_speedup draws its batch with jax.random.truncated_normal and jax.random.choice.
# SHOULD-SAY: Full marks: one blocked warm-up call before the clock, exactly n_steps timed calls with params and optimizer state threaded from each call into the next, jax.block_until_ready on the final results before the clock stops, a float in seconds; jit_speedup returns positive eager_s and jit_s with speedup == eager_s / jit_s, and jit is faster.
"""Exercise 4: how much does jax.jit buy?"""

import collections
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
    # state = [params, opt_state, loss]; the warm-up call compiles and fills it
    state = list(jax.block_until_ready(step_fn(params, opt_state, x, y)))

    def advance(_):
        state[:] = step_fn(state[0], state[1], x, y)

    start = time.perf_counter()
    collections.deque(map(advance, range(n_steps)), maxlen=0)
    jax.block_until_ready(state)
    return time.perf_counter() - start


def jit_speedup(n_steps=100):
    """Time ``train_step`` eagerly and under ``jax.jit``."""
    root = jax.random.PRNGKey(2024)
    params = init_params(jax.random.fold_in(root, 0))
    x = jax.random.truncated_normal(jax.random.fold_in(root, 1), -3.0, 3.0, (128, 784))
    y = jax.random.choice(jax.random.fold_in(root, 2), 10, (128,)).astype(jnp.int32)
    timings = {
        "eager_s": time_steps(train_step, params, optimizer.init(params), x, y, n_steps),
        "jit_s": time_steps(jax.jit(train_step), params, optimizer.init(params), x, y, n_steps),
    }
    timings["speedup"] = timings["eager_s"] / timings["jit_s"]
    return timings
