# BLIND-SET: 18
# EXERCISE: ex4
# WHAT: time_steps starts a lap after each step_fn call returns and stops it after jax.block_until_ready, so it sums only the time spent waiting, not the time spent inside step_fn (tracing, dispatch and any synchronous work).
# SHOULD-SAY: warm-up, exactly n_steps threaded calls, blocking on the results and the jit_speedup dict are right, but the clock only runs around block_until_ready: everything step_fn does before returning (all of an eager step's Python and op dispatch, or a synchronous step's whole run) is outside the timed region, so eager_s is badly underestimated and the reported speedup can even come out below 1; start the clock once before the loop and stop it after the final block_until_ready.
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


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Wall-clock seconds for ``n_steps`` training steps."""
    params, opt_state, loss = step_fn(params, opt_state, x, y)  # warm-up / compile
    jax.block_until_ready((params, opt_state, loss))

    elapsed = 0.0
    for _ in range(n_steps):
        params, opt_state, loss = step_fn(params, opt_state, x, y)
        lap = time.perf_counter()
        jax.block_until_ready((params, opt_state, loss))
        elapsed += time.perf_counter() - lap
    return float(elapsed)


def jit_speedup(n_steps=100):
    """Time ``train_step`` eagerly and under ``jax.jit``."""
    k_init, k_x, k_y = jax.random.split(jax.random.PRNGKey(42), 3)
    params = init_params(k_init)
    x = jax.random.normal(k_x, (128, 784))
    y = jax.random.randint(k_y, (128,), 0, 10)
    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps)
    jit_s = time_steps(jax.jit(train_step), params, optimizer.init(params), x, y, n_steps)
    return {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}
