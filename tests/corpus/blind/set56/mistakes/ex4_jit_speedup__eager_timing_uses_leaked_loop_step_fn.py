# BLIND-SET: 56
# EXERCISE: ex4
# WHAT: jit_speedup times the eager run with `step_fn`, the loop variable left over from the module-level comparison cell `for step_fn in (train_step, fast_step): ...`, whose last value is the jitted step; only the jit run uses jax.jit(train_step). Both timings are of compiled code, so eager_s is about jit_s, the speedup is about 1, and the eager train_step is never timed.
# SHOULD-SAY: Your "eager" timing is of the jitted step: jit_speedup passes `step_fn`, a loop variable left over from the comparison cell (its last value is the jitted step), instead of train_step. Pass train_step for the eager run.
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


# --- cell: timing harness --------------------------------------------------------------------


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    state = step_fn(params, opt_state, x, y)  # first call compiles
    jax.block_until_ready(state)
    params, opt_state, _ = state
    tic = time.perf_counter()
    for i in range(n_steps):
        params, opt_state, loss = step_fn(params, opt_state, x, y)
    jax.block_until_ready((params, opt_state, loss))
    toc = time.perf_counter()
    return toc - tic


# --- cell: quick comparison (like %timeit) ---------------------------------------------------
fast_step = jax.jit(train_step)
for step_fn in (train_step, fast_step):
    print(getattr(step_fn, "__name__", step_fn), time_steps(step_fn, params0, optimizer.init(params0), x_batch, y_batch, 3))


# --- cell: the function the exercise asks for ----------------------------------------------


def jit_speedup(n_steps=100):
    eager_s = time_steps(step_fn, params0, optimizer.init(params0), x_batch, y_batch, n_steps)
    jit_s = time_steps(jax.jit(train_step), params0, optimizer.init(params0), x_batch, y_batch, n_steps)
    return {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}
