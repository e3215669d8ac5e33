# BLIND-SET: 46
# EXERCISE: ex4
# WHAT: time_steps times each of the n_steps calls as a blocked lap and discards the first n_steps // 10 laps as MCMC-style burn-in before summing, so for n_steps >= 10 the returned seconds cover only n_steps - n_steps // 10 of the calls (90 of 100 by default).
# SHOULD-SAY: the first tenth of the timed steps is dropped as "burn-in", so the result is the time of fewer than n_steps calls. The one warm-up call already excludes compilation; return the time of all n_steps calls after it.
"""Exercise 4: jit timing with burn-in, as for a Markov chain."""

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
    """Seconds for n_steps steps after warm-up, with the early laps as burn-in.

    The first call compiles; the first few timed laps still carry cache and
    allocator transients, so the first 10% are discarded before the laps are
    summed.
    """
    params, opt_state, loss = jax.block_until_ready(step_fn(params, opt_state, x, y))
    laps = []
    for _ in range(n_steps):
        t0 = time.perf_counter()
        params, opt_state, loss = jax.block_until_ready(step_fn(params, opt_state, x, y))
        laps.append(time.perf_counter() - t0)
    burn_in = n_steps // 10
    return float(sum(laps[burn_in:]))


def jit_speedup(n_steps=100):
    """Time the training step eagerly and jitted; report both and their ratio."""
    key_params, key_x, key_y = jax.random.split(jax.random.PRNGKey(0), 3)
    params = init_params(key_params)
    x = jax.random.normal(key_x, (128, 784))
    y = jax.random.randint(key_y, (128,), 0, 10)
    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps)
    jit_s = time_steps(jax.jit(train_step), params, optimizer.init(params), x, y, n_steps)
    return {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}
