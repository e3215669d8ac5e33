# BLIND-SET: 37
# EXERCISE: ex4
# WHAT: jit_speedup times, instead of jax.jit(train_step), a jitted function that fuses two training steps per call and runs it n_steps // 2 times; jit_s is no longer the time of n_steps jitted lesson steps (time_steps is given n_steps // 2, an odd n_steps loses a step, n_steps = 1 times zero steps), so the reported speedup is not the speedup of jax.jit on the lesson's step.
# SHOULD-SAY: jit_speedup must compare like with like: time jax.jit(train_step) itself for the same n_steps as the eager run. Fusing two steps into one compiled call changes what is measured (fewer dispatches, half as many calls, a different program); pass jax.jit(train_step) and n_steps to time_steps.
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


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Seconds for `n_steps` calls of `step_fn`, after one warm-up call."""
    params, opt_state, loss = jax.block_until_ready(step_fn(params, opt_state, x, y))
    start = time.perf_counter()
    for _ in range(n_steps):
        params, opt_state, loss = step_fn(params, opt_state, x, y)
    jax.block_until_ready((params, opt_state, loss))
    return time.perf_counter() - start


def jit_speedup(n_steps=100):
    """Time the training step eagerly and jitted; report both and their ratio."""
    key_params, key_x, key_y = jax.random.split(jax.random.PRNGKey(0), 3)
    params = init_params(key_params)
    x = jax.random.normal(key_x, (128, 784))
    y = jax.random.randint(key_y, (128,), 0, 10)
    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps)
    # Fuse two steps per compiled call: half the dispatches for the same work.
    def two_steps(params, opt_state, x, y):
        params, opt_state, _ = train_step(params, opt_state, x, y)
        return train_step(params, opt_state, x, y)

    jit_s = time_steps(jax.jit(two_steps), params, optimizer.init(params), x, y, n_steps // 2)
    return {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}
