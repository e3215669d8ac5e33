# BLIND-SET: correct
# EXERCISE: ex4
# WHAT: Waits by calling each output leaf's own .block_until_ready() method (jax.Array method) instead of the function jax.block_until_ready, for the warm-up and at the end; timings via time.perf_counter.
# SHOULD-SAY: full marks (a grader that only detects calls to the function jax.block_until_ready might wrongly say the clock does not wait)
"""Exercise 4: timing with the Array.block_until_ready method."""

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
def _wait(tree):
    for leaf in jax.tree.leaves(tree):
        if hasattr(leaf, "block_until_ready"):
            leaf.block_until_ready()
    return tree


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    params, opt_state, _ = _wait(step_fn(params, opt_state, x, y))
    tic = time.perf_counter()
    out = None
    for _ in range(n_steps):
        out = step_fn(params, opt_state, x, y)
        params, opt_state = out[0], out[1]
    _wait(out)
    return time.perf_counter() - tic


def jit_speedup(n_steps=100):
    key_params, key_data = jax.random.split(jax.random.PRNGKey(0))
    key_x, key_y = jax.random.split(key_data)
    params = init_params(key_params)
    x = jax.random.normal(key_x, (128, 784))
    y = jax.random.randint(key_y, (128,), 0, 10)
    timings = {
        "eager_s": time_steps(train_step, params, optimizer.init(params), x, y, n_steps),
        "jit_s": time_steps(jax.jit(train_step), params, optimizer.init(params), x, y, n_steps),
    }
    timings["speedup"] = timings["eager_s"] / timings["jit_s"]
    return timings
