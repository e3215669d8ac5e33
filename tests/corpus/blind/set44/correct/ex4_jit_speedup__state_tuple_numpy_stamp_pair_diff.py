# BLIND-SET: 44
# EXERCISE: ex4
# WHAT: Correct. time_steps threads a (params, opt_state) tuple through one warm-up call (blocked) and n_steps timed calls. It records a float64 numpy pair [start, stop], taking stop after jax.block_until_ready on the final (params, opt_state, loss), and returns float(np.diff(stamps)[0]). jit_speedup draws a (128, 28, 28) batch, reshapes it to (128, -1) = (128, 784), and computes speedup from a numpy [eager, jit] array as times[0] / times[1] (the same float64 division as eager_s / jit_s).
# SHOULD-SAY: Nothing to fix: compilation is excluded by the warm-up, the clock stops only after the results are ready, step_fn is called exactly n_steps times with the state threaded, and speedup == eager_s / jit_s.
"""Exercise 4: timing the training step with and without jax.jit (shape-first version)."""

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
    """Seconds for `n_steps` calls of `step_fn`, after one warm-up call."""
    state = (params, opt_state)
    out = jax.block_until_ready(step_fn(*state, x, y))     # warm-up (compiles a jitted step_fn)
    state = out[:2]
    stamps = np.empty(2, dtype=np.float64)                 # [start, stop]
    stamps[0] = time.perf_counter()
    for _ in range(n_steps):
        out = step_fn(*state, x, y)                        # (params, opt_state, loss)
        state = out[:2]
    jax.block_until_ready(out)
    stamps[1] = time.perf_counter()
    return float(np.diff(stamps)[0])


def jit_speedup(n_steps=100):
    """Time the training step eagerly and jitted; report both and their ratio."""
    key_params, key_x, key_y = jax.random.split(jax.random.PRNGKey(0), 3)
    params = init_params(key_params)
    x = jax.random.normal(key_x, (128, 28, 28)).reshape(128, -1)   # (B, 784)
    y = jax.random.randint(key_y, (x.shape[0],), 0, 10)            # (B,)
    assert x.shape == (128, 784) and y.shape == (128,)
    times = np.array([
        time_steps(train_step, params, optimizer.init(params), x, y, n_steps),
        time_steps(jax.jit(train_step), params, optimizer.init(params), x, y, n_steps),
    ], dtype=np.float64)                                            # [eager, jit]
    return {"eager_s": float(times[0]), "jit_s": float(times[1]), "speedup": float(times[0] / times[1])}
