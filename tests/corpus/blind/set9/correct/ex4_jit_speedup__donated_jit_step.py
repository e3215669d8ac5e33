# BLIND-SET: correct
# EXERCISE: ex4
# WHAT: jit_speedup jits the step with donate_argnums=(0, 1) so params/state buffers are reused in place; time_steps threads the returned (fresh) buffers and never touches a donated one again. Eager is timed first so its inputs are not donated.
# SHOULD-SAY: full marks
"""Exercise 4: timing, with a buffer-donating jitted step."""

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
    state = jax.block_until_ready(step_fn(params, opt_state, x, y))
    begin = time.perf_counter()
    for _ in range(n_steps):
        state = step_fn(state[0], state[1], x, y)
    jax.block_until_ready(state)
    return time.perf_counter() - begin


def jit_speedup(n_steps=100):
    keys = jax.random.split(jax.random.PRNGKey(0), 3)
    params = init_params(keys[0])
    x = jax.random.normal(keys[1], (128, 784))
    y = jax.random.randint(keys[2], (128,), 0, 10)
    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps)
    fast_step = jax.jit(train_step, donate_argnums=(0, 1))
    # The eager run did not donate, so `params` is still alive; copy it anyway so
    # the donation below never invalidates an array someone else holds.
    fresh = jax.tree.map(jnp.copy, params)
    jit_s = time_steps(fast_step, fresh, optimizer.init(fresh), x, y, n_steps)
    return {"eager_s": float(eager_s), "jit_s": float(jit_s), "speedup": float(eager_s) / float(jit_s)}
