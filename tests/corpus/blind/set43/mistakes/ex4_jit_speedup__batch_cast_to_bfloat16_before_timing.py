# BLIND-SET: 43
# EXERCISE: ex4
# WHAT: time_steps casts the batch to bfloat16 once, before the warm-up ("so the cast is not timed"), and calls step_fn(params, opt_state, x_bf16, y) every time, so step_fn never receives the x it was given: the steps run on a rounded copy of the inputs (8 significant bits), and the losses and params threaded through differ from those of the given batch (on the lesson's batch the loss is off by ~1e-4 and the params after one Adam step by up to 2e-3). The returned time is still a sensible float.
# SHOULD-SAY: time_steps must call step_fn(params, opt_state, x, y) with the batch it was given; casting x to bfloat16 changes the computation being timed (and its results). Pass x through unchanged; if you want a mixed-precision benchmark, build it in jit_speedup and say so.
"""Exercise 4: how much does jax.jit buy? Benchmarked in mixed precision.

The batch is held in bfloat16, as it would be on an accelerator; the params
stay float32, so the matmuls promote back to float32.
"""

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


BATCH_DTYPE = jnp.bfloat16


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Seconds for `n_steps` calls of `step_fn`, after one warm-up call."""
    # Cast once, outside the clock, so the conversion is not part of the timing.
    x = jnp.asarray(x).astype(BATCH_DTYPE)
    params, opt_state, loss = jax.block_until_ready(step_fn(params, opt_state, x, y))
    start = time.perf_counter()
    for _ in range(n_steps):
        params, opt_state, loss = step_fn(params, opt_state, x, y)
    jax.block_until_ready((params, opt_state, loss))
    return time.perf_counter() - start


def jit_speedup(n_steps=100):
    """Time the training step eagerly and jitted; report both and their ratio."""
    key_params, key_x, key_y = jax.random.split(jax.random.PRNGKey(0), 3)
    params = init_params(key_params)
    x = jax.random.normal(key_x, (128, 784), dtype=jnp.float32)
    y = jax.random.randint(key_y, (128,), 0, 10, dtype=jnp.int32)
    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps)
    jit_s = time_steps(jax.jit(train_step), params, optimizer.init(params), x, y, n_steps)
    return {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}
