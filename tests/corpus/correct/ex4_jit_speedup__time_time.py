"""time.time() around the loop; waits on the loss with loss.block_until_ready()."""

import time

import jax
import jax.numpy as jnp
import optax


def init_params(key):
    sizes = [784, 256, 128, 10]
    keys = jax.random.split(key, len(sizes) - 1)
    return {
        f"layer{i + 1}": {
            "w": jax.random.normal(k, (m, n)) * jnp.sqrt(2.0 / m),
            "b": jnp.zeros(n),
        }
        for i, (k, m, n) in enumerate(zip(keys, sizes[:-1], sizes[1:]))
    }


def loss_fn(params, x, y):
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    logits = h @ params["layer3"]["w"] + params["layer3"]["b"]
    return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()


tx = optax.adam(1e-3)


def train_step(params, opt_state, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = tx.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    params, opt_state, loss = step_fn(params, opt_state, x, y)  # warm-up: compiles
    loss.block_until_ready()
    t0 = time.time()
    for _ in range(n_steps):
        params, opt_state, loss = step_fn(params, opt_state, x, y)
    loss.block_until_ready()
    return time.time() - t0


def jit_speedup(n_steps=100):
    params = init_params(jax.random.PRNGKey(1))
    x = jax.random.uniform(jax.random.PRNGKey(2), (128, 784))
    y = jax.random.randint(jax.random.PRNGKey(3), (128,), 0, 10)
    eager = time_steps(train_step, params, tx.init(params), x, y, n_steps)
    jitted = time_steps(jax.jit(train_step), params, tx.init(params), x, y, n_steps)
    return {"eager_s": eager, "jit_s": jitted, "speedup": eager / jitted}
