# BLIND-SET: 34
# EXERCISE: ex4
# WHAT: The timed loop binds each step's loss to `step_loss`, and the wait before stopping the clock is jax.block_until_ready(loss), where `loss` is the module-level loss a notebook cell computed at import. The clock waits on an already-finished array, never on the last step's params, state or loss, so with async dispatch the time can stop before the steps have run.
# SHOULD-SAY: `jax.block_until_ready(loss)` waits on the notebook's global `loss`, not on anything the timed steps produced, so the measurement does not wait for the work. Block on the loop's results: `jax.block_until_ready((params, opt_state, step_loss))`.
"""Exercise 4 (reference): timing the training step with and without jax.jit."""

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


# --- cells pasted from the lesson notebook ------------------------------------
key = jax.random.PRNGKey(42)
key, init_key, x_key, y_key = jax.random.split(key, 4)
params = init_params(init_key)
opt_state = optimizer.init(params)
x_batch = jax.random.normal(x_key, (128, 784))
y_batch = jax.random.randint(y_key, (128,), 0, 10)
n_steps = 20

loss = loss_fn(params, x_batch, y_batch)  # loss before training


# --- exercise -----------------------------------------------------------------


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Seconds for `n_steps` calls of `step_fn`, after one warm-up call."""
    params, opt_state, _ = jax.block_until_ready(step_fn(params, opt_state, x, y))
    start = time.perf_counter()
    for _ in range(n_steps):
        params, opt_state, step_loss = step_fn(params, opt_state, x, y)
    jax.block_until_ready(loss)
    return time.perf_counter() - start


def jit_speedup(n_steps=100):
    """Time the training step eagerly and jitted; report both and their ratio."""
    key_params, key_x, key_y = jax.random.split(jax.random.PRNGKey(0), 3)
    params = init_params(key_params)
    x = jax.random.normal(key_x, (128, 784))
    y = jax.random.randint(key_y, (128,), 0, 10)
    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps)
    jit_s = time_steps(jax.jit(train_step), params, optimizer.init(params), x, y, n_steps)
    return {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}
