# BLIND-SET: 48
# EXERCISE: ex4
# WHAT: Correct. time_steps threads the warm-up's outputs into the timed loop, times with time.perf_counter and waits with jax.block_until_ready on the whole (params, opt_state, loss) pytree. jit_speedup uses typed keys (jax.random.key, split with num=3) and times jax.jit(train_step, donate_argnames=("params", "opt_state")) after the eager run, each from a fresh optimizer.init(params); donation is safe because every donated buffer is replaced by the step's outputs.
# SHOULD-SAY: Nothing to fix: the harness and jit_speedup meet the contract (full marks for ex4).
"""Exercise 4: how much does jax.jit buy? (donating jitted step)"""

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
    state = jax.block_until_ready(step_fn(params, opt_state, x, y))  # compile + run once
    start = time.perf_counter()
    for _ in range(n_steps):
        params, opt_state, _ = state
        state = step_fn(params, opt_state, x, y)
    jax.block_until_ready(state)
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
    return {"eager_s": float(eager_s), "jit_s": float(jit_s), "speedup": float(eager_s / jit_s)}
