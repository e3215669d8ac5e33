# BLIND-SET: 48
# EXERCISE: ex4
# WHAT: time_steps waits through a helper that maps a.block_until_ready() over the results with is_leaf=lambda n: isinstance(n, tuple), meant to keep optax's namedtuple states whole; but the (params, opt_state, loss) triple is itself a tuple, so the whole result is one "leaf", it is not an array, and nothing is waited on: the clock stops while the dispatched steps may still be running (the warm-up is not waited on either). Call count, threading and the returned dict are right.
# SHOULD-SAY: The clock must stop only after the results are computed: your wait helper's is_leaf matches the outer result tuple, so no array is blocked on. Call jax.block_until_ready((params, opt_state, loss)) directly; it walks the whole pytree, optax states included.
"""Exercise 4: how much does jax.jit buy? (a pytree-aware wait helper)"""

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


def _wait(tree):
    """Block on every array in ``tree``; optax states (namedtuples) are kept whole."""
    return jax.tree.map(
        lambda a: a.block_until_ready() if isinstance(a, jax.Array) else a,
        tree,
        is_leaf=lambda n: isinstance(n, tuple),
    )


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Wall-clock seconds for ``n_steps`` training steps."""
    params, opt_state, loss = _wait(step_fn(params, opt_state, x, y))
    start = time.perf_counter()
    for _ in range(n_steps):
        params, opt_state, loss = step_fn(params, opt_state, x, y)
    _wait((params, opt_state, loss))
    return time.perf_counter() - start


def jit_speedup(n_steps=100):
    """Time ``train_step`` eagerly and under ``jax.jit``."""
    key_params, key_x, key_y = jax.random.split(jax.random.key(0), num=3)
    params = init_params(key_params)
    x = jax.random.normal(key_x, (128, 784))
    y = jax.random.randint(key_y, (128,), 0, 10)
    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps)
    jit_s = time_steps(jax.jit(train_step), params, optimizer.init(params), x, y, n_steps)
    return {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}
