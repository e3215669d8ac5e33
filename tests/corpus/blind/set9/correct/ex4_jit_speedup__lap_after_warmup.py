# BLIND-SET: correct
# EXERCISE: ex4
# WHAT: Starts the clock before the (blocked) warm-up, records a lap right after it and returns end - lap; the loop is a while countdown and the final wait is jax.block_until_ready on the whole tuple.
# SHOULD-SAY: full marks
"""Exercise 4: timing with a lap taken after the warm-up."""

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
    t0 = time.perf_counter()
    params, opt_state, loss = jax.block_until_ready(step_fn(params, opt_state, x, y))
    lap = time.perf_counter()  # everything before this point was warm-up
    remaining = n_steps
    while remaining > 0:
        params, opt_state, loss = step_fn(params, opt_state, x, y)
        remaining -= 1
    jax.block_until_ready((params, opt_state, loss))
    end = time.perf_counter()
    assert lap >= t0
    return float(end - lap)


def jit_speedup(n_steps=100):
    k_params, k_x, k_y = jax.random.split(jax.random.PRNGKey(1), 3)
    params = init_params(k_params)
    x = jax.random.uniform(k_x, (128, 784))
    y = jax.random.randint(k_y, (128,), 0, 10)
    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps=n_steps)
    jit_s = time_steps(jax.jit(train_step), params, optimizer.init(params), x, y, n_steps=n_steps)
    return {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}
