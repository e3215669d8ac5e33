# BLIND-SET: 16
# EXERCISE: ex4
# WHAT: correct rewrite: time_steps uses timeit.default_timer, a while loop with a counter, and waits by calling .block_until_ready() on every leaf of the results via jax.tree.map; jit_speedup builds the jitted step with jax.jit applied inline and its own batch.
# SHOULD-SAY: everything is correct: one warm-up call is excluded from the timing, params and opt_state are threaded through exactly n_steps calls, the clock stops only after the results are ready, the seconds are a float, and jit_speedup returns eager_s, jit_s and speedup = eager_s / jit_s.
"""Exercise 4: timing the training step with and without jax.jit (timeit version)."""

import timeit

import jax
import jax.numpy as jnp
import optax


def init_params(key, sizes=(784, 256, 128, 10)):
    """He-initialised weights and zero biases for an MLP of the given widths."""
    keys = jax.random.split(key, len(sizes) - 1)
    params = {}
    for i in range(len(sizes) - 1):
        n_in, n_out = sizes[i], sizes[i + 1]
        params["layer%d" % (i + 1)] = {
            "w": jax.random.normal(keys[i], (n_in, n_out)) * (2.0 / n_in) ** 0.5,
            "b": jnp.zeros((n_out,)),
        }
    return params


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = x
    for name in ("layer1", "layer2"):
        h = jax.nn.relu(h @ params[name]["w"] + params[name]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes."""
    return optax.softmax_cross_entropy_with_integer_labels(forward(params, x), y).mean()


optimizer = optax.adam(1e-3)


def train_step(params, opt_state, x, y):
    """The lesson's training step, not yet jitted."""
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


def _wait(tree):
    jax.tree.map(lambda leaf: leaf.block_until_ready() if hasattr(leaf, "block_until_ready") else leaf, tree)
    return tree


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Seconds for `n_steps` calls of `step_fn`, after one warm-up call."""
    state = _wait(step_fn(params, opt_state, x, y))  # compile + first run, not timed
    params, opt_state = state[0], state[1]
    t0 = timeit.default_timer()
    done = 0
    while done < n_steps:
        state = step_fn(params, opt_state, x, y)
        params, opt_state = state[0], state[1]
        done += 1
    _wait(state)
    return float(timeit.default_timer() - t0)


def jit_speedup(n_steps=100):
    """Time the training step eagerly and jitted; report both and their ratio."""
    kp, kx, ky = jax.random.split(jax.random.PRNGKey(42), 3)
    params = init_params(kp)
    x = jax.random.normal(kx, (128, 784))
    y = jax.random.randint(ky, (128,), 0, 10)
    eager = time_steps(train_step, params, optimizer.init(params), x, y, n_steps=n_steps)
    jitted = time_steps(jax.jit(train_step), params, optimizer.init(params), x, y, n_steps=n_steps)
    return {"eager_s": eager, "jit_s": jitted, "speedup": eager / jitted}
