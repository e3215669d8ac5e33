# BLIND-SET: 57
# EXERCISE: ex4
# WHAT: time_steps does the blocking warm-up call, then, to avoid a Python loop, builds run = jax.jit(lambda c: lax.fori_loop(0, n_steps, body, c)) with body calling step_fn, and times run(...) plus jax.block_until_ready. Three things follow from that one change: (1) the jit/XLA compilation of the fori_loop program happens inside the timed region (about 0.9 s here, more than the 100 steps themselves), (2) step_fn is called once, with tracers, instead of n_steps times after the warm-up (a counting step_fn sees 2 calls in all for n_steps = 5; a step that sleeps 0.02 s gives 0.065 s for n_steps = 10 instead of >= 0.2 s), and (3) the eager train_step is compiled too, so nothing is timed eagerly. jit_speedup(20) and jit_speedup(100) return eager_s ~ jit_s ~ 0.85 to 0.97 s and speedup 0.93 to 1.0 (reference: eager_s ~ 1.9 s, jit_s ~ 0.2 s, speedup ~ 9 on this 2-core CPU), so jit is not faster. The results are still awaited and params/state are threaded inside the loop; train_step is unchanged.
# SHOULD-SAY: time_steps must call step_fn n_steps times from Python, but you wrapped the loop in jax.jit(lax.fori_loop(...)): step_fn is only traced once, the compilation of that loop program is timed (the warm-up compiled step_fn, not the loop), and the eager step gets compiled as well, so the eager/jit comparison measures compile time and the speedup is about 1. Use a plain Python for loop over n_steps calls, threading params and opt_state, then jax.block_until_ready on the final results.
"""Exercise 4: how much does jax.jit buy? (tuned harness)"""

import time

import jax
import jax.numpy as jnp
import optax
from jax import lax

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


# --- My code ------------------------------------------------------------------


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Seconds for `n_steps` threaded calls of `step_fn`, after one blocking warm-up call."""
    params, opt_state, loss = jax.block_until_ready(step_fn(params, opt_state, x, y))

    def body(_, carry):
        p, s, _ = carry
        return step_fn(p, s, x, y)

    # No Python loop in the timed region: the n_steps threaded calls run as one
    # lax.fori_loop on device, so per-step dispatch overhead is gone.
    run = jax.jit(lambda carry: lax.fori_loop(0, n_steps, body, carry))
    start = time.perf_counter()
    out = run((params, opt_state, loss))
    jax.block_until_ready(out)
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
