# BLIND-SET: 32
# EXERCISE: ex4
# WHAT: correct rewrite: a fresh Stopwatch context manager per call (its exit records the elapsed time once), a TrainCarry NamedTuple threaded through the loop (NamedTuples are pytrees, so block_until_ready waits on every leaf inside the with-block), and jit_speedup keeps its timings in a local dict keyed by explicit labels.
# SHOULD-SAY: nothing to fix; warm-up, threading, waiting and the returned figures are all correct.
"""Exercise 4 (reference): timing the training step with and without jax.jit."""

import time
from typing import NamedTuple

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


class Stopwatch:
    """Context manager: seconds between enter and exit, frozen at exit."""

    def __init__(self):
        self.seconds = None
        self._start = None

    def __enter__(self):
        self._start = time.perf_counter()
        return self

    def __exit__(self, *exc_info):
        self.seconds = time.perf_counter() - self._start
        return False


class TrainCarry(NamedTuple):
    params: dict
    opt_state: tuple
    loss: object = None

    def advance(self, step_fn, x, y):
        new_params, new_state, loss = step_fn(self.params, self.opt_state, x, y)
        return TrainCarry(params=new_params, opt_state=new_state, loss=loss)


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Seconds for `n_steps` calls of `step_fn`, after one warm-up call."""
    carry = jax.block_until_ready(TrainCarry(params, opt_state).advance(step_fn, x, y))
    with Stopwatch() as watch:
        for _ in range(n_steps):
            carry = carry.advance(step_fn, x, y)
        jax.block_until_ready(carry)
    return float(watch.seconds)


def jit_speedup(n_steps=100):
    """Time the training step eagerly and jitted; report both and their ratio."""
    key_params, key_x, key_y = jax.random.split(jax.random.PRNGKey(0), 3)
    params = init_params(key_params)
    x = jax.random.normal(key_x, (128, 784))
    y = jax.random.randint(key_y, (128,), 0, 10)
    candidates = {"eager": train_step, "jit": jax.jit(train_step)}
    timings = {
        label: time_steps(fn, params, optimizer.init(params), x, y, n_steps)
        for label, fn in candidates.items()
    }
    return {
        "eager_s": timings["eager"],
        "jit_s": timings["jit"],
        "speedup": timings["eager"] / timings["jit"],
    }
