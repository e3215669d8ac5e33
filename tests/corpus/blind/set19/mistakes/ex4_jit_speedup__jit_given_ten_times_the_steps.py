# BLIND-SET: 19
# EXERCISE: ex4
# WHAT: jit_speedup times the jitted step over 10 * n_steps calls "for a more stable measurement" but the eager step over n_steps, and divides the raw totals
# SHOULD-SAY: time_steps is correct (warm-up, threading, block_until_ready); but in jit_speedup the jitted run makes ten times as many steps as the eager run, so jit_s is ~10x too large and speedup ~10x too small; time both with the same n_steps (or normalise per step before taking the ratio).
"""Exercise 4: how much does jax.jit buy?"""

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
    out = step_fn(params, opt_state, x, y)
    jax.block_until_ready(out)
    params, opt_state, loss = out
    begin = time.perf_counter()
    for _ in range(n_steps):
        params, opt_state, loss = step_fn(params, opt_state, x, y)
    jax.block_until_ready(loss)
    jax.block_until_ready((params, opt_state))
    return float(time.perf_counter() - begin)


def jit_speedup(n_steps=100):
    """Time ``train_step`` eagerly and under ``jax.jit``."""
    k_init, k_data, k_lab = jax.random.split(jax.random.PRNGKey(0), 3)
    params = init_params(k_init)
    x = jax.random.uniform(k_data, (128, 784))
    y = jax.random.randint(k_lab, (128,), 0, 10)

    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps)
    # the jitted step is so fast that 100 steps are noisy: run more of them
    jit_s = time_steps(jax.jit(train_step), params, optimizer.init(params), x, y, 10 * n_steps)
    return {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}
