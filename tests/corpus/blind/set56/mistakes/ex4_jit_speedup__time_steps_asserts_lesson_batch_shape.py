# BLIND-SET: 56
# EXERCISE: ex4
# WHAT: time_steps starts with `assert x.shape == (128, 784)`, the lesson batch's shape copied from a cell's output, so timing a step on any other batch size (allowed: x is (B, 784)) raises AssertionError before any call; with a 128-example batch it behaves like the reference.
# SHOULD-SAY: time_steps must work for any batch (B, 784), but it asserts the lesson's shape (128, 784) and raises AssertionError for other batch sizes. Drop the assert, or check only x.shape[1] == 784 and len(y) == len(x).
"""Exercise 4: how much does jax.jit buy? (pasted from my Colab notebook)"""

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


# --- cell: data + params for the benchmark ------------------------------------------------
k_params, k_x, k_y = jax.random.split(jax.random.PRNGKey(0), 3)
params0 = init_params(k_params)
x_batch = jax.random.normal(k_x, (128, 784))
y_batch = jax.random.randint(k_y, (128,), 0, 10)
print(x_batch.shape, y_batch.shape)  # (128, 784) (128,)


# --- cell: timing harness --------------------------------------------------------------------


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    assert x.shape == (128, 784), x.shape  # make sure I pass the right batch
    out = step_fn(params, opt_state, x, y)
    out = jax.block_until_ready(out)
    p, s, loss = out
    start = time.perf_counter()
    n = 0
    while n < n_steps:
        p, s, loss = step_fn(p, s, x, y)
        n += 1
    jax.block_until_ready((p, s, loss))
    return time.perf_counter() - start


def jit_speedup(n_steps=100):
    jitted = jax.jit(train_step)
    eager_s = time_steps(train_step, params0, optimizer.init(params0), x_batch, y_batch, n_steps)
    jit_s = time_steps(jitted, params0, optimizer.init(params0), x_batch, y_batch, n_steps)
    res = {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}
    print(res)
    return res
