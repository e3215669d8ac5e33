# BLIND-SET: 25
# EXERCISE: ex4
# WHAT: correct rewrite: timeit.default_timer clock, one warm-up call waited on, a one-based loop range(1, n_steps + 1) threading params and opt_state through the result tuple, and a final jax.block_until_ready on the whole result tuple through a small helper; jit_speedup draws its batch from jax.random.PRNGKey(42) with split keys.
# SHOULD-SAY: nothing to fix: exactly n_steps timed calls after one warm-up, state threaded, results waited on before the clock stops, float times and speedup == eager_s / jit_s.
"""Exercise 4: timing the training step with and without jax.jit."""

import timeit

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


def _wait(tree):
    # Wait for every array in the (params, opt_state, loss) tuple.
    return jax.block_until_ready(tree)


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Seconds for `n_steps` calls of `step_fn`, after one warm-up call."""
    state = step_fn(params, opt_state, x, y)  # warm-up: compiles if jitted
    _wait(state)
    params, opt_state = state[0], state[1]
    tic = timeit.default_timer()
    for step in range(1, n_steps + 1):
        state = step_fn(params, opt_state, x, y)
        params, opt_state = state[0], state[1]
    _wait(state)
    toc = timeit.default_timer()
    return float(toc - tic)


def jit_speedup(n_steps=100):
    """Time the training step eagerly and jitted; report both and their ratio."""
    rng = jax.random.PRNGKey(42)
    rng, init_rng = jax.random.split(rng)
    rng, x_rng, y_rng = jax.random.split(rng, 3)
    params = init_params(init_rng)
    x = jax.random.normal(x_rng, (128, 784), dtype=jnp.float32)
    y = jax.random.randint(y_rng, (128,), 0, 10, dtype=jnp.int32)
    fast_step = jax.jit(train_step)
    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps=n_steps)
    jit_s = time_steps(fast_step, params, optimizer.init(params), x, y, n_steps=n_steps)
    return dict(eager_s=eager_s, jit_s=jit_s, speedup=eager_s / jit_s)
