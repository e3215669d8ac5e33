# BLIND-SET: 43
# EXERCISE: ex4
# WHAT: jit_speedup reports both times per example, as the lesson's tables do: eager_s and jit_s are time_steps(...) / (n_steps * 128) instead of the wall-clock seconds of the n_steps calls, so they are 12,800x too small at n_steps = 100 (n_steps * batch times). time_steps itself is right, and speedup is unchanged because the same divisor cancels.
# SHOULD-SAY: eager_s and jit_s must be the seconds taken by n_steps calls (what time_steps returns), not seconds per example; report the per-example figure separately if you want it (e.g. in answers.md), and keep the returned values in seconds.
"""Exercise 4: how much does jax.jit buy? Reported per example, like the lesson."""

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


BATCH = 128


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Seconds for `n_steps` calls of `step_fn`, after one warm-up call."""
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
    x = jax.random.normal(key_x, (BATCH, 784), dtype=jnp.float32)
    y = jax.random.randint(key_y, (BATCH,), 0, 10, dtype=jnp.int32)
    examples = n_steps * BATCH  # seconds per example seen, comparable across batch sizes
    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps) / examples
    jit_s = time_steps(jax.jit(train_step), params, optimizer.init(params), x, y, n_steps) / examples
    return {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}
