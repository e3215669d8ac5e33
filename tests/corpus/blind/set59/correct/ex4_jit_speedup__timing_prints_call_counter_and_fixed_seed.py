# BLIND-SET: 59
# EXERCISE: ex4
# WHAT: correct: time_steps times the warm-up separately and blocks on it. It then runs n_steps threaded calls with a call counter, blocks on the final (params, opt_state, loss) and only then reads the clock; it asserts the count and appends a record to a module list. jit_speedup uses a fixed SEED and prints a summary line with the warm-up times. The call/block sequence matches the reference's for n_steps = 1/3/5. Timings match the reference's within noise: on the jitted lesson step, interleaved, the median of 8 runs of 100 steps is 0.137 s against the reference's 0.138 s. Over six runs, jit_speedup(100) gives a speedup of 7.5 to 11.1 (reference 7.4 to 14.3 in the same runs; the machine is noisy).
# SHOULD-SAY: full marks
"""Exercise 4: how much does jax.jit buy?"""

import time

import jax
import jax.numpy as jnp
import optax

# jax.config.update("jax_log_compiles", True)   # shows when the jitted step compiles
# jax.config.update("jax_disable_jit", True)    # for stepping through with print()
VERBOSE = True
SEED = 0                 # fixed so every run times the same data
_history = []            # one dict per time_steps call: calls, seconds, warm-up seconds

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
    calls = 0
    t_warm = time.perf_counter()
    params, opt_state, loss = step_fn(params, opt_state, x, y)   # warm-up: compile here
    jax.block_until_ready((params, opt_state, loss))
    t_warm = time.perf_counter() - t_warm
    # print("warm-up loss", float(loss))
    start = time.perf_counter()
    for _ in range(n_steps):
        params, opt_state, loss = step_fn(params, opt_state, x, y)
        calls += 1
    jax.block_until_ready((params, opt_state, loss))
    elapsed = time.perf_counter() - start
    assert calls == n_steps, (calls, n_steps)
    _history.append({"calls": calls, "seconds": elapsed, "warmup_s": t_warm})
    return elapsed


def jit_speedup(n_steps=100):
    """Time train_step eagerly and under jax.jit."""
    k_params, k_x, k_y = jax.random.split(jax.random.PRNGKey(SEED), 3)
    params = init_params(k_params)
    x = jax.random.normal(k_x, (128, 784))
    y = jax.random.randint(k_y, (128,), 0, 10)
    assert x.shape == (128, 784) and y.shape == (128,), (x.shape, y.shape)
    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps)
    jit_s = time_steps(jax.jit(train_step), params, optimizer.init(params), x, y, n_steps)
    if VERBOSE:
        print(f"[jit_speedup] eager {eager_s:.3f}s ({_history[-2]['warmup_s']:.3f}s warm-up), "
              f"jit {jit_s:.3f}s ({_history[-1]['warmup_s']:.3f}s warm-up incl. compile), "
              f"speedup {eager_s / jit_s:.1f}x")
    return {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}
