# BLIND-SET: 35
# EXERCISE: ex4
# WHAT: correct rewrite: the timed loop is a host-side fori_loop(lower, upper, body, carry) helper with lax.fori_loop's signature, carrying (params, opt_state, loss) and feeding each step's params and state into the next; one warm-up call before the clock, and a wait on every leaf of the final carry (jax.block_until_ready over jax.tree_util.tree_leaves) before stopping it; jit_speedup builds its labels with lax.rem of random integers.
# SHOULD-SAY: nothing to fix: full marks.
"""Exercise 4 (reference): timing the training step with and without jax.jit."""

import time

import jax
import jax.numpy as jnp
import optax
from jax import lax


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


def _host_fori_loop(lower, upper, body, carry):
    """lax.fori_loop's contract, run as a Python loop so every step is dispatched."""
    for i in range(lower, upper):
        carry = body(i, carry)
    return carry


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Seconds for `n_steps` calls of `step_fn`, after one warm-up call."""

    def body(_, carry):
        p, s, _loss = carry
        return step_fn(p, s, x, y)

    carry = _host_fori_loop(0, 1, body, (params, opt_state, None))
    jax.block_until_ready(jax.tree_util.tree_leaves(carry))
    start = time.perf_counter()
    carry = _host_fori_loop(0, n_steps, body, carry)
    jax.block_until_ready(jax.tree_util.tree_leaves(carry))
    return float(time.perf_counter() - start)


def jit_speedup(n_steps=100):
    """Time the training step eagerly and jitted; report both and their ratio."""
    key_params, key_x, key_y = jax.random.split(jax.random.PRNGKey(0), 3)
    params = init_params(key_params)
    x = jax.random.normal(key_x, (128, 784), jnp.float32)
    y = lax.rem(jax.random.randint(key_y, (128,), 0, 1000, jnp.int32), jnp.int32(10))
    timings = {}
    for label, fn in (("eager_s", train_step), ("jit_s", jax.jit(train_step))):
        timings[label] = time_steps(fn, params, optimizer.init(params), x, y, n_steps)
    timings["speedup"] = timings["eager_s"] / timings["jit_s"]
    return timings
