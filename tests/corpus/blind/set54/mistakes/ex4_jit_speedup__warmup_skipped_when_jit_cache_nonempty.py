# BLIND-SET: 54
# EXERCISE: ex4
# WHAT: time_steps skips its warm-up call when a cheap test says the step is already compiled: step_fn has a _cache_size() and it is non-zero. A jitted step that was compiled before for other shapes (or reused across time_steps calls) gets no warm-up, so step_fn is called n_steps times instead of n_steps + 1 and, when the batch shape is new, the compilation is timed inside the clock.
# SHOULD-SAY: A non-empty jit cache does not mean the step is compiled for these shapes, and the harness must make one untimed warm-up call every time. Always call step_fn once (and block on it) before starting the clock, whatever you know about its cache.
"""Exercise 4: timing the training step, without redundant warm-ups."""

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


def _already_compiled(step_fn):
    size = getattr(step_fn, "_cache_size", None)
    return callable(size) and size() > 0


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Seconds for `n_steps` calls of `step_fn`, after one warm-up call."""
    if not _already_compiled(step_fn):
        params, opt_state, _ = jax.block_until_ready(step_fn(params, opt_state, x, y))
    loss = None
    start = time.perf_counter()
    for _ in range(n_steps):
        params, opt_state, loss = step_fn(params, opt_state, x, y)
    jax.block_until_ready((params, opt_state, loss))
    return time.perf_counter() - start


_JIT_TRAIN_STEP = jax.jit(train_step)


def jit_speedup(n_steps=100):
    """Time the training step eagerly and jitted; report both and their ratio."""
    kp, kx, ky = jax.random.split(jax.random.PRNGKey(0), 3)
    params = init_params(kp)
    x = jax.random.normal(kx, (128, 784))
    y = jax.random.randint(ky, (128,), 0, 10)
    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps)
    jit_s = time_steps(_JIT_TRAIN_STEP, params, optimizer.init(params), x, y, n_steps)
    return {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}
