# BLIND-SET: 51
# EXERCISE: ex4
# WHAT: Before timing, jit_speedup checks that one jitted step gives the same new params as one eager step, using np.testing.assert_allclose with its default rtol of 1e-7. Eager and jitted float32 results differ by about 1 ulp (about 1.5e-8 absolute here), so the check fails and the except branch "falls back" to timing the eager train_step for jit_s as well. jit_s is then an eager time, and speedup comes out about 1.2 here, against about 8.9 for the reference.
# SHOULD-SAY: jit_s must time jax.jit(train_step). The consistency self-check is stricter than float32 allows (jit and eager differ in the last bits), and its fallback silently times the eager step twice. Compare with a float32 tolerance (e.g. rtol=1e-5, atol=1e-6), or drop the check, and never substitute the eager step in the jit timing.
"""Exercise 4: timing the training step with and without jax.jit (defensive)."""

import time

import jax
import jax.numpy as jnp
import numpy as np
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
    """Seconds for n_steps calls of step_fn, excluding compilation."""
    n_steps = int(n_steps)
    if n_steps < 0:
        raise ValueError("n_steps must be non-negative")
    state = jax.block_until_ready(step_fn(params, opt_state, x, y))
    params, opt_state, loss = state
    start = time.perf_counter()
    for _ in range(n_steps):
        params, opt_state, loss = step_fn(params, opt_state, x, y)
    jax.block_until_ready((params, opt_state, loss))
    return float(time.perf_counter() - start)


def _same_results(a, b):
    """Self-check: the jitted step must reproduce the eager step."""
    for u, v in zip(jax.tree.leaves(a), jax.tree.leaves(b)):
        np.testing.assert_allclose(np.asarray(u), np.asarray(v))


def jit_speedup(n_steps=100):
    """Time the training step eagerly and jitted; report both and their ratio."""
    key_params, key_x, key_y = jax.random.split(jax.random.PRNGKey(0), 3)
    params = init_params(key_params)
    x = jax.random.normal(key_x, (128, 784))
    y = jax.random.randint(key_y, (128,), 0, 10)
    jitted = jax.jit(train_step)
    try:
        _same_results(
            train_step(params, optimizer.init(params), x, y)[0],
            jitted(params, optimizer.init(params), x, y)[0],
        )
    except AssertionError:
        # jit disagrees with eager: do not trust it, time the reference step.
        jitted = train_step
    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps)
    jit_s = time_steps(jitted, params, optimizer.init(params), x, y, n_steps)
    if jit_s <= 0:
        raise RuntimeError("jit timing came out non-positive")
    return {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}
