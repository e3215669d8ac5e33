# BLIND-SET: 54
# EXERCISE: ex4
# WHAT: The timed loop iterates over a slice of a step-index table built once at import for the lesson's 100 steps (_STEP_IDS = range(100), loop over _STEP_IDS[:n_steps]). Up to 100 steps it is right; for n_steps > 100 only 100 timed calls are made (e.g. n_steps=150 gives 100 calls after the warm-up), and jit_speedup(n_steps>100) times 100 steps per variant.
# SHOULD-SAY: Your loop runs over a table precomputed for 100 steps, and slicing it silently caps the count at 100, so larger n_steps are not honoured. Loop over range(n_steps) directly.
"""Exercise 4: timing the training step with a precomputed step table."""

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


_LESSON_STEPS = 100
_STEP_IDS = range(_LESSON_STEPS)  # built once, sliced per call


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Seconds for `n_steps` calls of `step_fn`, after one warm-up call."""
    params, opt_state, loss = step_fn(params, opt_state, x, y)
    jax.block_until_ready((params, opt_state, loss))
    clock = time.perf_counter
    begin = clock()
    for _ in _STEP_IDS[:n_steps]:
        params, opt_state, loss = step_fn(params, opt_state, x, y)
    jax.block_until_ready((params, opt_state, loss))
    return clock() - begin


_KEYS = jax.random.split(jax.random.PRNGKey(0), 3)


def jit_speedup(n_steps=100):
    """Time the training step eagerly and jitted; report both and their ratio."""
    params = init_params(_KEYS[0])
    x = jax.random.normal(_KEYS[1], (128, 784))
    y = jax.random.randint(_KEYS[2], (128,), 0, 10)
    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps)
    jit_s = time_steps(jax.jit(train_step), params, optimizer.init(params), x, y, n_steps)
    return {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}
