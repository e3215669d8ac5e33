# BLIND-SET: 33
# EXERCISE: ex4
# WHAT: correct rewrite: step_fn and n_steps validated (int(), negative rejected), warm-up result blocked and threaded, timed steps in a while loop with a counter, one jax.block_until_ready on the final (params, state, loss) before the clock stops; jit_speedup with its own key layout.
# SHOULD-SAY: nothing to fix: one warm-up, exactly n_steps threaded calls, waits before stopping the clock, speedup == eager_s / jit_s.
"""Exercise 4: timing the training step with and without jax.jit (validated)."""

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
    if not callable(step_fn):
        raise TypeError("step_fn must be callable")
    n_steps = int(n_steps)
    if n_steps < 0:
        raise ValueError(f"n_steps must be >= 0, got {n_steps}")
    warm = jax.block_until_ready(step_fn(params, opt_state, x, y))
    params, opt_state, loss = warm
    done = 0
    start = time.perf_counter()
    while done < n_steps:
        params, opt_state, loss = step_fn(params, opt_state, x, y)
        done += 1
    jax.block_until_ready((params, opt_state, loss))
    elapsed = time.perf_counter() - start
    return float(elapsed)


def jit_speedup(n_steps=100):
    """Time the training step eagerly and jitted; report both and their ratio."""
    n_steps = int(n_steps)
    root = jax.random.PRNGKey(7)
    k_init, k_data = jax.random.split(root)
    k_x, k_y = jax.random.split(k_data)
    params = init_params(k_init)
    x = jax.random.normal(k_x, (128, 784), dtype=jnp.float32)
    y = jax.random.randint(k_y, (128,), 0, 10, dtype=jnp.int32)
    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps)
    jit_s = time_steps(jax.jit(train_step), params, optimizer.init(params), x, y, n_steps)
    if jit_s <= 0.0:
        raise RuntimeError("jitted timing came out non-positive")
    return {"eager_s": float(eager_s), "jit_s": float(jit_s), "speedup": float(eager_s) / float(jit_s)}
