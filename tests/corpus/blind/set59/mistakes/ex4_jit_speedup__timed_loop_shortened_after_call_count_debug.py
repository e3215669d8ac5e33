# BLIND-SET: 59
# EXERCISE: ex4
# WHAT: time_steps counts the blocked warm-up as one of the n_steps calls and times only range(n_steps - 1) calls. This was a 'fix' after a debug call counter showed n_steps + 1 calls in total. The warm-up is excluded from the clock, and the threading and the final block are right. But only n_steps - 1 calls are timed: n_steps = 1 times nothing (about 1e-5 s), 3 times 2 calls and 5 times 4. For n_steps = 100 the time is about 1% low, within timing noise (jit_speedup about 12 to 16, reference about 9.5 to 11.4).
# SHOULD-SAY: time_steps must time n_steps calls after the warm-up, but yours times only n_steps - 1, because the warm-up is counted as a timed step. With n_steps=1 nothing is timed at all. Make the warm-up call, then loop over range(n_steps) while the clock runs.
"""Exercise 4: how much does jax.jit buy?"""

import time

import jax
import jax.numpy as jnp
import optax

DEBUG = False
_step_calls = {"n": 0}   # how many times step_fn ran in the last time_steps call

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


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Wall-clock seconds for n_steps calls of step_fn, after one warm-up call."""
    _step_calls["n"] = 0

    def counted(*args):
        _step_calls["n"] += 1
        return step_fn(*args)

    # warm-up (compiles a jitted step_fn); it is the first of the n_steps calls
    params, opt_state, loss = jax.block_until_ready(counted(params, opt_state, x, y))
    start = time.perf_counter()
    # range(n_steps - 1): the counter said n_steps + 1 calls with range(n_steps)
    for i in range(n_steps - 1):
        params, opt_state, loss = counted(params, opt_state, x, y)
        if DEBUG and i % 10 == 0:
            print(f"step {i}: loss {float(loss):.4f}")
    jax.block_until_ready((params, opt_state, loss))
    elapsed = time.perf_counter() - start
    assert _step_calls["n"] == n_steps, _step_calls
    return elapsed


def jit_speedup(n_steps=100):
    """Time train_step eagerly and under jax.jit."""
    k_params, k_x, k_y = jax.random.split(jax.random.PRNGKey(42), 3)  # fixed for reproducibility
    params = init_params(k_params)
    x = jax.random.normal(k_x, (128, 784))
    y = jax.random.randint(k_y, (128,), 0, 10)
    t0 = time.perf_counter()
    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps)
    jit_s = time_steps(jax.jit(train_step), params, optimizer.init(params), x, y, n_steps)
    if DEBUG:
        print(f"eager {eager_s:.3f}s  jit {jit_s:.3f}s  (total incl. compile {time.perf_counter() - t0:.2f}s)")
    return {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}
