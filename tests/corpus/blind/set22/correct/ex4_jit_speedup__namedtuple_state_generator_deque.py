# BLIND-SET: 22
# EXERCISE: ex4
# WHAT: correct variant: the training state is a NamedTuple (params, opt_state, loss), an endless generator threads it through step_fn, the n_steps timed calls are pulled with itertools.islice into a deque(maxlen=1), and jit_speedup builds its timings with a dict comprehension over {"eager_s": train_step, "jit_s": jax.jit(train_step)}.
# SHOULD-SAY: full marks: one blocked warm-up call before the clock, exactly n_steps timed calls with params and opt_state threaded from each call into the next, block_until_ready on the last results before reading time.perf_counter, a float in seconds; jit_speedup times both versions from fresh optimizer states with time_steps and reports speedup = eager_s / jit_s.
"""Exercise 4: timing train_step, with the training state as a small NamedTuple."""

import collections
import itertools
import time
from typing import Any, NamedTuple

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


class TrainState(NamedTuple):
    params: Any
    opt_state: Any
    loss: Any


def _trajectory(step_fn, state, x, y):
    """Endless stream of states, each step fed the previous step's output."""
    while True:
        state = TrainState(*step_fn(state.params, state.opt_state, x, y))
        yield state


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Seconds for n_steps threaded calls of step_fn, after one warm-up call."""
    warm = jax.block_until_ready(TrainState(*step_fn(params, opt_state, x, y)))
    tic = time.perf_counter()
    tail = collections.deque(itertools.islice(_trajectory(step_fn, warm, x, y), n_steps), maxlen=1)
    jax.block_until_ready(tuple(tail))
    return time.perf_counter() - tic


def jit_speedup(n_steps=100):
    """Eager and jitted train_step timed with time_steps, and their ratio."""
    k_params, k_x, k_y = jax.random.split(jax.random.PRNGKey(1), 3)
    params = init_params(k_params)
    x = jax.random.normal(k_x, (128, 784))
    y = jax.random.randint(k_y, (128,), 0, 10)
    variants = {"eager_s": train_step, "jit_s": jax.jit(train_step)}
    times = {
        name: time_steps(fn, params, optimizer.init(params), x, y, n_steps)
        for name, fn in variants.items()
    }
    return {**times, "speedup": times["eager_s"] / times["jit_s"]}
