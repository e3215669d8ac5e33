# BLIND-SET: 23
# EXERCISE: ex4
# WHAT: correct rewrite: warm-up output is blocked and threaded, the timed loop is a while-counter, the final (params, opt_state, loss) is blocked before reading the clock; jit_speedup fills a results dict in a loop over (name, step) pairs
# SHOULD-SAY: full marks
"""Exercise 4: timing the training step with and without jax.jit."""

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
    result = jax.block_until_ready(step_fn(params, opt_state, x, y))  # compile + warm-up
    params, opt_state, loss = result
    done = 0
    t0 = time.perf_counter()
    while done < n_steps:
        params, opt_state, loss = step_fn(params, opt_state, x, y)
        done += 1
    jax.block_until_ready((params, opt_state, loss))
    t1 = time.perf_counter()
    return float(t1 - t0)


def jit_speedup(n_steps=100):
    k_init, k_data, k_label = jax.random.split(jax.random.PRNGKey(2024), 3)
    params = init_params(k_init)
    x = jax.random.uniform(k_data, (128, 784), minval=-1.0, maxval=1.0)
    y = jax.random.randint(k_label, (128,), 0, 10)
    results = {}
    for name, step in (("eager_s", train_step), ("jit_s", jax.jit(train_step))):
        results[name] = time_steps(step, params, optimizer.init(params), x, y, n_steps=n_steps)
    results["speedup"] = results["eager_s"] / results["jit_s"]
    return results
