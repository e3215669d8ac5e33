# BLIND-SET: correct
# EXERCISE: ex4
# WHAT: time_steps wraps the whole threaded n_steps loop, ending in jax.block_until_ready, in a closure and times it once with timeit.Timer(run).timeit(number=1) (perf_counter clock, gc paused); the warm-up call happens before, outside the timer.
# SHOULD-SAY: full marks
"""Exercise 4: timing the training step with and without jax.jit (timeit.Timer, one run)."""

import timeit

import jax
import jax.numpy as jnp
import optax


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


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Seconds for `n_steps` calls of `step_fn`, after one warm-up call."""
    warm = jax.block_until_ready(step_fn(params, opt_state, x, y))

    def run():
        p, s, loss = warm
        for _ in range(n_steps):
            p, s, loss = step_fn(p, s, x, y)
        jax.block_until_ready((p, s, loss))

    # timeit.Timer uses time.perf_counter; number=1 runs the n_steps loop exactly once.
    return float(timeit.Timer(run).timeit(number=1))


def jit_speedup(n_steps=100):
    """Time the training step eagerly and jitted; report both and their ratio."""
    keys = jax.random.split(jax.random.PRNGKey(7), 3)
    params = init_params(keys[0])
    x = jax.random.normal(keys[1], (128, 784))
    y = jax.random.randint(keys[2], (128,), 0, 10)
    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps)
    jit_s = time_steps(jax.jit(train_step), params, optimizer.init(params), x, y, n_steps)
    return {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}
