# BLIND-SET: 30
# EXERCISE: ex4
# WHAT: correct rewrite: time_steps uses timeit.default_timer, threads a (params, opt_state) tuple through a countdown while loop, and waits with a helper that maps jax.block_until_ready over every leaf with jax.tree_util.tree_map; jit_speedup times both step functions from a dict with functools.partial-bound data.
# SHOULD-SAY: Nothing to fix: one warm-up call outside the clock, exactly n_steps threaded calls, results waited for before the clock stops, a float in seconds, and speedup = eager_s / jit_s.
"""Exercise 4 (reference): timing the training step with and without jax.jit."""

import functools
from timeit import default_timer

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


def _wait(tree):
    """Block until every array in `tree` has been computed (leaf by leaf)."""
    return jax.tree_util.tree_map(jax.block_until_ready, tree)


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Seconds for `n_steps` calls of `step_fn`, after one warm-up call."""
    # Warm-up (compilation for jitted steps); its outputs seed the timed run.
    *state, loss = _wait(step_fn(params, opt_state, x, y))
    state = tuple(state)
    remaining = n_steps
    start = default_timer()
    while remaining > 0:
        *state, loss = step_fn(*state, x, y)
        remaining -= 1
    _wait((tuple(state), loss))
    return float(default_timer() - start)


def jit_speedup(n_steps=100):
    """Time the training step eagerly and jitted; report both and their ratio."""
    key_params, key_x, key_y = jax.random.split(jax.random.PRNGKey(42), 3)
    params = init_params(key_params)
    x = jax.random.normal(key_x, (128, 784))
    y = jax.random.randint(key_y, (128,), 0, 10)
    run = functools.partial(time_steps, x=x, y=y, n_steps=n_steps)
    steps = {"eager_s": train_step, "jit_s": jax.jit(train_step)}
    timings = {name: run(fn, params, optimizer.init(params)) for name, fn in steps.items()}
    timings["speedup"] = timings["eager_s"] / timings["jit_s"]
    return timings
