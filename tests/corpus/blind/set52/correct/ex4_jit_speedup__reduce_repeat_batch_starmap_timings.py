# BLIND-SET: 52
# EXERCISE: ex4
# WHAT: correct. time_steps warms up with one blocked call, then threads (params, opt_state) through n_steps calls with functools.reduce over itertools.repeat(x_y, n_steps) and operator.itemgetter(0, 1), blocks on the final triple with jax.block_until_ready, and reads time.perf_counter around it. jit_speedup maps a functools.partial of time_steps over the two step functions with starmap and zips the results into the dict.
# SHOULD-SAY: Nothing to fix: full marks for ex4.
"""Exercise 4: how much does jax.jit buy? (reduce-threaded steps, starmap timings)"""

import time
from functools import partial, reduce
from itertools import repeat, starmap
from operator import itemgetter

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


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Seconds for n_steps threaded calls of step_fn after one blocked warm-up call."""
    state = jax.block_until_ready(step_fn(params, opt_state, x, y))
    tick = time.perf_counter()
    final = reduce(lambda s, xy: step_fn(*itemgetter(0, 1)(s), *xy), repeat((x, y), n_steps), state)
    jax.block_until_ready(final)
    return float(time.perf_counter() - tick)


def jit_speedup(n_steps=100):
    """Time train_step eagerly and under jax.jit from fresh optimizer states."""
    kp, kx, ky = jax.random.split(jax.random.PRNGKey(0), 3)
    params = init_params(kp)
    batch = jax.random.normal(kx, (128, 784)), jax.random.randint(ky, (128,), 0, 10)
    timer = lambda fn, *xy: time_steps(fn, params, optimizer.init(params), *xy, n_steps=n_steps)
    eager_s, jit_s = starmap(partial(timer), ((train_step, *batch), (jax.jit(train_step), *batch)))
    return dict(zip(("eager_s", "jit_s", "speedup"), (eager_s, jit_s, eager_s / jit_s)))
