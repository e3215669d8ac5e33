# BLIND-SET: 19
# EXERCISE: ex4
# WHAT: keeps the carry as one (params, opt_state, loss) tuple, loops with itertools.repeat, waits by calling .block_until_ready() on every leaf via tree.map; jit_speedup loops over a dict of the two step functions
# SHOULD-SAY: full marks
"""Exercise 4: how much does jax.jit buy?"""

import itertools
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


def _wait(tree):
    jax.tree.map(lambda a: a.block_until_ready() if hasattr(a, "block_until_ready") else a, tree)
    return tree


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Wall-clock seconds for ``n_steps`` training steps."""
    carry = _wait(step_fn(params, opt_state, x, y))  # warm-up: compile outside the clock
    tic = time.perf_counter()
    for _ in itertools.repeat(None, n_steps):
        carry = step_fn(carry[0], carry[1], x, y)
    jax.block_until_ready(carry)
    toc = time.perf_counter()
    return float(toc - tic)


def jit_speedup(n_steps=100):
    """Time ``train_step`` eagerly and under ``jax.jit``."""
    k_params, k_x, k_y = jax.random.split(jax.random.PRNGKey(7), 3)
    params = init_params(k_params)
    x = jax.random.uniform(k_x, (128, 784), minval=0.0, maxval=1.0)
    y = jax.random.randint(k_y, (128,), 0, 10, dtype=jnp.int32)
    steps = {"eager_s": train_step, "jit_s": jax.jit(train_step)}
    result = {name: time_steps(fn, params, optimizer.init(params), x, y, n_steps) for name, fn in steps.items()}
    result["speedup"] = result["eager_s"] / result["jit_s"]
    return result
