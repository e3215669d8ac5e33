# BLIND-SET: 52
# EXERCISE: ex4
# WHAT: the two clock readings are kept in a list [start, stop] and the elapsed time is operator.sub(*clocks), i.e. start - stop, so time_steps returns minus the elapsed time; jit_speedup reports negative eager_s and jit_s (their ratio, the speedup, keeps its value).
# SHOULD-SAY: time_steps returns a negative duration: operator.sub(*[start, stop]) is start - stop. Subtract the start from the stop (stop - start, or operator.sub(*reversed(clocks))).
"""Exercise 4: how much does jax.jit buy? (clock readings in a list)"""

import operator
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


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Seconds for n_steps calls of step_fn after one blocked warm-up call."""
    warm = jax.block_until_ready(step_fn(params, opt_state, x, y))
    clocks = [time.perf_counter()]
    jax.block_until_ready(reduce(lambda s, _: step_fn(s[0], s[1], x, y), range(n_steps), warm))
    clocks.append(time.perf_counter())
    return operator.sub(*clocks)


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

