# BLIND-SET: 15
# EXERCISE: ex4
# WHAT: time_steps splits n_steps with divmod into chunks of 10 plus a remainder and calls jax.block_until_ready after every chunk (the last wait being the one before the clock stops); the state is carried as the step's whole output tuple.
# SHOULD-SAY: All ex4 checks pass: one warm-up call before the clock starts, exactly n_steps timed calls (including when n_steps is not a multiple of 10) with params and optimizer state threaded from each call into the next, block_until_ready on the final results before the clock stops, a float in seconds, and jit_speedup returns positive eager_s and jit_s with speedup == eager_s / jit_s and jit faster.
"""Exercise 4: timing the training step with and without jax.jit."""

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


_CHUNK = 10  # wait for the device every _CHUNK steps so the dispatch queue stays short


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Seconds for `n_steps` calls of `step_fn`, after one warm-up call."""
    state = jax.block_until_ready(step_fn(params, opt_state, x, y))  # warm-up (compiles if jitted)
    full, rest = divmod(n_steps, _CHUNK)
    chunks = [_CHUNK] * full + ([rest] if rest else [])
    start = time.perf_counter()
    for size in chunks:
        for _ in range(size):
            state = step_fn(state[0], state[1], x, y)
        jax.block_until_ready(state)
    return time.perf_counter() - start


def jit_speedup(n_steps=100):
    """Time the training step eagerly and jitted; report both and their ratio."""
    key_params, key_data = jax.random.split(jax.random.PRNGKey(7))
    key_x, key_y = jax.random.split(key_data)
    params = init_params(key_params)
    x = jax.random.normal(key_x, (128, 784))
    y = jax.random.randint(key_y, (128,), 0, 10)
    compiled_step = jax.jit(train_step)
    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps=n_steps)
    jit_s = time_steps(compiled_step, params, optimizer.init(params), x, y, n_steps=n_steps)
    return dict(eager_s=eager_s, jit_s=jit_s, speedup=eager_s / jit_s)
