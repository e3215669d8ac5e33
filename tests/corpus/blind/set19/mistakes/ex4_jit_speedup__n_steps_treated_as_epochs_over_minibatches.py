# BLIND-SET: 19
# EXERCISE: ex4
# WHAT: time_steps treats n_steps as epochs and, PyTorch-DataLoader style, calls step_fn once per 16-example minibatch of x inside each epoch
# SHOULD-SAY: Warm-up, threading, block_until_ready and the jit_speedup dict are right, but time_steps must make exactly n_steps calls on the whole batch (x, y); you slice the batch into minibatches of 16 and call step_fn ceil(B/16) times per step, on different inputs. Call step_fn(params, opt_state, x, y) n_steps times.
"""Exercise 4: how much does jax.jit buy?"""

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


MINIBATCH = 16


def _minibatches(x, y):
    for start in range(0, x.shape[0], MINIBATCH):
        yield x[start:start + MINIBATCH], y[start:start + MINIBATCH]


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Wall-clock seconds for ``n_steps`` training steps."""
    # warm-up (compiles for the minibatch shape)
    xb, yb = next(_minibatches(x, y))
    params, opt_state, loss = jax.block_until_ready(step_fn(params, opt_state, xb, yb))
    t0 = time.perf_counter()
    for _epoch in range(n_steps):
        for xb, yb in _minibatches(x, y):
            params, opt_state, loss = step_fn(params, opt_state, xb, yb)
    jax.block_until_ready((params, opt_state, loss))
    return time.perf_counter() - t0


def jit_speedup(n_steps=100):
    """Time ``train_step`` eagerly and under ``jax.jit``."""
    kp, kx, ky = jax.random.split(jax.random.PRNGKey(42), 3)
    params = init_params(kp)
    x = jax.random.normal(kx, (128, 784))
    y = jax.random.randint(ky, (128,), 0, 10)
    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps)
    jit_s = time_steps(jax.jit(train_step), params, optimizer.init(params), x, y, n_steps)
    return {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}
