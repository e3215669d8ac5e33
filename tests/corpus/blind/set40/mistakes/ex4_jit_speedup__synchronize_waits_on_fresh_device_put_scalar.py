# BLIND-SET: 40
# EXERCISE: ex4
# WHAT: The synchronize() helper is written as a torch.cuda.synchronize()-style device barrier (the `torch.zeros(1, device='cuda').item()` trick): it ignores its arguments and calls jax.block_until_ready on a scalar freshly transferred with jax.device_put, assuming the transfer is queued behind the running computations. It is not: the transfer is ready at once, so neither the warm-up nor the timed steps are waited for, and the clock stops when the last step has been dispatched rather than finished (on CPU, 3 calls of a jitted step that takes ~0.2 s each are timed at ~0.0001 s, i.e. dispatch only, and the final outputs are still not ready when time_steps returns).
# SHOULD-SAY: The clock does not wait for the results: block_until_ready is called on a new scalar put on the device, not on the step outputs, and a host-to-device transfer does not wait for queued computations. Pass the final (params, opt_state, loss) to jax.block_until_ready before stopping the clock.
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
    """torch.cuda.synchronize(): a device-wide barrier.

    Same trick as ``torch.zeros(1, device="cuda").item()``: put a scalar on the
    device and wait for it; work is queued in order, so everything before it is
    done too.
    """
    device = jax.devices()[0]
    return jax.block_until_ready(jax.device_put(0.0, device))


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Wall-clock seconds for ``n_steps`` training steps."""
    # warm-up (compilation), then sync so it is not in the measurement
    params, opt_state, loss = step_fn(params, opt_state, x, y)
    synchronize(params, opt_state, loss)

    start = time.perf_counter()
    for step in range(n_steps):
        params, opt_state, loss = step_fn(params, opt_state, x, y)  # optimizer.step()
    synchronize(params, opt_state, loss)
    end = time.perf_counter()
    return end - start


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
