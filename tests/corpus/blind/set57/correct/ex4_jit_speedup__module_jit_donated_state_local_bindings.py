# BLIND-SET: 57
# EXERCISE: ex4
# WHAT: Correct. time_steps binds time.perf_counter, jax.block_until_ready and step_fn to locals, blocks on the warm-up call, runs an itertools.repeat loop of n_steps threaded calls (state = step(state[0], state[1], x, y)) and blocks on the final (params, opt_state, loss) before stopping the clock. jit_speedup uses explicit keys, a (128, 784) batch, a fresh optimizer.init(params) for each run, the plain train_step eagerly and a module-level jax.jit(train_step, donate_argnums=(0, 1)) for the jitted run (the donated buffers are jit_speedup's own params and state, which it never uses again; no donation warnings). A counting step_fn sees 6 threaded calls with blocks after the first and the last; jit_speedup gives speedup ~ 9.8 (reference ~ 8 to 9.8) with speedup == eager_s / jit_s.
# SHOULD-SAY: Nothing to fix: one blocking warm-up, n_steps threaded calls timed with perf_counter, block_until_ready before stopping the clock, and train_step timed eagerly and under jax.jit from fresh optimizer states.
"""Exercise 4: how much does jax.jit buy? (tuned harness)"""

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


# --- My code ------------------------------------------------------------------


# Compiled once per process; params and opt_state are donated, so XLA writes
# the new ones into the old buffers instead of allocating each step.
_jit_train_step = jax.jit(train_step, donate_argnums=(0, 1))


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Seconds for `n_steps` threaded calls of `step_fn`, after one blocking warm-up call."""
    clock, block, step = time.perf_counter, jax.block_until_ready, step_fn  # locals: no global lookups in the loop
    state = block(step(params, opt_state, x, y))  # warm-up: compile + run, then wait
    start = clock()
    for _ in itertools.repeat(None, n_steps):
        state = step(state[0], state[1], x, y)
    block(state)
    return clock() - start


def jit_speedup(n_steps=100):
    """Time the training step eagerly and jitted (one fresh optimizer state each)."""
    key_params, key_x, key_y = jax.random.split(jax.random.PRNGKey(0), 3)
    params = init_params(key_params)
    x = jax.random.normal(key_x, (128, 784))
    y = jax.random.randint(key_y, (128,), 0, 10)
    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps)
    # last use of params: the donating jitted step may consume these buffers
    jit_s = time_steps(_jit_train_step, params, optimizer.init(params), x, y, n_steps)
    return {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}
