# BLIND-SET: 50
# EXERCISE: ex4
# WHAT: time_steps also times n_steps calls of a do-nothing function with the same signature and subtracts that "Python call overhead" from the measurement, clamped at 0.0. For steps of a millisecond or more the result barely moves, but for very short steps (a fast jitted step or a trivial step_fn of about a microsecond) a large share of the real wall-clock time is removed (70-95% for a trivial step_fn in my runs), and a step as cheap as the no-op itself comes out near or at 0.0.
# SHOULD-SAY: time_steps subtracts an estimate of Python call overhead, so for very short steps it under-reports the wall-clock time (down to 0.0). The contract asks for the plain wall-clock seconds of the n_steps calls, overhead included: time the loop and return end - start without any correction.
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
def _noop_step(params, opt_state, x, y):
    return params, opt_state, None


def _loop_overhead(params, opt_state, x, y, n_steps):
    """Seconds the bare Python loop and call machinery take for n_steps calls."""
    start = time.perf_counter()
    for _ in range(n_steps):
        params, opt_state, _unused = _noop_step(params, opt_state, x, y)
    return time.perf_counter() - start


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Wall-clock seconds for ``n_steps`` training steps (after one warm-up call).

    The cost of the Python loop itself is measured separately and taken off,
    so the figure reflects the step function only.
    """
    params, opt_state, loss = jax.block_until_ready(step_fn(params, opt_state, x, y))
    start = time.perf_counter()
    for _ in range(n_steps):
        params, opt_state, loss = step_fn(params, opt_state, x, y)
    jax.block_until_ready((params, opt_state, loss))
    elapsed = time.perf_counter() - start
    overhead = _loop_overhead(params, opt_state, x, y, n_steps)
    return max(elapsed - overhead, 0.0)


def jit_speedup(n_steps=100):
    """Time ``train_step`` eagerly and under ``jax.jit``."""
    key_params, key_x, key_y = jax.random.split(jax.random.PRNGKey(0), 3)
    params = init_params(key_params)
    x = jax.random.normal(key_x, (128, 784))
    y = jax.random.randint(key_y, (128,), 0, 10)
    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps)
    jit_s = time_steps(jax.jit(train_step), params, optimizer.init(params), x, y, n_steps)
    return {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}
