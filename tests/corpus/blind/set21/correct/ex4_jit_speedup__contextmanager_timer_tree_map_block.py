# BLIND-SET: 21
# EXERCISE: ex4
# WHAT: correct: timing through a contextlib.contextmanager stopwatch (time.perf_counter) that writes the elapsed seconds into a dict; the run state is one (params, opt_state, loss) tuple threaded through the loop and made ready leaf by leaf with jax.tree_util.tree_map(lambda a: a.block_until_ready(), ...) inside the timed block.
# SHOULD-SAY: full marks: one untimed warm-up call, exactly n_steps timed calls with params and opt_state threaded from call to call, results waited for before the clock stops, seconds returned as a Python float, and jit_speedup reports eager_s, jit_s and their ratio from fresh optimizer states.
"""Exercise 4: jit speed-up measured with a context-manager stopwatch."""

import contextlib
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


@contextlib.contextmanager
def _stopwatch(record):
    begin = time.perf_counter()
    try:
        yield record
    finally:
        record["seconds"] = time.perf_counter() - begin


def _ready(tree):
    """Wait for every array leaf; leaves that are not JAX arrays are already ready."""
    return jax.tree_util.tree_map(lambda a: a.block_until_ready() if hasattr(a, "block_until_ready") else a, tree)


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Seconds for n_steps threaded calls of step_fn, after one untimed warm-up."""
    state = _ready(step_fn(params, opt_state, x, y))
    record = {}
    with _stopwatch(record):
        for _ in range(n_steps):
            state = step_fn(state[0], state[1], x, y)
        _ready(state)
    return float(record["seconds"])


def jit_speedup(n_steps=100):
    """Eager vs jitted train_step on one random batch of 128."""
    k_params, k_x, k_y = jax.random.split(jax.random.PRNGKey(42), 3)
    params = init_params(k_params)
    x = jax.random.normal(k_x, (128, 784), dtype=jnp.float32)
    y = jax.random.randint(k_y, (128,), 0, 10, dtype=jnp.int32)
    timings = {
        label: time_steps(fn, params, optimizer.init(params), x, y, n_steps)
        for label, fn in (("eager_s", train_step), ("jit_s", jax.jit(train_step)))
    }
    timings["speedup"] = timings["eager_s"] / timings["jit_s"]
    return timings
