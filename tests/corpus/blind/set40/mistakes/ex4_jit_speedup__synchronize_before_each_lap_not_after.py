# BLIND-SET: 40
# EXERCISE: ex4
# WHAT: time_steps times each step as its own lap, torch-profiling style: it calls synchronize (jax.block_until_ready on the previous step's outputs) before starting each lap's perf_counter, but stops each lap right after step_fn returns, without waiting. Each lap therefore measures only the asynchronous dispatch of a step; the waiting for every step's results happens between laps, outside the summed time (the final synchronize is after the last lap too), so the reported seconds leave out the computation: far too small for a jitted step, and jit_speedup's jit_s and speedup are off accordingly.
# SHOULD-SAY: The timings exclude the actual computation: every lap stops the clock before the step's results are ready, and the waits happen between laps. Synchronize at the end of the timed region: start the clock once, run the n_steps calls, jax.block_until_ready the final params/opt_state/loss, then stop the clock.
"""Exercise 4: how much does jax.jit buy? (timed the way I'd time a torch model)"""

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


def synchronize(*tensors):
    """torch.cuda.synchronize(), except JAX wants to know what to wait for."""
    return jax.block_until_ready(tensors)


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Wall-clock seconds for ``n_steps`` training steps."""
    # warm-up (compilation)
    params, opt_state, loss = step_fn(params, opt_state, x, y)

    elapsed = 0.0
    for step in range(n_steps):
        synchronize(params, opt_state, loss)  # start every lap from an idle device
        t0 = time.perf_counter()
        params, opt_state, loss = step_fn(params, opt_state, x, y)  # optimizer.step()
        elapsed += time.perf_counter() - t0
    synchronize(params, opt_state, loss)
    return elapsed


def jit_speedup(n_steps=100):
    """Time ``train_step`` eagerly and under ``jax.jit``."""
    seed = 0  # torch.manual_seed(0)
    key = jax.random.PRNGKey(seed)
    key, k_params, k_x, k_y = jax.random.split(key, 4)
    params = init_params(k_params)
    x = jax.random.normal(k_x, (128, 784))  # torch.randn(128, 784)
    y = jax.random.randint(k_y, (128,), 0, 10)  # torch.randint(0, 10, (128,))

    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps)
    compiled_step = jax.jit(train_step)  # torch.compile(train_step)
    jit_s = time_steps(compiled_step, params, optimizer.init(params), x, y, n_steps)
    return {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}
