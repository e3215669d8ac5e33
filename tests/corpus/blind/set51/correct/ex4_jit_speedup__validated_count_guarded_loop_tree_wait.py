# BLIND-SET: 51
# EXERCISE: ex4
# WHAT: Correct. Defensive timing: n_steps is checked to be a non-negative whole number (no clamping), step_fn must be callable, and one untimed warm-up call is made and waited for. Then exactly n_steps calls thread (params, opt_state) with time.perf_counter around them, and jax.block_until_ready covers the whole final (params, opt_state, loss) before the clock stops. jit_speedup builds fresh Adam states for each run and guards the ratio only against a zero denominator.
# SHOULD-SAY: Nothing to fix: compilation excluded, results waited for, state threaded, train_step and jax.jit(train_step) timed with the same harness, and speedup = eager_s / jit_s.
"""Exercise 4: timing the training step with and without jax.jit (defensive, correct)."""

import numbers
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


def _checked_count(n_steps):
    if isinstance(n_steps, bool) or not isinstance(n_steps, numbers.Integral):
        if isinstance(n_steps, float) and n_steps.is_integer():
            n_steps = int(n_steps)
        else:
            raise TypeError(f"n_steps must be a whole number, got {n_steps!r}")
    n_steps = int(n_steps)
    if n_steps < 0:
        raise ValueError(f"n_steps must be >= 0, got {n_steps}")
    return n_steps


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Seconds for n_steps calls of step_fn, excluding compilation."""
    if not callable(step_fn):
        raise TypeError("step_fn must be callable")
    remaining = _checked_count(n_steps)
    warm = jax.block_until_ready(step_fn(params, opt_state, x, y))
    carry = (warm[0], warm[1])
    last_loss = warm[2]
    t0 = time.perf_counter()
    while remaining > 0:
        new_params, new_state, last_loss = step_fn(carry[0], carry[1], x, y)
        carry = (new_params, new_state)
        remaining -= 1
    jax.block_until_ready((carry, last_loss))
    t1 = time.perf_counter()
    return float(t1 - t0)


def jit_speedup(n_steps=100):
    """Time the training step eagerly and jitted; report both and their ratio."""
    n_steps = _checked_count(n_steps)
    k_params, k_x, k_y = jax.random.split(jax.random.PRNGKey(42), 3)
    params = init_params(k_params)
    x = jax.random.normal(k_x, (128, 784), dtype=jnp.float32)
    y = jax.random.randint(k_y, (128,), 0, 10, dtype=jnp.int32)
    timings = {}
    for label, fn in (("eager_s", train_step), ("jit_s", jax.jit(train_step))):
        timings[label] = time_steps(fn, params, optimizer.init(params), x, y, n_steps)
    eager_s, jit_s = timings["eager_s"], timings["jit_s"]
    speedup = eager_s / jit_s if jit_s > 0.0 else float("inf")
    return {"eager_s": float(eager_s), "jit_s": float(jit_s), "speedup": float(speedup)}
