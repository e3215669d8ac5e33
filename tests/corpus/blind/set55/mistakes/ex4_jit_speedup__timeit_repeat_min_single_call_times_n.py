# BLIND-SET: 55
# EXERCISE: ex4
# WHAT: time_steps uses the timeit.repeat(number=1, repeat=n_steps) recipe and returns min(times) * n_steps: it makes n_steps threaded calls after the warm-up, but reports the fastest single call's dispatch time scaled up, not the wall-clock of the n_steps calls, and never waits for the results inside a timed interval (block_until_ready only after all timing).
# SHOULD-SAY: Return the wall-clock time of the n_steps calls themselves (one clock around the whole loop, stopped after jax.block_until_ready on the final results); min-of-repeats times n measures the fastest dispatch, not the total, and excludes the wait for the results.
"""Exercise 4: timing jax.jit with timeit (best-of recipe from the timeit docs)."""

import time
import timeit

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
    state = {"params": params, "opt_state": opt_state, "loss": None}
    state["params"], state["opt_state"], state["loss"] = jax.block_until_ready(
        step_fn(params, opt_state, x, y))

    def one_step():
        state["params"], state["opt_state"], state["loss"] = step_fn(
            state["params"], state["opt_state"], x, y)

    # "use min(), not the mean" -- timeit docs
    laps = timeit.repeat(one_step, timer=time.perf_counter, number=1, repeat=n_steps)
    jax.block_until_ready((state["params"], state["opt_state"], state["loss"]))
    return min(laps) * n_steps


def jit_speedup(n_steps=100):
    rng = jax.random.PRNGKey(0)
    rng, k_init, k_x, k_y = jax.random.split(rng, 4)
    params = init_params(k_init)
    x = jax.random.normal(k_x, (128, 784))
    y = jax.random.randint(k_y, (128,), 0, 10)
    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps)
    jit_s = time_steps(jax.jit(train_step), params, optimizer.init(params), x, y, n_steps)
    return {"eager_s": float(eager_s), "jit_s": float(jit_s), "speedup": float(eager_s) / float(jit_s)}
