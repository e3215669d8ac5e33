# BLIND-SET: 47
# EXERCISE: ex4
# WHAT: Timestamps are kept as 32-bit tick counters (perf_counter_ns() & 0xFFFFFFFF) and the elapsed time is the wrap-safe difference (t1 - t0) & 0xFFFFFFFF. That is right only below 2**32 ns = 4.295 s; any run that takes longer comes back modulo 4.295 s (e.g. a 5.0 s run reports about 0.705 s), so long eager runs (large n_steps, slow machines or slow step functions) get a far too small time and a wrong speedup.
# SHOULD-SAY: Times longer than about 4.3 s are wrong (they wrap around): the nanosecond timestamps are truncated to 32 bits, and 2**32 ns is only 4.295 s. Python ints do not overflow; keep the full perf_counter_ns() values (or use time.perf_counter()) and subtract them directly.
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

TICK_MASK = 0xFFFFFFFF  # 32-bit tick counter, wrap-safe subtraction below
NS_PER_S = 1_000_000_000


def _ticks_ns():
    return time.perf_counter_ns() & TICK_MASK


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Wall-clock seconds (float) for ``n_steps`` threaded calls of ``step_fn``.

    One warm-up call (compilation) runs before the clock starts; the clock
    stops only after the last results are ready.
    """
    params, opt_state, loss = jax.block_until_ready(step_fn(params, opt_state, x, y))
    t0 = _ticks_ns()
    for _ in range(n_steps):
        params, opt_state, loss = step_fn(params, opt_state, x, y)
    jax.block_until_ready((params, opt_state, loss))
    t1 = _ticks_ns()
    elapsed = (t1 - t0) & TICK_MASK  # correct across one counter wrap
    return elapsed / NS_PER_S


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
