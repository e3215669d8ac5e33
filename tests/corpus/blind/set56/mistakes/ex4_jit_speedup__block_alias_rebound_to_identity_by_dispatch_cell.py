# BLIND-SET: 56
# EXERCISE: ex4
# WHAT: time_steps waits through `block`, an alias for jax.block_until_ready made in an early cell; a later cell that measured dispatch time alone rebinds `block = lambda tree: tree`, and that later binding is the one time_steps calls. Neither the warm-up nor the final results are waited for (jax.block_until_ready is never called), so the clock stops while steps may still be running and the warm-up's compilation can spill into the timed region.
# SHOULD-SAY: time_steps never waits for the results: the `block` it calls was rebound further down the file to `lambda tree: tree` (your dispatch-time experiment), so jax.block_until_ready is never called and the clock stops before the asynchronous work finishes. Call jax.block_until_ready directly (and give the experiment's no-op another name).
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
block = jax.block_until_ready  # shorter to type


# --- cell: timing harness --------------------------------------------------------------------


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    params, opt_state, loss = block(step_fn(params, opt_state, x, y))  # warm-up / compile
    t0 = time.perf_counter()
    for _ in range(n_steps):
        params, opt_state, loss = step_fn(params, opt_state, x, y)
    block((params, opt_state, loss))
    return time.perf_counter() - t0


def jit_speedup(n_steps=100):
    eager_s = time_steps(train_step, params0, optimizer.init(params0), x_batch, y_batch, n_steps)
    jit_s = time_steps(jax.jit(train_step), params0, optimizer.init(params0), x_batch, y_batch, n_steps)
    print(f"eager {eager_s:.3f}s  jit {jit_s:.3f}s  -> {eager_s / jit_s:.1f}x")
    return {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}


# --- cell: how long does *dispatch* alone take? (don't wait for the device) ------------------
block = lambda tree: tree  # noqa: E731
_fast = jax.jit(train_step)
_t = time.perf_counter()
_out = block(_fast(params0, optimizer.init(params0), x_batch, y_batch))
print("dispatch only:", time.perf_counter() - _t)
