# BLIND-SET: 27
# EXERCISE: ex4
# WHAT: Correct rewrite: time_steps threads a [params, opt_state] list through step_fn(*state, x, y) with star-unpacking of the loss, blocks on the warm-up and on (state, loss) before reading the clock, and returns float(t1 - t0); jit_speedup derives its keys with jax.random.fold_in and fills the result dict in a loop over (label, step) pairs.
# SHOULD-SAY: Nothing to fix: one warm-up call outside the clock, exactly n_steps threaded calls, results waited for before stopping the clock, and the ratio eager_s / jit_s.
"""Exercise 4 (reference): timing the training step with and without jax.jit."""

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
    state = jax.block_until_ready(step_fn(params, opt_state, x, y))[:2]
    loss = None
    t0 = time.perf_counter()
    for _ in range(n_steps):
        *state, loss = step_fn(*state, x, y)
    jax.block_until_ready((state, loss))
    t1 = time.perf_counter()
    return float(t1 - t0)


def jit_speedup(n_steps=100):
    """Time the training step eagerly and jitted; report both and their ratio."""
    root = jax.random.PRNGKey(42)
    params = init_params(jax.random.fold_in(root, 0))
    x = jax.random.normal(jax.random.fold_in(root, 1), (128, 784))
    y = jax.random.randint(jax.random.fold_in(root, 2), (128,), 0, 10)
    timings = {}
    for label, fn in (("eager_s", train_step), ("jit_s", jax.jit(train_step))):
        timings[label] = time_steps(fn, params, optimizer.init(params), x, y, n_steps=n_steps)
    timings["speedup"] = timings["eager_s"] / timings["jit_s"]
    return timings
