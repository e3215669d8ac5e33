# BLIND-SET: 52
# EXERCISE: ex4
# WHAT: time_steps runs the timed steps as itertools.accumulate(repeat(warm_state, n_steps), lambda prev, state: step_fn(*state, x, y), initial=warm); the step reads the repeated item instead of the running value, so every one of the n_steps calls is fed the warm-up's params and opt_state and nothing is threaded from one call to the next (the call count, warm-up and blocking are right).
# SHOULD-SAY: time_steps does not thread params and opt_state: each timed call gets the warm-up's output because the accumulate step uses its second argument (the repeated starting state) rather than its first (the previous result). Use the running value: lambda prev, _: step_fn(prev[0], prev[1], x, y).
"""Exercise 4: how much does jax.jit buy? (steps as an accumulate)"""

import time
from itertools import accumulate, repeat

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


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Seconds for n_steps calls of step_fn after one blocked warm-up call."""
    warm = jax.block_until_ready(step_fn(params, opt_state, x, y))
    start = time.perf_counter()
    *_, last = accumulate(repeat(warm[:2], n_steps), lambda prev, state: step_fn(*state, x, y), initial=warm)
    jax.block_until_ready(last)
    return time.perf_counter() - start


def jit_speedup(n_steps=100):
    """Time train_step eagerly and under jax.jit from fresh optimizer states."""
    kp, kx, ky = jax.random.split(jax.random.PRNGKey(0), 3)
    params = init_params(kp)
    x, y = jax.random.normal(kx, (128, 784)), jax.random.randint(ky, (128,), 0, 10)
    t = {
        name: time_steps(fn, params, optimizer.init(params), x, y, n_steps)
        for name, fn in (("eager_s", train_step), ("jit_s", jax.jit(train_step)))
    }
    return {**t, "speedup": t["eager_s"] / t["jit_s"]}

