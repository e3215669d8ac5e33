# BLIND-SET: 54
# EXERCISE: ex4
# WHAT: time_steps memoises its measured seconds in a module dict keyed by (step_fn, n_steps), leaving params, opt_state, x and y out of the key. A second call with the same step function and step count returns the first measurement without calling step_fn at all (0 calls instead of n_steps + 1), even for a different batch or starting state; repeated jit_speedup calls with the same n_steps never re-time.
# SHOULD-SAY: Your timing cache is keyed by (step_fn, n_steps) only, so later calls return an old number without running any step on the inputs they were given. A timing harness has to run and measure every time it is called: remove the memo.
"""Exercise 4: timing the training step; measurements are reused."""

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


_MEASURED = {}


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Seconds for `n_steps` calls of `step_fn`, after one warm-up call."""
    cache_key = (step_fn, n_steps)
    if cache_key in _MEASURED:
        return _MEASURED[cache_key]
    state = jax.block_until_ready(step_fn(params, opt_state, x, y))
    t0 = time.perf_counter()
    for _ in range(n_steps):
        state = step_fn(state[0], state[1], x, y)
    jax.block_until_ready(state)
    elapsed = time.perf_counter() - t0
    _MEASURED[cache_key] = elapsed
    return elapsed


_JITTED = jax.jit(train_step)


def jit_speedup(n_steps=100):
    """Time the training step eagerly and jitted; report both and their ratio."""
    k_params, k_x, k_y = jax.random.split(jax.random.PRNGKey(0), 3)
    params = init_params(k_params)
    x = jax.random.normal(k_x, (128, 784))
    y = jax.random.randint(k_y, (128,), 0, 10)
    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps)
    jit_s = time_steps(_JITTED, params, optimizer.init(params), x, y, n_steps)
    return {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}
