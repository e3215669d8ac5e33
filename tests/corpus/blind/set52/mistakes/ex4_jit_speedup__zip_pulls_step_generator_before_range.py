# BLIND-SET: 52
# EXERCISE: ex4
# WHAT: the steps come from an endless generator of threaded states, cut with zip(run, range(n_steps)); zip pulls from the generator before it finds range exhausted, so one extra step_fn call runs inside the timed region: n_steps + 1 calls after the warm-up (the extra result is discarded and not waited for).
# SHOULD-SAY: time_steps calls step_fn n_steps + 1 times after the warm-up. zip(generator, range(n)) advances the generator once more before it notices the range is finished. Put the finite iterable first (zip(range(n_steps), run)) or use itertools.islice(run, n_steps).
"""Exercise 4: how much does jax.jit buy? (a generator of states)"""

import time
from functools import reduce

import jax
import jax.numpy as jnp
import optax


# --- Given: the lesson's model, loss, optimizer and training step -----------


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


# --- Your code ----------------------------------------------------------------


def _states(step_fn, params, opt_state, x, y):
    """Endless threaded training states (params, opt_state, loss)."""
    while True:
        params, opt_state, loss = step_fn(params, opt_state, x, y)
        yield params, opt_state, loss


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Seconds for n_steps calls of step_fn after one blocked warm-up call."""
    run = _states(step_fn, params, opt_state, x, y)
    warm = jax.block_until_ready(next(run))
    start = time.perf_counter()
    jax.block_until_ready(reduce(lambda _, pair: pair[0], zip(run, range(n_steps)), warm))
    return time.perf_counter() - start


def jit_speedup(n_steps=100):
    """Time train_step eagerly and under jax.jit from fresh optimizer states."""
    kp, kx, ky = jax.random.split(jax.random.PRNGKey(0), 3)
    params = init_params(kp)
    x, y = jax.random.normal(kx, (128, 784)), jax.random.randint(ky, (128,), 0, 10)
    t = {
        name: time_steps(fn, params, optimizer.init(params), x, y, n_steps)
        for name, fn in (("eager_s", train_step), ("jit_s", jax.jit(train_step)))
    }
    return {**t, "speedup": t["eager_s"] / t["jit_s"]}

