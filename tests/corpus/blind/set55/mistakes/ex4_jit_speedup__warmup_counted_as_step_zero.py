# BLIND-SET: 55
# EXERCISE: ex4
# WHAT: time_steps treats the warm-up call as "step 0" of the n_steps (a training-loop recipe: for step in range(1, n_steps)), so only n_steps - 1 calls are timed after the warm-up (0 calls for n_steps = 1, where it times nothing).
# SHOULD-SAY: The warm-up must not count: after it, call step_fn exactly n_steps times inside the clock; your loop runs range(1, n_steps), i.e. one call short (none for n_steps=1). Use range(n_steps).
"""Exercise 4: timing jax.jit (loop adapted from my training-loop template)."""

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
    # step 0 compiles (warm-up); steps 1..n_steps-1 are timed
    params, opt_state, loss = jax.block_until_ready(step_fn(params, opt_state, x, y))
    t0 = time.perf_counter()
    for step in range(1, n_steps):
        params, opt_state, loss = step_fn(params, opt_state, x, y)
    jax.block_until_ready((params, opt_state, loss))
    return time.perf_counter() - t0


def jit_speedup(n_steps=100):
    rng = jax.random.PRNGKey(0)
    rng, k_init, k_x, k_y = jax.random.split(rng, 4)
    params = init_params(k_init)
    x = jax.random.normal(k_x, (128, 784))
    y = jax.random.randint(k_y, (128,), 0, 10)
    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps)
    jit_s = time_steps(jax.jit(train_step), params, optimizer.init(params), x, y, n_steps)
    return {"eager_s": float(eager_s), "jit_s": float(jit_s), "speedup": float(eager_s) / float(jit_s)}
