"""jit_speedup returns its figures rounded and formatted for a table: "12.3 ms" strings, and the speedup as "4.2x"."""

import time

import jax
import jax.numpy as jnp
import optax


def init_params(key, sizes=(784, 256, 128, 10)):
    params = {}
    for i, (n_in, n_out) in enumerate(zip(sizes[:-1], sizes[1:]), start=1):
        key, sub = jax.random.split(key)
        params[f"layer{i}"] = {"w": jax.random.normal(sub, (n_in, n_out)) * jnp.sqrt(2.0 / n_in), "b": jnp.zeros(n_out)}
    return params


def loss_fn(params, x, y):
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    logits = h @ params["layer3"]["w"] + params["layer3"]["b"]
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


optimizer = optax.adam(1e-3)


def train_step(params, opt_state, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss

EXPECT = {'check': 'ex4.speedup_dict', 'mistake': 'ex4.results_formatted', 'max_failing': 1, 'hint': 'only where they are printed', 'also': ['ex4.jit_faster']}


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    params, opt_state, loss = jax.block_until_ready(step_fn(params, opt_state, x, y))
    start = time.perf_counter()
    for _ in range(n_steps):
        params, opt_state, loss = step_fn(params, opt_state, x, y)
    jax.block_until_ready((params, opt_state, loss))
    return time.perf_counter() - start


def jit_speedup(n_steps=100):
    key_params, key_x, key_y = jax.random.split(jax.random.PRNGKey(0), 3)
    params = init_params(key_params)
    x = jax.random.normal(key_x, (128, 784))
    y = jax.random.randint(key_y, (128,), 0, 10)
    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps)
    jit_s = time_steps(jax.jit(train_step), params, optimizer.init(params), x, y, n_steps)
    return {"eager_s": f"{eager_s * 1e3:.1f} ms", "jit_s": f"{jit_s * 1e3:.1f} ms", "speedup": f"{eager_s / jit_s:.1f}x"}
