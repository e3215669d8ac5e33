# BLIND-SET: correct
# EXERCISE: ex4
# WHAT: steps are driven through a generator coroutine fed with .send((params, opt_state)); the warm-up is the first send, blocked before perf_counter starts; jit_speedup uses a decorated nested jitted wrapper and uniform/categorical data.
# SHOULD-SAY: full marks
"""Exercise 4: timing through a send()-driven coroutine."""

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


def _step_server(step_fn, x, y):
    """Coroutine: receives (params, opt_state), yields step_fn's (params, opt_state, loss)."""
    result = None
    while True:
        params, opt_state = yield result
        result = step_fn(params, opt_state, x, y)


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Seconds for `n_steps` threaded calls of `step_fn`, after one blocked warm-up call."""
    server = _step_server(step_fn, x, y)
    next(server)  # prime the coroutine
    try:
        result = jax.block_until_ready(server.send((params, opt_state)))  # warm-up
        start = time.perf_counter()
        for _ in range(n_steps):
            result = server.send((result[0], result[1]))
        jax.block_until_ready(result)
        stop = time.perf_counter()
    finally:
        server.close()
    return stop - start


def jit_speedup(n_steps=100):
    """Time the training step eagerly and jitted; report both and their ratio."""
    key = jax.random.PRNGKey(7)
    key, k_params = jax.random.split(key)
    key, k_x = jax.random.split(key)
    key, k_y = jax.random.split(key)
    params = init_params(k_params)
    x = jax.random.uniform(k_x, (128, 784))
    y = jax.random.categorical(k_y, jnp.zeros((128, 10))).astype(jnp.int32)

    @jax.jit
    def compiled_step(params, opt_state, x, y):
        return train_step(params, opt_state, x, y)

    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps=n_steps)
    jit_s = time_steps(compiled_step, params, optimizer.init(params), x, y, n_steps=n_steps)
    return {"eager_s": float(eager_s), "jit_s": float(jit_s), "speedup": float(eager_s) / float(jit_s)}
