# BLIND-SET: 17
# EXERCISE: ex4
# WHAT: time_steps keeps params/opt_state/loss in a mutable list updated by slice assignment inside an itertools.repeat loop and blocks on the whole list; jit_speedup uses typed keys (jax.random.key), categorical labels and a loop over (name, step) pairs
# SHOULD-SAY: full marks
"""Exercise 4: how much does jax.jit buy?"""

import itertools
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
    state = list(step_fn(params, opt_state, x, y))  # warm-up: compiles if jitted
    jax.block_until_ready(state)
    clock = time.perf_counter
    t_begin = clock()
    for _ in itertools.repeat(None, n_steps):
        state[:] = step_fn(state[0], state[1], x, y)
    jax.block_until_ready(state)
    t_end = clock()
    return float(t_end - t_begin)


def jit_speedup(n_steps=100):
    """Time ``train_step`` eagerly and under ``jax.jit``."""
    root = jax.random.key(2024)
    k_params, k_inputs, k_labels = jax.random.split(root, 3)
    params = init_params(k_params)
    x = jax.random.uniform(k_inputs, (128, 784), minval=-1.0, maxval=1.0)
    y = jax.random.categorical(k_labels, jnp.zeros((128, 10))).astype(jnp.int32)

    seconds = {}
    for label, fn in (("eager_s", train_step), ("jit_s", jax.jit(train_step))):
        seconds[label] = time_steps(fn, params, optimizer.init(params), x, y, n_steps=n_steps)
    seconds["speedup"] = seconds["eager_s"] / seconds["jit_s"]
    return seconds
