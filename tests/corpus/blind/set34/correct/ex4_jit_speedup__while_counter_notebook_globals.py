# BLIND-SET: 34
# EXERCISE: ex4
# WHAT: Correct rewrite in the notebook style: the notebook's params, opt_state, demo batch, loss, n_steps and pasted timings stay at module level, but time_steps and jit_speedup only use their own arguments and locals: a while-loop counter, the results carried in a tuple and blocked on before the clock stops, and a fresh batch built from explicit keys.
# SHOULD-SAY: Nothing to fix: one warm-up call, exactly n_steps threaded calls, a wait on the final results, and speedup == eager_s / jit_s; the notebook leftovers are unused by the functions.
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
loss = loss_fn(params, x_batch, y_batch)
n_steps = 20
eager_s, jit_s = 2.41, 0.093  # from an earlier run


# --- exercise -----------------------------------------------------------------


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Seconds for `n_steps` threaded calls of `step_fn`, after one warm-up."""
    carry = jax.block_until_ready(step_fn(params, opt_state, x, y))
    t0 = time.perf_counter()
    done = 0
    while done < n_steps:
        carry = step_fn(carry[0], carry[1], x, y)
        done += 1
    jax.block_until_ready(carry)
    t1 = time.perf_counter()
    return float(t1 - t0)


def jit_speedup(n_steps=100):
    """Time train_step eagerly and under jax.jit."""
    k = jax.random.PRNGKey(7)
    k_init, k_x, k_y = jax.random.split(k, 3)
    p0 = init_params(k_init)
    xb = jax.random.normal(k_x, (128, 784))
    yb = jax.random.randint(k_y, (128,), 0, 10)
    timings = {}
    for label, fn in (("eager_s", train_step), ("jit_s", jax.jit(train_step))):
        timings[label] = time_steps(fn, p0, optimizer.init(p0), xb, yb, n_steps)
    timings["speedup"] = timings["eager_s"] / timings["jit_s"]
    return timings
