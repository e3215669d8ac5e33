# BLIND-SET: 36
# EXERCISE: ex4
# WHAT: Correct rewrite in the style of a tf.function benchmark: a helper runs the step and threads (params, opt_state), one blocked warm-up call, a perf_counter-timed while loop of exactly n_steps calls, jax.block_until_ready on the last results before the clock stops; jit_speedup times train_step and jax.jit(train_step) from fresh optimizer states.
# SHOULD-SAY: Nothing to fix: warm-up excluded, results waited for, n_steps threaded calls, float seconds and speedup = eager_s / jit_s.
"""Exercise 4 (TF-benchmark-flavoured rewrite): timing the training step with and without jax.jit."""

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
    state = {"params": params, "opt_state": opt_state, "loss": None}

    def run_one():
        state["params"], state["opt_state"], state["loss"] = step_fn(
            state["params"], state["opt_state"], x, y
        )

    run_one()  # trace + compile, like the first call of a tf.function
    jax.block_until_ready(state)
    calls = 0
    t0 = time.perf_counter()
    while calls < n_steps:
        run_one()
        calls += 1
    jax.block_until_ready(state)
    t1 = time.perf_counter()
    return float(t1 - t0)


def jit_speedup(n_steps=100):
    """Time the training step eagerly and jitted; report both and their ratio."""
    root = jax.random.PRNGKey(42)
    k_init, k_images, k_labels = jax.random.split(root, 3)
    params = init_params(k_init)
    x = jax.random.normal(k_images, (128, 784), dtype=jnp.float32)
    y = jax.random.randint(k_labels, (128,), 0, 10, dtype=jnp.int32)
    timings = {}
    for label, fn in (("eager_s", train_step), ("jit_s", jax.jit(train_step))):
        timings[label] = time_steps(fn, params, optimizer.init(params), x, y, n_steps)
    timings["speedup"] = timings["eager_s"] / timings["jit_s"]
    return timings
