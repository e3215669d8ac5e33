# BLIND-SET: 41
# EXERCISE: ex4
# WHAT: jit_speedup does not time the lesson's train_step. It times the student's own training step, which runs Adam written out from Kingma & Ba's Algorithm 1 (its own (t, m, v) state), eagerly and as jax.jit of that step. time_steps is right, but eager_s, jit_s and speedup measure a different function with a different state, so the figures are not the lesson's (the eager time in particular has many more small dispatched ops).
# SHOULD-SAY: jit_speedup must time the lesson's train_step and jax.jit(train_step), each from a fresh optimizer.init(params). Yours times a hand-written Algorithm-1 Adam step with its own state, so the reported times and speedup are for a different program. Pass train_step (and jax.jit(train_step)) and optimizer.init(params) to time_steps.
"""Exercise 4: how much does jax.jit buy? (benchmarked on Adam as written in the paper)."""

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


def train_step(params, opt_state, x, y):
    """The lesson's training step, not yet jitted."""
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss
# --- Your code ----------------------------------------------------------------

ALPHA, BETA1, BETA2, EPS = 1e-3, 0.9, 0.999, 1e-8  # Kingma & Ba's defaults


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Seconds for n_steps threaded calls of step_fn, after one warm-up call."""
    params, opt_state, loss = jax.block_until_ready(step_fn(params, opt_state, x, y))
    start = time.perf_counter()
    for _ in range(n_steps):
        params, opt_state, loss = step_fn(params, opt_state, x, y)
    jax.block_until_ready((params, opt_state, loss))
    return time.perf_counter() - start


def adam_init(params):
    """m_0 <- 0, v_0 <- 0, t <- 0 (Algorithm 1)."""
    zeros = jax.tree.map(jnp.zeros_like, params)
    return (jnp.zeros([], jnp.int32), zeros, zeros)


def algorithm1_step(params, state, x, y):
    """One iteration of Algorithm 1 on the lesson's loss."""
    t, m, v = state
    loss, g = jax.value_and_grad(loss_fn)(params, x, y)
    t = t + 1
    m = jax.tree.map(lambda m, g: BETA1 * m + (1 - BETA1) * g, m, g)
    v = jax.tree.map(lambda v, g: BETA2 * v + (1 - BETA2) * g * g, v, g)
    m_hat = jax.tree.map(lambda m: m / (1 - BETA1 ** t), m)
    v_hat = jax.tree.map(lambda v: v / (1 - BETA2 ** t), v)
    params = jax.tree.map(lambda p, mh, vh: p - ALPHA * mh / (jnp.sqrt(vh) + EPS), params, m_hat, v_hat)
    return params, (t, m, v), loss


def jit_speedup(n_steps=100):
    """Time the Adam training step eagerly and under jax.jit."""
    key_params, key_x, key_y = jax.random.split(jax.random.PRNGKey(0), 3)
    params = init_params(key_params)
    x = jax.random.normal(key_x, (128, 784))
    y = jax.random.randint(key_y, (128,), 0, 10)
    eager_s = time_steps(algorithm1_step, params, adam_init(params), x, y, n_steps)
    jit_s = time_steps(jax.jit(algorithm1_step), params, adam_init(params), x, y, n_steps)
    return {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}
