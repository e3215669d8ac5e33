# BLIND-SET: 59
# EXERCISE: ex4
# WHAT: time_steps reads the clock right after the loop of dispatches. Only then does it call jax.block_until_ready, so that it can read the final loss for a log line it prints. The warm-up is blocked, n_steps threaded calls are made, and the final block happens, but only after the clock has stopped. So work still running asynchronously is not timed. A jitted step with ~0.6 s of matmuls per 10 calls measured 0.0002 s (reference 0.6 s). The lesson's jitted step measured 0.0009 s for 20 steps (reference 0.035 s) and 0.13 s for 100 (reference 0.20 s). Eager timings are unaffected (within noise). jit_speedup returns positive floats with a consistent ratio, but the speedup is about 13 (reference about 9 to 11). The file also prints a line for each time_steps call and the result dict.
# SHOULD-SAY: The clock stops before the results are ready: jax.block_until_ready is called after time.perf_counter() is read. Because JAX dispatches asynchronously, you time only how long it takes to queue the steps, so the jit time is far too low. Block on the final (params, opt_state, loss) before you read the clock.
"""Exercise 4: how much does jax.jit buy?"""

import time

import jax
import jax.numpy as jnp
import optax

VERBOSE = True     # print a one-line summary of every timing run
_runs = []         # (n_steps, seconds, final loss) of every time_steps call

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
    # warm-up: compiles step_fn if it is jitted; wait so compilation is not timed
    params, opt_state, loss = jax.block_until_ready(step_fn(params, opt_state, x, y))
    start = time.perf_counter()
    for _ in range(n_steps):
        params, opt_state, loss = step_fn(params, opt_state, x, y)
    elapsed = time.perf_counter() - start
    # wait for the last step before reading the loss for the log line
    loss = jax.block_until_ready(loss)
    jax.block_until_ready((params, opt_state))
    _runs.append((n_steps, elapsed, float(loss)))
    if VERBOSE:
        print(f"time_steps: {n_steps} steps in {elapsed:.4f}s ({1e3 * elapsed / max(n_steps, 1):.3f} ms/step), loss {float(loss):.4f}")
    return elapsed


def jit_speedup(n_steps=100):
    """Time train_step eagerly and under jax.jit."""
    key = jax.random.PRNGKey(0)   # fixed: same data every run
    k_params, k_x, k_y = jax.random.split(key, 3)
    params = init_params(k_params)
    x = jax.random.normal(k_x, (128, 784))
    y = jax.random.randint(k_y, (128,), 0, 10)
    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps)
    jit_s = time_steps(jax.jit(train_step), params, optimizer.init(params), x, y, n_steps)
    result = {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}
    if VERBOSE:
        print(result)
    return result
