# BLIND-SET: 39
# EXERCISE: ex4
# WHAT: The warm-up in time_steps is jax.eval_shape(step_fn, params, opt_state, x, y), which only traces step_fn abstractly: nothing is compiled or run, so the first timed call of a jitted step pays for XLA compilation (jit_s and the speedup are distorted, most visibly for small n_steps), and the "warm-up call" hands step_fn abstract values rather than real arrays, so the state threaded into the timed loop starts from the unstepped params.
# SHOULD-SAY: Your warm-up does not warm anything up: jax.eval_shape only traces the function to get output shapes; it neither compiles nor executes it, so the jitted step is compiled inside your timed loop. Warm up with one real call, params, opt_state, loss = step_fn(params, opt_state, x, y), block on it, then start the clock.
"""Exercise 4: timing the training step; shapes are checked before the clock starts."""

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

# --- Your code ----------------------------------------------------------------


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Wall-clock seconds for ``n_steps`` training steps."""
    # Warm-up: trace the step once so the timed loop reuses the trace.
    out_shapes = jax.eval_shape(step_fn, params, opt_state, x, y)
    assert jax.tree_util.tree_structure(out_shapes[0]) == jax.tree_util.tree_structure(params)
    start = time.perf_counter()
    for _ in range(n_steps):
        params, opt_state, loss = step_fn(params, opt_state, x, y)
    jax.block_until_ready((params, opt_state, loss))
    return time.perf_counter() - start


def jit_speedup(n_steps=100):
    """Time ``train_step`` eagerly and under ``jax.jit``."""
    key_params, key_x, key_y = jax.random.split(jax.random.PRNGKey(0), 3)
    params = init_params(key_params)
    x = jax.random.normal(key_x, (128, 784))
    y = jax.random.randint(key_y, (128,), 0, 10)
    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps)
    jit_s = time_steps(jax.jit(train_step), params, optimizer.init(params), x, y, n_steps)
    return {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}
