# BLIND-SET: 38
# EXERCISE: ex4
# WHAT: Before each jax.block_until_ready the results go through a hand-written eqx-style is_array that tests isinstance(leaf, (np.ndarray, np.generic)), so every JAX array is filtered out and block_until_ready gets an empty list. The clock stops without waiting for the dispatched steps (5 calls of a slow jitted step were timed at 0.0001 s, where the reference harness measured 1.3 to 1.4 s); warm-up, call count and threading are right.
# SHOULD-SAY: Your timing does not wait for the results: the is_array filter keeps only numpy arrays, so jax.block_until_ready is given an empty list. Pass the actual outputs (params, opt_state, loss) to jax.block_until_ready, or test for jax.Array in the filter.
"""Exercise 4 (Equinox habits: filter out non-array leaves before blocking)."""

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



def _is_array(leaf):
    """eqx.is_array, from memory."""
    return isinstance(leaf, (np.ndarray, np.generic))


def _filter(tree, predicate):
    return [leaf for leaf in jax.tree.leaves(tree) if predicate(leaf)]


def _wait(tree):
    """Block on the array leaves only (None / Python scalars are skipped)."""
    return jax.block_until_ready(_filter(tree, _is_array))


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Wall-clock seconds for ``n_steps`` training steps, after one warm-up call."""
    params, opt_state, loss = step_fn(params, opt_state, x, y)
    _wait((params, opt_state, loss))
    start = time.perf_counter()
    for _ in range(n_steps):
        params, opt_state, loss = step_fn(params, opt_state, x, y)
    _wait((params, opt_state, loss))
    return time.perf_counter() - start


def jit_speedup(n_steps=100):
    """Time ``train_step`` eagerly and under ``jax.jit``."""
    key_params, key_x, key_y = jax.random.split(jax.random.PRNGKey(0), 3)
    params = init_params(key_params)
    x = jax.random.normal(key_x, (128, 784))
    y = jax.random.randint(key_y, (128,), 0, 10)
    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps)
    jit_s = time_steps(jax.jit(train_step), params, optimizer.init(params), x, y, n_steps)
    return {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}
