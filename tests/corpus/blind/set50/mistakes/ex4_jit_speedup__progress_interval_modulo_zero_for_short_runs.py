# BLIND-SET: 50
# EXERCISE: ex4
# WHAT: time_steps prints progress every n_steps // 4 steps using (i + 1) % report_every. For n_steps of 4 or more it is right, but for n_steps of 1, 2 or 3 report_every is 0 and the first timed step raises ZeroDivisionError (integer modulo by zero), so no time is returned; jit_speedup(n_steps) fails the same way for those n_steps.
# SHOULD-SAY: time_steps crashes with ZeroDivisionError for n_steps below 4, because the progress interval n_steps // 4 is 0 and is used in a modulo. Guard the interval (report_every = max(1, n_steps // 4)), or better leave printing out of a timing loop altogether.
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
def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Wall-clock seconds for ``n_steps`` training steps (after one warm-up call)."""
    state = jax.block_until_ready(step_fn(params, opt_state, x, y))
    params, opt_state, loss = state
    report_every = n_steps // 4  # four progress lines per run
    start = time.perf_counter()
    for i in range(n_steps):
        params, opt_state, loss = step_fn(params, opt_state, x, y)
        if (i + 1) % report_every == 0:
            print(f"  step {i + 1}/{n_steps} dispatched")
    jax.block_until_ready((params, opt_state, loss))
    return time.perf_counter() - start


def jit_speedup(n_steps=100):
    """Time ``train_step`` eagerly and under ``jax.jit``."""
    key_params, key_x, key_y = jax.random.split(jax.random.PRNGKey(0), 3)
    params = init_params(key_params)
    x = jax.random.normal(key_x, (128, 784))
    y = jax.random.randint(key_y, (128,), 0, 10)
    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps)
    jit_s = time_steps(jax.jit(train_step), params, optimizer.init(params), x, y, n_steps)
    return {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}
