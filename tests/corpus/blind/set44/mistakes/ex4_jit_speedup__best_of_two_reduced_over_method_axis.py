# BLIND-SET: 44
# EXERCISE: ex4
# WHAT: jit_speedup times both versions twice into a (repeats=2, 2) array whose columns are [eager, jit], then takes times.min(axis=-1) (the minimum across the two methods in each repeat) instead of axis=0 (best repeat of each method). So "eager_s" is really min(eager_1, jit_1), almost always the first jitted time, and "jit_s" is the second jitted time: speedup comes out near 1 and eager_s is not the eager time.
# SHOULD-SAY: eager_s and jit_s are not the eager and jitted times: the best-of-repeats reduction runs along the method axis (axis=-1) of the (repeats, methods) table, so each returned value is the faster of eager and jit in one repeat. Reduce over the repeats axis, times.min(axis=0), to get one value per method.
"""Exercise 4: timing the training step with and without jax.jit (best of two)."""

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
    params, opt_state, loss = jax.block_until_ready(step_fn(params, opt_state, x, y))
    start = time.perf_counter()
    for _ in range(n_steps):
        params, opt_state, loss = step_fn(params, opt_state, x, y)
    jax.block_until_ready((params, opt_state, loss))
    return time.perf_counter() - start


def jit_speedup(n_steps=100):
    """Time the training step eagerly and jitted; report both and their ratio."""
    repeats = 2
    key_params, key_x, key_y = jax.random.split(jax.random.PRNGKey(0), 3)
    params = init_params(key_params)
    x = jax.random.normal(key_x, (128, 784))
    y = jax.random.randint(key_y, (128,), 0, 10)
    jitted = jax.jit(train_step)
    times = np.array([
        [time_steps(train_step, params, optimizer.init(params), x, y, n_steps),
         time_steps(jitted, params, optimizer.init(params), x, y, n_steps)]
        for _ in range(repeats)
    ])                                            # (repeats, 2): columns [eager, jit]
    eager_s, jit_s = times.min(axis=-1)           # best of the repeats
    eager_s, jit_s = float(eager_s), float(jit_s)
    return {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}
