# BLIND-SET: 13
# EXERCISE: ex4
# WHAT: time_steps keeps (params, opt_state, loss) as one `out` tuple, counts down with a while loop, and reads a perf_counter stopwatch only after block_until_ready on the whole tuple; jit_speedup builds the dict from a helper that casts to float.
# SHOULD-SAY: Everything is correct: one blocked warm-up call excluded from the clock, exactly n_steps further calls with params and opt_state threaded through, a wait on the results before stopping a wall clock, float seconds; jit_speedup returns eager_s, jit_s and speedup == eager_s / jit_s with jit faster.
"""Exercise 4 (variant): a countdown timing loop."""

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
    out = jax.block_until_ready(step_fn(params, opt_state, x, y))  # compile + warm caches
    remaining = n_steps
    t0 = time.perf_counter()
    while remaining > 0:
        out = step_fn(out[0], out[1], x, y)
        remaining -= 1
    jax.block_until_ready(out)
    t1 = time.perf_counter()
    return float(t1 - t0)


def _report(eager_s, jit_s):
    eager_s, jit_s = float(eager_s), float(jit_s)
    return {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}


def jit_speedup(n_steps=100):
    """Time the training step eagerly and jitted; report both and their ratio."""
    kp, kx, ky = jax.random.split(jax.random.PRNGKey(0), 3)
    params = init_params(kp)
    x = jax.random.normal(kx, (128, 784))
    y = jax.random.randint(ky, (128,), 0, 10)
    jitted = jax.jit(train_step)
    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps=n_steps)
    jit_s = time_steps(jitted, params, optimizer.init(params), x, y, n_steps=n_steps)
    return _report(eager_s, jit_s)
