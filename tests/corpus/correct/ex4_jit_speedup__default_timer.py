"""timeit.default_timer; waits on the params tree; a separately decorated @jax.jit step."""

import timeit

import jax
import jax.numpy as jnp
import optax


def forward(params, x):
    for name in ("layer1", "layer2"):
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    return x @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    logp = jax.nn.log_softmax(forward(params, x))
    return -jnp.mean(logp[jnp.arange(y.shape[0]), y])


optimizer = optax.adam(learning_rate=1e-3)


def step_eager(params, opt_state, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = optimizer.update(grads, opt_state)
    params = optax.apply_updates(params, updates)
    return params, opt_state, loss


@jax.jit
def step_jit(params, opt_state, x, y):
    return step_eager(params, opt_state, x, y)


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    params, opt_state, _ = step_fn(params, opt_state, x, y)
    jax.block_until_ready(params)
    start = timeit.default_timer()
    for _ in range(n_steps):
        params, opt_state, _ = step_fn(params, opt_state, x, y)
    jax.block_until_ready(params)
    elapsed = timeit.default_timer() - start
    return float(elapsed)


def jit_speedup(n_steps=100):
    k1, k2, k3, k4 = jax.random.split(jax.random.PRNGKey(42), 4)
    params = {
        "layer1": {"w": jax.random.normal(k1, (784, 256)) * 0.05, "b": jnp.zeros(256)},
        "layer2": {"w": jax.random.normal(k2, (256, 128)) * 0.09, "b": jnp.zeros(128)},
        "layer3": {"w": jax.random.normal(k3, (128, 10)) * 0.12, "b": jnp.zeros(10)},
    }
    x = jax.random.normal(k4, (128, 784))
    y = jnp.arange(128) % 10
    results = {}
    for name, fn in (("eager_s", step_eager), ("jit_s", step_jit)):
        results[name] = time_steps(fn, params, optimizer.init(params), x, y, n_steps)
    results["speedup"] = results["eager_s"] / results["jit_s"]
    return results
