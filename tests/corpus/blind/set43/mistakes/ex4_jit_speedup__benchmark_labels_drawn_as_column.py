# BLIND-SET: 43
# EXERCISE: ex4
# WHAT: jit_speedup draws the benchmark labels with shape (128, 1) (a keepdims-style column) instead of (128,). The lesson's loss then broadcasts log_softmax (128, 10) against one_hot (128, 1, 10) into a (128, 128, 10) product, so both timed runs compute a different loss (the mean over all 128 x 128 example/label pairs) with 128x the work in the loss; time_steps is right and the dict has the right keys, but the step being timed is not the lesson's step on a batch of 128 labelled examples.
# SHOULD-SAY: the benchmark batch has labels of shape (128, 1); the lesson's step expects int32 labels of shape (B,), and with a column the loss silently broadcasts to a B x B matrix. Draw y with shape (128,).
"""Exercise 4: how much does jax.jit buy?"""

import time

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



def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Seconds for `n_steps` calls of `step_fn`, after one warm-up call."""
    params, opt_state, loss = jax.block_until_ready(step_fn(params, opt_state, x, y))
    start = time.perf_counter()
    for _ in range(n_steps):
        params, opt_state, loss = step_fn(params, opt_state, x, y)
    jax.block_until_ready((params, opt_state, loss))
    return time.perf_counter() - start


def _benchmark_batch(key, batch=128, features=784, classes=10):
    """A float32 (batch, features) input and int32 labels, one per row."""
    key_x, key_y = jax.random.split(key)
    x = jax.random.normal(key_x, (batch, features), dtype=jnp.float32)
    y = jax.random.randint(key_y, (batch, 1), 0, classes, dtype=jnp.int32)
    return x, y


def jit_speedup(n_steps=100):
    """Time the training step eagerly and jitted; report both and their ratio."""
    key_params, key_batch = jax.random.split(jax.random.PRNGKey(0))
    params = init_params(key_params)
    x, y = _benchmark_batch(key_batch)
    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps)
    jit_s = time_steps(jax.jit(train_step), params, optimizer.init(params), x, y, n_steps)
    return {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}
