# BLIND-SET: 18
# EXERCISE: ex4
# WHAT: time_steps keeps params and optimizer state in a small __slots__ object advanced by an advance() method, times with perf_counter imported under another name, and waits by calling .block_until_ready() on every array leaf via jax.tree_util.tree_map; jit_speedup builds the data from jax.random.split and fills the dict from a loop over (name, step) pairs.
# SHOULD-SAY: full marks
"""Exercise 4: how much does jax.jit buy?"""

from time import perf_counter as _clock

import time

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


class _Carry:
    """The training state threaded from one step into the next."""

    __slots__ = ("params", "opt_state", "loss")

    def __init__(self, params, opt_state):
        self.params, self.opt_state, self.loss = params, opt_state, None

    def advance(self, step_fn, x, y):
        self.params, self.opt_state, self.loss = step_fn(self.params, self.opt_state, x, y)

    def wait(self):
        jax.tree_util.tree_map(
            lambda leaf: leaf.block_until_ready() if hasattr(leaf, "block_until_ready") else leaf,
            (self.params, self.opt_state, self.loss),
        )


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Wall-clock seconds for ``n_steps`` training steps."""
    carry = _Carry(params, opt_state)
    carry.advance(step_fn, x, y)  # compile (if jitted) outside the clock
    carry.wait()
    started = _clock()
    for _ in range(n_steps):
        carry.advance(step_fn, x, y)
    carry.wait()
    return float(_clock() - started)


def jit_speedup(n_steps=100):
    """Time ``train_step`` eagerly and under ``jax.jit``."""
    k_model, k_inputs, k_labels = jax.random.split(jax.random.PRNGKey(2024), 3)
    params = init_params(k_model)
    x = jax.random.normal(k_inputs, (128, 784), dtype=jnp.float32)
    y = jax.random.randint(k_labels, (128,), 0, 10, dtype=jnp.int32)
    result = {}
    for name, step in (("eager_s", train_step), ("jit_s", jax.jit(train_step))):
        result[name] = time_steps(step, params, optimizer.init(params), x, y, n_steps=n_steps)
    result["speedup"] = result["eager_s"] / result["jit_s"]
    return result
