# BLIND-SET: 47
# EXERCISE: ex4
# WHAT: The guard meant to keep the elapsed time at least one nanosecond (so the speedup never divides by zero) is written min(elapsed_ns, MIN_ELAPSED_NS) instead of max, which caps every measurement at 1 ns: time_steps always returns 1e-09 s whatever it timed, jit_speedup reports eager_s = jit_s = 1e-09 and a speedup of exactly 1.0.
# SHOULD-SAY: time_steps returns 1e-09 s for every run, so the timings and the speedup (always 1.0) are meaningless. The lower clamp on the elapsed nanoseconds uses min where it needs max: max(elapsed_ns, 1) floors the value, min(elapsed_ns, 1) caps it; or drop the clamp, since a real run never takes 0 ns.
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

NS_PER_S = 1_000_000_000
MIN_ELAPSED_NS = 1  # never report 0 ns: speedup divides by jit time


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Wall-clock seconds (float) for ``n_steps`` threaded calls of ``step_fn``.

    One warm-up call (compilation) runs before the clock starts; the clock
    stops only after the last results are ready.
    """
    params, opt_state, loss = jax.block_until_ready(step_fn(params, opt_state, x, y))
    begin_ns = time.perf_counter_ns()
    for _ in range(n_steps):
        params, opt_state, loss = step_fn(params, opt_state, x, y)
    jax.block_until_ready((params, opt_state, loss))
    end_ns = time.perf_counter_ns()
    elapsed_ns = min(end_ns - begin_ns, MIN_ELAPSED_NS)
    return elapsed_ns / NS_PER_S


BATCH = 128
N_IN = 784
N_CLASSES = 10


def jit_speedup(n_steps=100):
    """Time ``train_step`` eagerly and under ``jax.jit`` (fresh optimizer state each)."""
    root = jax.random.PRNGKey(0)
    k_params = jax.random.fold_in(root, 0)
    k_x = jax.random.fold_in(root, 1)
    k_y = jax.random.fold_in(root, 2)
    params = init_params(k_params)
    x = jax.random.normal(k_x, (BATCH, N_IN), dtype=jnp.float32)
    y = jax.random.randint(k_y, (BATCH,), 0, N_CLASSES, dtype=jnp.int32)
    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps)
    jit_s = time_steps(jax.jit(train_step), params, optimizer.init(params), x, y, n_steps)
    return {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}
