# BLIND-SET: 48
# EXERCISE: ex4
# WHAT: jit_speedup times jax.jit(train_step, donate_argnames=("params", "opt_state")), and time_steps throws away the warm-up's outputs and starts the timed loop from the params and opt_state it was given. The warm-up call has already donated (deleted) those buffers, so the first timed call of the jitted step raises "Array has been deleted" and jit_speedup fails; with a step that does not donate, time_steps behaves correctly.
# SHOULD-SAY: With a step that donates its params and optimizer state, the warm-up consumes the arrays you pass; continue from what the warm-up returns (params, opt_state, _ = step_fn(...)) or do not donate. Threading the warm-up's outputs into the timed loop fixes it.
"""Exercise 4: how much does jax.jit buy? (donated buffers, clean warm-up)"""

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
    """Wall-clock seconds for ``n_steps`` training steps."""
    # warm-up: compile, then discard the result so the timed run starts from the given state
    jax.block_until_ready(step_fn(params, opt_state, x, y))
    start = time.perf_counter()
    for _ in range(n_steps):
        params, opt_state, loss = step_fn(params, opt_state, x, y)
    jax.block_until_ready((params, opt_state, loss))
    return time.perf_counter() - start


def jit_speedup(n_steps=100):
    """Time ``train_step`` eagerly and under ``jax.jit``."""
    key_params, key_x, key_y = jax.random.split(jax.random.key(0), num=3)
    params = init_params(key_params)
    x = jax.random.normal(key_x, (128, 784))
    y = jax.random.randint(key_y, (128,), 0, 10)
    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps)
    fast_step = jax.jit(train_step, donate_argnames=("params", "opt_state"))
    jit_s = time_steps(fast_step, params, optimizer.init(params), x, y, n_steps)
    return {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}
