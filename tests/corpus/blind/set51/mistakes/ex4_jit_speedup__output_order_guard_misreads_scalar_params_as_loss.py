# BLIND-SET: 51
# EXERCISE: ex4
# WHAT: time_steps normalises step_fn's output with a guard: if the first element is 0-d, it assumes the step returned (loss, params, opt_state) and reorders. When params itself is a scalar (any 0-d pytree, e.g. a toy step on a float), the real (params, opt_state, loss) is misread. params is threaded from the loss slot and opt_state from the params slot, so the calls after the first are fed the wrong values. With the lesson's dict params it matches the reference.
# SHOULD-SAY: step_fn returns (params, opt_state, loss) in that order; thread exactly those, whatever the params look like. The "loss-first" detection by ndim rewrites valid outputs whenever params is a scalar. Remove the reordering and unpack params, opt_state, loss = step_fn(...).
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


def _unpack(out):
    """Normalise a step's output to (params, opt_state, loss)."""
    if not isinstance(out, (tuple, list)) or len(out) != 3:
        raise ValueError("step_fn must return (params, opt_state, loss)")
    first, second, third = out
    if isinstance(first, (jax.Array, np.ndarray, float)) and jnp.ndim(first) == 0:
        # A scalar in front is a loss: some steps return (loss, params, opt_state).
        return second, third, first
    return first, second, third


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Seconds for n_steps calls of step_fn, excluding compilation."""
    if not callable(step_fn):
        raise TypeError("step_fn must be callable")
    n_steps = max(0, int(n_steps))
    params, opt_state, loss = _unpack(jax.block_until_ready(step_fn(params, opt_state, x, y)))
    start = time.perf_counter()
    for _ in range(n_steps):
        params, opt_state, loss = _unpack(step_fn(params, opt_state, x, y))
    jax.block_until_ready((params, opt_state, loss))
    return float(time.perf_counter() - start)


def jit_speedup(n_steps=100):
    """Time the training step eagerly and jitted; report both and their ratio."""
    key_params, key_x, key_y = jax.random.split(jax.random.PRNGKey(0), 3)
    params = init_params(key_params)
    x = jax.random.normal(key_x, (128, 784))
    y = jax.random.randint(key_y, (128,), 0, 10)
    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps)
    jit_s = time_steps(jax.jit(train_step), params, optimizer.init(params), x, y, n_steps)
    return {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}
