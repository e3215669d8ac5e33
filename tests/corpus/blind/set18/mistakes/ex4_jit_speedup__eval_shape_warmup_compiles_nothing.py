# BLIND-SET: 18
# EXERCISE: ex4
# WHAT: the "warm-up" is jax.eval_shape(step_fn, ...), which only traces step_fn abstractly and never compiles or runs it, so the first timed call still pays for compilation.
# SHOULD-SAY: the loop makes n_steps threaded calls, waits with block_until_ready, uses perf_counter and jit_speedup returns the right dict, but the warm-up does not warm anything up: jax.eval_shape traces with abstract shapes and compiles nothing, so compilation of the jitted step lands inside the timed region (jit_s too large, speedup too small, even below 1, the first time the step is compiled in a process) and the first real call is the first timed one; warm up with a real call, step_fn(params, opt_state, x, y), and block on its result before starting the clock.
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


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Wall-clock seconds for ``n_steps`` training steps."""
    # Warm up without touching the state: only shapes are propagated, so the
    # params we time with are exactly the ones we were given.
    jax.eval_shape(step_fn, params, opt_state, x, y)

    t0 = time.perf_counter()
    state, loss = (params, opt_state), None
    for _ in range(n_steps):
        *state, loss = step_fn(*state, x, y)
    jax.block_until_ready((state, loss))
    return time.perf_counter() - t0


def jit_speedup(n_steps=100):
    """Time ``train_step`` eagerly and under ``jax.jit``."""
    key = jax.random.PRNGKey(0)
    kp, kx, ky = jax.random.split(key, 3)
    params = init_params(kp)
    x = jax.random.normal(kx, (128, 784))
    y = jax.random.randint(ky, (128,), 0, 10)
    timings = {}
    for label, fn in (("eager_s", train_step), ("jit_s", jax.jit(train_step))):
        timings[label] = time_steps(fn, params, optimizer.init(params), x, y, n_steps)
    timings["speedup"] = timings["eager_s"] / timings["jit_s"]
    return timings
