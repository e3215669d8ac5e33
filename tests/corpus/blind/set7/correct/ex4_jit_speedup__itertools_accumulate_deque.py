# BLIND-SET: correct
# EXERCISE: ex4
# WHAT: time_steps threads (params, opt_state, loss) through itertools.accumulate over range(n_steps) seeded with the blocked warm-up result, consumed by a deque(maxlen=1) so exactly n_steps calls are made inside the clock; jit_speedup builds both timings from one dict of step functions.
# SHOULD-SAY: full marks
"""Exercise 4 (reference): timing the training step with and without jax.jit."""

import collections
import itertools
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
    warm = jax.block_until_ready(step_fn(params, opt_state, x, y))  # compiles here

    def advance(carry, _):
        p, s, _loss = carry
        return step_fn(p, s, x, y)

    start = time.perf_counter()
    steps = itertools.accumulate(range(n_steps), advance, initial=warm)
    (final,) = collections.deque(steps, maxlen=1)
    jax.block_until_ready(final)
    return float(time.perf_counter() - start)


def jit_speedup(n_steps=100):
    """Time the training step eagerly and jitted; report both and their ratio."""
    k_init, k_x, k_y = jax.random.split(jax.random.PRNGKey(42), 3)
    params = init_params(k_init)
    x = jax.random.normal(k_x, (128, 784), dtype=jnp.float32)
    y = jax.random.randint(k_y, (128,), 0, 10, dtype=jnp.int32)
    steps = {"eager_s": train_step, "jit_s": jax.jit(train_step)}
    result = {
        label: time_steps(fn, params, optimizer.init(params), x, y, n_steps)
        for label, fn in steps.items()
    }
    result["speedup"] = result["eager_s"] / result["jit_s"]
    return result
