# BLIND-SET: 59
# EXERCISE: ex4
# WHAT: jit_speedup runs both timings inside `with jax.disable_jit(DEBUG):`, which was there so that print() inside train_step would work while debugging. DEBUG, also used for a summary print, is left True. time_steps is right: it makes a warm-up call, threads n_steps calls and blocks at the end, and it matches the reference on the step functions it is given. But during the timing, jax.jit(train_step) runs op by op. eager_s is about 4.5 to 7.1 s and jit_s about 4.3 to 5.5 s, giving a speedup of 0.96 to 1.6 (reference about 10 to 12), so jit is not faster. The config is restored after the call, and the file prints one summary line.
# SHOULD-SAY: jit_speedup times with JIT turned off. Both measurements run inside jax.disable_jit(True) (your DEBUG flag), so jax.jit(train_step) runs eagerly and the 'speedup' is about 1. Remove the disable_jit block from the timing, or set DEBUG = False.
"""Exercise 4: how much does jax.jit buy?"""

import time

import jax
import jax.numpy as jnp
import optax

# jax.config.update("jax_log_compiles", True)
DEBUG = True   # verbose timing output

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
    params, opt_state, loss = step_fn(params, opt_state, x, y)   # warm-up / compile
    jax.block_until_ready((params, opt_state, loss))
    # losses = []
    start = time.perf_counter()
    for _ in range(n_steps):
        params, opt_state, loss = step_fn(params, opt_state, x, y)
        # losses.append(float(loss))   # syncs every step: keep out of the timing
    jax.block_until_ready((params, opt_state, loss))
    return time.perf_counter() - start


def jit_speedup(n_steps=100):
    """Time train_step eagerly and under jax.jit."""
    k_params, k_x, k_y = jax.random.split(jax.random.PRNGKey(0), 3)
    params = init_params(k_params)
    x = jax.random.normal(k_x, (128, 784))
    y = jax.random.randint(k_y, (128,), 0, 10)
    # op by op while debugging, so a print() inside train_step shows values
    with jax.disable_jit(DEBUG):
        eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps)
        jit_s = time_steps(jax.jit(train_step), params, optimizer.init(params), x, y, n_steps)
    if DEBUG:
        print(f"eager: {eager_s:.3f}s   jit: {jit_s:.3f}s   speedup: {eager_s / jit_s:.1f}x")
    return {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}
