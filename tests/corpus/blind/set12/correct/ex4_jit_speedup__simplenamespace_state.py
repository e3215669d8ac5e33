# BLIND-SET: 12
# EXERCISE: ex4
# WHAT: time_steps keeps params, opt_state and loss as attributes of a types.SimpleNamespace and blocks on vars(state); jit_speedup loops over (name, step) pairs and derives its data keys with jax.random.fold_in.
# SHOULD-SAY: Everything correct: one blocked warm-up call before the clock, exactly n_steps timed calls threading params and opt_state, block_until_ready before stopping time.perf_counter, float seconds; jit_speedup returns positive floats with speedup == eager_s / jit_s, each timing from a fresh optimizer.init.
"""Exercise 4: how much does jax.jit buy? (SimpleNamespace state)"""

import time
import types

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
    """Seconds for `n_steps` threaded calls of `step_fn`, after one warm-up call."""
    state = types.SimpleNamespace(params=params, opt_state=opt_state, loss=None)
    state.params, state.opt_state, state.loss = jax.block_until_ready(
        step_fn(state.params, state.opt_state, x, y)
    )
    start = time.perf_counter()
    for _ in range(n_steps):
        state.params, state.opt_state, state.loss = step_fn(state.params, state.opt_state, x, y)
    jax.block_until_ready(vars(state))
    return float(time.perf_counter() - start)


def jit_speedup(n_steps=100):
    """Time the training step eagerly and jitted; report both and their ratio."""
    root = jax.random.PRNGKey(0)
    params = init_params(jax.random.fold_in(root, 0))
    x = jax.random.normal(jax.random.fold_in(root, 1), (128, 784))
    y = jax.random.randint(jax.random.fold_in(root, 2), (128,), 0, 10)
    result = {}
    for name, step in (("eager_s", train_step), ("jit_s", jax.jit(train_step))):
        result[name] = time_steps(step, params, optimizer.init(params), x, y, n_steps)
    result["speedup"] = result["eager_s"] / result["jit_s"]
    return result
