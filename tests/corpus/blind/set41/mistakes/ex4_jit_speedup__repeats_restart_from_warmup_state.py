# BLIND-SET: 41
# EXERCISE: ex4
# WHAT: time_steps splits the n_steps timed calls into 5 repeats of (nearly) equal size, so that the repeats are independent trials. Each repeat restarts from the params and opt_state of the warm-up call, and the clock runs over all of them (each repeat is blocked on before the next starts). step_fn is still called exactly n_steps times after the warm-up, but the chain of params/opt_state is broken at each repeat boundary: with n_steps = 10, the 3rd, 5th, 7th and 9th timed calls get the warm-up's state instead of the previous call's.
# SHOULD-SAY: The timed calls are not threaded: at every repeat boundary step_fn is fed the warm-up's params and opt_state again, not the ones returned by the previous call, so the optimizer state (Adam's count) restarts. The contract asks for n_steps calls that each take the previous call's outputs. Use one threaded loop, with no restarts, for the whole n_steps.
"""Exercise 4: how much does jax.jit buy? (timed as repeated independent trials)."""

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

N_REPEATS = 5


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Seconds for n_steps calls of step_fn after one warm-up, as N_REPEATS trials."""
    params0, state0, _ = jax.block_until_ready(step_fn(params, opt_state, x, y))
    sizes = [n_steps // N_REPEATS + (i < n_steps % N_REPEATS) for i in range(N_REPEATS)]
    start = time.perf_counter()
    for size in sizes:
        # Every trial starts from the same warmed-up point, so the trials are comparable.
        params, opt_state = params0, state0
        for _ in range(size):
            params, opt_state, loss = step_fn(params, opt_state, x, y)
        jax.block_until_ready((params, opt_state))
    return time.perf_counter() - start


def jit_speedup(n_steps=100):
    """Time train_step eagerly and under jax.jit."""
    key_params, key_x, key_y = jax.random.split(jax.random.PRNGKey(0), 3)
    params = init_params(key_params)
    x = jax.random.normal(key_x, (128, 784))
    y = jax.random.randint(key_y, (128,), 0, 10)
    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps)
    jit_s = time_steps(jax.jit(train_step), params, optimizer.init(params), x, y, n_steps)
    return {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}
