# BLIND-SET: 57
# EXERCISE: ex4
# WHAT: The given train_step has been edited: value_and_grad(loss_fn) is hoisted to a module-level jax.jit(jax.value_and_grad(loss_fn)), and train_step calls that compiled function, so the "eager" step only runs the Adam update and apply_updates op by op. time_steps is correct and train_step still returns the same values (bit-identical to the reference's step). But jit_speedup's eager baseline is mostly compiled: eager_s drops to ~0.16 s (20 steps) / ~0.93 s (100 steps) against the reference's ~0.34 s / ~1.9 s, jit_s is unchanged (~0.2 s / 100 steps), and the speedup is ~3.6 to 3.7 instead of ~9 on this 2-core CPU. Jit is still faster and speedup == eager_s / jit_s holds.
# SHOULD-SAY: jit_speedup must time the lesson's train_step run eagerly, but your train_step calls a jax.jit-compiled value_and_grad, so the forward and backward pass are compiled in the "eager" baseline too and the measured speedup is far too small (~3.6 instead of ~9). Keep the given train_step as it was (jax.value_and_grad(loss_fn) called directly, no jit inside it) and apply jax.jit only to the whole step for the jitted run.
"""Exercise 4: how much does jax.jit buy? (tuned harness)"""

import time

import jax
import jax.numpy as jnp
import optax

# --- Given: the lesson's model, loss, optimizer and training step -----------


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


# value_and_grad is built once and compiled, instead of re-tracing loss_fn
# on every eager step.
_loss_and_grad = jax.jit(jax.value_and_grad(loss_fn))


def train_step(params, opt_state, x, y):
    """The lesson's training step, not yet jitted."""
    loss, grads = _loss_and_grad(params, x, y)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


# --- My code ------------------------------------------------------------------


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Seconds for `n_steps` threaded calls of `step_fn`, after one blocking warm-up call."""
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
    jit_s = time_steps(jax.jit(train_step), params, optimizer.init(params), x, y, n_steps)
    return {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}
