# BLIND-SET: 55
# EXERCISE: ex4
# WHAT: the warm-up is done as jax.jit(step_fn)(...) (an old tutorial's "compile it first"), which compiles a NEW wrapper, not step_fn; for a jitted step_fn its own cache stays empty, so the first timed call still compiles and jit_s includes compilation (n_steps=1 with a freshly jitted train_step: 0.59 s instead of 0.003 s) (the eager step_fn is also never warmed up, op by op). step_fn itself is called only n_steps times, none of them before the clock.
# SHOULD-SAY: Compilation is not excluded: jax.jit(step_fn) is a different function with its own cache, so warming it up does not compile step_fn. Warm up by calling step_fn itself once (and block on its result) before starting the clock.
"""Exercise 4: timing jax.jit, with an explicit compile-first step."""

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
    # compile first so XLA compilation is not in the measurement
    jax.block_until_ready(jax.jit(step_fn)(params, opt_state, x, y))
    start = time.perf_counter()
    for _ in range(n_steps):
        params, opt_state, loss = step_fn(params, opt_state, x, y)
    jax.block_until_ready((params, opt_state, loss))
    return time.perf_counter() - start


def jit_speedup(n_steps=100):
    rng = jax.random.PRNGKey(0)
    rng, k_init, k_x, k_y = jax.random.split(rng, 4)
    params = init_params(k_init)
    x = jax.random.normal(k_x, (128, 784))
    y = jax.random.randint(k_y, (128,), 0, 10)
    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps)
    jit_s = time_steps(jax.jit(train_step), params, optimizer.init(params), x, y, n_steps)
    return {"eager_s": float(eager_s), "jit_s": float(jit_s), "speedup": float(eager_s) / float(jit_s)}
