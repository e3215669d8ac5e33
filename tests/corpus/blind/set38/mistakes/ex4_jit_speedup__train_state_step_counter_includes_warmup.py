# BLIND-SET: 38
# EXERCISE: ex4
# WHAT: time_steps threads a Flax-like TrainState whose step counter also counts the warm-up call, and times `while state.step < n_steps`, so only n_steps - 1 calls are timed (none for n_steps = 1) and step_fn runs n_steps times in all instead of n_steps + 1. Warm-up, blocking and threading are otherwise right.
# SHOULD-SAY: You time one step too few: the TrainState step counter already counts the warm-up call, so `while state.step < n_steps` stops after n_steps - 1 timed calls. Count the timed calls separately (for _ in range(n_steps)), or loop until state.step == n_steps + 1.
"""Exercise 4 (Flax habits: a TrainState with a step counter)."""

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
    """flax.training.train_state.TrainState, the parts I need."""

    step: int
    params: Any
    opt_state: Any

    def apply_step(self, step_fn, x, y):
        params, opt_state, loss = step_fn(self.params, self.opt_state, x, y)
        return self._replace(step=self.step + 1, params=params, opt_state=opt_state), loss


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Wall-clock seconds for ``n_steps`` training steps (after one warm-up step)."""
    state = TrainState(step=0, params=params, opt_state=opt_state)
    state, loss = state.apply_step(step_fn, x, y)  # compile
    jax.block_until_ready((state.params, state.opt_state, loss))
    start = time.perf_counter()
    while state.step < n_steps:
        state, loss = state.apply_step(step_fn, x, y)
    jax.block_until_ready((state.params, state.opt_state, loss))
    return time.perf_counter() - start


def jit_speedup(n_steps=100):
    """Time ``train_step`` eagerly and under ``jax.jit``."""
    rng = jax.random.PRNGKey(0)
    params = init_params(jax.random.fold_in(rng, 0))
    x = jax.random.normal(jax.random.fold_in(rng, 1), (128, 784))
    y = jax.random.randint(jax.random.fold_in(rng, 2), (128,), 0, 10)
    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps)
    jit_s = time_steps(jax.jit(train_step), params, optimizer.init(params), x, y, n_steps)
    return {"eager_s": float(eager_s), "jit_s": float(jit_s), "speedup": float(eager_s / jit_s)}
