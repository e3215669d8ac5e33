# BLIND-SET: 56
# EXERCISE: ex4
# WHAT: Correct. The benchmark batch and params are notebook globals built at import with init_params and explicit keys; the jitted step is cached in a module-level dict; time_steps is a %timeit-like harness that warms up once (blocking), then counts down n_steps in a while loop threading a (params, opt_state) pair, blocks on the last (params, opt_state, loss) and reads time.perf_counter. An earlier draft of time_steps without the wait is redefined by the final one. Prints are left in.
# SHOULD-SAY: Nothing to fix: one blocking warm-up outside the clock, exactly n_steps threaded calls, jax.block_until_ready before the clock stops, and a dict with eager_s, jit_s and speedup = eager_s / jit_s.
"""Exercise 4: how much does jax.jit buy? (pasted from my Colab notebook)"""

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


# --- cell: data + params for the benchmark ------------------------------------------------
k_params, k_x, k_y = jax.random.split(jax.random.PRNGKey(0), 3)
params0 = init_params(k_params)
x_batch = jax.random.normal(k_x, (128, 784))
y_batch = jax.random.randint(k_y, (128,), 0, 10)
_JITTED = {}  # so re-running the cell doesn't re-wrap (and re-compile) the step


# --- cell: first try (forgot about async dispatch) -- replaced below -------------------------
def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    t = time.perf_counter()
    for _ in range(n_steps):
        params, opt_state, _ = step_fn(params, opt_state, x, y)
    return time.perf_counter() - t


# --- cell: %timeit-style harness, final ----------------------------------------------------


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    *state, loss = jax.block_until_ready(step_fn(params, opt_state, x, y))  # compile, not timed
    remaining = n_steps
    t_start = time.perf_counter()
    while remaining > 0:
        *state, loss = step_fn(state[0], state[1], x, y)
        remaining -= 1
    jax.block_until_ready((state, loss))
    elapsed = time.perf_counter() - t_start
    print(f"{n_steps} loops: {1e3 * elapsed / max(n_steps, 1):.3f} ms per loop")
    return elapsed


def jit_speedup(n_steps=100):
    if "train_step" not in _JITTED:
        _JITTED["train_step"] = jax.jit(train_step)
    eager_s = time_steps(train_step, params0, optimizer.init(params0), x_batch, y_batch, n_steps)
    jit_s = time_steps(_JITTED["train_step"], params0, optimizer.init(params0), x_batch, y_batch, n_steps)
    return {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}
