# BLIND-SET: 18
# EXERCISE: ex4
# WHAT: jit_speedup caches its first result in a module-level variable (to avoid re-running the slow benchmark when the notebook cell re-runs) and returns that cached dict on every later call, whatever n_steps is.
# SHOULD-SAY: time_steps is right (one warm-up, n_steps threaded calls, block_until_ready, perf_counter) and the first jit_speedup call returns a correct dict, but later calls return the same stale numbers without timing anything, even with a different n_steps (e.g. jit_speedup(5) then jit_speedup(50) give identical timings); remove the module-level cache, or key it on n_steps, so every call measures.
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


# --- Your code ----------------------------------------------------------------

_RESULT = None


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Wall-clock seconds for ``n_steps`` training steps."""
    out = jax.block_until_ready(step_fn(params, opt_state, x, y))
    params, opt_state, loss = out
    begin = time.perf_counter()
    for _ in range(n_steps):
        params, opt_state, loss = step_fn(params, opt_state, x, y)
    jax.block_until_ready((params, opt_state, loss))
    return time.perf_counter() - begin


def jit_speedup(n_steps=100):
    """Time ``train_step`` eagerly and under ``jax.jit``."""
    global _RESULT
    if _RESULT is not None:  # the benchmark is slow: only run it once
        return dict(_RESULT)
    kp, kx, ky = jax.random.split(jax.random.PRNGKey(1), 3)
    params = init_params(kp)
    x = jax.random.normal(kx, (128, 784))
    y = jax.random.randint(ky, (128,), 0, 10)
    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps)
    jit_s = time_steps(jax.jit(train_step), params, optimizer.init(params), x, y, n_steps)
    _RESULT = {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}
    return dict(_RESULT)
