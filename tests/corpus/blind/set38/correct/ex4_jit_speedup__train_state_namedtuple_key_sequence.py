# BLIND-SET: 38
# EXERCISE: ex4
# WHAT: Correct: time_steps threads a Flax-like TrainState(step, params, opt_state) NamedTuple, makes and blocks on one warm-up call, then times exactly n_steps threaded calls in `for _ in range(n_steps)` and calls jax.block_until_ready((state, loss)) before stopping the clock. jit_speedup draws params and a 128-example batch from an hk.PRNGSequence-like iterator, times train_step and jax.jit(train_step) from fresh optimizer.init(params), and returns Python floats with speedup = eager_s / jit_s.
# SHOULD-SAY: Nothing to fix: compilation excluded by one warm-up call, results awaited with jax.block_until_ready before stopping the clock, n_steps threaded calls, and the right dict.
"""Exercise 4: how much does jax.jit buy? (Flax TrainState / Haiku PRNGSequence habits)."""

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
    """The fields of flax.training.train_state.TrainState that a bare step function needs."""

    step: int
    params: Any
    opt_state: Any

    def apply_step(self, step_fn, x, y):
        params, opt_state, loss = step_fn(self.params, self.opt_state, x, y)
        return self._replace(step=self.step + 1, params=params, opt_state=opt_state), loss


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Wall-clock seconds for ``n_steps`` threaded calls of ``step_fn`` after one warm-up call."""
    state = TrainState(step=0, params=params, opt_state=opt_state)
    state, loss = state.apply_step(step_fn, x, y)  # trace + compile
    jax.block_until_ready((state, loss))
    start = time.perf_counter()
    for _ in range(n_steps):
        state, loss = state.apply_step(step_fn, x, y)
    jax.block_until_ready((state, loss))
    return time.perf_counter() - start


class PRNGSequence:
    """hk.PRNGSequence: next(seq) gives a fresh key each time."""

    def __init__(self, seed):
        self._key = jax.random.PRNGKey(seed)

    def __next__(self):
        self._key, sub = jax.random.split(self._key)
        return sub


def jit_speedup(n_steps=100):
    """Time ``train_step`` eagerly and under ``jax.jit``."""
    rng = PRNGSequence(0)
    params = init_params(next(rng))
    x = jax.random.normal(next(rng), (128, 784))
    y = jax.random.randint(next(rng), (128,), 0, 10)
    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps)
    jit_s = time_steps(jax.jit(train_step), params, optimizer.init(params), x, y, n_steps)
    return {"eager_s": float(eager_s), "jit_s": float(jit_s), "speedup": float(eager_s) / float(jit_s)}
