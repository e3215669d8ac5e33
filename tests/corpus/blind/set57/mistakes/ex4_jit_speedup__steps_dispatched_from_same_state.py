# BLIND-SET: 57
# EXERCISE: ex4
# WHAT: time_steps warms up (blocking) and then makes n_steps calls that all read the same post-warm-up (params, opt_state), collecting the outputs in a list and blocking on the whole list, so that no step waits on the previous one. The call count (n_steps after one warm-up), the warm-up block and the final block are right, but the state is not threaded: a counting step_fn (params += 1 per call) receives params 0, 1, 1, 1, 1, 1 instead of 0, 1, 2, 3, 4, 5, and the timed work is n_steps independent steps from one state rather than a training run (it also keeps n_steps copies of the outputs alive). Timings come out close to the reference's (jit_speedup(100): eager_s 2.2 s, jit_s 0.28 s, speedup ~ 6.4 to 7.9 vs ~ 8 to 9.8 for the reference on this machine); only a grader that checks what each call receives sees the difference. train_step is unchanged.
# SHOULD-SAY: Each timed call must be fed the params and opt_state returned by the previous call, but your loop passes the same (params, opt_state) to every step, so you time n_steps copies of one step instead of a training run. Thread the state: for _ in range(n_steps): params, opt_state, loss = step_fn(params, opt_state, x, y), then jax.block_until_ready((params, opt_state, loss)).
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


def train_step(params, opt_state, x, y):
    """The lesson's training step, not yet jitted."""
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


# --- My code ------------------------------------------------------------------


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Seconds for `n_steps` calls of `step_fn`, after one blocking warm-up call."""
    params, opt_state, _ = jax.block_until_ready(step_fn(params, opt_state, x, y))
    start = time.perf_counter()
    # Every call reads the same (params, opt_state): no data dependency between
    # steps, so dispatch never has to wait for the previous step's outputs.
    outs = [step_fn(params, opt_state, x, y) for _ in range(n_steps)]
    jax.block_until_ready(outs)
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
