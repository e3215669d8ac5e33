# BLIND-SET: 44
# EXERCISE: ex4
# WHAT: time_steps pre-builds the batches the loop will see, meaning to have an (n_steps, B, 784) stack, but uses jnp.stack([x] * n_steps, axis=1), which gives (B, n_steps, 784) (and (B, n_steps) for y). Iterating over it makes B calls instead of n_steps, each with a batch of n_steps copies of a single example. The call count is right only when B == n_steps, and a jitted step_fn recompiles inside the timed loop for the new batch shape.
# SHOULD-SAY: The timed loop runs the wrong number of steps on the wrong batches: stacking the copies along axis 1 puts the batch axis first, so the loop iterates over examples (B of them) and feeds (n_steps, 784) slices. Stack along axis 0 (or drop the stack and pass x, y unchanged to each of the n_steps calls).
"""Exercise 4: timing the training step with and without jax.jit (pre-stacked batches)."""

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
    params, opt_state, loss = jax.block_until_ready(step_fn(params, opt_state, x, y))  # warm-up
    xs = jnp.stack([x] * n_steps, axis=1)    # batches for the loop: (n_steps, B, 784)
    ys = jnp.stack([y] * n_steps, axis=1)    # (n_steps, B)
    jax.block_until_ready((xs, ys))
    start = time.perf_counter()
    for xb, yb in zip(xs, ys):
        params, opt_state, loss = step_fn(params, opt_state, xb, yb)
    jax.block_until_ready((params, opt_state, loss))
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
