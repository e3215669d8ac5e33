# BLIND-SET: 31
# EXERCISE: ex4
# WHAT: Correct rewrite: time_steps carries the whole (params, opt_state, loss) result and calls step_fn(*out[:2], x, y) in a loop over itertools.repeat(None, n_steps), waiting with jax.block_until_ready(out); jit_speedup times both steps in a dict comprehension keyed eager_s / jit_s and divides by name.
# SHOULD-SAY: Nothing to fix: one warm-up call outside the clock, n_steps threaded calls, a wait before the clock stops, and {"eager_s", "jit_s", "speedup" = eager_s / jit_s}.
"""Exercise 4 (reference): timing the training step with and without jax.jit."""

import itertools
import time

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
    out = jax.block_until_ready(tuple(step_fn(params, opt_state, x, y)))
    start = time.perf_counter()
    for _ in itertools.repeat(None, n_steps):
        out = tuple(step_fn(*out[:2], x, y))
    jax.block_until_ready(out)
    return time.perf_counter() - start


def jit_speedup(n_steps=100):
    """Time the training step eagerly and jitted; report both and their ratio."""
    key_params, key_x, key_y = jax.random.split(jax.random.PRNGKey(0), 3)
    params = init_params(key_params)
    x = jax.random.normal(key_x, (128, 784))
    y = jax.random.randint(key_y, (128,), 0, 10)
    times = {
        name: time_steps(fn, params, optimizer.init(params), x, y, n_steps)
        for name, fn in (("eager_s", train_step), ("jit_s", jax.jit(train_step)))
    }
    return {**times, "speedup": times["eager_s"] / times["jit_s"]}
